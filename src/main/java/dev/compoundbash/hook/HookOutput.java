package dev.compoundbash.hook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.UncheckedIOException;
import java.util.Set;

/**
 * Builds the JSON a PreToolUse hook prints on stdout to decide a tool call.
 *
 * <p>To defer to Claude Code's normal permission flow, print nothing (and exit 0).
 *
 * <p>Source: Claude Code docs, Hooks reference, "PreToolUse decision control"
 * ({@code hookSpecificOutput.hookEventName}, {@code permissionDecision} = allow | deny | ask,
 * {@code permissionDecisionReason}).
 */
public final class HookOutput {

    /** Bypasses the permission prompt. */
    public static final String ALLOW = "allow";
    /** Prevents the tool call; the reason is shown to Claude. */
    public static final String DENY = "deny";
    /** Asks the user to confirm; the reason is shown to the user. */
    public static final String ASK = "ask";

    private static final Set<String> DECISIONS = Set.of(ALLOW, DENY, ASK);
    /** The longest message {@link #message} writes; a longer one is cut, ending in "...". */
    public static final int MAX_MESSAGE_CHARS = 300;

    /*
     * Non-ASCII characters are written as \\uXXXX escapes so the output is pure ASCII and survives
     * any stdout encoding (Java 17 encodes System.out with the platform charset, which is ASCII under
     * the C/POSIX locale).
     */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonWriteFeature.ESCAPE_NON_ASCII)
            .build();

    private HookOutput() {
    }

    /**
     * Returns {@code {"systemMessage":"<message>"}} on one line: a defer that tells the user why. Measured with the
     * real client (Claude Code 2.1.332, {@code claude-e2e}; docs/CLAUDE-CODE.md "A hook that only speaks"): a
     * PreToolUse hook that prints only this and exits 0 changes no decision (an unapproved command is still
     * refused, an approved one still runs), and Claude Code shows the message to the user as
     * {@code PreToolUse:Bash says: <message>}; text on stderr with exit 0 is not shown. The message is cut to
     * {@link #MAX_MESSAGE_CHARS} characters, control characters become spaces, and non-ASCII is escaped.
     *
     * @param message one line for the user
     * @return the JSON text, without a trailing newline
     */
    public static String message(String message) {
        String m = message == null ? "" : message.replaceAll("\\p{Cntrl}", " ");
        if (m.length() > MAX_MESSAGE_CHARS) m = m.substring(0, MAX_MESSAGE_CHARS - 3) + "...";
        ObjectNode root = MAPPER.createObjectNode();
        root.put("systemMessage", m);
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) { // cannot happen for a tree of strings
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Returns exactly
     * {@code {"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"<decision>","permissionDecisionReason":"<reason>"}}}
     * on one line, without a trailing newline; the reason is JSON-escaped (quotes, backslashes,
     * control characters, and non-ASCII as <code>&#92;uXXXX</code>).
     *
     * @param permissionDecision {@code "allow"}, {@code "deny"} or {@code "ask"}
     * @param reason             the reason; null is written as {@code ""}
     * @return the JSON text
     * @throws IllegalArgumentException when the decision is not one of the three values
     */
    public static String json(String permissionDecision, String reason) {
        if (permissionDecision == null || !DECISIONS.contains(permissionDecision)) {
            throw new IllegalArgumentException("permissionDecision must be allow, deny or ask: " + permissionDecision);
        }
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode out = root.putObject("hookSpecificOutput");
        out.put("hookEventName", "PreToolUse");
        out.put("permissionDecision", permissionDecision);
        out.put("permissionDecisionReason", reason == null ? "" : reason);
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) { // cannot happen for a tree of strings
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Returns {@code {"systemMessage":"<message>"}} on one line, without a trailing newline: a hook output that makes
     * no decision (Claude Code decides as usual) and shows the message to the user.
     *
     * @param message the message; null is written as {@code ""}
     * @return the JSON text
     */
    public static String systemMessage(String message) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("systemMessage", message == null ? "" : message);
        try {
            return MAPPER.writeValueAsString(root);
        } catch (JsonProcessingException e) { // cannot happen for a tree of strings
            throw new UncheckedIOException(e);
        }
    }
}
