package dev.compoundbash.daemon;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20, finding 3: every hook call answers within {@code COMPOUND_BASH_BUDGET} seconds and exits 0, whatever
 * happens: a user rule file that is broken or still compiling (warm and cold), a JVM that hangs or fails, a machine
 * whose two cores are busy. The safe outcome asks when a rule of the user's could be missed and defers otherwise
 * ({@link dev.compoundbash.hook.SafeOutcome}). Runs {@code bin/compound-bash} with the classes of the test class path
 * ({@code COMPOUND_BASH_CLASSPATH}) and a stand-in jar file. The time assertions allow the budget plus a margin of
 * seconds for a loaded machine; a call that took the budget's path says so in its reason.
 */
class TimeBudgetTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    Path runtime;
    Path jar;
    Path home;

    record Result(int exit, String stdout, String stderr, long millis) {
        JsonNode json() throws IOException {
            assertThat(exit).as(stderr).isZero();
            assertThat(stdout.strip()).doesNotContain("\n");
            return stdout.isBlank() ? JSON.createObjectNode() : JSON.readTree(stdout);
        }

        String decision() throws IOException {
            String d = json().path("hookSpecificOutput").path("permissionDecision").asText();
            return d.isEmpty() ? "defer" : d;
        }

        String reason() throws IOException {
            return json().path("hookSpecificOutput").path("permissionDecisionReason").asText();
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        runtime = tmp.resolve("xdg");
        Files.createDirectories(runtime);
        Files.setPosixFilePermissions(runtime, PosixFilePermissions.fromString("rwx------"));
        jar = tmp.resolve("stand-in.jar");
        Files.writeString(jar, "version 1");
        home = tmp.resolve("home");
        Files.createDirectories(home.resolve(".claude"));
        Files.writeString(home.resolve(".claude/settings.json"), "{\"permissions\":{\"allow\":[\"Bash(git *)\"]}}");
    }

    @AfterEach
    void stopEvaluator() throws IOException {
        Protocol.stop(runtime.resolve("compound-bash"), 10_000);
    }

    Result call(String command, Map<String, String> extra) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("sh", Path.of("bin/compound-bash").toAbsolutePath().toString(), "hook");
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_BASH_") || k.equals("JAVA_HOME"));
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", home.toString());
        env.put("XDG_RUNTIME_DIR", runtime.toString());
        env.put("COMPOUND_BASH_JAR", jar.toString());
        env.put("COMPOUND_BASH_CLASSPATH", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")));
        env.put("COMPOUND_BASH_TRACE", "1");
        // an evaluator still starting when a test ends is not stopped by it: let it exit by itself soon
        env.put("COMPOUND_BASH_IDLE_MINUTES", "1");
        env.putAll(extra);
        String input = JSON.writeValueAsString(Map.of("tool_name", "Bash", "hook_event_name", "PreToolUse",
                "session_id", "t", "cwd", home.toString(), "tool_input", Map.of("command", command)));
        Path out = Files.createTempFile(tmp, "out", ""), err = Files.createTempFile(tmp, "err", "");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        long t0 = System.nanoTime();
        Process p = pb.start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
        long millis = (System.nanoTime() - t0) / 1_000_000;
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err), millis);
    }

    /** A rule file of {@code n} rules: it compiles, slowly (seconds for a few thousand rules). */
    void slowRuleFile(int n) throws IOException {
        StringBuilder drl = new StringBuilder("package slowteam\nimport dev.compoundbash.facts.SubCommand\n"
                + "import dev.compoundbash.facts.Finding\n");
        for (int i = 0; i < n; i++) {
            drl.append("rule \"slow ").append(i).append("\"\nwhen\n    $s : SubCommand( name == \"prog").append(i)
                    .append("\", line != null, line.length() > ").append(i % 7).append(" )\nthen\n")
                    .append("    insert(new Finding(Finding.ASK, $s.getId(), $s.getLine(), \"slow ").append(i)
                    .append("\", drools.getRule().getName()));\nend\n");
        }
        Path rules = Files.createDirectories(home.resolve(".claude/compound-bash/rules"));
        Files.writeString(rules.resolve("slow.drl"), drl);
    }

    void brokenRuleFile() throws IOException {
        Path rules = Files.createDirectories(home.resolve(".claude/compound-bash/rules"));
        Files.writeString(rules.resolve("broken.drl"), "package broken\nrule \"x\" when then nonsense( end\n");
    }

    long warmUp() throws Exception {
        Result first = call("git status", Map.of("COMPOUND_BASH_BUDGET", "120"));
        assertThat(first.decision()).isEqualTo("allow");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            var info = Protocol.running(runtime.resolve("compound-bash"));
            if (info.isPresent() && Files.exists(runtime.resolve("compound-bash/req"))) {
                return Long.parseLong(info.get().get(0).trim());
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no evaluator started");
    }

    @Test
    void aRuleFileStillCompilingAsksWithinTheBudgetWarmThenTheRulesApply() throws Exception {
        warmUp();
        slowRuleFile(600);
        Result r = call("git status", Map.of("COMPOUND_BASH_BUDGET", "1"));
        assertThat(r.stderr()).contains("compound-bash: warm");
        assertThat(r.decision()).isEqualTo("ask");
        assertThat(r.reason()).contains("could not judge this call within").contains("slow.drl");
        assertThat(r.millis()).as("answered within the budget (1 s) and a margin").isLessThan(8_000);
        // the evaluator goes on compiling: a later call gets the real verdict
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(400);
        String decision = "ask";
        while (decision.equals("ask") && System.nanoTime() < deadline) {
            Thread.sleep(500);
            decision = call("git status", Map.of("COMPOUND_BASH_BUDGET", "5")).decision();
        }
        assertThat(decision).isEqualTo("allow");
    }

    @Test
    void aBrokenRuleFileAsksWarmAndCold() throws Exception {
        warmUp();
        brokenRuleFile();
        Result warm = call("git status", Map.of("COMPOUND_BASH_BUDGET", "60"));
        assertThat(warm.stderr()).contains("compound-bash: warm");
        assertThat(warm.decision()).isEqualTo("ask");
        assertThat(warm.reason()).contains("broken.drl");
        Result cold = call("git status", Map.of("COMPOUND_BASH_BUDGET", "60", "COMPOUND_BASH_WARM", "0"));
        assertThat(cold.decision()).isEqualTo("ask");
        assertThat(cold.reason()).contains("broken.drl");
    }

    @Test
    void aColdCallWhoseRulesCompileTooLongAsksWithinTheBudget() throws Exception {
        slowRuleFile(600);
        Result r = call("git status", Map.of("COMPOUND_BASH_BUDGET", "2", "COMPOUND_BASH_WARM", "0"));
        assertThat(r.stderr()).contains("compound-bash: cold");
        assertThat(r.decision()).isEqualTo("ask");
        assertThat(r.reason()).contains("could not judge this call within");
        assertThat(r.millis()).as("answered within the budget (2 s) and a margin").isLessThan(2_000 + 8_000);
    }

    /** A stand-in JDK 17 whose java runs {@code body} (a JVM that hangs, or fails). */
    Path fakeJdk(String body) throws IOException {
        Path jdk = tmp.resolve("fake-jdk");
        Files.createDirectories(jdk.resolve("bin"));
        Files.writeString(jdk.resolve("release"), "JAVA_VERSION=\"17.0.99\"\n");
        Path java = jdk.resolve("bin/java");
        Files.writeString(java, "#!/bin/sh\n" + body + "\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        return jdk;
    }

    @Test
    void aJvmThatHangsIsKilledAndTheLauncherAnswers() throws Exception {
        Path jdk = fakeJdk("exec sleep 600");
        Map<String, String> env = Map.of("JAVA_HOME", jdk.toString(), "COMPOUND_BASH_BUDGET", "1",
                "COMPOUND_BASH_WARM", "0");
        // no rule of the user's could be missed: defer, with a message
        Result r = call("git status", env);
        assertThat(r.exit()).isZero();
        assertThat(r.decision()).isEqualTo("defer");
        assertThat(r.json().path("systemMessage").asText()).contains("did not answer within 1 s");
        assertThat(r.millis()).isLessThan(1_000 + 3_000 + 8_000);
        // a deny rule Claude Code may not apply everywhere: ask
        Files.writeString(home.resolve(".claude/settings.json"), "{\"permissions\":{\"deny\":[\"Bash(rm *)\"]}}");
        Result denyRule = call("git status", env);
        assertThat(denyRule.decision()).isEqualTo("ask");
        assertThat(denyRule.reason()).contains("did not answer within 1 s");
    }

    @Test
    void aJvmThatFailsNeverMakesTheHookExitNonZero() throws Exception {
        Path jdk = fakeJdk("echo 'Error occurred during initialization of VM' >&2; exit 1");
        brokenRuleFile();
        Result r = call("git status", Map.of("JAVA_HOME", jdk.toString(), "COMPOUND_BASH_WARM", "0"));
        assertThat(r.exit()).isZero();
        assertThat(r.decision()).isEqualTo("ask");
        assertThat(r.reason()).contains("its JVM failed (exit 1)").contains("broken.drl");
    }

    /**
     * Both cores busy (two spinning threads per core), a fresh runtime directory and a broken rule file: the first
     * call (cold, starting the evaluator beside it) still exits 0 and asks within the budget and the launcher's
     * margin.
     */
    @Test
    void underLoadTheFirstCallAnswersInTime() throws Exception {
        brokenRuleFile();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> spinners = new ArrayList<>();
        for (int i = 0; i < 2 * Runtime.getRuntime().availableProcessors(); i++) {
            Thread t = new Thread(() -> {
                long x = 0;
                while (!stop.get()) x += System.nanoTime() % 7;
                if (x == 42) System.out.print("");
            });
            t.setDaemon(true);
            t.start();
            spinners.add(t);
        }
        try {
            Result r = call("git status", Map.of("COMPOUND_BASH_BUDGET", "10"));
            assertThat(r.exit()).isZero();
            assertThat(r.decision()).isEqualTo("ask");
            assertThat(r.millis()).as("within the budget and the launcher's 3 s").isLessThan(10_000 + 3_000 + 5_000);
        } finally {
            stop.set(true);
            for (Thread t : spinners) t.join();
        }
    }
}
