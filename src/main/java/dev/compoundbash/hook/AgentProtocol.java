package dev.compoundbash.hook;

import com.fasterxml.jackson.databind.JsonNode;
import dev.compoundbash.rules.Decider;

import java.util.List;
import java.util.Map;

/**
 * The hook protocol of one coding agent other than Claude Code: how its pre-tool hook input names the shell call, and
 * how a verdict of the one decision function ({@link Decider}) is answered in the agent's output format and exit
 * code. Claude Code's own protocol stays in {@link HookInput}, {@link HookOutput} and {@link HookRunner}.
 *
 * <p>A decision the agent cannot express maps to its safest equivalent (docs/AGENTS.md, per agent): an {@code ask}
 * where the agent's hook cannot ask blocks the command with the reason, and an {@code allow} where the hook cannot
 * approve is no answer at all (the agent decides as usual).
 *
 * <p>Sources: Codex {@code codex-rs/hooks} (PreToolUse and PermissionRequest command input and output schemas,
 * {@code output_parser.rs}); Gemini CLI docs "Hooks reference" ({@code BeforeTool}) and
 * {@code packages/core/src/scheduler/scheduler.ts}; GitHub Copilot CLI docs "CLI hooks reference"
 * ({@code preToolUse} decision control); each measured in the real client (src/test/e2e/agents.py).
 */
public interface AgentProtocol {

    /**
     * One shell call as the agent's hook input names it.
     *
     * @param event          the hook event as the agent named it ({@code PreToolUse}, {@code PermissionRequest},
     *                       {@code BeforeTool}, {@code preToolUse})
     * @param decisionEvent  the event the decision function is told: {@code PreToolUse} (before the tool runs) or
     *                       {@code PermissionRequest} (the agent is about to ask the user)
     * @param toolName       the tool's name as the agent wrote it
     * @param commands       the command text to judge, as the agent sent it, then every other form the agent may run
     *                       (Gemini strips a leading {@code bash -c '...'} and wraps the command in a subshell): the
     *                       first is judged, the others answer only when a deny rule denies them
     * @param cwd            the directory the command runs in (absolute), or null
     * @param sessionId      the session id, or null
     * @param permissionMode the agent's permission mode in Claude Code's terms, or null (default)
     * @param shell          the shell that runs the command ({@code bash}, {@code zsh}, {@code powershell}, ...)
     */
    record Call(String event, String decisionEvent, String toolName, List<String> commands, String cwd,
                String sessionId, String permissionMode, String shell) {
        public Call {
            commands = List.copyOf(commands);
        }

        /** The command as the agent sent it. */
        public String command() {
            return commands.isEmpty() ? null : commands.get(0);
        }
    }

    /**
     * What the hook process answers.
     *
     * @param stdout   the JSON to print (one line), or null to print nothing
     * @param exitCode the exit status
     */
    record Answer(String stdout, int exitCode) {
        /** No answer: exit 0, nothing printed; the agent decides as usual. */
        public static final Answer NONE = new Answer(null, 0);
    }

    /** The agent's name as {@code --agent} takes it ({@code codex}, {@code gemini}, {@code copilot}). */
    String agent();

    /**
     * Reads the agent's hook input.
     *
     * @param root the input JSON object
     * @param env  the hook process's environment
     * @return the shell call, or null when the input is not a call of the agent's shell tool (the hook then answers
     *         nothing)
     */
    Call read(JsonNode root, Map<String, String> env);

    /**
     * Answers a verdict in the agent's format.
     *
     * @param call    the call
     * @param verdict the strictest verdict over the call's readings
     * @return the answer; {@link Answer#NONE} to let the agent decide
     */
    Answer answer(Call call, Decider.Verdict verdict);

    /**
     * The protocol of an agent.
     *
     * @param agent {@code codex}, {@code gemini} or {@code copilot}
     * @return its protocol, or null for an unknown name (and for Claude Code, whose protocol is {@link HookRunner})
     */
    static AgentProtocol of(String agent) {
        if (agent == null) return null;
        return switch (agent) {
            case "codex" -> new CodexProtocol();
            case "gemini" -> new GeminiProtocol();
            case "copilot" -> new CopilotProtocol();
            default -> null;
        };
    }

    /** The agents {@link #of(String)} knows, in the order the documentation lists them. */
    List<String> AGENTS = List.of("codex", "gemini", "copilot");

    /**
     * The text of a JSON node when it is a string, else null.
     *
     * @param n a node, or null
     * @return its text, or null
     */
    static String text(JsonNode n) {
        return n != null && n.isTextual() ? n.textValue() : null;
    }
}
