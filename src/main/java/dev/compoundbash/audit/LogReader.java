package dev.compoundbash.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.BufferedReader;
import java.io.IOException;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Streams the evaluations recorded in a decision log, one at a time, in bounded memory. Reads both forms, line by
 * line, so one file may even mix them:
 *
 * <ul>
 *   <li>the JSONL decision log ({@link DecisionLog}): every line that starts with <code>{</code> is one entry with
 *       its {@code time}, {@code cwd}, {@code command}, {@code decision} and {@code reason};</li>
 *   <li>the human text log ({@code HookLog}, seed-compatible): an {@code evaluating: <command>} line starts an
 *       entry, and the next {@code ALLOW:}, {@code ASK:}, {@code DENY:} or {@code DEFER:} line (upper case,
 *       followed directly by a colon) gives its old decision and reason. That log has no working directory, so
 *       {@link Entry#cwd()} is null; its commands were escaped onto one line ({@code \n}, {@code \r},
 *       <code>&#92;uXXXX</code>, backslashes not doubled), and are unescaped here, so a command that held a
 *       literal backslash-n is read back with a newline: the JSONL log is the exact record.</li>
 * </ul>
 */
public final class LogReader {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern TEXT_LINE = Pattern.compile("^(\\S+) \\[[^\\]]*\\] (.*)$");
    private static final Pattern FINAL = Pattern.compile("^(ALLOW|ASK|DENY|DEFER): (.*)$");
    /** HookRunner's "permission mode: MODE" line (the mode the rules acted on; an unknown input mode is default). */
    private static final Pattern MODE = Pattern.compile("^permission mode: (\\S+)(?: \\(input said .*\\))?$");

    /**
     * One recorded evaluation.
     *
     * @param source      {@code file:line} of the entry
     * @param time        when it was decided; null when the line has no readable time
     * @param cwd         the working directory, null when the log does not record it
     * @param command     the command
     * @param oldDecision {@code allow ask deny defer}, or {@code unknown} when the log holds no decision for it
     * @param oldReason   the recorded reason, may be empty
     * @param permissionMode the call's {@code permission_mode} as recorded (JSONL {@code permission_mode}, or the
     *                    text log's {@code permission mode:} line), null when the log has none (default mode)
     * @param shell       the shell Claude Code ran the call in (JSONL {@code shell}, written for zsh), null: bash
     */
    public record Entry(String source, OffsetDateTime time, String cwd, String command, String oldDecision,
                        String oldReason, String permissionMode, String shell) {
        /** An entry of a call run by bash. */
        public Entry(String source, OffsetDateTime time, String cwd, String command, String oldDecision,
                     String oldReason, String permissionMode) {
            this(source, time, cwd, command, oldDecision, oldReason, permissionMode, null);
        }

        /** An entry without a recorded permission mode. */
        public Entry(String source, OffsetDateTime time, String cwd, String command, String oldDecision,
                     String oldReason) {
            this(source, time, cwd, command, oldDecision, oldReason, null);
        }
    }

    private LogReader() {
    }

    /**
     * Reads every entry of {@code in}, handing each to {@code sink} as soon as it is complete.
     *
     * @param name the file name used in {@link Entry#source()}
     * @param in   the log's lines
     * @param sink receives the entries in log order
     * @return the number of lines that were neither an entry nor part of one (e.g. malformed JSON)
     * @throws IOException when reading fails
     */
    public static int read(String name, BufferedReader in, Consumer<Entry> sink) throws IOException {
        String line;
        int n = 0;
        int skipped = 0;
        Entry open = null; // a text-log entry waiting for its decision line
        String mode = null; // a text-log "permission mode:" line, which comes before its "evaluating:" line
        while ((line = in.readLine()) != null) {
            n++;
            if (line.startsWith("{")) {
                try {
                    JsonNode o = JSON.readTree(line);
                    if (!o.path("command").isTextual()) {
                        skipped++;
                        continue;
                    }
                    sink.accept(new Entry(name + ":" + n, time(o.path("time").asText(null)),
                            o.hasNonNull("cwd") ? o.path("cwd").asText() : null, o.path("command").asText(),
                            o.path("decision").asText("unknown"), o.path("reason").asText(""),
                            o.path("permission_mode").isTextual() ? o.path("permission_mode").asText() : null,
                            o.path("shell").isTextual() ? o.path("shell").asText() : null));
                } catch (IOException e) {
                    skipped++;
                }
                continue;
            }
            Matcher m = TEXT_LINE.matcher(line);
            if (!m.matches()) {
                if (!line.isBlank()) skipped++;
                continue;
            }
            String message = m.group(2);
            Matcher pm = MODE.matcher(message);
            if (pm.matches()) {
                mode = pm.group(1);
                continue;
            }
            if (message.startsWith("evaluating: ")) {
                if (open != null) sink.accept(open);
                open = new Entry(name + ":" + n, time(m.group(1)), null,
                        unescape(message.substring("evaluating: ".length())), "unknown", "", mode);
                mode = null;
                continue;
            }
            Matcher f = FINAL.matcher(message);
            if (f.matches()) {
                mode = null; // a call that ended before "evaluating:" (an empty command) keeps no mode
                if (open != null) {
                    sink.accept(new Entry(open.source(), open.time(), null, open.command(),
                            f.group(1).toLowerCase(java.util.Locale.ROOT), f.group(2), open.permissionMode()));
                    open = null;
                }
            }
        }
        if (open != null) sink.accept(open);
        return skipped;
    }

    private static OffsetDateTime time(String s) {
        if (s == null) return null;
        try {
            return OffsetDateTime.parse(s);
        } catch (DateTimeParseException e) {
            return null;
        }
    }

    /**
     * Undoes {@code HookLog.escape}: {@code \n}, {@code \r} and <code>&#92;uXXXX</code> become the characters.
     *
     * @param s an escaped message
     * @return the message
     */
    public static String unescape(String s) {
        if (s.indexOf('\\') < 0) return s;
        StringBuilder sb = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\\' && i + 1 < s.length()) {
                char d = s.charAt(i + 1);
                if (d == 'n') {
                    sb.append('\n');
                    i++;
                    continue;
                }
                if (d == 'r') {
                    sb.append('\r');
                    i++;
                    continue;
                }
                if (d == 'u' && i + 6 <= s.length()) {
                    String hex = s.substring(i + 2, i + 6);
                    if (hex.matches("[0-9a-f]{4}")) {
                        sb.append((char) Integer.parseInt(hex, 16));
                        i += 5;
                        continue;
                    }
                }
            }
            sb.append(c);
        }
        return sb.toString();
    }

    /** Messages longer than this are cut by {@link #escape}. */
    public static final int MAX_ESCAPED_CHARS = 64 * 1024;

    /**
     * Makes a message safe for one physical line: {@code \n} and {@code \r} become the two-character
     * sequences {@code \n}, {@code \r}; tab is kept; other control characters (C0, DEL, C1) and the
     * Unicode line/paragraph separators become <code>&#92;uXXXX</code>. Backslashes are not doubled, so
     * commands stay readable. Messages over {@link #MAX_ESCAPED_CHARS} are truncated.
     *
     * @param message the raw message; null gives {@code "null"}
     * @return the escaped message
     */
    public static String escape(String message) {
        String m = String.valueOf(message);
        String suffix = "";
        if (m.length() > MAX_ESCAPED_CHARS) {
            suffix = "... [" + (m.length() - MAX_ESCAPED_CHARS) + " more chars]";
            m = m.substring(0, MAX_ESCAPED_CHARS);
        }
        StringBuilder sb = null;
        for (int i = 0; i < m.length(); i++) {
            char c = m.charAt(i);
            String rep;
            if (c == '\n') {
                rep = "\\n";
            } else if (c == '\r') {
                rep = "\\r";
            } else if (c == '\t') {
                rep = null;
            } else if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || c == '\u2028' || c == '\u2029') {
                rep = String.format("\\u%04x", (int) c);
            } else {
                rep = null;
            }
            if (rep != null && sb == null) {
                sb = new StringBuilder(m.length() + 16).append(m, 0, i);
            }
            if (sb != null) {
                if (rep != null) {
                    sb.append(rep);
                } else {
                    sb.append(c);
                }
            }
        }
        return (sb == null ? m : sb.toString()) + suffix;
    }
}
