package dev.compoundbash.oracle;

import dev.compoundbash.facts.ZshDifferences;
import dev.compoundbash.shell.Parser;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The replica of Claude Code's shell holds what was measured in Claude Code 2.1.332 (docs/CLAUDE-CODE.md section
 * S), and the zsh guard's forms are measured in it: each command of {@link #zshReadsOtherwise} prints something else
 * in the zsh replica than in the bash one, and {@link ZshDifferences} names a form in it; each command of
 * {@link #zshReadsAlike} prints the same in both, and {@link ZshDifferences} names none. The commands print their
 * words ({@code printf '<%s>'}) or read files of a scratch directory; they run outside a sandbox, harmlessly.
 */
class ClaudeShellReplicaTest {
    @TempDir
    static Path dir;
    static ClaudeShellReplica bash, zsh, unusual;
    static Path work;

    @BeforeAll
    static void replicas() throws IOException {
        Assumptions.assumeTrue(ClaudeShellReplica.available("bash"), "no bash");
        bash = ClaudeShellReplica.create("bash", ClaudeShellReplica.UserConfig.REPRESENTATIVE, dir);
        unusual = ClaudeShellReplica.create("bash", ClaudeShellReplica.UserConfig.UNUSUAL, dir);
        if (ClaudeShellReplica.available("zsh")) {
            zsh = ClaudeShellReplica.create("zsh", ClaudeShellReplica.UserConfig.REPRESENTATIVE, dir);
        }
        work = Files.createDirectories(dir.resolve("work"));
        Files.writeString(work.resolve("a.txt"), "A\n");
        Files.writeString(work.resolve("b.txt"), "B\n");
        Files.createDirectories(work.resolve("sub"));
        Files.writeString(work.resolve("sub/c.txt"), "C\n");
    }

    /** Runs {@code command} the way Claude Code runs it in {@code replica}; returns stdout and stderr. */
    static String run(ClaudeShellReplica replica, String command) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(replica.program().toString(), "-c",
                replica.script(command, dir.resolve("cwd-" + replica.shell()).toString()))
                .directory(work.toFile()).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(Map.of("HOME", dir.toString(), "PATH", "/usr/local/bin:/usr/bin:/bin",
                "LANG", "C.UTF-8", "TMPPREFIX", dir.resolve("zsh").toString()));
        Process p = pb.start();
        p.getOutputStream().close();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
        return out.replace(replica.program().toString(), "SHELL").replace("(eval)", "SHELL");
    }

    @Test
    void theReplicaHoldsWhatClaudeCodeSets() throws Exception {
        // the snapshot turns expand_aliases on, the call line extglob off, stdin is /dev/null, set -o monitor
        assertThat(run(bash, "shopt -q expand_aliases && echo aliases; shopt -q extglob || echo no-extglob; "
                + "echo $-; readlink /proc/self/fd/0")).contains("aliases", "no-extglob", "hmBc", "/dev/null");
        // the user's options reach the command: cdable_vars, dotglob, noclobber, an alias, a function
        assertThat(run(unusual, "shopt -q cdable_vars && echo cdable; shopt -q dotglob && echo dotglob; "
                + "[[ -o noclobber ]] && echo noclobber; type ll gs | head -2")).contains("cdable", "dotglob",
                "noclobber", "ll is aliased to", "gs is a function");
        // an alias defined on one line applies to the next one, not to the same line
        assertThat(run(bash, "alias e=echo; e SAME 2>/dev/null\ne NEXT")).isEqualTo("NEXT\n");
        // find and grep are Claude Code's functions (bfs and ugrep where installed)
        assertThat(run(bash, "type -t find grep")).isEqualTo("function\nfunction\n");
    }

    @Test
    void theZshReplicaHoldsClaudeCodesOptions() throws Exception {
        Assumptions.assumeTrue(zsh != null, "zsh is not installed");
        String out = run(zsh, "for o in equals bareglobqual extendedglob braceccl magicequalsubst rcquotes; do "
                + "[[ -o $o ]] && echo \"on $o\"; done; echo done; readlink /proc/self/fd/0");
        assertThat(out).isEqualTo("done\n/dev/null\n");
        // an alias defined in the call does not apply, even on a later line (zsh's eval parses the whole text)
        assertThat(run(zsh, "alias e=echo\ne NEXT 2>&1")).doesNotContain("NEXT\n");
    }

    /** Forms zsh reads otherwise: the output differs, and the guard names them. */
    @ParameterizedTest
    @ValueSource(strings = {
            "x='a b'; printf '<%s>' $x",
            "a=(a b); printf '<%s>' \"$a\"",
            "a=(x y); printf '<%s>' ${#a}",
            "a=(x y); printf '<%s>' \"${a[1]}\"",
            "x=abc; printf '<%s>' \"$x[1]\"",
            "f=a.txt; printf '<%s>' \"$f:r\"",
            "printf '<%s>' **/*.txt",
            "echo 'a\\nb' | xargs printf '<%s>'",
            "printf '<%s>' $\"HOME\"",
            "printf '<%s>' {,y}",
            "cat 0<<< one <<< two",
            "printf '<%s>' a=~/x",
            "TRAPEXIT() { echo trap; }; true",
            "command_not_found_handler() { echo handled; }; nosuchprogram",
            "path=(/nonexistent); ls >/dev/null 2>&1; echo $?",
            "NULLCMD=echo; > out.txt; cat out.txt; rm -f out.txt",
            "echo hi >! clobbered.txt; ls clobbered.txt; rm -f clobbered.txt '!'",
    })
    void zshReadsOtherwise(String command) throws Exception {
        Assumptions.assumeTrue(zsh != null, "zsh is not installed");
        assertThat(run(zsh, command)).as(command).isNotEqualTo(run(bash, command));
        assertThat(ZshDifferences.find(Parser.parse(command), command)).as(command).isNotEmpty();
    }

    /** Everyday forms: the output is the same in both shells, and the guard names nothing. */
    @ParameterizedTest
    @ValueSource(strings = {
            "printf '<%s>' a b \"c d\"",
            "for f in *.txt; do printf '<%s>' \"$f\"; done",
            "printf '<%s>' \"$(printf hi)\"",
            "x='a b'; printf '<%s>' \"$x\"",
            "printf '<%s>' *.txt sub/*.txt",
            "echo hello world",
            "printf '<%s>' ~/x",
            "cat a.txt b.txt | wc -l",
            "printf '<%s>' 'it''s'",
            "printf '<%s>' {a-c}",
            "printf '<%s>' =ls",
            "echo \"$((1 + 2))\"",
            "cat <<'EOF'\n$HOME\nEOF",
            "test -f a.txt && echo yes || echo no",
            "[[ -n x ]] && echo yes",
            "grep -c A a.txt",
            "printf '<%s>' \"$HOME\"",
    })
    void zshReadsAlike(String command) throws Exception {
        Assumptions.assumeTrue(zsh != null, "zsh is not installed");
        assertThat(run(zsh, command)).as(command).isEqualTo(run(bash, command));
        assertThat(ZshDifferences.find(Parser.parse(command), command)).as(command).isEmpty();
    }
}
