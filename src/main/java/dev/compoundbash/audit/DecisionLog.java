package dev.compoundbash.audit;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.facts.Finding;
import dev.compoundbash.facts.Redirect;
import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;

/**
 * The machine-readable decision log: one JSON object per line (JSON Lines), one line per evaluation, beside the
 * human {@code HookLog}. Fields: {@code time version session_id cwd command decision reason subcommands
 * redirects rules_fired duration_us} (see docs/USAGE.md, "Decision log"). The default path is
 * {@code $HOME/.claude/logs/compound-bash.jsonl}; {@code CLAUDE_COMPOUND_DECISION_LOG} overrides it. The file
 * rotates to {@code .1}, {@code .2}, {@code .3} once it holds {@code CLAUDE_COMPOUND_DECISION_LOG_MAX_BYTES}
 * (default 10 MiB). Each entry is written with one locked append ({@link LockedAppend}), so parallel hook
 * processes never interleave or corrupt lines.
 *
 * <p>Logging never throws and never changes a decision; nothing is written to stdout.
 */
public final class DecisionLog implements AutoCloseable {
    /** Environment variable naming the decision log file. */
    public static final String PATH_ENV = "CLAUDE_COMPOUND_DECISION_LOG";
    /** Environment variable holding the rotation size in bytes. */
    public static final String MAX_BYTES_ENV = "CLAUDE_COMPOUND_DECISION_LOG_MAX_BYTES";
    /** Default rotation size: 10 MiB. */
    public static final long DEFAULT_MAX_BYTES = 10L * 1024 * 1024;
    /** Rotated generations kept. */
    public static final int KEEP = 3;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");

    private final Path path;
    private final long maxBytes;
    private final String version;
    private final Clock clock;
    private final PrintStream err;
    private String pending;

    private DecisionLog(Path path, long maxBytes, String version, Clock clock, PrintStream err) {
        this.path = path;
        this.maxBytes = maxBytes;
        this.version = version == null ? "?" : version;
        this.clock = clock;
        this.err = err;
    }

    /**
     * Opens the decision log named by {@code env} (nothing is touched on disk until {@link #close()}).
     *
     * @param env     the process environment ({@code HOME}, {@code CLAUDE_COMPOUND_DECISION_LOG},
     *                {@code CLAUDE_COMPOUND_DECISION_LOG_MAX_BYTES}); the JVM's {@code user.home} is never read
     * @param version the version written in each entry
     * @return the log; disabled (every call a no-op) when no path can be found; never null
     */
    public static DecisionLog open(Map<String, String> env, String version) {
        return open(env, version, Clock.systemDefaultZone(), System.err);
    }

    static DecisionLog open(Map<String, String> env, String version, Clock clock, PrintStream err) {
        long max = DEFAULT_MAX_BYTES;
        String m = env == null ? null : env.get(MAX_BYTES_ENV);
        if (m != null && !m.isBlank()) {
            try {
                max = Long.parseLong(m.trim());
            } catch (NumberFormatException e) {
                // keep the default
            }
        }
        return new DecisionLog(resolvePath(env), max, version, clock, err);
    }

    /**
     * Where the decision log of {@code env} is.
     *
     * @param env the process environment; null is treated as empty
     * @return {@code $CLAUDE_COMPOUND_DECISION_LOG}, else {@code $HOME/.claude/logs/compound-bash.jsonl}, else
     * null
     */
    public static Path resolvePath(Map<String, String> env) {
        try {
            Map<String, String> e = env == null ? Map.of() : env;
            String explicit = e.get(PATH_ENV);
            if (explicit != null && !explicit.isEmpty()) return Path.of(explicit);
            String home = e.get("HOME");
            if (home != null && !home.isEmpty()) return Path.of(home, ".claude", "logs", "compound-bash.jsonl");
        } catch (RuntimeException ex) {
            return null;
        }
        return null;
    }

    /** The file this log writes to, or null when disabled. */
    public Path path() {
        return path;
    }

    /**
     * Records one evaluation, written by {@link #close()}. Never throws.
     *
     * @param sessionId  Claude Code's {@code session_id}; may be null
     * @param cwd        the call's working directory; may be null
     * @param command    the Bash command
     * @param verdict    the hook's verdict
     * @param durationUs how long the evaluation took, in microseconds
     */
    public void record(String sessionId, String cwd, String command, Decider.Verdict verdict, long durationUs) {
        record(sessionId, cwd, null, command, verdict, durationUs);
    }

    /**
     * Records one evaluation with the call's permission mode, written by {@link #close()}. Never throws.
     *
     * @param sessionId      Claude Code's {@code session_id}; may be null
     * @param cwd            the call's working directory; may be null
     * @param permissionMode the input's {@code permission_mode} as given; null when the input had none
     * @param command        the Bash command
     * @param verdict        the hook's verdict
     * @param durationUs     how long the evaluation took, in microseconds
     */
    public void record(String sessionId, String cwd, String permissionMode, String command,
                       Decider.Verdict verdict, long durationUs) {
        record(sessionId, cwd, permissionMode, null, command, verdict, durationUs);
    }

    /**
     * Records one evaluation with the call's permission mode and the shell Claude Code runs it in ({@code shell},
     * written only for zsh, so that {@code replay} judges it for that shell). Never throws.
     *
     * @param sessionId      Claude Code's {@code session_id}; may be null
     * @param cwd            the call's working directory; may be null
     * @param permissionMode the input's {@code permission_mode} as given; null when the input had none
     * @param shell          {@code bash} or {@code zsh}; null is bash
     * @param command        the Bash command
     * @param verdict        the hook's verdict
     * @param durationUs     how long the evaluation took, in microseconds
     */
    public void record(String sessionId, String cwd, String permissionMode, String shell, String command,
                       Decider.Verdict verdict, long durationUs) {
        if (path == null) return;
        try {
            String line = entry(OffsetDateTime.now(clock).format(TIME), version, sessionId, cwd, permissionMode, command,
                    verdict, durationUs);
            if ("zsh".equals(shell)) line = line.replaceFirst("^\\{", "{\"shell\":\"zsh\",");
            pending = line + "\n";
        } catch (RuntimeException | OutOfMemoryError e) {
            note(e);
        }
    }

    /**
     * One log entry as a single-line JSON object.
     *
     * @param time       ISO-8601 time with offset
     * @param version    the hook's version
     * @param sessionId  {@code session_id}, may be null
     * @param cwd        working directory, may be null
     * @param command    the command
     * @param verdict    the verdict (its judgement, when present, gives the per-sub-command verdicts and rules)
     * @param durationUs microseconds
     * @return the JSON text, without a newline
     */
    public static String entry(String time, String version, String sessionId, String cwd, String command,
                               Decider.Verdict verdict, long durationUs) {
        return entry(time, version, sessionId, cwd, null, command, verdict, durationUs);
    }

    /**
     * One log entry as a single-line JSON object, with the call's {@code permission_mode} (omitted when null), so
     * that {@code replay} judges the entry again in the mode it was decided in.
     *
     * @param time           ISO-8601 time with offset
     * @param version        the hook's version
     * @param sessionId      {@code session_id}, may be null
     * @param cwd            working directory, may be null
     * @param permissionMode the input's {@code permission_mode} as given, may be null
     * @param command        the command
     * @param verdict        the verdict
     * @param durationUs     microseconds
     * @return the JSON text, without a newline
     */
    public static String entry(String time, String version, String sessionId, String cwd, String permissionMode,
                               String command, Decider.Verdict verdict, long durationUs) {
        // Written field by field (no tree in between): this line is made on every call of the warm evaluator.
        java.io.StringWriter w = new java.io.StringWriter(512);
        try (JsonGenerator g = JSON.getFactory().createGenerator(w)) {
            g.writeStartObject();
            g.writeStringField("time", time);
            g.writeStringField("version", version);
            g.writeStringField("session_id", sessionId);
            g.writeStringField("cwd", cwd);
            if (permissionMode != null) g.writeStringField("permission_mode", permissionMode);
            g.writeStringField("command", command);
            g.writeStringField("decision", verdict.outcome());
            g.writeStringField("reason", verdict.reason());
            Decider.Judgement j = verdict.judgement();
            java.util.Map<Integer, Finding> strongest = j == null ? java.util.Map.of()
                    : Finding.strongestBySubject(j.evaluation().findings());
            g.writeArrayFieldStart("subcommands");
            if (j != null) {
                for (SubCommand s : j.facts().subCommands()) {
                    g.writeStartObject();
                    g.writeNumberField("id", s.getId());
                    g.writeArrayFieldStart("argv");
                    for (String a : s.getArgv()) g.writeString(a);
                    g.writeEndArray();
                    g.writeStringField("role", s.getRole());
                    g.writeBooleanField("top_level", s.isTopLevel());
                    g.writeStringField("context", s.getContext());
                    writeVerdict(g, strongest.get(s.getId()));
                    g.writeEndObject();
                }
            }
            g.writeEndArray();
            g.writeArrayFieldStart("redirects");
            if (j != null) {
                for (Redirect r : j.facts().redirects()) {
                    if (!r.isOutput()) continue;
                    g.writeStartObject();
                    g.writeNumberField("id", r.getId());
                    g.writeStringField("text", r.getText());
                    writeVerdict(g, strongest.get(r.getId()));
                    g.writeEndObject();
                }
            }
            g.writeEndArray();
            g.writeArrayFieldStart("rules_fired");
            if (j != null) {
                for (RuleEngine.FiredRule f : j.evaluation().fired()) {
                    g.writeStartObject();
                    g.writeStringField("name", f.name());
                    g.writeStringField("file", f.file());
                    g.writeEndObject();
                }
            }
            g.writeEndArray();
            g.writeNumberField("duration_us", durationUs);
            g.writeEndObject();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e); // a StringWriter does not fail
        }
        return w.toString();
    }

    private static void writeVerdict(JsonGenerator g, Finding f) throws java.io.IOException {
        g.writeStringField("verdict", f == null ? "none" : f.getKind());
        g.writeStringField("reason", f == null ? null : f.getReason());
        g.writeStringField("rule", f == null ? null : f.getRuleName());
    }


    /** Writes the recorded entry, if any, in one locked append, rotating first when the file is full. */
    @Override
    public void close() {
        if (path == null || pending == null) return;
        byte[] bytes = pending.getBytes(StandardCharsets.UTF_8);
        pending = null;
        try {
            LockedAppend.append(path, bytes, maxBytes, KEEP);
        } catch (Exception | Error e) {
            note(e);
        }
    }

    private void note(Throwable e) {
        try {
            if (err != null) err.println("compound-bash: cannot write decision log " + path + ": " + e);
        } catch (RuntimeException ignored) {
            // nothing left to do
        }
    }
}
