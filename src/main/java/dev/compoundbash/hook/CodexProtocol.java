package dev.compoundbash.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.compoundbash.rules.Decider;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * OpenAI Codex CLI's hooks ({@code [hooks]} in {@code config.toml} or {@code hooks.json}), matcher {@code Bash}: the
 * shell tools ({@code exec_command}, {@code shell_command}, {@code shell}) reach a hook as {@code tool_name: "Bash"}
 * with {@code tool_input.command} holding the script, as Claude Code's do.
 *
 * <ul>
 *   <li>{@code PreToolUse} can only block: {@code permissionDecision: "deny"} with a non-empty reason. Codex reports
 *       {@code allow} without {@code updatedInput} and {@code ask} as unsupported and runs the command (fails open;
 *       {@code output_parser.rs}). So deny answers deny, ask answers deny with the reason (the safest equivalent:
 *       the user is not asked, the command does not run), allow and defer answer nothing.</li>
 *   <li>{@code PermissionRequest} runs when Codex is about to ask the user (in 0.169: a command to run outside its
 *       sandbox). {@code decision.behavior: "allow"} runs it without the prompt, {@code "deny"} refuses it; no answer
 *       leaves the prompt. An allow answers allow (rules/agents.drl keeps the known-safe tiers from lifting a sandbox
 *       escalation), a deny answers deny, ask and defer answer nothing (Codex asks).</li>
 * </ul>
 * The command runs in the user's login shell ({@code getpwuid_r}'s {@code pw_shell}, run as {@code SHELL -lc
 * COMMAND}; measured {@code /bin/bash -lc}); Codex's {@code permission_mode} uses Claude Code's names
 * ({@code bypassPermissions} when its approval policy is {@code never}, as in {@code codex exec}).
 *
 * <p>Sources: {@code codex-rs/hooks/schema/generated/*.schema.json}, {@code codex-rs/hooks/src/engine/output_parser.rs},
 * {@code codex-rs/core/src/shell.rs} (the user's shell); measured with Codex 0.169.0 (docs/AGENTS.md).
 */
public final class CodexProtocol implements AgentProtocol {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    @Override
    public String agent() {
        return "codex";
    }

    @Override
    public Call read(JsonNode root, Map<String, String> env) {
        String event = AgentProtocol.text(root.get("hook_event_name"));
        if (!"PreToolUse".equals(event) && !"PermissionRequest".equals(event)) return null;
        String tool = AgentProtocol.text(root.get("tool_name"));
        JsonNode input = root.get("tool_input");
        String command = input == null ? null : AgentProtocol.text(input.get("command"));
        if (!"Bash".equals(tool) || command == null) return null;
        return new Call(event, event, tool, List.of(command), AgentProtocol.text(root.get("cwd")),
                AgentProtocol.text(root.get("session_id")), AgentProtocol.text(root.get("permission_mode")),
                loginShell(env));
    }

    @Override
    public Answer answer(Call call, Decider.Verdict v) {
        String reason = v.reason();
        ObjectNode out = JSON.objectNode();
        ObjectNode specific = out.putObject("hookSpecificOutput");
        specific.put("hookEventName", call.event());
        if (call.event().equals("PreToolUse")) {
            switch (v.outcome()) {
                case "deny" -> {
                    specific.put("permissionDecision", "deny");
                    specific.put("permissionDecisionReason", reason);
                }
                case "ask" -> {
                    specific.put("permissionDecision", "deny");
                    specific.put("permissionDecisionReason", asked(reason));
                }
                default -> {
                    return Answer.NONE;
                }
            }
        } else {
            switch (v.outcome()) {
                case "allow" -> specific.putObject("decision").put("behavior", "allow");
                case "deny" -> {
                    ObjectNode d = specific.putObject("decision");
                    d.put("behavior", "deny");
                    d.put("message", reason);
                }
                default -> {
                    return Answer.NONE;
                }
            }
        }
        return new Answer(AgentHook.json(out), 0);
    }

    /**
     * The reason of an ask that blocks, for an agent whose hook cannot ask.
     *
     * @param reason the verdict's reason ({@code compound-bash: ...})
     * @return the text shown to the model and the user
     */
    static String asked(String reason) {
        return reason.replaceFirst("^compound-bash: ", "compound-bash would ask the user (this agent's hook cannot "
                + "ask, so the command is blocked; run it yourself, or allow it with a rule): ");
    }

    /**
     * The kind of shell Codex runs commands in: the login shell of this user ({@code /etc/passwd}, as Codex's
     * {@code getpwuid_r}), else {@code $SHELL}, else bash; named {@code bash}, {@code zsh}, {@code sh} (also dash),
     * {@code powershell}, or the program's own name.
     *
     * @param env the hook's environment
     * @return the shell's kind
     */
    static String loginShell(Map<String, String> env) {
        String path = null;
        try {
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            for (String line : Files.readAllLines(Path.of("/etc/passwd"))) {
                String[] f = line.split(":", -1);
                if (f.length >= 7 && f[2].equals(String.valueOf(uid))) {
                    path = f[6];
                    break;
                }
            }
        } catch (Exception | Error e) {
            path = null;
        }
        if (path == null || path.isBlank()) path = env.get("SHELL");
        return shellKind(path);
    }

    /**
     * Names a shell program's kind.
     *
     * @param path a shell's path or name; null or blank is bash
     * @return {@code bash}, {@code zsh}, {@code sh}, {@code powershell}, or the program's base name
     */
    public static String shellKind(String path) {
        if (path == null || path.isBlank()) return "bash";
        String name = path.substring(path.lastIndexOf('/') + 1).replaceFirst("(?i)\\.exe$", "");
        return switch (name) {
            case "bash" -> "bash";
            case "zsh" -> "zsh";
            case "sh", "dash" -> "sh";
            case "pwsh", "powershell" -> "powershell";
            default -> name;
        };
    }
}
