package dev.compoundbash.facts;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Option grammars of each wrapper: where the payload starts and what the options mean. */
class WrapperGrammarTest {

    static List<String> argv(String line) {
        return Arrays.asList(line.split(" "));
    }

    static String payload(String line) {
        WrapperGrammar.Unwrapped u = WrapperGrammar.unwrap(argv(line));
        if (u == null) return "<not a wrapper>";
        if (u.payloads().isEmpty()) return u.implicitPayload().isEmpty() ? "<none>" : "implicit " + u.implicitPayload();
        WrapperGrammar.Payload p = u.payloads().get(0);
        if (!p.readable()) return "<unreadable>";
        return String.join(" ", argv(line).subList(p.from(), p.to()));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "xargs grep -l Foo|grep -l Foo",
            "xargs -n1 grep -l Foo|grep -l Foo",
            "xargs -n 1 grep x|grep x",
            "xargs -0 rm|rm",
            "xargs -rt rm -f|rm -f",
            "xargs -0rn1 rm|rm",
            "xargs -I{} rm {}|rm {}",
            "xargs -I {} mv {} {}.bak|mv {} {}.bak",
            "xargs --max-args=1 echo|echo",
            "xargs --max-args 1 echo|echo",
            "xargs -P 4 -L 2 gzip|gzip",
            "xargs -d \\n -a list.txt wc|wc",
            "xargs -E END -s 100 cat|cat",
            "xargs -i rm {}|rm {}",
            "xargs --null --no-run-if-empty rm|rm",
            "xargs -- -weird|-weird",
            "xargs --process-slot-var=N sh|sh",
            "xargs -J % cp % dest|cp % dest",
            "xargs -R 2 -I @ echo @|echo @",
            "xargs --frobnicate rm|<unreadable>",
            "xargs -Z rm|<unreadable>",
            "xargs|implicit [echo]",
            "xargs -0|implicit [echo]",
            "timeout 30 npm test|npm test",
            "timeout -s KILL 10 make test|make test",
            "timeout --signal=TERM -k 5 10 make|make",
            "timeout --kill-after 5 --foreground 10s sleep 1|sleep 1",
            "timeout -sKILL 1 ls|ls",
            "timeout 10|<none>",
            "timeout --bogus 10 ls|<unreadable>",
            "nice -n 5 make|make",
            "nice -n5 make|make",
            "nice -5 make|make",
            "nice --adjustment=3 make|make",
            "nice --adjustment 3 make|make",
            "nice make -j4|make -j4",
            "nice|<none>",
            "nohup ./server --port 1|./server --port 1",
            "nohup -- make|make",
            "stdbuf -oL tail -f log|tail -f log",
            "stdbuf -o L -e 0 grep x|grep x",
            "stdbuf --output=L grep x|grep x",
            "stdbuf --input 0 cat|cat",
            "/usr/bin/timeout 5 ls|ls",
            "ls -la|<not a wrapper>",
            "find . -name x|<not a wrapper>",
    })
    void payloadStartsWhereTheGrammarSays(String line, String expected) {
        assertThat(payload(line)).isEqualTo(expected);
    }

    @Test
    void xargsModes() {
        WrapperGrammar.Unwrapped plain = WrapperGrammar.unwrap(argv("xargs rm"));
        assertThat(plain.appendsArguments()).isTrue();
        assertThat(plain.replaceMode()).isFalse();
        for (String line : List.of("xargs -I{} rm {}", "xargs -I {} rm {}", "xargs --replace rm {}",
                "xargs --replace=X rm X", "xargs -i rm {}", "xargs -J % rm %")) {
            WrapperGrammar.Unwrapped u = WrapperGrammar.unwrap(argv(line));
            assertThat(u.replaceMode()).as(line).isTrue();
            assertThat(u.appendsArguments()).as(line).isFalse();
        }
    }

    @Test
    void findExecPayloadsEndAtSemicolonOrBracesPlus() {
        List<String> a = argv("find . -name *.go -exec grep -l Foo {} ; -execdir wc -l {} +");
        WrapperGrammar.Unwrapped u = WrapperGrammar.unwrap(a);
        assertThat(u.payloads()).hasSize(2);
        assertThat(a.subList(u.payloads().get(0).from(), u.payloads().get(0).to())).containsExactly("grep", "-l", "Foo", "{}");
        assertThat(a.subList(u.payloads().get(1).from(), u.payloads().get(1).to())).containsExactly("wc", "-l", "{}");
    }

    @Test
    void plusNotAfterBracesIsAnArgument() {
        List<String> a = argv("find . -exec echo + {} ;");
        WrapperGrammar.Unwrapped u = WrapperGrammar.unwrap(a);
        assertThat(a.subList(u.payloads().get(0).from(), u.payloads().get(0).to())).containsExactly("echo", "+", "{}");
    }

    @Test
    void tokensInsideAPayloadAreNotFindPrimaries() {
        List<String> a = argv("find . -exec echo -delete ;");
        assertThat(WrapperGrammar.findActions(a)).extracting(WrapperGrammar.Action::primary).containsExactly("-exec");
    }

    @Test
    void findMutatingActions() {
        List<String> a = argv("find . -name x -fprintf out.txt %p -delete -fls list -ok rm {} ;");
        assertThat(WrapperGrammar.findActions(a)).extracting(WrapperGrammar.Action::primary)
                .containsExactly("-fprintf", "-delete", "-fls", "-ok");
        assertThat(WrapperGrammar.findActions(a)).allMatch(WrapperGrammar.Action::mutating);
        assertThat(WrapperGrammar.unwrap(argv("find . -delete"))).isNull();
    }

    @Test
    void findPayloadThatCannotBeRead() {
        assertThat(WrapperGrammar.unwrap(argv("find . -exec")).payloads().get(0).readable()).isFalse();
        assertThat(WrapperGrammar.unwrap(argv("find . -exec ;")).payloads().get(0).readable()).isFalse();
        assertThat(WrapperGrammar.unwrap(argv("find . -exec rm {}")).payloads().get(0).readable()).isFalse();
    }
}
