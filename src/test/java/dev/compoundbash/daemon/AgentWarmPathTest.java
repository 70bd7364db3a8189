package dev.compoundbash.daemon;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code bin/compound-bash hook --agent AGENT} through the launcher: the warm path (the evaluator learns the agent
 * from the client's environment file) answers exactly as the cold path, in the agent's format; plain {@code hook}
 * stays Claude Code's whatever {@code COMPOUND_BASH_AGENT} the environment holds.
 */
class AgentWarmPathTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @AfterEach
    void stop() throws Exception {
        Protocol.stop(tmp.resolve("xdg").resolve("compound-bash"), 10_000);
    }

    record Result(int exit, String stdout, String stderr) {
    }

    Result launch(List<String> args, String input, Map<String, String> extra) throws Exception {
        Path xdg = tmp.resolve("xdg");
        if (!Files.exists(xdg)) {
            Files.createDirectories(xdg);
            Files.setPosixFilePermissions(xdg, PosixFilePermissions.fromString("rwx------"));
        }
        Path home = tmp.resolve("home");
        Path own = home.resolve(".config/compound-bash/settings.json");
        if (!Files.exists(own)) {
            Files.createDirectories(own.getParent());
            Files.writeString(own, "{\"permissions\": {\"deny\": [\"Bash(rm *)\"]}}");
            Files.writeString(tmp.resolve("stand-in.jar"), "v1");
        }
        List<String> cmd = new ArrayList<>(List.of("sh", Path.of("bin/compound-bash").toAbsolutePath().toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_BASH_"));
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", home.toString());
        env.put("XDG_RUNTIME_DIR", xdg.toString());
        env.put("COMPOUND_BASH_JAR", tmp.resolve("stand-in.jar").toString());
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

    void awaitEvaluator() throws Exception {
        Path dir = tmp.resolve("xdg").resolve("compound-bash");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (System.nanoTime() < deadline) {
            Optional<List<String>> info = Protocol.running(dir);
            if (info.isPresent() && Files.exists(dir.resolve(Protocol.REQUEST_FIFO))) return;
            Thread.sleep(100);
        }
        throw new AssertionError("no evaluator started");
    }

    @Test
    void everyAgentAnswersWarmAsCold() throws Exception {
        String cwd = tmp.toString();
        Map<String, String> inputs = Map.of(
                "codex", JSON.writeValueAsString(Map.of("session_id", "s", "cwd", cwd, "hook_event_name", "PreToolUse",
                        "permission_mode", "default", "tool_name", "Bash",
                        "tool_input", Map.of("command", "ls | xargs rm -f"))),
                "gemini", JSON.writeValueAsString(Map.of("session_id", "s", "cwd", cwd, "hook_event_name", "BeforeTool",
                        "tool_name", "run_shell_command", "tool_input", Map.of("command", "ls | xargs rm -f"))),
                "copilot", JSON.writeValueAsString(Map.of("sessionId", "s", "cwd", cwd, "timestamp", 1,
                        "toolName", "bash", "toolArgs", Map.of("command", "ls | xargs rm -f"))));
        Result first = launch(List.of("hook", "--agent", "copilot"), inputs.get("copilot"), Map.of());
        assertThat(first.exit()).isZero();
        awaitEvaluator();
        for (Map.Entry<String, String> e : inputs.entrySet()) {
            Result warm = launch(List.of("hook", "--agent", e.getKey()), e.getValue(), Map.of());
            assertThat(warm.stderr()).as(e.getKey()).contains("compound-bash: warm");
            Result cold = launch(List.of("hook", "--agent", e.getKey()), e.getValue(), Map.of("COMPOUND_BASH_WARM", "0"));
            assertThat(cold.stderr()).contains("compound-bash: cold");
            assertThat(warm.exit()).isZero();
            assertThat(cold.stdout()).as(e.getKey()).isEqualTo(warm.stdout()).contains("deny");
        }
        assertThat(JSON.readTree(launch(List.of("hook", "--agent", "gemini"), inputs.get("gemini"), Map.of()).stdout())
                .path("decision").asText()).isEqualTo("deny");
        // plain `hook` is Claude Code's protocol, whatever the environment says
        String claude = JSON.writeValueAsString(Map.of("session_id", "s", "cwd", cwd, "hook_event_name", "PreToolUse",
                "tool_name", "Bash", "tool_input", Map.of("command", "ls")));
        for (String warmth : new String[]{"1", "0"}) {
            Result r = launch(List.of("hook"), claude, Map.of("COMPOUND_BASH_AGENT", "gemini",
                    "COMPOUND_BASH_WARM", warmth));
            assertThat(JSON.readTree(r.stdout()).path("hookSpecificOutput").path("permissionDecision").asText())
                    .as("warm=" + warmth).isEqualTo("allow");
        }
    }
}
