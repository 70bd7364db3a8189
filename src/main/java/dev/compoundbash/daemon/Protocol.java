package dev.compoundbash.daemon;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Names and helpers shared by the warm evaluator ({@link Evaluator}), the sh client in {@code bin/compound-bash},
 * and {@code compound-bash daemon status|stop}. See {@link Evaluator} for the protocol.
 */
public final class Protocol {
    /** Protocol version, sent by the client as {@code PROTO} and written on the pid file's second line. */
    public static final String VERSION = "2";
    /** Reply slots: FIFOs {@code r.0} ... and the claim files {@code s.0} ... (see {@link Evaluator}). */
    public static final int SLOTS = 32;
    /** The longest reply line written to a slot's FIFO; a longer answer goes through {@code c.ID.out}. */
    public static final int MAX_LINE = 4000;
    /** The request FIFO. */
    public static final String REQUEST_FIFO = "req";
    /** The evaluator's pid file: pid on the first line, then {@code key=value} lines. */
    public static final String PID_FILE = "pid";
    /** Held (flock) by the running evaluator. */
    public static final String LOCK = "lock";
    /** Directory a client makes (mkdir is atomic) before it starts an evaluator; the evaluator removes it. */
    public static final String STARTING = "starting";
    /**
     * The environment variables a client sends; nothing else of its environment reaches the evaluator. SHELL,
     * CLAUDE_CODE_SHELL and PATH tell which shell Claude Code runs (settings.ClaudeCodeShell).
     */
    public static final List<String> SENT_VARIABLES = List.of("HOME", "CLAUDE_PROJECT_DIR", "CLAUDE_CONFIG_DIR",
            "CLAUDE_COMPOUND_LOG", "CLAUDE_COMPOUND_DECISION_LOG", "TMPDIR", "SHELL", "CLAUDE_CODE_SHELL", "PATH",
            "COMPOUND_BASH_AGENT", "COMPOUND_BASH_SETTINGS", "XDG_CONFIG_HOME", "CODEX_HOME", "GEMINI_CLI_HOME");

    private Protocol() {
    }

    /**
     * The private runtime directory: {@code $XDG_RUNTIME_DIR/compound-bash} when {@code XDG_RUNTIME_DIR} is set,
     * else {@code $HOME/.claude/compound-bash/run} (the same rule as {@code bin/compound-bash}).
     *
     * @param env the environment
     * @return the directory, or null when neither variable is set
     */
    public static Path runtimeDirectory(Map<String, String> env) {
        String xdg = env.get("XDG_RUNTIME_DIR");
        if (xdg != null && !xdg.isEmpty()) return Path.of(xdg, "compound-bash");
        String home = env.get("HOME");
        if (home == null || home.isEmpty()) return null;
        return Path.of(home, ".claude", "compound-bash", "run");
    }

    /**
     * Creates {@code dir} (and parents) with mode 0700, and checks that it is a directory, not a symlink, owned by
     * this user and closed to others.
     *
     * @param dir the runtime directory
     * @throws IOException when it cannot be created or is not private
     */
    public static void createPrivateDirectory(Path dir) throws IOException {
        dev.compoundbash.rules.PackageCache.createPrivateDirectories(dir);
        if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) throw new IOException(dir + " is not a directory");
        Set<PosixFilePermission> perms = Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS);
        if (!perms.equals(PosixFilePermissions.fromString("rwx------"))) {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwx------"));
        }
        String owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS).getName();
        if (!owner.equals(System.getProperty("user.name"))) {
            throw new IOException(dir + " is owned by " + owner);
        }
    }

    /**
     * Parses a client's environment file: {@code NAME=value} entries, each ended by a NUL byte.
     *
     * @param bytes the file's bytes (UTF-8)
     * @return the variables; an entry without {@code =} is ignored
     */
    public static Map<String, String> parseEnv(byte[] bytes) {
        Map<String, String> env = new HashMap<>();
        int start = 0;
        for (int i = 0; i <= bytes.length; i++) {
            if (i == bytes.length || bytes[i] == 0) {
                if (i > start) {
                    String entry = new String(bytes, start, i - start, StandardCharsets.UTF_8);
                    int eq = entry.indexOf('=');
                    if (eq > 0) env.put(entry.substring(0, eq), entry.substring(eq + 1));
                }
                start = i + 1;
            }
        }
        return env;
    }

    /**
     * The running evaluator's pid file contents.
     *
     * @param dir the runtime directory
     * @return the pid file's lines, if an evaluator process with that pid is alive
     */
    public static Optional<List<String>> running(Path dir) {
        try {
            List<String> lines = Files.readAllLines(dir.resolve(PID_FILE));
            long pid = Long.parseLong(lines.get(0).trim());
            return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).map(h -> lines);
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /**
     * Asks the running evaluator to stop ({@code STOP} on the request FIFO), then waits for it; destroys it when it
     * has not exited after {@code waitMillis}.
     *
     * @param dir        the runtime directory
     * @param waitMillis how long to wait
     * @return true when an evaluator was running and has stopped
     * @throws IOException when the request FIFO cannot be written
     */
    public static boolean stop(Path dir, long waitMillis) throws IOException {
        Optional<List<String>> info = running(dir);
        if (info.isEmpty()) return false;
        long pid = Long.parseLong(info.get().get(0).trim());
        Path req = dir.resolve(REQUEST_FIFO);
        if (Files.exists(req) && !Files.isRegularFile(req)) {
            try (RandomAccessFile f = new RandomAccessFile(req.toFile(), "rw")) {
                f.write("STOP\n".getBytes(StandardCharsets.US_ASCII));
            }
        }
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty()) return true;
        try {
            h.get().onExit().get(waitMillis, java.util.concurrent.TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            h.get().destroy();
        }
        return true;
    }
}
