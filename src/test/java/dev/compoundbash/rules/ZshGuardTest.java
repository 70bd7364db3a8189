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
}
