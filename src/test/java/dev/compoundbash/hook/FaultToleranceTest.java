package dev.compoundbash.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Fault tolerance (issue 8 part 4): malformed, huge and non-UTF-8 settings files, an unreadable home, a full disk
 * for the log, a broken user DRL and 32 hook processes (6 in the default budget) writing one log at once each end in a correct decision or a
 * defer, with exit 0, one whole JSON line or nothing on stdout, and no corrupt log line.
 */
class FaultToleranceTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static String input(String command, String cwd) throws Exception {
        return JSON.writeValueAsString(Map.of("tool_name", "Bash", "hook_event_name", "PreToolUse",
                "session_id", "t", "cwd", cwd, "tool_input", Map.of("command", command)));
    }

    /** Runs the hook in process; returns the outcome after checking the stdout contract. */
    static String hook(Map<String, String> env, String command, String cwd) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = new HookRunner(env, "test").run(
                new ByteArrayInputStream(input(command, cwd).getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(rc).isZero();
        return outcome(out.toString(StandardCharsets.UTF_8));
    }

    static String outcome(String stdout) throws Exception {
        if (stdout.isEmpty()) return "defer";
        assertThat(stdout).endsWith("\n");
        assertThat(stdout.strip()).doesNotContain("\n");
        JsonNode n = JSON.readTree(stdout);
        return n.path("hookSpecificOutput").path("permissionDecision").asText();
    }

    private Map<String, String> homeWithSettings(byte[] settings) throws Exception {
        Path home = tmp.resolve("home");
        Files.createDirectories(home.resolve(".claude"));
        Files.write(home.resolve(".claude/settings.json"), settings);
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put(HookLog.LOG_ENV, tmp.resolve("hook.log").toString());
        return env;
    }

    @Test
    void malformedSettingsNeverApprove() throws Exception {
        // The file may hold deny rules the hook cannot see: nothing is approved on that partial view, and the
        // prompt says which file (issue 20, finding 1).
        Map<String, String> env = homeWithSettings("{\"permissions\": {\"allow\": [\"Bash(git *)\"".getBytes());
        assertThat(hook(env, "ls -la | wc -l", tmp.toString())).isEqualTo("ask");
        assertThat(hook(env, "git status", tmp.toString())).isEqualTo("ask");
        assertThat(Files.readString(tmp.resolve("hook.log"))).contains("settings").contains("invalid JSON");
    }

    @Test
    void malformedSettingsWithADenyListNeverAllowAndSayWhere() throws Exception {
        // Claude Code skips a settings file that is not JSON; its deny list is then unseen by the hook too. Under
        // allow Bash(*) of the same broken file nothing turns into allow: every call asks, and the reason names
        // the file with its line and column (issue 20).
        Map<String, String> env = homeWithSettings(
                "{\"permissions\": {\"allow\": [\"Bash(*)\"],\n  \"deny\": [\"Bash(rm *)\",]}}\n".getBytes());
        for (String c : List.of("rm -rf build", "ls", "git status", "echo \"$(rm -rf x)\"")) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new HookRunner(env, "test").run(new ByteArrayInputStream(input(c, tmp.toString())
                    .getBytes(StandardCharsets.UTF_8)), new PrintStream(out, true, StandardCharsets.UTF_8));
            String stdout = out.toString(StandardCharsets.UTF_8);
            assertThat(outcome(stdout)).as(c).isEqualTo("ask");
            assertThat(JSON.readTree(stdout).path("hookSpecificOutput").path("permissionDecisionReason").asText())
                    .contains(tmp.resolve("home/.claude/settings.json") + ":2:25: invalid JSON");
        }
    }

    @Test
    void settingsOfTheWrongShapeNeverApprove() throws Exception {
        Map<String, String> env = homeWithSettings("{\"permissions\": {\"allow\": \"Bash(*)\", \"deny\": 7}}"
                .getBytes());
        assertThat(hook(env, "ls", tmp.toString())).isEqualTo("ask");
        assertThat(hook(env, "curl x", tmp.toString())).isEqualTo("ask");
    }

    @Test
    void hugeSettingsStillDecide() throws Exception {
        StringBuilder b = new StringBuilder("{\"permissions\": {\"deny\": [\"Bash(rm *)\"], \"allow\": [");
        for (int i = 0; i < 20_000; i++) b.append("\"Bash(tool").append(i).append(" *)\",");
        b.append("\"Bash(git *)\"], \"padding\": \"").append("x".repeat(5_000_000)).append("\"}}");
        Map<String, String> env = homeWithSettings(b.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(hook(env, "git status && rm -rf x", tmp.toString())).isEqualTo("deny");
    }

    @Test
    void nonUtf8SettingsNeverApprove() throws Exception {
        byte[] bytes = {'{', '"', 'p', (byte) 0xff, (byte) 0xfe, '"', ':', (byte) 0xc3, '}', 0, (byte) 0x80};
        Map<String, String> env = homeWithSettings(bytes);
        assertThat(hook(env, "curl x", tmp.toString())).isEqualTo("ask");
        assertThat(hook(env, "ls", tmp.toString())).isEqualTo("ask");
    }

    @Test
    void unreadableHomeDefersOrDecidesFromTheTiers() throws Exception {
        Path file = Files.writeString(tmp.resolve("not-a-dir"), "x");
        for (String home : List.of(file.toString(), tmp.resolve("missing/home").toString(), "")) {
            Map<String, String> env = new HashMap<>();
            env.put("HOME", home);
            assertThat(hook(env, "ls", tmp.toString())).as(home).isIn("allow", "defer");
            assertThat(hook(env, "curl x", tmp.toString())).as(home).isEqualTo("defer");
            assertThat(hook(env, "echo $(curl x)", tmp.toString())).as(home).isIn("ask", "defer");
        }
    }

    @Test
    void fullDiskForTheLogStillDecides() throws Exception {
        Map<String, String> env = homeWithSettings("{\"permissions\":{\"deny\":[\"Bash(rm *)\"]}}".getBytes());
        env.put(HookLog.LOG_ENV, "/dev/full");
        assertThat(Files.exists(Path.of("/dev/full"))).isTrue();
        assertThat(hook(env, "ls", tmp.toString())).isEqualTo("allow");
        assertThat(hook(env, "ls; rm -rf x", tmp.toString())).isEqualTo("deny");
    }

    @Test
    void brokenUserDrlAsks() throws Exception {
        Map<String, String> env = homeWithSettings("{}".getBytes());
        Path rules = Files.createDirectories(tmp.resolve("home/.claude/compound-bash/rules"));
        Files.writeString(rules.resolve("mine.drl"), "package x\nrule \"broken\" when then oops( end\n");
        assertThat(hook(env, "ls", tmp.toString())).isEqualTo("ask");
        Files.write(rules.resolve("mine.drl"), new byte[]{(byte) 0xff, 0, (byte) 0xfe, 'r', 'u', 'l', 'e'});
        assertThat(hook(env, "ls", tmp.toString())).isIn("ask", "defer");
    }

    /**
     * Issue 20, finding 1: with the rules folder unreadable, the user's deny rule in it cannot be applied, so the
     * call asks (naming the folder) instead of approving by the allow rule. A link to nothing stands for every way
     * the folder can be unreadable here (CI runs as root, where chmod 000 reads; .ci/run checks chmod 000 as
     * nobody).
     */
    @Test
    void anUnreadableRulesFolderAsksInsteadOfApproving() throws Exception {
        Map<String, String> env = homeWithSettings("{\"permissions\":{\"allow\":[\"Bash(git push *)\"]}}".getBytes());
        Path rules = tmp.resolve("home/.claude/compound-bash/rules");
        Path elsewhere = Files.createDirectories(tmp.resolve("moved-rules"));
        Files.copy(Path.of("examples/rules/no-force-push-main.drl"), elsewhere.resolve("no-force-push-main.drl"));
        Files.createDirectories(rules.getParent());
        Files.createSymbolicLink(rules, elsewhere);
        assertThat(hook(env, "git push --force origin main", tmp.toString())).isEqualTo("deny");
        Files.delete(rules);
        Files.createSymbolicLink(rules, tmp.resolve("nowhere"));
        assertThat(hook(env, "git push --force origin main", tmp.toString())).isEqualTo("ask");
        assertThat(hook(env, "git push origin feature", tmp.toString())).isEqualTo("ask");
        assertThat(Files.readString(tmp.resolve("hook.log"))).contains("cannot read this rules folder");
    }

    @Test
    void manyProcessesShareOneLog() throws Exception {
        int n = Math.max(4, Integer.getInteger("test.processes", 32)); // 32 under -Pfull (CI)
        Map<String, String> env = homeWithSettings(
                "{\"permissions\":{\"allow\":[\"Bash(git *)\"],\"deny\":[\"Bash(rm *)\"]}}".getBytes());
        Path log = tmp.resolve("shared.log");
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        String[][] calls = {{"git status && ls", "allow"}, {"ls; rm -rf x", "deny"}, {"echo $(curl x)", "ask"},
                {"curl x", "defer"}};
        List<Process> ps = new ArrayList<>();
        List<Path> outs = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-XX:TieredStopAtLevel=1", "-Xshare:auto", "-Xlog:disable", "-cp", cp,
                    "dev.compoundbash.cli.Main", "hook");
            pb.environment().keySet().removeIf(k -> k.startsWith("CLAUDE_"));
            pb.environment().put("HOME", env.get("HOME"));
            pb.environment().put(HookLog.LOG_ENV, log.toString());
            Path out = tmp.resolve("out" + i);
            outs.add(out);
            pb.redirectOutput(out.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD);
            Process p = pb.start();
            p.getOutputStream().write(input(calls[i % calls.length][0], tmp.toString())
                    .getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            ps.add(p);
        }
        for (int i = 0; i < n; i++) {
            assertThat(ps.get(i).waitFor(600, TimeUnit.SECONDS)).isTrue();
            assertThat(ps.get(i).exitValue()).isZero();
            assertThat(outcome(Files.readString(outs.get(i)))).as(calls[i % calls.length][0])
                    .isEqualTo(calls[i % calls.length][1]);
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        assertThat(lines).isNotEmpty();
        for (String line : lines) {
            assertThat(line).matches("^\\d{4}-\\d{2}-\\d{2}T\\S+ .*").doesNotContain("\u0000");
        }
        // Every process logged its evaluation line and its outcome.
        assertThat(lines.stream().filter(l -> l.contains("ALLOW")).count()).isGreaterThanOrEqualTo(n / 4);
        assertThat(lines.stream().filter(l -> l.contains("DENY")).count()).isGreaterThanOrEqualTo(n / 4);
    }
}
