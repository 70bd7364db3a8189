package dev.compoundbash.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.rules.Decider;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each agent's hook input, read as its documentation and the measured client (Codex 0.169.0, Gemini CLI 0.61.0,
 * Copilot CLI 1.0.102) write it, and each verdict answered in the agent's output format, checked against the fields
 * its documented schema names (docs/AGENTS.md).
 */
class AgentProtocolTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode json(String s) throws Exception {
        return JSON.readTree(s);
    }

    private static Decider.Verdict verdict(String outcome) {
        return new Decider.Verdict(outcome, "compound-bash: because", "rule", null);
    }

    // ---- Codex -----------------------------------------------------------------------------------------------------

    /** The PreToolUse input Codex 0.169.0 sent (captured in the real client): tool_name Bash, tool_input.command. */
    @Test
    void codexPreToolUseInputAsCaptured() throws Exception {
        AgentProtocol.Call c = new CodexProtocol().read(json("""
                {"session_id":"01a2","turn_id":"01a3","transcript_path":"/h/.codex/sessions/r.jsonl",
                 "cwd":"/w","hook_event_name":"PreToolUse","model":"gpt-5-codex","permission_mode":"bypassPermissions",
                 "tool_name":"Bash","tool_input":{"command":"ls -la | head -3; touch ../outside.txt"},
                 "tool_use_id":"call_bce5ce16"}"""), Map.of());
        assertThat(c.command()).isEqualTo("ls -la | head -3; touch ../outside.txt");
        assertThat(c.commands()).hasSize(1);
        assertThat(c.cwd()).isEqualTo("/w");
        assertThat(c.permissionMode()).isEqualTo("bypassPermissions");
        assertThat(c.decisionEvent()).isEqualTo("PreToolUse");
    }

    @Test
    void codexPermissionRequestForTheShellOnly() throws Exception {
        CodexProtocol p = new CodexProtocol();
        AgentProtocol.Call c = p.read(json("""
                {"session_id":"s","turn_id":"t","transcript_path":null,"cwd":"/w","hook_event_name":"PermissionRequest",
                 "model":"m","permission_mode":"default","tool_name":"Bash",
                 "tool_input":{"command":"rm -f /tmp/example","description":"clean up"}}"""), Map.of());
        assertThat(c.decisionEvent()).isEqualTo("PermissionRequest");
        assertThat(p.read(json("""
                {"hook_event_name":"PermissionRequest","tool_name":"NetworkAccess","cwd":"/w",
                 "tool_input":{"command":"network-access example.com"}}"""), Map.of())).isNull();
        assertThat(p.read(json("{\"hook_event_name\":\"PreToolUse\",\"tool_name\":\"apply_patch\",\"cwd\":\"/w\","
                + "\"tool_input\":{\"command\":\"x\"}}"), Map.of())).isNull();
    }

    /**
     * PreToolUse can only block (output_parser.rs: allow without updatedInput and ask are "unsupported" and fail
     * open): deny and ask answer permissionDecision deny with a non-empty reason, allow and defer nothing.
     */
    @Test
    void codexPreToolUseAnswers() throws Exception {
        CodexProtocol p = new CodexProtocol();
        AgentProtocol.Call c = new AgentProtocol.Call("PreToolUse", "PreToolUse", "Bash", List.of("x"), "/w", null,
                null, "bash");
        JsonNode deny = json(p.answer(c, verdict("deny")).stdout());
        assertThat(deny.path("hookSpecificOutput").path("hookEventName").asText()).isEqualTo("PreToolUse");
        assertThat(deny.path("hookSpecificOutput").path("permissionDecision").asText()).isEqualTo("deny");
        assertThat(deny.path("hookSpecificOutput").path("permissionDecisionReason").asText()).isNotBlank();
        assertThat(deny.size()).isEqualTo(1);
        JsonNode ask = json(p.answer(c, verdict("ask")).stdout());
        assertThat(ask.path("hookSpecificOutput").path("permissionDecision").asText()).isEqualTo("deny");
        assertThat(ask.path("hookSpecificOutput").path("permissionDecisionReason").asText())
                .startsWith("compound-bash would ask the user").endsWith("because");
        assertThat(p.answer(c, verdict("allow"))).isEqualTo(AgentProtocol.Answer.NONE);
        assertThat(p.answer(c, verdict("defer"))).isEqualTo(AgentProtocol.Answer.NONE);
    }

    /** PermissionRequest: decision.behavior allow or deny (with message); ask and defer leave Codex's prompt. */
    @Test
    void codexPermissionRequestAnswers() throws Exception {
        CodexProtocol p = new CodexProtocol();
        AgentProtocol.Call c = new AgentProtocol.Call("PermissionRequest", "PermissionRequest", "Bash", List.of("x"),
                "/w", null, null, "bash");
        JsonNode allow = json(p.answer(c, verdict("allow")).stdout());
        assertThat(allow.path("hookSpecificOutput").path("hookEventName").asText()).isEqualTo("PermissionRequest");
        assertThat(allow.path("hookSpecificOutput").path("decision").path("behavior").asText()).isEqualTo("allow");
        assertThat(allow.path("hookSpecificOutput").path("decision").has("message")).isFalse();
        JsonNode deny = json(p.answer(c, verdict("deny")).stdout());
        assertThat(deny.path("hookSpecificOutput").path("decision").path("behavior").asText()).isEqualTo("deny");
        assertThat(deny.path("hookSpecificOutput").path("decision").path("message").asText()).isNotBlank();
        assertThat(p.answer(c, verdict("ask"))).isEqualTo(AgentProtocol.Answer.NONE);
        assertThat(p.answer(c, verdict("defer"))).isEqualTo(AgentProtocol.Answer.NONE);
    }

    @Test
    void codexShellKinds() {
        assertThat(CodexProtocol.shellKind("/bin/bash")).isEqualTo("bash");
        assertThat(CodexProtocol.shellKind("/usr/bin/zsh")).isEqualTo("zsh");
        assertThat(CodexProtocol.shellKind("/bin/dash")).isEqualTo("sh");
        assertThat(CodexProtocol.shellKind("/bin/sh")).isEqualTo("sh");
        assertThat(CodexProtocol.shellKind("pwsh.exe")).isEqualTo("powershell");
        assertThat(CodexProtocol.shellKind("/usr/bin/fish")).isEqualTo("fish");
        assertThat(CodexProtocol.shellKind(null)).isEqualTo("bash");
    }

    // ---- Gemini CLI ------------------------------------------------------------------------------------------------

    /** The BeforeTool input Gemini CLI 0.61.0 sent (captured); dir_path moves the working directory. */
    @Test
    void geminiBeforeToolInputAsCaptured() throws Exception {
        GeminiProtocol p = new GeminiProtocol();
        AgentProtocol.Call c = p.read(json("""
                {"session_id":"83d1","transcript_path":"/h/.gemini/tmp/work/chats/s.jsonl","cwd":"/w",
                 "hook_event_name":"BeforeTool","timestamp":"2026-12-04T17:35:52.642Z","tool_name":"run_shell_command",
                 "tool_input":{"command":"ls -la | head -2","description":"run the case's command"}}"""), Map.of());
        assertThat(c.command()).isEqualTo("ls -la | head -2");
        assertThat(c.cwd()).isEqualTo("/w");
        assertThat(c.shell()).isEqualTo("bash");
        AgentProtocol.Call d = p.read(json("""
                {"cwd":"/w","hook_event_name":"BeforeTool","tool_name":"run_shell_command",
                 "tool_input":{"command":"ls","dir_path":"sub/../src"}}"""), Map.of());
        assertThat(d.cwd()).isEqualTo("/w/src");
        assertThat(p.read(json("{\"hook_event_name\":\"BeforeTool\",\"tool_name\":\"read_file\",\"cwd\":\"/w\","
                + "\"tool_input\":{\"file_path\":\"x\"}}"), Map.of())).isNull();
    }

    /** Gemini strips one leading shell wrapper and runs the rest in a subshell: every form is a reading. */
    @Test
    void geminiReadingsFollowItsShellWrapperStripping() {
        assertThat(GeminiProtocol.readings("bash -c 'rm -rf x'")).startsWith("bash -c 'rm -rf x'", "rm -rf x");
        assertThat(GeminiProtocol.readings("/bin/sh -c \"echo \\\"a\\\" \\$HOME\""))
                .contains("echo \"a\" $HOME", "echo \\\"a\\\" \\$HOME");
        List<String> plain = GeminiProtocol.readings("ls");
        assertThat(plain).hasSize(2);
        assertThat(plain.get(1)).contains("(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\nls\n)");
        assertThat(GeminiProtocol.readings("echo a\\").get(1)).contains("echo a\\ \n)");
    }

    /** Deny blocks with a reason; ask blocks (Gemini's own ask waits forever headless, measured) unless opted in. */
    @Test
    void geminiAnswers() throws Exception {
        AgentProtocol.Call c = new AgentProtocol.Call("BeforeTool", "PreToolUse", "run_shell_command", List.of("x"),
                "/w", null, null, "bash");
        JsonNode deny = json(new GeminiProtocol().answer(c, verdict("deny")).stdout());
        assertThat(deny.path("decision").asText()).isEqualTo("deny");
        assertThat(deny.path("reason").asText()).isEqualTo("compound-bash: because");
        JsonNode ask = json(new GeminiProtocol().answer(c, verdict("ask")).stdout());
        assertThat(ask.path("decision").asText()).isEqualTo("deny");
        assertThat(ask.path("reason").asText()).startsWith("compound-bash would ask the user");
        JsonNode asAsk = json(new GeminiProtocol(true).answer(c, verdict("ask")).stdout());
        assertThat(asAsk.path("decision").asText()).isEqualTo("ask");
        assertThat(new GeminiProtocol().answer(c, verdict("allow"))).isEqualTo(AgentProtocol.Answer.NONE);
        assertThat(new GeminiProtocol().answer(c, verdict("defer"))).isEqualTo(AgentProtocol.Answer.NONE);
    }

    // ---- Copilot CLI -----------------------------------------------------------------------------------------------

    /** The preToolUse input Copilot CLI 1.0.102 sent (captured): toolArgs an object; older ones send a string. */
    @Test
    void copilotPreToolUseInputAsCapturedAndDocumented() throws Exception {
        CopilotProtocol p = new CopilotProtocol();
        AgentProtocol.Call c = p.read(json("""
                {"sessionId":"d0dc","timestamp":1796405817493,"cwd":"/w","toolName":"bash",
                 "toolArgs":{"command":"ls -la | head -3; touch newfile","description":"run"}}"""), Map.of());
        assertThat(c.command()).isEqualTo("ls -la | head -3; touch newfile");
        assertThat(c.shell()).isEqualTo("bash");
        AgentProtocol.Call s = p.read(json("""
                {"timestamp":1704614600000,"cwd":"/w","toolName":"bash",
                 "toolArgs":"{\\"command\\":\\"rm -rf dist\\",\\"description\\":\\"Clean build directory\\"}"}"""),
                Map.of());
        assertThat(s.command()).isEqualTo("rm -rf dist");
        AgentProtocol.Call v = p.read(json("""
                {"hook_event_name":"PreToolUse","session_id":"s","timestamp":"2026-01-01T00:00:00Z","cwd":"/w",
                 "tool_name":"bash","tool_input":{"command":"ls"}}"""), Map.of());
        assertThat(v.command()).isEqualTo("ls");
        AgentProtocol.Call ps = p.read(json("{\"cwd\":\"C:/w\",\"toolName\":\"powershell\","
                + "\"toolArgs\":{\"command\":\"Get-ChildItem\"}}"), Map.of());
        assertThat(ps.shell()).isEqualTo("powershell");
        assertThat(p.read(json("{\"cwd\":\"/w\",\"toolName\":\"view\",\"toolArgs\":{\"path\":\"x\"}}"), Map.of()))
                .isNull();
    }

    @Test
    void copilotAnswersEveryDecision() throws Exception {
        CopilotProtocol p = new CopilotProtocol();
        AgentProtocol.Call c = new AgentProtocol.Call("preToolUse", "PreToolUse", "bash", List.of("x"), "/w", null,
                null, "bash");
        for (String d : List.of("allow", "deny", "ask")) {
            JsonNode o = json(p.answer(c, verdict(d)).stdout());
            assertThat(o.path("permissionDecision").asText()).isEqualTo(d);
            assertThat(o.path("permissionDecisionReason").asText()).isEqualTo("compound-bash: because");
        }
        assertThat(p.answer(c, verdict("defer"))).isEqualTo(AgentProtocol.Answer.NONE);
    }

    @Test
    void knownAgents() {
        assertThat(AgentProtocol.AGENTS).containsExactly("codex", "gemini", "copilot");
        for (String a : AgentProtocol.AGENTS) assertThat(AgentProtocol.of(a).agent()).isEqualTo(a);
        assertThat(AgentProtocol.of("claude-code")).isNull();
        assertThat(AgentProtocol.of("nope")).isNull();
    }
}
