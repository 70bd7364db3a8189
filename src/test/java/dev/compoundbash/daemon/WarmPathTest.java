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
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warm path end to end: {@code bin/compound-bash} (the sh client) talking to a real evaluator process, with
 * temporary homes and a temporary runtime directory. The evaluator runs from the test classpath
 * ({@code COMPOUND_BASH_CLASSPATH}); a stand-in file plays the jar whose change means an upgrade. Waits have
 * generous deadlines only to never hang; no assertion is about time.
 */
class WarmPathTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String SETTINGS = "{\"permissions\":{\"allow\":[\"Bash(git *)\",\"Bash(npm test:*)\"],"
            + "\"deny\":[\"Bash(git push *)\"]}}";

    @TempDir
    Path tmp;
    Path runtime;
    Path jar;
    Path homeA;

    record Result(int exit, String stdout, String stderr) {
        String decision() throws IOException {
            assertThat(exit).as(stderr).isZero();
            if (stdout.isEmpty()) return "defer";
            assertThat(stdout).endsWith("\n");
            assertThat(stdout.strip()).doesNotContain("\n");
            return JSON.readTree(stdout).path("hookSpecificOutput").path("permissionDecision").asText();
        }

        boolean warm() {
            return stderr.contains("compound-bash: warm");
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        runtime = tmp.resolve("xdg");
        Files.createDirectories(runtime);
        Files.setPosixFilePermissions(runtime, PosixFilePermissions.fromString("rwx------"));
        jar = tmp.resolve("stand-in.jar");
        Files.writeString(jar, "version 1");
        homeA = home("a", SETTINGS);
    }

    @AfterEach
    void stopEvaluator() throws IOException {
        Protocol.stop(runtime.resolve("compound-bash"), 10_000);
    }

    Path home(String name, String settings) throws IOException {
        Path home = tmp.resolve(name);
        Files.createDirectories(home.resolve(".claude"));
        Files.writeString(home.resolve(".claude/settings.json"), settings);
        return home;
    }

    Result call(Path home, String command) throws Exception {
        return call(home, command, Map.of());
    }

    Result call(Path home, String command, Map<String, String> extra) throws Exception {
        return launch(home, command, extra, "hook");
    }

    Result launch(Path home, String command, Map<String, String> extra, String subcommand) throws Exception {
        Path launcher = Path.of("bin/compound-bash").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder("sh", launcher.toString(), subcommand);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_BASH_"));
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", home.toString());
        env.put("XDG_RUNTIME_DIR", runtime.toString());
        env.put("COMPOUND_BASH_JAR", jar.toString());
        env.put("COMPOUND_BASH_CLASSPATH", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")));
        env.put("COMPOUND_BASH_TRACE", "1");
        env.put("COMPOUND_BASH_BUDGET", "120");
        env.put("COMPOUND_BASH_IDLE_MINUTES", "5");
        env.putAll(extra);
        String input = JSON.writeValueAsString(Map.of("tool_name", "Bash", "hook_event_name", "PreToolUse",
                "session_id", "t", "cwd", home.toString(), "tool_input", Map.of("command", command)));
        Path out = Files.createTempFile(tmp, "out", ""), err = Files.createTempFile(tmp, "err", "");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    Path dir() {
        return runtime.resolve("compound-bash");
    }

    /** The running evaluator's pid, waiting (up to a deadline that only guards against hanging) for one to be ready. */
    long awaitEvaluator(long notPid) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            Optional<List<String>> info = Protocol.running(dir());
            if (info.isPresent()) {
                long pid = Long.parseLong(info.get().get(0).trim());
                if (pid != notPid && Files.exists(dir().resolve(Protocol.REQUEST_FIFO))) return pid;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no evaluator started; daemon.err: " + readOr(dir().resolve("daemon.err")));
    }

    static String readOr(Path p) {
        try {
            return Files.readString(p);
        } catch (IOException e) {
            return "(none)";
        }
    }

    /**
     * The plugin's SessionStart hook ({@code bin/compound-bash warm}) returns at once, prints nothing (a SessionStart
     * hook's stdout would become context for the model) and starts the evaluator, so the session's first Bash call is
     * warm.
     */
    @Test
    void sessionStartWarmsTheEvaluator() throws Exception {
        long t0 = System.nanoTime();
        Result warm = launch(homeA, "", Map.of(), "warm");
        assertThat(warm.exit()).isZero();
        assertThat(warm.stdout()).isEmpty();
        assertThat((System.nanoTime() - t0) / 1_000_000).as("returns without waiting for the JVM").isLessThan(30_000);
        awaitEvaluator(-1);
        Result first = call(homeA, "git status");
        assertThat(first.stderr()).contains("compound-bash: warm");
    }

    /**
     * {@code warm --wait} (doctor's fix for a cold set-up, on either route; issue 20, finding 5) starts the evaluator
     * and returns only once it answers, so the next call is warm; it changes no settings.
     */
    @Test
    void warmWaitStartsTheEvaluatorAndWaits() throws Exception {
        Path settings = homeA.resolve(".claude/settings.json");
        String before = Files.readString(settings);
        Path launcher = Path.of("bin/compound-bash").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder("sh", launcher.toString(), "warm", "--wait");
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_BASH_"));
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", homeA.toString());
        env.put("XDG_RUNTIME_DIR", runtime.toString());
        env.put("COMPOUND_BASH_JAR", jar.toString());
        env.put("COMPOUND_BASH_CLASSPATH", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")));
        env.put("COMPOUND_BASH_IDLE_MINUTES", "5");
        Path err = Files.createTempFile(tmp, "err", "");
        pb.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(err.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(Files.readString(err)).isZero();
        assertThat(Files.readString(err)).contains("evaluator ready");
        assertThat(Protocol.running(dir())).as("running when warm --wait returns").isPresent();
        assertThat(call(homeA, "git status").warm()).isTrue();
        assertThat(Files.readString(settings)).isEqualTo(before);
    }

    /** First call runs cold and starts the evaluator; once it is up, calls are answered warm. */
    long warmUp() throws Exception {
        Result first = call(homeA, "git status");
        assertThat(first.decision()).isEqualTo("allow");
        return awaitEvaluator(-1);
    }

    @Test
    void answersWarmWithTheSameDecisionsAsCold() throws Exception {
        warmUp();
        Map<String, String> cases = Map.of(
                "git status && git diff --stat", "allow",
                "git add . && git push origin main", "deny",
                "echo $(curl x)", "ask",
                "git status && curl x", "defer",
                "npm test -- --watch=false | tail -5", "allow",
                // an answer longer than one atomic FIFO write comes through c.PID.out
                "git push origin " + "b".repeat(4400) + " && git push origin " + "c".repeat(4400), "deny");
        for (Map.Entry<String, String> c : cases.entrySet()) {
            Result warm = call(homeA, c.getKey());
            assertThat(warm.warm()).as(warm.stderr()).isTrue();
            assertThat(warm.decision()).as(c.getKey()).isEqualTo(c.getValue());
            Result cold = call(homeA, c.getKey(), Map.of("COMPOUND_BASH_WARM", "0"));
            assertThat(cold.warm()).isFalse();
            assertThat(cold.stdout()).as(c.getKey()).isEqualTo(warm.stdout());
        }
    }

    /**
     * Issue 20, finding 11: input the hook cannot judge gets the same one-line message on the warm path as on the
     * cold one (the evaluator runs the same HookRunner): still a defer.
     */
    @Test
    void badInputGetsTheSameMessageWarmAndCold() throws Exception {
        warmUp();
        for (String input : List.of("not json", "", "{\"tool_name\":\"Bash\",\"tool_input\":{}}")) {
            Result warm = raw(homeA, input, Map.of());
            assertThat(warm.warm()).as(warm.stderr()).isTrue();
            assertThat(warm.stdout()).startsWith("{\"systemMessage\":\"compound-bash did not judge this Bash call: ");
            Result cold = raw(homeA, input, Map.of("COMPOUND_BASH_WARM", "0"));
            assertThat(cold.stdout()).isEqualTo(warm.stdout());
        }
    }

    /** The launcher in hook mode with {@code input} as it is on stdin. */
    Result raw(Path home, String input, Map<String, String> extra) throws Exception {
        Path launcher = Path.of("bin/compound-bash").toAbsolutePath();
        ProcessBuilder pb = new ProcessBuilder("sh", launcher.toString(), "hook");
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_BASH_"));
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", home.toString());
        env.put("XDG_RUNTIME_DIR", runtime.toString());
        env.put("COMPOUND_BASH_JAR", jar.toString());
        env.put("COMPOUND_BASH_CLASSPATH", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")));
        env.put("COMPOUND_BASH_TRACE", "1");
        env.put("COMPOUND_BASH_BUDGET", "60"); // generous: a loaded CI machine must not reach the safe outcome
        env.putAll(extra);
        Path out = Files.createTempFile(tmp, "out", ""), err = Files.createTempFile(tmp, "err", "");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().write(input.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void logsExactlyAsAColdRun() throws Exception {
        warmUp();
        Path warmLog = tmp.resolve("warm.log"), coldLog = tmp.resolve("cold.log");
        Result w = call(homeA, "git status && rm -rf /", Map.of("CLAUDE_COMPOUND_LOG", warmLog.toString()));
        assertThat(w.warm()).isTrue();
        call(homeA, "git status && rm -rf /", Map.of("CLAUDE_COMPOUND_LOG", coldLog.toString(),
                "COMPOUND_BASH_WARM", "0"));
        assertThat(stripTimes(Files.readAllLines(warmLog))).isEqualTo(stripTimes(Files.readAllLines(coldLog)))
                .isNotEmpty();
    }

    static List<String> stripTimes(List<String> lines) {
        return lines.stream().map(l -> l.replaceFirst("^\\S+ ", "")).toList();
    }

    @Test
    void sixteenParallelCallsEachGetTheirOwnAnswer() throws Exception {
        warmUp();
        String[][] cases = {
                {"git status s", "allow"}, {"git push origin b", "deny"}, {"echo $(curl x", "ask"},
                {"curl y", "defer"}};
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            List<Future<Result>> futures = new ArrayList<>();
            for (int i = 0; i < 16; i++) {
                String[] c = cases[i % cases.length];
                // Unique commands: each answer names its own command, so a crossed reply would show (a pathspec
                // for git status: "git status0" is no git subcommand, so the closed world leaves it to Claude Code).
                String command = c[0] + i + (c[0].endsWith("(curl x") ? ")" : "") + " && git log -n " + i;
                futures.add(pool.submit(() -> call(homeA, command)));
            }
            for (int i = 0; i < 16; i++) {
                Result r = futures.get(i).get(180, TimeUnit.SECONDS);
                String[] c = cases[i % cases.length];
                assertThat(r.decision()).as(c[0]).isEqualTo(c[1]);
                assertThat(r.warm()).as(r.stderr()).isTrue();
                if (c[1].equals("deny")) assertThat(r.stdout()).contains("[git push origin b" + i + "]");
                if (c[1].equals("ask")) assertThat(r.stdout()).contains("[curl x" + i + "]");
                if (c[1].equals("allow")) assertThat(r.stdout()).contains("all 2 sub-command(s)");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void twoHomesNeverGetEachOthersAnswers() throws Exception {
        warmUp();
        Path homeB = home("b", "{\"permissions\":{\"deny\":[\"Bash(git *)\"]}}");
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Result>> a = new ArrayList<>(), b = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                a.add(pool.submit(() -> call(homeA, "git status")));
                b.add(pool.submit(() -> call(homeB, "git status")));
            }
            for (Future<Result> f : a) {
                Result r = f.get(180, TimeUnit.SECONDS);
                assertThat(r.decision()).isEqualTo("allow");
                assertThat(r.warm()).isTrue();
            }
            for (Future<Result> f : b) {
                Result r = f.get(180, TimeUnit.SECONDS);
                assertThat(r.decision()).isEqualTo("deny");
                assertThat(r.warm()).isTrue();
            }
        } finally {
            pool.shutdownNow();
        }
        // Each home's log holds only its own calls.
        assertThat(Files.readString(homeB.resolve(".claude/logs/compound-bash.log"))).contains("DENY")
                .doesNotContain("ALLOW");
    }

    @Test
    void rereadsSettingsAndUserRulesWhenTheyChange() throws Exception {
        warmUp();
        assertThat(call(homeA, "git status").decision()).isEqualTo("allow");
        Files.writeString(homeA.resolve(".claude/settings.json"), "{\"permissions\":{\"deny\":[\"Bash(git status)\"]}}");
        Result denied = call(homeA, "git status");
        assertThat(denied.warm()).isTrue();
        assertThat(denied.decision()).isEqualTo("deny");

        Files.writeString(homeA.resolve(".claude/settings.json"), SETTINGS);
        assertThat(call(homeA, "git log").decision()).isEqualTo("allow");
        Path rules = Files.createDirectories(homeA.resolve(".claude/compound-bash/rules"));
        Files.writeString(rules.resolve("team.drl"), """
                package team
                import dev.compoundbash.facts.SubCommand
                import dev.compoundbash.facts.Finding
                rule "git log asks"
                when
                    $s : SubCommand( line == "git log" )
                then
                    insert(new Finding(Finding.ASK, $s.getId(), $s.getLine(), "team: git log needs a person", drools.getRule().getName()));
                end
                """);
        Result asked = call(homeA, "git log");
        assertThat(asked.warm()).isTrue();
        assertThat(asked.decision()).isEqualTo("ask");
        assertThat(asked.stdout()).contains("team: git log needs a person");
        Files.delete(rules.resolve("team.drl"));
        assertThat(call(homeA, "git log").decision()).isEqualTo("allow");
    }

    @Test
    void fallsBackWhenTheEvaluatorIsKilledMidCall() throws Exception {
        long pid = warmUp();
        ProcessHandle evaluator = ProcessHandle.of(pid).orElseThrow();
        // Freeze it so the call is surely in flight when it dies, then kill it: the client reads the end of its reply
        // FIFO (the evaluator held its only write end) and goes cold.
        new ProcessBuilder("kill", "-STOP", Long.toString(pid)).start().waitFor();
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try {
            Future<Result> inFlight = pool.submit(() -> call(homeA, "git push origin main"));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!hasRequestFiles() && System.nanoTime() < deadline) Thread.sleep(20);
            assertThat(hasRequestFiles()).isTrue();
            evaluator.destroyForcibly();
            Result r = inFlight.get(180, TimeUnit.SECONDS);
            assertThat(r.decision()).isEqualTo("deny");
            assertThat(r.warm()).isFalse();
        } finally {
            pool.shutdownNow();
        }
        // The next calls restart it.
        assertThat(call(homeA, "git status").decision()).isEqualTo("allow");
        long again = awaitEvaluator(pid);
        assertThat(again).isNotEqualTo(pid);
        Result warm = call(homeA, "git status");
        assertThat(warm.warm()).isTrue();
        assertThat(warm.decision()).isEqualTo("allow");
    }

    boolean hasRequestFiles() throws IOException {
        try (Stream<Path> s = Files.list(dir())) {
            return s.anyMatch(p -> p.getFileName().toString().endsWith(".in"));
        }
    }

    @Test
    void restartsAfterAnUpgrade() throws Exception {
        long pid = warmUp();
        Files.writeString(jar, "version 2, a longer file");
        Result r = call(homeA, "git status");
        assertThat(r.decision()).isEqualTo("allow");
        assertThat(r.warm()).isFalse();
        ProcessHandle.of(pid).ifPresent(h -> h.onExit().join());
        call(homeA, "git status");
        long next = awaitEvaluator(pid);
        assertThat(next).isNotEqualTo(pid);
        Result warm = call(homeA, "git status");
        assertThat(warm.warm()).isTrue();
        assertThat(warm.decision()).isEqualTo("allow");
    }

    @Test
    void everythingItCreatesIsPrivate() throws Exception {
        warmUp();
        call(homeA, "git status");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir(), LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rwx------");
        try (Stream<Path> s = Files.list(dir())) {
            for (Path p : s.toList()) {
                String perms;
                try {
                    perms = PosixFilePermissions.toString(Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS));
                } catch (java.nio.file.NoSuchFileException e) {
                    continue; // a request's files, removed by the evaluator just after it answered
                }
                assertThat(perms).as(p.toString()).matches("r[w-][x-]------");
            }
        }
    }

    @Test
    void statusAndStop() throws Exception {
        long pid = warmUp();
        assertThat(Protocol.running(dir())).hasValueSatisfying(l -> assertThat(l.get(0)).isEqualTo(Long.toString(pid)));
        assertThat(Protocol.stop(dir(), 30_000)).isTrue();
        assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
        assertThat(Protocol.running(dir())).isEmpty();
        Result r = call(homeA, "git status");
        assertThat(r.warm()).isFalse();
        assertThat(r.decision()).isEqualTo("allow");
    }

    @Test
    void parsesTheClientsEnvironmentFile() {
        Map<String, String> env = Protocol.parseEnv("PROTO=1\0HOME=/h/with=eq\0X=line\nbreak\0\0junk\0".getBytes(StandardCharsets.UTF_8));
        Map<String, String> expected = new HashMap<>();
        expected.put("PROTO", "1");
        expected.put("HOME", "/h/with=eq");
        expected.put("X", "line\nbreak");
        assertThat(env).isEqualTo(expected);
    }
}
