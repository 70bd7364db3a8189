package dev.compoundbash.rules;

import dev.compoundbash.facts.ZshDifferences;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.shell.Parser;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conservative zsh guard (issue 19, deliverable 5): where Claude Code runs zsh, a command holding a form zsh
 * reads otherwise than bash ({@link ZshDifferences}) is not approved, and asks under a deny or ask rule; a command
 * without one is judged as under bash. Each form here was run in real zsh 5.9 with Claude Code's options and
 * differed from bash 5.2 (oracle.ClaudeShellReplicaTest runs such forms in the replica of Claude Code's shell;
 * docs/CLAUDE-CODE.md section S lists them).
 */
class ZshGuardTest {
    @TempDir
    static Path dir;
    static RuleEngine engine;

    @BeforeAll
    static void load() throws Exception {
        engine = RuleEngine.load(List.of());
        Files.writeString(dir.resolve("a.txt"), "a\n");
        Files.writeString(dir.resolve("b.txt"), "b\n");
    }

    static PermissionSettings rules(List<String> allow, List<String> deny) {
        return new PermissionSettings(allow, List.of(), deny, List.of(), List.of(), List.of());
    }

    static String decide(String command, String shell, PermissionSettings ps) {
        return Decider.decide(new Decider.Call(command, dir.toString(), null, ps, null, null, shell), engine)
                .outcome();
    }

    /** Commands whose meaning differs in zsh: approved under bash, not under zsh; asked under a deny rule. */
    @ParameterizedTest
    @ValueSource(strings = {
            "x='a.txt b.txt'; cat $x",
            "a=(a.txt b.txt); cat \"$a\"",
            "f=a.txt; cat $f",
            "echo 'a.txt\\n/etc/passwd' | xargs cat",
            "cat **/*.txt",
            "echo $\"HOME\"",
            "path=/nonexistent; ls",
    })
    void aFormZshReadsOtherwiseIsNotApproved(String command) throws Exception {
        assertThat(ZshDifferences.find(Parser.parse(command), command)).isNotEmpty();
        assertThat(decide(command, "zsh", rules(List.of(), List.of()))).isEqualTo("defer");
        assertThat(decide(command, "zsh", rules(List.of(), List.of("Bash(git push *)")))).isEqualTo("ask");
    }

    /** Everyday commands read alike in both shells keep their bash verdict under zsh. */
    @ParameterizedTest
    @ValueSource(strings = {
            "ls",
            "cat a.txt | wc -l",
            "git status",
            "grep -r pattern .",
            "echo \"$HOME\"",
            "for f in *.txt; do cat \"$f\"; done",
            "find . -name '*.txt'",
            "echo hello world",
            "cat <<EOF\n$HOME\nEOF",
            "echo $? $1",
            "git log --oneline -5 | head -3",
            "echo \"$(date)\"",
    })
    void aCommandReadAlikeKeepsItsVerdict(String command) throws Exception {
        assertThat(ZshDifferences.find(Parser.parse(command), command)).isEmpty();
        PermissionSettings none = rules(List.of(), List.of());
        assertThat(decide(command, "zsh", none)).isEqualTo(decide(command, "bash", none));
    }

    /** The forms found, each named by what zsh does. */
    @ParameterizedTest
    @ValueSource(strings = {
            "ls ~-", "ls ~foo/x", "echo a=~/x", "echo hi >! out", "> out", "< a.txt",
            "TRAPEXIT() { curl x; }; ls", "command_not_found_handler() { curl x; }; nosuch",
            "cd a b", "x=a; echo \"$x[1]\"", "f=a.txt; echo \"$f:r\"", "echo ${#x}", "echo ${x[1]}",
            "export NULLCMD=rm", "ls <1-3>.txt", "echo $+HOME",
    })
    void formsAreFound(String command) throws Exception {
        assertThat(ZshDifferences.find(Parser.parse(command), command)).as(command).isNotEmpty();
    }

    /**
     * zsh's own grammar, each form run in zsh 5.9 with Claude Code's setopts under bwrap with a logging git shim
     * (corpus-zsh3.jsonl): every one ran git push origin. Read as zsh, the deny rule denies; read as bash (where
     * each is a parse error or another command) nothing is denied by it.
     */
    @ParameterizedTest
    @ValueSource(strings = {
            "repeat 2 git push origin",
            "repeat 2 do git push origin; done",
            "repeat 2 { git push origin }",
            "foreach x (a b) git push origin; end",
            "for x (a b) git push origin",
            "for x in a; git push origin",
            "for x y (1 2 3 4) git push origin",
            "if [[ -n x ]] git push origin",
            "() { git push origin } a",
            "() { ls } $(git push origin)",
            "function { git push origin }",
            "f() git push origin; f",
            "{ ls } always { git push origin }",
            "git push origin &!",
            "cat =(git push origin)",
            "case a in (a) ls ;| (*) git push origin;; esac",
            "nocorrect git push origin",
            "- git push origin",
            "emulate sh -c 'git push origin'",
            "f() { git push origin; }; chpwd_functions=(f); cd .",
    })
    void zshGrammarHoldingADeniedCommandDenies(String command) throws Exception {
        PermissionSettings deny = rules(List.of("Bash(*)"), List.of("Bash(git push *)"));
        assertThat(decide(command, "zsh", deny)).as(command).isEqualTo("deny");
        assertThat(decide(command, "zsh", rules(List.of("Bash(*)"), List.of()))).as(command).isNotEqualTo("allow");
    }

    /** The zsh-only forms are listed, so nothing in them is approved; read as bash the list is empty. */
    @ParameterizedTest
    @ValueSource(strings = {"repeat 3 ls", "foreach x (a) ls; end", "for x (a) ls", "() { ls }", "ls &|",
            "cat =(ls)", "function { ls }", "{ ls } always { ls }"})
    void zshFormsAreListed(String command) throws Exception {
        assertThat(Parser.parse(command, true).zshForms()).as(command).isNotEmpty();
        assertThat(ZshDifferences.find(Parser.parse(command, true), command)).as(command).isNotEmpty();
        assertThat(decide(command, "zsh", rules(List.of("Bash(*)"), List.of("Bash(rm *)")))).as(command)
                .isEqualTo("ask");
    }

    /** Read as bash, the parser is unchanged: zsh's words are plain words there. */
    @ParameterizedTest
    @ValueSource(strings = {"repeat 3 ls", "echo }", "echo end", "noglob ls", "foreach x"})
    void bashReadingIsUnchanged(String command) {
        try {
            assertThat(Parser.parse(command, false).zshForms()).isEmpty();
        } catch (dev.compoundbash.shell.ParseException e) {
            throw new AssertionError(command, e);
        }
    }

    /**
     * zsh's set letters and the other state forms measured in zsh 5.9: set -y is SH_WORD_SPLIT, set -T CDABLE_VARS
     * (cd x went to /etc), set -A an array; cd +1 a directory-stack entry; the hook arrays and ARGV0.
     */
    @ParameterizedTest
    @ValueSource(strings = {"set -y; ls", "set -T; cd x", "set -f; ls", "set -o shwordsplit", "set -A a x",
            "read -A a", "cd +1", "popd -0", "chpwd_functions+=(g); cd .", "ARGV0=sh ls", "builtin \\setopt x",
            "zsh_directory_name() { ls; }", "r", "zparseopts -a o x"})
    void stateFormsAreFound(String command) throws Exception {
        assertThat(ZshDifferences.find(Parser.parse(command, true), command)).as(command).isNotEmpty();
    }

    /** set's letters that mean the same option in both shells keep the bash verdict. */
    @ParameterizedTest
    @ValueSource(strings = {"set -e", "set -euo pipefail", "set -x", "set +e", "set -o errexit", "set -- a b"})
    void sameSetOptionsAreNotDifferences(String command) throws Exception {
        assertThat(ZshDifferences.find(Parser.parse(command, true), command)).as(command).isEmpty();
    }

    /**
     * noglob runs the words after it unglobbed (zsh manual 6.2), which the hook reads exactly: a deny rule denies,
     * Bash(*) allows as it allows git push itself.
     */
    @org.junit.jupiter.api.Test
    void noglobIsReadAsTheCommandItRuns() {
        assertThat(decide("noglob git push origin", "zsh", rules(List.of("Bash(*)"), List.of("Bash(git push *)"))))
                .isEqualTo("deny");
        assertThat(decide("noglob git push origin", "zsh", rules(List.of("Bash(*)"), List.of()))).isEqualTo("allow");
        assertThat(decide("noglob git push origin", "zsh", rules(List.of(), List.of()))).isEqualTo("defer");
    }
}
