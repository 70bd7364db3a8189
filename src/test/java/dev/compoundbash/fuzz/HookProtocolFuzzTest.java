package dev.compoundbash.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 8's third fuzz invariant: the hook always exits 0 with either one valid decision JSON line or empty
 * stdout, whatever arrives on stdin. Inputs: PreToolUse JSON around {@link ScriptGenerator} commands with random
 * {@code cwd}, {@code permission_mode}, {@code tool_name} and extra fields; the same JSON mutated byte by byte
 * (truncated, random and invalid UTF-8 bytes, NUL, wrong types); and inputs of 1 MB. {@link #inProcess()} runs
 * {@code -Dfuzz.hookInputs} of them (default 2,000; {@code mvn -Pfuzz}: 100,000) through {@link HookRunner#run},
 * the process's own code path; {@link #asProcesses()} runs {@code -Dfuzz.hookProcesses} (default 16; -Pfuzz:
 * 1,000) through real JVM processes ({@code dev.compoundbash.cli.Main hook}). Counts go to
 * {@code target/hook-fuzz-stats.properties}.
 */
class HookProtocolFuzzTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Set<String> DECISIONS = Set.of("allow", "deny", "ask");
    static final String[] MODES = {null, "default", "plan", "acceptEdits", "bypassPermissions", "dontAsk", "auto",
            "bogus", ""};
    static ScriptGenerator generator;
    static RuleEngine engine;

    @TempDir
    static Path tmp;

    @BeforeAll
    static void setUp() throws Exception {
        generator = ScriptGenerator.fromRepository();
        engine = RuleEngine.load(List.of());
        Path home = tmp.resolve("home");
        Files.createDirectories(home.resolve(".claude"));
        Files.writeString(home.resolve(".claude/settings.json"), """
                {"permissions": {"allow": ["Bash(git *)", "Bash(xargs *)", "Bash(find *)", "Bash(grep *)"],
                                 "ask": ["Bash(curl *)"], "deny": ["Bash(rm *)", "Bash(git push *)"],
                                 "additionalDirectories": ["/tmp"]}}
                """);
    }

    /** One stdin: mostly well-formed PreToolUse JSON, else mutated bytes or a huge input. */
    static byte[] stdin(Random r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("session_id", "fuzz-" + r.nextInt(1000));
        o.put("hook_event_name", r.nextInt(20) == 0 ? "PostToolUse" : "PreToolUse");
        o.put("tool_name", r.nextInt(15) == 0 ? pick(r, new String[]{"Read", "bash", "", "Bash\u0000"}) : "Bash");
        String mode = pick(r, MODES);
        if (mode != null) o.put("permission_mode", mode);
        switch (r.nextInt(10)) {
            case 0 -> o.putNull("cwd");
            case 1 -> o.put("cwd", "relative/dir");
            case 2 -> o.put("cwd", "/nonexistent/\u00e9/" + r.nextInt());
            case 3 -> o.put("cwd", 42);
            default -> o.put("cwd", tmp.toString());
        }
        ObjectNode input = o.putObject("tool_input");
        switch (r.nextInt(25)) {
            case 0 -> input.put("command", 7);
            case 1 -> input.putNull("command");
            case 2 -> input.putArray("command").add("ls");
            case 3 -> o.put("tool_input", "ls");
            default -> input.put("command", generator.next(r));
        }
        if (r.nextInt(10) == 0) input.put("description", "x".repeat(r.nextInt(100)));
        if (r.nextInt(10) == 0) o.putObject("extra").put("nested", r.nextLong());
        byte[] bytes = o.toString().getBytes(StandardCharsets.UTF_8);
        int k = r.nextInt(100);
        if (k < 70) return bytes;
        if (k < 95) return mutate(r, bytes);
        if (k < 98) return huge(r);
        byte[] random = new byte[r.nextInt(4096)];
        r.nextBytes(random);
        return random;
    }

    static byte[] mutate(Random r, byte[] in) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        b.writeBytes(in);
        byte[] bytes = b.toByteArray();
        int edits = 1 + r.nextInt(6);
        for (int e = 0; e < edits && bytes.length > 0; e++) {
            int at = r.nextInt(bytes.length);
            switch (r.nextInt(5)) {
                case 0 -> bytes = java.util.Arrays.copyOf(bytes, at); // truncated
                case 1 -> bytes[at] = (byte) r.nextInt(256); // any byte, invalid UTF-8 included
                case 2 -> bytes[at] = 0;
                case 3 -> bytes[at] = (byte) "{}[]\",:\\".charAt(r.nextInt(8));
                default -> {
                    byte[] ins = {(byte) 0xC3, (byte) 0x28, (byte) 0xED, (byte) 0xA0, (byte) 0x80, (byte) 0xFF};
                    byte[] out = new byte[bytes.length + ins.length];
                    System.arraycopy(bytes, 0, out, 0, at);
                    System.arraycopy(ins, 0, out, at, ins.length);
                    System.arraycopy(bytes, at, out, at + ins.length, bytes.length - at);
                    bytes = out;
                }
            }
        }
        return bytes;
    }

    static byte[] huge(Random r) {
        ObjectNode o = JSON.createObjectNode();
        o.put("tool_name", "Bash");
        o.put("cwd", tmp.toString());
        o.putObject("tool_input").put("command", generator.huge(r, r.nextBoolean() ? 9_000 : 1_000_000));
        return o.toString().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Checks the stdout contract and returns the decision ({@code defer} for empty stdout, or for one line holding
     * only a {@code systemMessage}).
     *
     * @throws AssertionError when stdout is neither empty nor exactly one decision or message JSON line
     */
    static String check(int exit, String stdout, byte[] stdin) throws Exception {
        String what = "stdin " + new String(stdin, 0, Math.min(stdin.length, 300), StandardCharsets.UTF_8);
        assertThat(exit).as(what).isZero();
        if (stdout.isEmpty()) return "defer";
        assertThat(stdout).as(what).endsWith("\n");
        assertThat(stdout.indexOf('\n')).as(what).isEqualTo(stdout.length() - 1);
        JsonNode n = JSON.readTree(stdout);
        if (n.has("systemMessage")) {
            // a defer that tells the user why (issue 20, finding 11): that one key and nothing else
            assertThat(n.size()).as(what).isEqualTo(1);
            assertThat(n.path("systemMessage").asText()).as(what).startsWith("compound-bash did not judge this Bash call: ");
            return "defer";
        }
        JsonNode h = n.path("hookSpecificOutput");
        assertThat(h.path("hookEventName").asText()).as(what).isEqualTo("PreToolUse");
        assertThat(h.path("permissionDecision").asText()).as(what).isIn(DECISIONS);
        assertThat(h.path("permissionDecisionReason").isTextual()).as(what).isTrue();
        return h.path("permissionDecision").asText();
    }

    static Map<String, String> env() {
        return Map.of("HOME", tmp.resolve("home").toString(), "TMPDIR", tmp.toString());
    }

    @Test
    void inProcess() throws Exception {
        int inputs = Integer.getInteger("fuzz.hookInputs", 2_000);
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        Random r = new Random(seed);
        HookRunner runner = new HookRunner(env(), "fuzz", (files, env) -> engine);
        java.util.Map<String, Integer> outcomes = new java.util.TreeMap<>();
        for (int i = 0; i < inputs; i++) {
            byte[] in = stdin(r);
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int exit = runner.run(new ByteArrayInputStream(in), new PrintStream(out, true, StandardCharsets.UTF_8));
            outcomes.merge(check(exit, out.toString(StandardCharsets.UTF_8), in), 1, Integer::sum);
        }
        write("inProcess", seed, inputs, outcomes);
        assertThat(outcomes.keySet()).as("seed " + seed).contains("defer", "allow");
    }

    @Test
    void asProcesses() throws Exception {
        int processes = Integer.getInteger("fuzz.hookProcesses", 16);
        long seed = Long.getLong("fuzz.seed", System.nanoTime());
        Random r = new Random(seed);
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        List<Future<String>> results = new ArrayList<>();
        for (int i = 0; i < processes; i++) {
            byte[] in = stdin(r);
            int n = i;
            results.add(pool.submit(() -> {
                ProcessBuilder pb = new ProcessBuilder(java, "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
                        "-Xss4m", "-Xlog:disable", "-Xlog:all=warning:stderr", "-cp", cp,
                        "dev.compoundbash.cli.Main", "hook");
                pb.environment().keySet().removeIf(k -> k.startsWith("CLAUDE_"));
                pb.environment().putAll(env());
                Path out = tmp.resolve("out-" + n), err = tmp.resolve("err-" + n);
                pb.redirectOutput(out.toFile()).redirectError(err.toFile());
                Process p = pb.start();
                try (var stdin = p.getOutputStream()) {
                    stdin.write(in);
                } catch (java.io.IOException e) {
                    // the hook may stop reading a huge or broken input early: that is its right
                }
                assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
                return check(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), in);
            }));
        }
        java.util.Map<String, Integer> outcomes = new java.util.TreeMap<>();
        for (Future<String> f : results) outcomes.merge(f.get(), 1, Integer::sum);
        pool.shutdown();
        write("asProcesses", seed, processes, outcomes);
    }

    private static synchronized void write(String name, long seed, int count, Map<String, Integer> outcomes)
            throws Exception {
        Path stats = Path.of("target/hook-fuzz-stats.properties");
        Files.createDirectories(stats.getParent());
        Files.writeString(stats, name + ".seed=" + seed + "\n" + name + ".inputs=" + count + "\n" + name
                        + ".outcomes=" + outcomes + "\n", java.nio.file.StandardOpenOption.CREATE,
                java.nio.file.StandardOpenOption.APPEND);
    }

    private static <T> T pick(Random r, T[] a) {
        return a[r.nextInt(a.length)];
    }
}
