package dev.compoundbash.cli;

import dev.compoundbash.daemon.Protocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * README's first command, {@code HOME=examples/home bin/compound-bash hook < examples/inputs/allow-compound.json}:
 * it allows, and what the hook leaves under that home (the evaluator's runtime directory, the class-data cache, the
 * logs) never shows in {@code git status} of the checkout (issue 20, a new user's trial). Runs the launcher with
 * the test class path ({@code COMPOUND_BASH_CLASSPATH}) and a stand-in jar, without {@code XDG_RUNTIME_DIR} (the
 * runtime directory then goes under the home too, the case that writes most).
 */
class QuickStartTest {
    static final Path RUN = Path.of("examples/home/.claude/compound-bash/run").toAbsolutePath();

    @TempDir
    Path tmp;

    @AfterEach
    void stopEvaluator() throws Exception {
        Protocol.stop(RUN, 10_000);
    }

    static String git(String... args) throws Exception {
        String[] cmd = new String[args.length + 1];
        cmd[0] = "git";
        System.arraycopy(args, 0, cmd, 1, args.length);
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return p.waitFor() == 0 ? out : null;
    }

    @Test
    void theFirstCommandAllowsAndLeavesGitStatusClean() throws Exception {
        assumeThat(git("rev-parse", "--is-inside-work-tree")).as("a git checkout").isNotNull();
        String before = git("status", "--porcelain", "--untracked-files=all", "--", "examples");
        Path jar = Files.writeString(tmp.resolve("stand-in.jar"), "version 1");
        ProcessBuilder pb = new ProcessBuilder("sh", "bin/compound-bash", "hook")
                .redirectInput(new File("examples/inputs/allow-compound.json"));
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_BASH_") || k.equals("XDG_RUNTIME_DIR"));
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", "examples/home");
        env.put("COMPOUND_BASH_JAR", jar.toString());
        env.put("COMPOUND_BASH_CLASSPATH", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")));
        env.put("COMPOUND_BASH_IDLE_MINUTES", "1");
        Path err = tmp.resolve("err");
        Process p = pb.redirectError(err.toFile()).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(out).as(Files.readString(err)).contains("\"permissionDecision\":\"allow\"");
        // the evaluator the call started writes its files too: wait until it is up
        long until = System.currentTimeMillis() + 60_000;
        while (Protocol.running(RUN).isEmpty() && System.currentTimeMillis() < until) Thread.sleep(100);
        assertThat(Path.of("examples/home/.claude/logs")).isDirectory();
        assertThat(git("status", "--porcelain", "--untracked-files=all", "--", "examples")).isEqualTo(before);
    }
}
