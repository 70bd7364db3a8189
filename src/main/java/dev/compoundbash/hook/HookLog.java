package dev.compoundbash.hook;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A version-tagged, human-readable log of the hook's steps, one line per step.
 *
 * <p>Lines look like {@code 2025-06-01T12:00:00.123+02:00 [0.1.0] evaluating: ls -la}. They are
 * buffered by {@link #log(String)} and written by {@link #close()} (or {@link #flush()}) with a single
 * append on a {@code FileChannel} opened with {@code APPEND}, under an exclusive {@code FileLock} ({@link dev.compoundbash.audit.LockedAppend}), so
 * the lines of parallel hook processes never interleave. Control characters in a message are escaped
 * ({@code \n}, {@code \r}, <code>&#92;uXXXX</code>) so one logical line is one physical line.
 *
 * <p>Logging never throws and never affects the hook's decision: any failure (unwritable directory,
 * full disk, {@code HOME} unset, a path that is not a regular file) is swallowed, with at most one
 * short note on stderr. Nothing is ever written to stdout, which carries the hook's decision
 * (Claude Code docs, Hooks reference, "Hook output").
 *
 * <p>Instances are not meant to be shared between threads, but are safe if they are.
 */
public final class HookLog implements AutoCloseable {

    /** Environment variable naming the log file; overrides the default location. */
    public static final String LOG_ENV = "CLAUDE_COMPOUND_LOG";

    /** Messages longer than this many characters are truncated. */
    public static final int MAX_MESSAGE_CHARS = 64 * 1024;

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSXXX");

    private final Path path;
    private final String version;
    private final Clock clock;
    private final PrintStream err;
    private final List<String> pending = new ArrayList<>();
    private boolean failed;

    private HookLog(Path path, String version, Clock clock, PrintStream err) {
        this.path = path;
        this.version = version == null ? "?" : version;
        this.clock = clock;
        this.err = err;
    }

    /**
     * Opens the log at {@code $CLAUDE_COMPOUND_LOG} when that variable is set and non-empty, else at
     * {@code $HOME/.claude/logs/compound-bash.log}. Both come from {@code env} only (never from the
     * JVM's {@code user.home}). When neither is usable the log is disabled (every call is a no-op).
     * Nothing is touched on disk until the first write.
     *
     * @param env     the process environment (e.g. {@code System.getenv()}); null is treated as empty
     * @param version the version tag written on every line, e.g. {@code "0.1.0"}
     * @return a log; never null, never throws
     */
    public static HookLog open(Map<String, String> env, String version) {
        return open(env, version, Clock.systemDefaultZone(), System.err);
    }

    static HookLog open(Map<String, String> env, String version, Clock clock, PrintStream err) {
        return new HookLog(resolvePath(env), version, clock, err);
    }

    /**
     * Returns where {@link #open(Map, String)} would write, or null when logging is disabled.
     *
     * @param env the process environment; null is treated as empty
     * @return the log file path, or null
     */
    public static Path resolvePath(Map<String, String> env) {
        try {
            Map<String, String> e = env == null ? Map.of() : env;
            String explicit = e.get(LOG_ENV);
            if (explicit != null && !explicit.isEmpty()) {
                return Path.of(explicit);
            }
            String home = e.get("HOME");
            if (home != null && !home.isEmpty()) {
                return Path.of(home, ".claude", "logs", "compound-bash.log");
            }
        } catch (RuntimeException ex) { // InvalidPathException
            return null;
        }
        return null;
    }

    /**
     * The file this log writes to.
     *
     * @return the path, or null when logging is disabled
     */
    public Path path() {
        return path;
    }

    /**
     * Buffers one line: {@code <ISO-8601 time> [<version>] <message>}, the time being taken now.
     * Never throws.
     *
     * @param message the message; null is logged as {@code null}
     */
    public synchronized void log(String message) {
        if (path == null) {
            return;
        }
        try {
            String time = OffsetDateTime.now(clock).format(TIME);
            pending.add(time + " [" + version + "] " + escape(message) + "\n");
        } catch (RuntimeException | OutOfMemoryError ex) {
            note(ex);
        }
    }

    /**
     * Appends the buffered lines to the file in one locked write, then clears the buffer. Creates
     * missing parent directories. Never throws; on failure the lines are dropped.
     */
    public synchronized void flush() {
        if (path == null || pending.isEmpty()) {
            pending.clear();
            return;
        }
        StringBuilder sb = new StringBuilder();
        for (String line : pending) {
            sb.append(line);
        }
        pending.clear();
        try {
            append(sb.toString().getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException | Error ex) {
            note(ex);
        }
    }

    /** Same as {@link #flush()}; the log may still be used afterwards. Never throws. */
    @Override
    public void close() {
        flush();
    }

    private void append(byte[] bytes) throws IOException {
        dev.compoundbash.audit.LockedAppend.append(path, bytes);
    }

    /**
     * Makes a message safe for one physical line ({@link dev.compoundbash.audit.LogReader#escape}).
     *
     * @param message the raw message; null gives {@code "null"}
     * @return the escaped message
     */
    public static String escape(String message) {
        return dev.compoundbash.audit.LogReader.escape(message);
    }

    private void note(Throwable ex) {
        if (failed) {
            return;
        }
        failed = true;
        try {
            if (err != null) {
                err.println("compound-bash: cannot write log " + path + ": " + ex);
            }
        } catch (RuntimeException ignored) {
            // nothing left to do
        }
    }

    // ------------------------------------------------------------------ message helpers

    /**
     * {@code loaded N allow, N ask, N deny patterns from [files]}.
     *
     * @param allow number of allow patterns
     * @param ask   number of ask patterns
     * @param deny  number of deny patterns
     * @param files the settings files read
     * @return the message
     */
    public static String loadedMessage(int allow, int ask, int deny, List<?> files) {
        return "loaded " + allow + " allow, " + ask + " ask, " + deny + " deny patterns from " + files;
    }

    /**
     * {@link #loadedMessage(int, int, int, List)} with what was read but does not count (the allow rules of a file
     * Claude Code does not read), appended as {@code ; not used: ...}.
     *
     * @param notes {@code PermissionSettings.notes()}
     * @return the message
     */
    public static String loadedMessage(int allow, int ask, int deny, List<?> files, List<String> notes) {
        String m = loadedMessage(allow, ask, deny, files);
        return notes.isEmpty() ? m : m + "; not used: " + String.join("; ", notes);
    }

    /**
     * {@code evaluating: <command>}.
     *
     * @param command the whole command string
     * @return the message
     */
    public static String evaluatingMessage(String command) {
        return "evaluating: " + command;
    }

    /**
     * {@code parsed N sub-command(s)}.
     *
     * @param n the number of sub-commands
     * @return the message
     */
    public static String parsedMessage(int n) {
        return "parsed " + n + " sub-command(s)";
    }

    /**
     * {@code   ok [<cmd>]: matched allow pattern for "<argv>"}.
     *
     * @param cmd  the sub-command's name (argv[0])
     * @param argv the sub-command's argv joined by single spaces
     * @return the message
     */
    public static String okMessage(String cmd, String argv) {
        return "  ok [" + cmd + "]: matched allow pattern for \"" + argv + "\"";
    }

    /**
     * {@code ALLOW: all N sub-command(s) matched}.
     *
     * @param n the number of sub-commands
     * @return the message
     */
    public static String allowMessage(int n) {
        return "ALLOW: all " + n + " sub-command(s) matched";
    }

    /**
     * {@code DEFER [<cmd>]: not in allow list: "<argv>"}.
     *
     * @param cmd  the sub-command's name
     * @param argv the sub-command's argv joined by single spaces
     * @return the message
     */
    public static String deferMessage(String cmd, String argv) {
        return "DEFER [" + cmd + "]: not in allow list: \"" + argv + "\"";
    }

    /**
     * {@code ASK [<cmd>]: <reason>}.
     *
     * @param cmd    the sub-command's name
     * @param reason why the user is asked
     * @return the message
     */
    public static String askMessage(String cmd, String reason) {
        return "ASK [" + cmd + "]: " + reason;
    }

    /**
     * {@code DENY [<cmd>]: <reason>}.
     *
     * @param cmd    the sub-command's name
     * @param reason why the call is denied
     * @return the message
     */
    public static String denyMessage(String cmd, String reason) {
        return "DENY [" + cmd + "]: " + reason;
    }
}
