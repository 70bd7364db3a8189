package dev.compoundbash.hook;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;

/**
 * The JSON object Claude Code writes on a PreToolUse hook's stdin.
 *
 * <p>Only the fields this hook needs are kept; unknown fields are ignored. A field that is absent,
 * null or not a JSON string is {@code null} here (the hook then defers).
 *
 * <p>Source: Claude Code docs, Hooks reference, "Hook input" (common fields {@code session_id},
 * {@code transcript_path}, {@code cwd}, {@code permission_mode}, {@code hook_event_name}) and
 * "PreToolUse input" ({@code tool_name}, {@code tool_input.command} for the Bash tool).
 *
 * @param toolName       {@code tool_name}, e.g. {@code "Bash"}
 * @param command        {@code tool_input.command}: the whole Bash command string
 * @param cwd            {@code cwd}: the working directory of the call
 * @param hookEventName  {@code hook_event_name}, e.g. {@code "PreToolUse"}
 * @param sessionId      {@code session_id}
 * @param permissionMode {@code permission_mode}, e.g. {@code "default"}, {@code "plan"}
 */
public record HookInput(
        String toolName,
        String command,
        String cwd,
        String hookEventName,
        String sessionId,
        String permissionMode) {

    /** Inputs larger than this many bytes are rejected. */
    public static final int MAX_INPUT_BYTES = 1024 * 1024;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    /**
     * Reads one hook input object from {@code in} (to its end, at most {@link #MAX_INPUT_BYTES}
     * bytes). The stream is not closed.
     *
     * @param in the hook's stdin
     * @return the parsed input; never null
     * @throws IOException when the stream fails, the input exceeds {@link #MAX_INPUT_BYTES}, is empty,
     *                     is not valid JSON, or its top level is not a JSON object
     */
    public static HookInput read(InputStream in) throws IOException {
        byte[] bytes = in.readNBytes(MAX_INPUT_BYTES + 1);
        if (bytes.length > MAX_INPUT_BYTES) {
            throw new IOException("hook input larger than " + MAX_INPUT_BYTES + " bytes");
        }
        JsonNode root = MAPPER.readTree(bytes);
        if (root == null || root.isMissingNode()) {
            throw new IOException("empty hook input");
        }
        if (!root.isObject()) {
            throw new IOException("hook input is not a JSON object");
        }
        JsonNode toolInput = root.get("tool_input");
        return new HookInput(
                text(root.get("tool_name")),
                toolInput == null ? null : text(toolInput.get("command")),
                text(root.get("cwd")),
                text(root.get("hook_event_name")),
                text(root.get("session_id")),
                text(root.get("permission_mode")));
    }

    /**
     * Tells whether this is a call of the Bash tool carrying a command string.
     *
     * @return true when {@code tool_name} is {@code "Bash"} and {@code tool_input.command} is a string
     */
    public boolean isBash() {
        return "Bash".equals(toolName) && command != null;
    }

    private static String text(JsonNode node) {
        return node != null && node.isTextual() ? node.textValue() : null;
    }
}
