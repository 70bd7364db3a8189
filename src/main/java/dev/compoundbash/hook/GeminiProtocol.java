package dev.compoundbash.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.compoundbash.rules.Decider;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Gemini CLI's {@code BeforeTool} hook, matcher {@code run_shell_command} ({@code hooks.BeforeTool} in
 * {@code settings.json}): {@code tool_input.command} is the command, {@code tool_input.dir_path} (optional) the
 * directory it runs in, relative to the workspace ({@code cwd}).
 *
 * <p>What the hook can say: {@code decision: "deny"} (alias {@code block}) with a {@code reason} blocks the call, the
 * reason going to the model as the tool's error; {@code decision: "ask"} forces the confirmation prompt, which in a
 * headless run ({@code gemini -p}) is never answered, and the run waits until it is killed (measured, Gemini CLI
 * 0.61.0); {@code decision: "allow"} changes nothing, the policy engine decides after the hook (measured: a call
 * the policy denies stays denied). So deny answers deny, ask answers deny with the reason (the safest equivalent;
 * {@code compoundBash.agents.gemini.ask: "ask"} in compound-bash's settings answers Gemini's own ask instead, for
 * interactive use only), allow and defer answer nothing.
 *
 * <p>What runs: on Linux and macOS {@code bash -c} with the command inside a subshell,
 * {@code _bgpids_file=...\n(\n  trap '...' EXIT\nCOMMAND\n)\n__code=$?\nexit $__code}, after Gemini strips one
 * leading {@code bash -c}, {@code sh -c}, {@code zsh -c} (any path), {@code cmd.exe /c} or {@code powershell -Command}
 * and its quotes ({@code stripShellWrapper}). The command as sent is judged; the other readings (its stripped forms,
 * the wrapped script Gemini runs: a command may close the subshell early) answer only when a deny rule denies them.
 * On Windows the shell is PowerShell.
 *
 * <p>Sources: Gemini CLI docs "Hooks reference"; {@code packages/core/src/scheduler/scheduler.ts}
 * ({@code _processToolCall}: hook, then policy), {@code packages/core/src/tools/shell.ts}
 * ({@code wrapCommandForBackgroundPIDs}), {@code packages/core/src/utils/shell-utils.ts}
 * ({@code getShellConfiguration}, {@code stripShellWrapper}); measured with Gemini CLI 0.61.0.
 */
public final class GeminiProtocol implements AgentProtocol {
    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    /** Gemini CLI's {@code stripShellWrapper} pattern (shell-utils.ts), case-insensitive. */
    static final Pattern WRAPPER = Pattern.compile("^\\s*(?:(?:(?:\\S+/)?(?:sh|bash|zsh))\\s+-c|cmd\\.exe\\s+/c|"
            + "powershell(?:\\.exe)?\\s+(?:-NoProfile\\s+)?-Command|pwsh(?:\\.exe)?\\s+(?:-NoProfile\\s+)?-Command)\\s+",
            Pattern.CASE_INSENSITIVE);

    /** The setting that makes an ask answer Gemini's own ask (interactive use) instead of a block. */
    public static final String ASK_SETTING = "compoundBash.agents.gemini.ask";

    private final boolean askAsAsk;

    /** The protocol, an ask answering a block. */
    public GeminiProtocol() {
        this(false);
    }

    /**
     * @param askAsAsk an ask answers {@code decision: "ask"} (Gemini's prompt; it waits forever in a headless run)
     */
    public GeminiProtocol(boolean askAsAsk) {
        this.askAsAsk = askAsAsk;
    }

    @Override
    public String agent() {
        return "gemini";
    }

    @Override
    public Call read(JsonNode root, Map<String, String> env) {
        if (!"BeforeTool".equals(AgentProtocol.text(root.get("hook_event_name")))) return null;
        String tool = AgentProtocol.text(root.get("tool_name"));
        JsonNode input = root.get("tool_input");
        String command = input == null ? null : AgentProtocol.text(input.get("command"));
        if (!"run_shell_command".equals(tool) || command == null) return null;
        String cwd = AgentProtocol.text(root.get("cwd"));
        String dir = AgentProtocol.text(input.get("dir_path"));
        if (dir != null && !dir.isEmpty() && cwd != null) {
            try {
                cwd = Path.of(cwd).resolve(dir).normalize().toString();
            } catch (RuntimeException e) {
                cwd = null;
            }
        }
        String os = System.getProperty("os.name", "");
        String shell = os.toLowerCase().startsWith("windows") ? "powershell" : "bash";
        return new Call("BeforeTool", "PreToolUse", tool, readings(command), cwd,
                AgentProtocol.text(root.get("session_id")), null, shell);
    }

    @Override
    public Answer answer(Call call, Decider.Verdict v) {
        ObjectNode out = JSON.objectNode();
        switch (v.outcome()) {
            case "deny" -> {
                out.put("decision", "deny");
                out.put("reason", v.reason());
            }
            case "ask" -> {
                if (askAsAsk) {
                    out.put("decision", "ask");
                    out.put("reason", v.reason());
                    out.put("systemMessage", v.reason());
                } else {
                    out.put("decision", "deny");
                    out.put("reason", CodexProtocol.asked(v.reason()));
                }
            }
            default -> {
                return Answer.NONE;
            }
        }
        return new Answer(AgentHook.json(out), 0);
    }

    /**
     * The readings of a command Gemini CLI may run: the command as sent; when a shell wrapper leads it, what
     * {@code stripShellWrapper} leaves (the quotes cut off, and for a double-quoted {@code sh -c "..."} also the text
     * with bash's double-quote escapes removed, as its {@code shell-quote} parse does); and the script it runs, every
     * form inside its background-PID wrapper.
     *
     * @param command the command as sent
     * @return the readings, the command first, without duplicates
     */
    static List<String> readings(String command) {
        List<String> out = new ArrayList<>();
        out.add(command);
        Matcher m = WRAPPER.matcher(command);
        String stripped = command.strip();
        if (m.find()) {
            String rest = command.substring(m.end()).strip();
            stripped = rest;
            if (rest.length() >= 2 && (rest.startsWith("\"") && rest.endsWith("\"")
                    || rest.startsWith("'") && rest.endsWith("'"))) {
                stripped = rest.substring(1, rest.length() - 1);
                if (rest.startsWith("\"")) add(out, unescapeDoubleQuoted(stripped));
            }
            add(out, stripped);
        }
        if (!stripped.isEmpty()) {
            String t = stripped.endsWith("\\") ? stripped + " " : stripped;
            add(out, "_bgpids_file=/tmp/gemini-shell-bgpids.tmp\n(\n  trap 'jobs -p > \"$_bgpids_file\"' EXIT\n" + t
                    + "\n)\n__code=$?\nexit $__code");
        }
        return out;
    }

    private static void add(List<String> out, String s) {
        if (!out.contains(s)) out.add(s);
    }

    /** The text of a double-quoted bash word: {@code \$ \` \" \\} and backslash-newline lose their backslash. */
    private static String unescapeDoubleQuoted(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length() && "$`\"\\\n".indexOf(s.charAt(i + 1)) >= 0) {
                char n = s.charAt(++i);
                if (n != '\n') b.append(n);
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
