package dev.compoundbash.daemon;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

/**
 * Issue 20 (a new user's trial): {@code install} trains the start-up (class-data) archive once, in the foreground,
 * and says so on stderr ("training the start-up archive... done in N s"); a second caller (another {@code warm
 * --wait}, the first hook call's background start) starts no second training but waits for the running one or gives
 * up; the training runs at the user's priority when stderr is a terminal and at nice 10 otherwise.
 *
 * <p>The JDK is a stand-in ({@code JAVA_HOME}, a {@code release} file saying 17): its {@code java} records each
 * training run (the one with {@code -XX:ArchiveClassesAtExit}) with its niceness, takes two seconds and writes the
 * archive; every other run is the real JVM with the test class path ({@code dev.compoundbash.cli.Main}), so
 * {@code install} edits the settings and the evaluator really starts.
 */
class ArchiveTrainingTest {
    @TempDir
    Path tmp;
    Path runtime;
    Path home;
    Path jdk;
    Path log;
    Path jar;

    @BeforeEach
    void setUp() throws IOException {
        runtime = tmp.resolve("xdg");
        Files.createDirectories(runtime);
        Files.setPosixFilePermissions(runtime, PosixFilePermissions.fromString("rwx------"));
        home = tmp.resolve("home");
        Files.createDirectories(home);
        jar = tmp.resolve("stand-in.jar");
        Files.writeString(jar, "version 1");
        log = tmp.resolve("trainings.log");
        jdk = tmp.resolve("jdk");
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"17.0.99\"\n");
        String real = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        Path java = jdk.resolve("bin/java");
        Files.writeString(java, String.join("\n",
                "#!/bin/bash",
                "for a in \"$@\"; do",
                "  case $a in -XX:ArchiveClassesAtExit=*) out=${a#*=} ;; -Xshare:on) exit 0 ;; esac",
                "done",
                "if [ -n \"$out\" ]; then",
                "  echo \"train nice=$(nice)\" >>" + q(log.toString()),
                "  sleep 2; echo archive >\"$out\"; exit 0",
                "fi",
                "args=(\"$@\")",
                "for i in \"${!args[@]}\"; do",
                "  if [ \"${args[$i]}\" = -jar ]; then",
                "    exec " + q(real) + " -cp " + q(cp) + " dev.compoundbash.cli.Main \"${args[@]:$((i + 2))}\"",
                "  fi",
                "done",
                "exec " + q(real) + " \"$@\"",
                ""), StandardCharsets.UTF_8);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @AfterEach
    void stopEvaluator() throws IOException {
        Protocol.stop(runtime.resolve("compound-bash"), 10_000);
    }

    private static String q(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    ProcessBuilder launcher(String... args) {
        List<String> cmd = new ArrayList<>(List.of("sh", Path.of("bin/compound-bash").toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        env(pb.environment());
        return pb;
    }

    void env(Map<String, String> env) {
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_BASH_") || k.equals("JAVA_HOME"));
        env.put("HOME", home.toString());
        env.put("XDG_RUNTIME_DIR", runtime.toString());
        env.put("JAVA_HOME", jdk.toString());
        env.put("COMPOUND_BASH_JAR", jar.toString());
        env.put("COMPOUND_BASH_IDLE_MINUTES", "2");
    }

    record Run(Process process, Path err) {
        String finish() throws Exception {
            assertThat(process.waitFor(120, TimeUnit.SECONDS)).isTrue();
            String e = Files.readString(err);
            assertThat(process.exitValue()).as(e).isZero();
            return e;
        }
    }

    Run start(String... args) throws IOException {
        Path err = Files.createTempFile(tmp, "err", "");
        ProcessBuilder pb = launcher(args).redirectInput(new File("/dev/null"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
        return new Run(pb.start(), err);
    }

    List<String> trainings() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    /** The niceness of a process this test starts, as {@code nice} prints it (the base the launcher adds to). */
    static int baseNiceness() throws Exception {
        Process p = new ProcessBuilder("nice").redirectErrorStream(true).start();
        String s = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor();
        return Integer.parseInt(s);
    }

    Path archive() throws IOException {
        try (var s = Files.list(home.resolve(".claude/compound-bash/cache"))) {
            return s.filter(p -> p.getFileName().toString().matches("cds-[0-9]+\\.jsa")).findFirst().orElse(null);
        }
    }

    @Test
    void installTrainsOnceInTheForegroundAndSaysSo() throws Exception {
        String err = start("install").finish();
        assertThat(err).containsPattern("compound-bash: training the start-up archive \\(.*cds-[0-9]+\\.jsa\\)\\.\\.\\. "
                + "done in [0-9]+ s\n");
        assertThat(err).contains("evaluator ready");
        // install's own JVM and the evaluator's started no training beside warm_up's: exactly one
        assertThat(trainings()).hasSize(1);
        // not a terminal (a script, CI): below the user's priority
        assertThat(trainings().get(0)).isEqualTo("train nice=" + Math.min(19, baseNiceness() + 10));
        assertThat(archive()).isNotNull();
        // a second install: nothing to train
        assertThat(start("install").finish()).doesNotContain("training").contains("already running");
        assertThat(trainings()).hasSize(1);
    }

    @Test
    void secondCallersWaitForTheRunningTrainingOrLeaveIt() throws Exception {
        Run first = start("warm", "--wait");
        long until = System.currentTimeMillis() + 20_000;
        while (trainings().isEmpty() && System.currentTimeMillis() < until) Thread.sleep(50);
        assertThat(trainings()).as("the first training started").hasSize(1);
        // while it runs: a person's warm --wait waits for it, and the first hook call's background start leaves it
        Run second = start("warm", "--wait");
        Process hook = launcher("hook").redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        hook.getOutputStream().write(("{\"tool_name\":\"Bash\",\"hook_event_name\":\"PreToolUse\",\"cwd\":\"" + tmp
                + "\",\"tool_input\":{\"command\":\"ls\"}}\n").getBytes(StandardCharsets.UTF_8));
        hook.getOutputStream().close();
        String e1 = first.finish(), e2 = second.finish();
        assertThat(hook.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(e1).containsPattern("training the start-up archive \\(.*\\)\\.\\.\\. done in [0-9]+ s");
        assertThat(e2).contains("already started by another process: waiting for it").containsPattern("done in [0-9]+ s");
        Thread.sleep(3_000); // a background training the hook call started would have logged by now
        assertThat(trainings()).as("one training in all").hasSize(1);
        assertThat(archive()).isNotNull();
    }

    @Test
    void aPersonAtATerminalGetsTheirOwnPriority() throws Exception {
        assumeThat(new File("/usr/bin/script")).as("util-linux script(1) gives the launcher a terminal").exists();
        // script -q -e -c CMD /dev/null: CMD runs with a pseudo-terminal on stdin, stdout and stderr
        StringBuilder cmd = new StringBuilder();
        Map<String, String> env = new java.util.HashMap<>();
        env(env);
        for (Map.Entry<String, String> e : env.entrySet()) {
            if (e.getKey().matches("[A-Z_]+")) cmd.append(e.getKey()).append('=').append(q(e.getValue())).append(' ');
        }
        cmd.append("sh ").append(q(Path.of("bin/compound-bash").toAbsolutePath().toString())).append(" warm --wait");
        ProcessBuilder pb = new ProcessBuilder("/usr/bin/script", "-q", "-e", "-c", cmd.toString(), "/dev/null")
                .redirectInput(new File("/dev/null")).redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out).containsPattern("training the start-up archive \\(.*\\)\\.\\.\\. done in [0-9]+ s");
        assertThat(trainings()).containsExactly("train nice=" + baseNiceness());
    }
}
