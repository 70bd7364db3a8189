package dev.compoundbash.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.compoundbash.rules.Decider;

import java.util.List;
import java.util.Map;

/**
 * GitHub Copilot CLI's {@code preToolUse} hook ({@code ~/.copilot/hooks/*.json} or a repository's
 * {@code .github/hooks/*.json}, {@code {"version": 1, "hooks": {"preToolUse": [{"type": "command", "bash": ...}]}}}):
 * the input is {@code {sessionId, timestamp, cwd, toolName, toolArgs}}, the shell tool being {@code bash} (Unix) or
 * {@code powershell} (Windows) with {@code toolArgs.command}; the VS Code compatible form ({@code PreToolUse},
 * {@code tool_name}, {@code tool_input}) is read too. {@code toolArgs} may also be a JSON string (older releases).
 *
 * <p>The output {@code {"permissionDecision": "allow" | "deny" | "ask", "permissionDecisionReason": ...}} expresses
 * all three decisions: allow runs the command without Copilot's own checks (measured, Copilot CLI 1.0.102: a read
 * outside the working directory and a write both ran under a hook's allow), deny blocks it, ask prompts (a headless
 * {@code copilot -p} run refuses: "unable to ask user for confirmation"). Defer prints nothing.
 *
 * <p>Sources: GitHub docs "GitHub Copilot CLI hooks reference" (preToolUse decision control, tool names);
 * measured with Copilot CLI 1.0.102 (docs/AGENTS.md).
 */
public final class CopilotProtocol implements AgentProtocol {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Override
    public String agent() {
        return "copilot";
    }

    @Override
    public Call read(JsonNode root, Map<String, String> env) {
        boolean vscode = root.has("tool_name") || "PreToolUse".equals(AgentProtocol.text(root.get("hook_event_name")));
        String tool = AgentProtocol.text(root.get(vscode ? "tool_name" : "toolName"));
        JsonNode args = root.get(vscode ? "tool_input" : "toolArgs");
        if (args != null && args.isTextual()) {
            try {
                args = MAPPER.readTree(args.textValue());
            } catch (Exception e) {
                args = null;
            }
        }
        String command = args == null || !args.isObject() ? null : AgentProtocol.text(args.get("command"));
        if (command == null || !("bash".equals(tool) || "powershell".equals(tool))) return null;
        return new Call(vscode ? "PreToolUse" : "preToolUse", "PreToolUse", tool, List.of(command),
                AgentProtocol.text(root.get("cwd")),
                AgentProtocol.text(root.get(vscode ? "session_id" : "sessionId")), null,
                tool.equals("bash") ? "bash" : "powershell");
    }

    @Override
    public Answer answer(Call call, Decider.Verdict v) {
        if (v.defers()) return Answer.NONE;
        ObjectNode out = JSON.objectNode();
        out.put("permissionDecision", v.outcome());
        out.put("permissionDecisionReason", v.reason());
        return new Answer(AgentHook.json(out), 0);
    }
}
