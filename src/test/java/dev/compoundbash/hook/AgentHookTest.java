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
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The hook of another agent in process, from its input on stdin to its answer on stdout: compound-bash's own settings,
 * Claude Code's deny rules and the agent's own rules, through {@link HookRunner} with {@code COMPOUND_BASH_AGENT} (the
 * warm path's way) and through {@link AgentHook}.
 */
class AgentHookTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static String run(Map<String, String> env, String input) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int rc = new HookRunner(env, "test").run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(rc).isZero();
        return out.toString(StandardCharsets.UTF_8).strip();
    }

    private static String codex(String cwd, String command) throws Exception {
        return JSON.writeValueAsString(Map.of("session_id", "s", "turn_id", "t", "cwd", cwd,
                "hook_event_name", "PreToolUse", "model", "m", "permission_mode", "default", "tool_name", "Bash",
                "tool_input", Map.of("command", command), "tool_use_id", "u"));
    }

    @Test
    void rulesOfEverySourceDenyThroughWrappers(@TempDir Path home) throws Exception {
        Path work = Files.createDirectories(home.resolve("work"));
        Path own = home.resolve(".config/compound-bash/settings.json");
        Files.createDirectories(own.getParent());
        Files.writeString(own, "{\"permissions\": {\"deny\": [\"Bash(rm *)\"]}}");
        Files.createDirectories(home.resolve(".claude"));
        Files.writeString(home.resolve(".claude/settings.json"), "{\"permissions\": {\"deny\": [\"Bash(curl *)\"]}}");
        Files.createDirectories(home.resolve(".codex/rules"));
        Files.writeString(home.resolve(".codex/rules/x.rules"),
                "prefix_rule(pattern = [\"git\", \"push\"], decision = \"forbidden\")\n");
        Map<String, String> env = new HashMap<>(Map.of("HOME", home.toString(), AgentHook.AGENT_ENV, "codex"));
        for (String cmd : new String[]{"ls | xargs rm -f", "timeout 5 curl -s http://x", "bash -c 'git push'"}) {
            JsonNode o = JSON.readTree(run(env, codex(work.toString(), cmd)));
            assertThat(o.path("hookSpecificOutput").path("permissionDecision").asText()).as(cmd).isEqualTo("deny");
        }
        assertThat(run(env, codex(work.toString(), "ls -la"))).isEmpty();
        // the same input without the agent is Claude Code's protocol
        env.remove(AgentHook.AGENT_ENV);
        JsonNode claude = JSON.readTree(run(env, codex(work.toString(), "ls -la")));
        assertThat(claude.path("hookSpecificOutput").path("permissionDecision").asText()).isEqualTo("allow");
    }

    @Test
    void geminiDeniesWhatTheWrappedScriptRuns(@TempDir Path home) throws Exception {
        Path work = Files.createDirectories(home.resolve("work"));
        Path own = home.resolve(".config/compound-bash/settings.json");
        Files.createDirectories(own.getParent());
        Files.writeString(own, "{\"permissions\": {\"deny\": [\"Bash(rm *)\"]}}");
        Map<String, String> env = Map.of("HOME", home.toString(), AgentHook.AGENT_ENV, "gemini");
        String in = JSON.writeValueAsString(Map.of("session_id", "s", "cwd", work.toString(),
                "hook_event_name", "BeforeTool", "tool_name", "run_shell_command",
                "tool_input", Map.of("command", "sh -c \"rm -rf build\"")));
        assertThat(JSON.readTree(run(env, in)).path("decision").asText()).isEqualTo("deny");
        String ok = in.replace("sh -c \\\"rm -rf build\\\"", "ls");
        assertThat(run(env, ok)).isEmpty();
    }

    @Test
    void copilotAllowsAsksAndDenies(@TempDir Path home) throws Exception {
        Path work = Files.createDirectories(home.resolve("work"));
        Files.writeString(work.resolve("README.md"), "x\n");
        Path own = home.resolve(".config/compound-bash/settings.json");
        Files.createDirectories(own.getParent());
        Files.writeString(own, "{\"permissions\": {\"deny\": [\"shell(rm)\", \"Bash(rm *)\"], \"ask\": [\"Bash(git push *)\"]}}");
        Map<String, String> env = Map.of("HOME", home.toString(), AgentHook.AGENT_ENV, "copilot");
        java.util.function.Function<String, String> in = c -> {
            try {
                return JSON.writeValueAsString(Map.of("sessionId", "s", "timestamp", 1, "cwd", work.toString(),
                        "toolName", "bash", "toolArgs", Map.of("command", c)));
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        };
        assertThat(JSON.readTree(run(env, in.apply("cat README.md"))).path("permissionDecision").asText()).isEqualTo("allow");
        assertThat(JSON.readTree(run(env, in.apply("echo $(git push origin x)"))).path("permissionDecision").asText())
                .isEqualTo("ask");
        assertThat(JSON.readTree(run(env, in.apply("find . -exec rm {} +"))).path("permissionDecision").asText())
                .isEqualTo("deny");
        assertThat(run(env, in.apply("cat ../outside.txt"))).isEmpty();
        assertThat(run(env, "not json")).isEmpty();
        assertThat(run(env, "{\"toolName\":\"view\",\"toolArgs\":{}}")).isEmpty();
    }

    @Test
    void anUnknownAgentDefers(@TempDir Path home) {
        assertThat(run(Map.of("HOME", home.toString(), AgentHook.AGENT_ENV, "nope"), "{}")).isEmpty();
    }
}
