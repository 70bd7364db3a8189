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
            "timeout 10|<unreadable>",
            "timeout --bogus 10 ls|<unreadable>",
            "nice -n 5 make|make",
            "nice -n5 make|make",
            "nice -5 make|make",
            "nice --adjustment=3 make|make",
            "nice --adjustment 3 make|make",
            "nice make -j4|make -j4",
            "nice|<not a wrapper>",
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
                "xargs --replace=X rm X", "xargs -i rm {}")) {
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

    /** Splits on spaces; single quotes group a word (and are removed), as in a shell. */
    static List<String> words(String line) {
        List<String> out = new java.util.ArrayList<>();
        StringBuilder w = null;
        boolean quoted = false;
        for (char c : line.toCharArray()) {
            if (c == '\'') {
                quoted = !quoted;
                if (w == null) w = new StringBuilder();
            } else if (c == ' ' && !quoted) {
                if (w != null) out.add(w.toString());
                w = null;
            } else {
                if (w == null) w = new StringBuilder();
                w.append(c);
            }
        }
        if (w != null) out.add(w.toString());
        return out;
    }

    /**
     * What a wrapper runs, as one line: the payload words (or {@code script: TEXT}), its {@code [NAME=VALUE]}
     * assignments, {@code (privileged)}, {@code (needs own rule)} and each output file as {@code >FILE}; a candidate
     * payload of an uncertain reading is shown as {@code ?WORDS}, separated by spaces.
     */
    static String describe(String line) {
        List<String> a = words(line);
        WrapperGrammar.Unwrapped u = WrapperGrammar.unwrap(a);
        if (u == null) return "<not a wrapper>";
        StringBuilder out = new StringBuilder();
        if (u.payloads().isEmpty()) out.append("<none>");
        for (WrapperGrammar.Payload p : u.payloads()) {
            if (!p.readable()) {
                out.append("<unreadable>");
                continue;
            }
            if (p.candidate()) out.append(" ?");
            if (!p.assignments().isEmpty()) out.append(p.assignments()).append(' ');
            List<String> w = p.words() != null ? p.words() : a.subList(p.from(), p.to());
            out.append(p.form().equals(WrapperGrammar.SCRIPT) ? "script: " + w.get(0) : String.join(" ", w));
        }
        if (u.privileged()) out.append(" (privileged)");
        if (u.ownRuleRequired()) out.append(" (needs own rule)");
        for (WrapperGrammar.Output o : u.outputs()) out.append(" >").append(o.path(a));
        return out.toString();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', value = {
            // shells: bash(1) INVOCATION, dash(1), zsh(1)
            "bash -c 'rm -rf /'|script: rm -rf /",
            "sh -c 'a; b' name x y|script: a; b",
            "zsh -c ls|script: ls",
            "dash -ec 'set -x; ls'|script: set -x; ls",
            "ksh -c ls|script: ls",
            "bash -lc 'make test'|<unreadable>script: make test",
            "bash -e -u -x -c ls|script: ls",
            "bash -o pipefail -c ls|script: ls",
            "bash +o posix -c ls|script: ls",
            "bash -O extglob -c ls|script: ls",
            "bash --norc --noprofile -c ls|script: ls",
            "bash --rcfile /x/rc -c ls|<unreadable>script: ls",
            "bash -c -x ls|script: ls",
            "/bin/bash -c ls|script: ls",
            "bash -c|<unreadable>",
            "bash --frobnicate -c ls|<unreadable> ?script: ls",
            "bash -Z -c ls|<unreadable> ?script: ls",
            "bash script.sh|<not a wrapper>",
            "bash -x script.sh arg|<not a wrapper>",
            "bash|<not a wrapper>",
            // eval: bash(1) SHELL BUILTIN COMMANDS
            "eval 'rm -rf /'|script: rm -rf / (needs own rule)",
            "eval git status|script: git status (needs own rule)",
            "eval -- ls|script: ls (needs own rule)",
            "eval|<not a wrapper>",
            // env: GNU coreutils env(1)
            "env rm -rf /|rm -rf /",
            "env -i rm|rm",
            "env -i PATH=/bin LANG=C rm x|[PATH=/bin, LANG=C] rm x",
            "env -u HOME rm|rm",
            "env -uHOME rm|rm",
            "env --unset=HOME --chdir=/tmp rm|rm",
            "env -C /tmp rm|rm",
            "env -iu HOME rm|rm",
            "env -0v rm|rm",
            "env -- rm|rm",
            "env - rm|rm",
            "env -S 'rm -rf /'|rm -rf /",
            "env -S'rm -rf' /|rm -rf /",
            "env --split-string='-i FOO=1 rm x' y|[FOO=1] rm x y",
            "env -S 'a \"b c\" d\\_e'|a b c d e",
            "env -S-v -S x rm|x rm",
            "env -S 'a ${HOME}'|<unreadable> ?a ${HOME}",
            "env -S|<unreadable>",
            "env --frob rm|<unreadable> ?rm",
            "env -x rm|<unreadable> ?rm",
            "env|<not a wrapper>",
            "env FOO=1|<not a wrapper>",
            "env -i|<not a wrapper>",
            // command, builtin, exec: bash(1)
            "command rm -rf /|rm -rf /",
            "command -p rm|rm",
            "command -- rm|rm",
            "command -v rm|<not a wrapper>",
            "command -V rm|<not a wrapper>",
            "command -pv rm|<not a wrapper>",
            "command|<not a wrapper>",
            "builtin echo hi|echo hi (needs own rule)",
            "builtin|<not a wrapper>",
            "exec rm|rm (needs own rule)",
            "exec -a name -c -l rm x|rm x (needs own rule)",
            "exec -aname rm|rm (needs own rule)",
            "exec -cl -- rm|rm (needs own rule)",
            "exec|<not a wrapper>",
            "exec -q rm|<unreadable> ?rm (needs own rule)",
            "trap 'curl x' EXIT|script: curl x (needs own rule)",
            "trap -- 'rm -f /tmp/l' INT TERM|script: rm -f /tmp/l (needs own rule)",
            "trap - EXIT|<not a wrapper>",
            "trap '' INT|<not a wrapper>",
            "trap -l|<not a wrapper>",
            "alias ls='curl x'|script: curl x (needs own rule)",
            "alias -p|<not a wrapper>",
            "alias ll|<not a wrapper>",
            "trap EXIT|<not a wrapper>",
            // sudo(8), doas(1)
            "sudo rm -rf /|rm -rf / (privileged)",
            "sudo -u root -g wheel rm|rm (privileged)",
            "sudo -uroot rm|rm (privileged)",
            "sudo -h host -p prompt -C 3 -D /tmp -R /r -T 5 -U bob rm|rm (privileged)",
            "sudo -E -H -n -P -S -b rm|rm (privileged)",
            "sudo --user=root --chdir /tmp rm|rm (privileged)",
            "sudo -E FOO=1 BAR=2 rm|[FOO=1, BAR=2] rm (privileged)",
            "sudo -s rm|rm (privileged)",
            "sudo -s|<none> (privileged)",
            "sudo -i|<none> (privileged)",
            "sudo -u root -i|<none> (privileged)",
            "sudo -- rm|rm (privileged)",
            "sudo -l|<not a wrapper>",
            "sudo -v|<not a wrapper>",
            "sudo -k|<not a wrapper>",
            "sudo -e /etc/hosts|<not a wrapper>",
            "sudo --frob rm|<unreadable> ?rm (privileged)",
            "sudo -u|<unreadable> (privileged)",
            "doas rm|rm (privileged)",
            "doas -u root -n rm|rm (privileged)",
            "doas -a style rm|rm (privileged)",
            "doas -s|<none> (privileged)",
            "doas -C /etc/doas.conf|<not a wrapper>",
            "doas -L|<not a wrapper>",
            // ionice(1), chrt(1), taskset(1), setsid(1)
            "ionice -c 3 rm|rm",
            "ionice -c2 -n7 rm|rm",
            "ionice --class=idle -t rm|rm",
            "ionice -p 123|<not a wrapper>",
            "ionice -c 3 -p 123|<not a wrapper>",
            "ionice -u 1000|<not a wrapper>",
            "ionice -c|<unreadable>",
            "chrt -f 10 rm|rm",
            "chrt --rr 5 rm x|rm x",
            "chrt -o 0 rm|rm",
            "chrt -b rm|rm",
            "chrt -d -T 100 -P 200 -D 150 0 rm|rm",
            "chrt -p 123|<not a wrapper>",
            "chrt -f -p 10 123|<not a wrapper>",
            "chrt -m|<not a wrapper>",
            "chrt -Q 1 rm|<unreadable> ?1 rm ?rm",
            "taskset 0x3 rm|rm",
            "taskset -c 0,1 rm x|rm x",
            "taskset -a -c 0-3 rm|rm",
            "taskset -p 0x3 123|<not a wrapper>",
            "taskset -cp 0 123|<not a wrapper>",
            "taskset 0x3|<not a wrapper>",
            "setsid rm|rm",
            "setsid -f -w rm|rm",
            "setsid --ctty rm|rm",
            "setsid -x rm|<unreadable> ?rm",
            "setsid|<unreadable>",
            // flock(1), watch(1), unbuffer(1), caffeinate(8), script(1), time(1)
            "flock /tmp/l rm -rf /|rm -rf /",
            "flock -x -w 5 /tmp/l rm|rm",
            "flock -n -E 3 /tmp/l rm|rm",
            "flock --timeout=5 /tmp/l rm|rm",
            "flock /tmp/l -c 'rm -rf /'|script: rm -rf /",
            "flock -s /tmp/l --command 'a; b'|script: a; b",
            "flock /tmp/l -c|<unreadable>",
            "flock 9|<not a wrapper>",
            "flock -u 9|<not a wrapper>",
            "watch rm -rf /|script: rm -rf /",
            "watch -n 1 'a; b'|script: a; b",
            "watch -n1 -d -t git status|script: git status",
            "watch --interval=2 --no-title ls|script: ls",
            "watch -x rm -rf /|rm -rf /",
            "watch --exec -n 3 rm|rm",
            "watch|<unreadable>",
            "watch -y ls|<unreadable> ?ls",
            "unbuffer rm|rm",
            "unbuffer -p rm|rm",
            "unbuffer|<unreadable>",
            "caffeinate rm|rm",
            "caffeinate -dimsu rm|rm",
            "caffeinate -t 60 -w 123 rm|rm",
            "caffeinate -t 60|<not a wrapper>",
            "caffeinate -x rm|<unreadable> ?rm",
            "script -c 'rm -rf /'|script: rm -rf /",
            "script -q -c 'make test' /dev/null|script: make test >/dev/null",
            "script --command 'ls' log.txt|script: ls >log.txt",
            "script -a -T t.log -c ls out|script: ls >t.log >out",
            "script -q /dev/null rm -rf /|rm -rf / >/dev/null",
            "script out.txt|sh -i >out.txt",
            "script|sh -i",
            "script -Z -c ls|<unreadable> ?ls",
            "time rm|rm",
            "/usr/bin/time -o out.txt rm|rm >out.txt",
            "/usr/bin/time -oout.txt rm|rm >out.txt",
            "/usr/bin/time --output=/etc/x -a rm|rm >/etc/x",
            "/usr/bin/time -f %e -p -v rm|rm",
            "/usr/bin/time -l rm|rm",
            "/usr/bin/time|<unreadable>",
            "/usr/bin/time -o|<unreadable>",
            "/usr/bin/time -x rm|<unreadable> ?rm",
            "/usr/bin/time --out=o -- rm|rm >o",
            // GNU xargs: replace mode against -L/-l/-n in order; optional arguments only attached; slot variables
            "xargs --eof rm -rf x|rm -rf x",
            "xargs --eof=E rm|rm",
            "xargs -eE rm|rm",
            "xargs --max-lines rm x|rm x",
            "xargs -l2 rm|rm",
            "xargs --no-run rm|rm",
            "xargs --process-slot-var=PATH ls|[PATH=] ls",
            "xargs --process-slot-var A=B ls|<unreadable> ?A=B ls ?ls",
            "xargs --pro|<unreadable>",
            "xargs --help rm|<not a wrapper>",
            // util-linux: unshare, setpriv; coreutils chroot; su and runuser run a shell (or the command with -u)
            "unshare -r rm x|rm x",
            "unshare --mount-proc -f rm|rm",
            "unshare -R /new rm|rm (privileged)",
            "unshare|sh",
            "unshare -h|<not a wrapper>",
            "chroot / rm x|rm x (privileged)",
            "chroot --userspec=u:g /r rm|rm (privileged)",
            "chroot /r|sh -i (privileged)",
            "chroot|<unreadable> (privileged)",
            "setpriv --reuid=0 --init-groups rm x|rm x (privileged)",
            "setpriv --nnp rm|rm (privileged)",
            "setpriv --n rm|rm (privileged)",
            "setpriv -d|<not a wrapper>",
            "setpriv --r rm|<unreadable> ?rm (privileged)",
            "su root -c 'rm -rf x'|sh -c rm -rf x (privileged)",
            "su -c 'rm x' root|sh -c rm x (privileged)",
            "su - root -c ls|sh -l -c ls (privileged)",
            "su -s /bin/zsh -c ls bob|/bin/zsh -c ls (privileged)",
            "su root|sh (privileged)",
            "su root script.sh|<unreadable> ?script.sh (privileged)",
            "runuser -u bob -- rm x|rm x (privileged)",
            "runuser -u bob rm -rf x|<unreadable> ?x (privileged)",
            "runuser bob -c ls|sh -c ls (privileged)",
            "su -u bob ls|<unreadable> ?bob ls ?ls (privileged)",
            // bash builtins that evaluate code
            "mapfile -C 'rm -rf x' -c 1 arr|script: rm -rf x (needs own rule)",
            "readarray -tCcb a|script: cb (needs own rule)",
            "mapfile -t arr|<not a wrapper>",
            "compgen -C 'rm -rf x' w|script: rm -rf x (needs own rule)",
            "compgen -W '$(curl x)' w|script: : $(curl x) (needs own rule)",
            "compgen -F f w|<unreadable> (needs own rule)",
            "compgen -c ls|<not a wrapper>",
            // shells that run a file before their script
            "bash -i -c ls|<unreadable>script: ls",
            "bash -login -c ls|<unreadable>script: ls",
            "bash --init-file f -c ls|<unreadable>script: ls",
            "bash +i -c ls|script: ls",
            "bash -norc -c ls|script: ls",
            "bash -o errexit -o nounset -c ls|script: ls",
            "bash -oo errexit nounset -c ls|script: ls",
            "bash -l|<unreadable>",
            // find's expression grammar
            "find x -name -fprintf -o -exec rm {} ;|rm {}",
            "find x -newermm f -exec rm {} ;|rm {}",
            "find x -exec rm {} + -exec ls ;|rm {}ls",
            "find x -ok rm {} +|<unreadable> ?rm {} + ?{} + ?+",
            "find x -exec rm x{} +|<unreadable> ?rm x{} + ?x{} + ?+",
            "find x -execdir {} ;|<unreadable> ?{}",
            "find x -help -exec rm {} ;|<not a wrapper>",
            "find -L -D tree x -exec rm {} ;|rm {}",
    })
    void moreWrappers(String line, String expected) {
        assertThat(describe(line)).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "command -v git|true",
            "command -V git ls|true",
            "command -pv git|true",
            "command git|false",
            "command -p git|false",
            "type git|false",
            "command -x git|false",
    })
    void commandLookup(String line, boolean expected) {
        assertThat(WrapperGrammar.isLookup(argv(line))).isEqualTo(expected);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', value = {
            "a b  c|[a, b, c]",
            "'a b' c|[a b, c]",
            "\"a b\" c|[a b, c]",
            "a\\_b|[a, b]",
            "a\\tb|[a\tb]",
            "'x\"y'|[x\"y]",
            "\"x'y\"|[x'y]",
            "''|[]",
            "|[]",
    })
    void envSplitString(String s, String expected) {
        assertThat(String.valueOf(WrapperGrammar.splitString(s == null ? "" : s))).isEqualTo(expected);
    }

    @Test
    void envSplitStringRefusesWhatItDoesNotFollow() {
        for (String s : List.of("a ${X}", "a $X", "'open", "\"open", "a\\")) {
            assertThat(WrapperGrammar.splitString(s)).as(s).isNull();
        }
    }

    @Test
    void startUpFilesInTheEnvironmentMakeAShellUnreadable() {
        for (String e : List.of("BASH_ENV=/tmp/x", "ENV=/tmp/x")) {
            WrapperGrammar.Unwrapped u = WrapperGrammar.unwrap(words("bash -c ls"), List.of(e));
            assertThat(u.payloads()).as(e).anyMatch(p -> !p.readable());
            assertThat(u.payloads()).as(e).anyMatch(p -> p.readable() && p.form().equals(WrapperGrammar.SCRIPT));
        }
        assertThat(WrapperGrammar.unwrap(words("bash -c ls"), List.of("LANG=C")).uncertain()).isFalse();
        WrapperGrammar.Unwrapped stdin = WrapperGrammar.unwrap(words("bash -l"), List.of());
        assertThat(stdin.readsStandardInput()).isTrue();
    }

    @Test
    void aFindPayloadWordOnlyKnownAtRunTimeEndsItOnlyWhereTheRestStillParses() throws Exception {
        // "$p" may be ";", but then {} would be a path after the expression: find would die, so that reading
        // runs nothing and the payload is read as written
        for (String certain : List.of("find . -exec grep -l \"$p\" {} \\;", "find . -exec grep \"$p\" {} +")) {
            WrapperGrammar.Unwrapped u = WrapperGrammar.unwrap(args(certain));
            assertThat(u.uncertain()).as(certain).isFalse();
        }
        // here it would end the payload and a second -exec would run rm
        String forked = "find . -exec echo \"$p\" -exec rm -rf x \\;";
        assertThat(WrapperGrammar.unwrap(args(forked)).uncertain()).isTrue();
    }

    /** The words of a command as the hook types them. */
    static List<Arg> args(String command) throws Exception {
        var facts = FactExtractor.extract(dev.compoundbash.shell.Parser.parse(command),
                new Environment(java.nio.file.Path.of("/work"), List.of(), "Linux", null));
        return facts.subCommands().get(0).getArgs();
    }

    @Test
    void xargsReplaceModeFollowsTheOrderOfOptions() {
        // findutils xargs.c: -L and -l turn -I off; -n N>1 turns it off, -n1 after it is ignored
        assertThat(WrapperGrammar.unwrap(argv("xargs -I{} -L1 rm {}")).replaceMode()).isFalse();
        assertThat(WrapperGrammar.unwrap(argv("xargs -I{} -n1 rm {}")).replaceMode()).isTrue();
        assertThat(WrapperGrammar.unwrap(argv("xargs -I{} -n2 rm {}")).replaceMode()).isFalse();
        assertThat(WrapperGrammar.unwrap(argv("xargs -L1 -I{} rm {}")).replaceMode()).isTrue();
        assertThat(WrapperGrammar.unwrap(argv("xargs -i -l rm {}")).appendsArguments()).isTrue();
        // BSD xargs -J inserts the arguments where its word stands
        WrapperGrammar.Unwrapped j = WrapperGrammar.unwrap(argv("xargs -J % cp % dest"));
        assertThat(j.appendsArguments()).isTrue();
        assertThat(j.replaceString()).isEqualTo("%");
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "find x -execdir rm {} ;|true", "find x -okdir rm {} ;|true", "find x -exec rm {} ;|false",
            "unshare -w /tmp rm|true", "unshare rm|false", "chroot / rm|true", "su - root -c ls|true",
            "su root -c ls|false",
            "env -C /tmp rm|true", "env --chdir=/tmp rm|true", "env -iC /tmp rm|true", "env -S '-C /tmp rm'|true",
            "env -u X rm|false", "sudo -D /tmp rm|true", "sudo --chdir=/tmp rm|true", "sudo -i rm|true",
            "sudo -u bob rm|false", "timeout 5 rm|false",
    })
    void wrappersThatChangeDirectory(String line, boolean expected) {
        assertThat(WrapperGrammar.unwrap(words(line)).changesDirectory()).isEqualTo(expected);
    }
}
