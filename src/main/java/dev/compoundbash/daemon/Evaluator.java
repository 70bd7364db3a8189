package dev.compoundbash.daemon;

import dev.compoundbash.hook.HookInput;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The warm evaluator: a per-user process that keeps the parser, the KieBases and the JIT-compiled code loaded and
 * answers hook calls that {@code bin/compound-bash} (a POSIX sh client, no JVM) posts over named pipes.
 *
 * <p>Protocol 1, all files inside one private runtime directory ({@link Protocol#runtimeDirectory}, mode 0700):
 * <ol>
 *   <li>The client writes {@code c.ID.env} (NUL-separated {@code NAME=value}: {@code PROTO}, {@code JAR}, and
 *       those of {@link Protocol#SENT_VARIABLES} that are set: {@code HOME}, {@code CLAUDE_PROJECT_DIR}, ...,
 *       {@code COMPOUND_BASH_AGENT} for another agent's hook) and {@code c.ID.in} (the hook input JSON), creates the FIFO {@code c.ID.fifo} and opens it
 *       read-write (so a reply can never be lost), where ID is its process id.</li>
 *   <li>It writes the line {@code CB1 ID\n} to the FIFO {@code req}. Lines are far shorter than {@code PIPE_BUF}
 *       (POSIX: at least 512 bytes), so concurrent requests never interleave (POSIX {@code write()}, pipes).</li>
 *   <li>The evaluator judges the input with {@link HookRunner} under exactly the sent environment, and writes one
 *       line {@code ID ok JSON} (JSON empty to defer) or {@code ID cold} (client: run the cold path) to
 *       {@code c.ID.fifo}. The client checks the ID, so an answer is never taken for another request.</li>
 * </ol>
 * {@code STOP\n} on {@code req} stops the evaluator. It exits by itself after an idle period, and when its jar
 * changes (an upgrade: the request is answered {@code cold} and the next client starts the new version).
 */
public final class Evaluator {
    private static final Set<PosixFilePermission> PRIVATE_FILE = PosixFilePermissions.fromString("rw-------");

    private final Path dir;
    private final Path jar;
    private final Duration idle;
    private final String version;
    private final EngineCache engines = new EngineCache();
    private final ExecutorService workers;
    private final AtomicLong lastRequest = new AtomicLong(System.nanoTime());
    private final AtomicLong served = new AtomicLong();
    private final JarStamp startStamp;
    private volatile boolean stopping;

    /**
     * @param dir     the private runtime directory
     * @param jar     the hook jar this evaluator runs from (its change means an upgrade); may be null
     * @param idle    idle time after which the evaluator exits
     * @param version this build's version, written in the pid file and on log lines
     * @param threads worker threads
     */
    public Evaluator(Path dir, Path jar, Duration idle, String version, int threads) {
        this.dir = dir;
        this.jar = jar;
        this.idle = idle;
        this.version = version;
        this.workers = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "compound-bash-evaluator");
            t.setDaemon(true);
            return t;
        });
        this.startStamp = JarStamp.of(jar);
    }

    /**
     * Runs until stopped, idle, or upgraded. Returns at once (0) when another evaluator holds the directory's lock.
     *
     * @return the exit status: 0
     * @throws IOException when the runtime directory cannot be made private or the FIFO cannot be created
     */
    public int run() throws IOException {
        Protocol.createPrivateDirectory(dir);
        Path lockFile = dir.resolve(Protocol.LOCK);
        try (FileChannel lockChannel = FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(PRIVATE_FILE));
             FileLock lock = lockChannel.tryLock()) {
            if (lock == null) {
                Files.deleteIfExists(dir.resolve(Protocol.STARTING));
                return 0;
            }
            warmUp();
            Path req = dir.resolve(Protocol.REQUEST_FIFO);
            Files.deleteIfExists(req);
            mkfifo(req);
            Path pidFile = dir.resolve(Protocol.PID_FILE);
            writePrivate(pidFile, ProcessHandle.current().pid() + "\nversion=" + version + "\njar=" + jar
                    + "\nstarted=" + Instant.now() + "\n");
            Files.deleteIfExists(dir.resolve(Protocol.STARTING));
            Thread watchdog = new Thread(this::watch, "compound-bash-idle");
            watchdog.setDaemon(true);
            watchdog.start();
            try (RandomAccessFile fifo = new RandomAccessFile(req.toFile(), "rw");
                 InputStream in = new FileInputStream(fifo.getFD())) {
                serve(in);
            } finally {
                stopping = true;
                removeIfOurs(pidFile);
                Files.deleteIfExists(req);
                workers.shutdown();
            }
        }
        return 0;
    }

    /** Reads request lines until {@code STOP}, idle exit or upgrade. */
    private void serve(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while (!stopping && (b = in.read()) >= 0) {
            if (b != '\n') {
                if (line.size() < 4096) line.write(b);
                continue;
            }
            String l = line.toString(StandardCharsets.US_ASCII);
            line.reset();
            if (l.equals("STOP")) return;
            if (l.equals("WAKE")) continue;
            if (!l.startsWith("CB1 ")) continue; // an unknown protocol: that client times out and runs cold
            String id = l.substring(4);
            if (!id.matches("[0-9]{1,10}")) continue;
            lastRequest.set(System.nanoTime());
            workers.execute(() -> answer(id));
        }
    }

    /** Judges request {@code id} and writes its reply line. */
    void answer(String id) {
        Path envFile = dir.resolve("c." + id + ".env");
        Path inFile = dir.resolve("c." + id + ".in");
        Path replyFifo = dir.resolve("c." + id + ".fifo");
        String reply;
        Object identity = identity(envFile);
        try {
            reply = id + " " + judge(Files.readAllBytes(envFile), Files.readAllBytes(inFile));
        } catch (IOException | RuntimeException e) {
            reply = id + " cold";
        }
        served.incrementAndGet();
        // Process ids are reused: if the client that posted this request gave up and a new client with the same
        // id has written its own request files since, this answer is not for it. Its own request gets its own.
        if (identity == null || !identity.equals(identity(envFile))) return;
        try {
            BasicFileAttributes a = Files.readAttributes(replyFifo, BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS);
            if (!a.isOther()) return; // not a FIFO: the client is gone
            try (RandomAccessFile out = new RandomAccessFile(replyFifo.toFile(), "rw")) {
                out.write((reply + "\n").getBytes(StandardCharsets.UTF_8));
            }
            // The client holds the FIFO open, so the reply outlives the name; removing the request's files here
            // saves the client an rm.
            if (identity.equals(identity(envFile))) {
                Files.deleteIfExists(envFile);
                Files.deleteIfExists(inFile);
                Files.deleteIfExists(replyFifo);
            }
        } catch (IOException e) {
            // The client gave up; it runs the cold path.
        }
    }

    /** The request file's inode and modification time (nanoseconds where the file system has them); null if gone. */
    private static Object identity(Path file) {
        try {
            BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return List.of(String.valueOf(a.fileKey()), a.lastModifiedTime().toInstant(), a.size());
        } catch (IOException e) {
            return null;
        }
    }

    /** {@code ok JSON}, {@code ok } (defer) or {@code cold}. */
    String judge(byte[] envBytes, byte[] input) throws IOException {
        Map<String, String> env = Protocol.parseEnv(envBytes);
        if (!Protocol.VERSION.equals(env.get("PROTO"))) return "cold";
        if (jar != null && !jar.toString().equals(env.get("JAR"))) return "cold";
        if (!startStamp.equals(JarStamp.of(jar))) {
            // Upgraded under us: answer cold and exit; the next client starts the new version.
            stopping = true;
            wake();
            return "cold";
        }
        HookInput parsed;
        try {
            parsed = HookInput.read(new ByteArrayInputStream(input));
        } catch (IOException | RuntimeException e) {
            parsed = null;
        }
        // Without an absolute cwd a cold run would judge in its own working directory, which this process lacks.
        if (parsed != null && parsed.isBash() && (parsed.cwd() == null || !parsed.cwd().startsWith("/"))) {
            return "cold";
        }
        // Another agent's call (docs/AGENTS.md) likewise, whatever its tool is called.
        String agent = env.get(dev.compoundbash.hook.AgentHook.AGENT_ENV);
        if (agent != null && !agent.isEmpty() && parsed != null
                && (parsed.cwd() == null || !parsed.cwd().startsWith("/"))) {
            return "cold";
        }
        Map<String, String> requestEnv = new HashMap<>(env);
        requestEnv.remove("PROTO");
        requestEnv.remove("JAR");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new HookRunner(requestEnv, version, engines).run(new ByteArrayInputStream(input),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        String json = out.toString(StandardCharsets.UTF_8).strip();
        if (json.indexOf('\n') >= 0) return "cold";
        return "ok " + json;
    }

    /** Exits after the idle period. */
    private void watch() {
        while (!stopping) {
            try {
                Thread.sleep(Math.min(idle.toMillis(), 10_000));
            } catch (InterruptedException e) {
                return;
            }
            if (System.nanoTime() - lastRequest.get() > idle.toNanos()) {
                stopping = true;
                wake();
            }
        }
    }

    /** Unblocks the request reader so it sees {@link #stopping}. */
    private void wake() {
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve(Protocol.REQUEST_FIFO).toFile(), "rw")) {
            f.write("WAKE\n".getBytes(StandardCharsets.US_ASCII));
        } catch (IOException e) {
            // the reader is gone already
        }
    }

    /** Loads the built-in rules and runs a few judgements so the first real call is not the slow one. */
    private void warmUp() {
        RuleEngine.load(List.of());
        try {
            Path home = Files.createTempDirectory("compound-bash-warmup");
            try {
                byte[] env = ("PROTO=" + Protocol.VERSION + "\0JAR=" + jar + "\0HOME=" + home + "\0")
                        .getBytes(StandardCharsets.UTF_8);
                String[] commands = {"git status && git diff --stat", "ls -la | grep x > /tmp/out",
                        "find . -name '*.java' -exec rm {} +", "for f in *.txt; do cat \"$f\"; done"};
                for (int i = 0; i < 40; i++) {
                    String json = "{\"tool_name\":\"Bash\",\"cwd\":\"" + home + "\",\"tool_input\":{\"command\":\""
                            + commands[i % commands.length].replace("\\", "\\\\").replace("\"", "\\\"") + "\"}}";
                    judge(env, json.getBytes(StandardCharsets.UTF_8));
                }
            } finally {
                try (var s = Files.walk(home)) {
                    s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        } catch (IOException | RuntimeException e) {
            // warm-up is an optimisation only
        }
        cleanStale();
    }

    /** Removes request files of clients that died (older than ten minutes). */
    private void cleanStale() {
        Instant limit = Instant.now().minus(Duration.ofMinutes(10));
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir, "c.*")) {
            for (Path p : s) {
                try {
                    if (Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant().isBefore(limit)) {
                        Files.deleteIfExists(p);
                    }
                } catch (IOException e) {
                    // a client removed it
                }
            }
        } catch (IOException e) {
            // nothing to clean
        }
    }

    private void removeIfOurs(Path pidFile) {
        try {
            String first = Files.readAllLines(pidFile).get(0).trim();
            if (first.equals(Long.toString(ProcessHandle.current().pid()))) Files.deleteIfExists(pidFile);
        } catch (IOException | RuntimeException e) {
            // already gone
        }
    }

    /** Requests served so far. */
    public long served() {
        return served.get();
    }

    static void writePrivate(Path file, String text) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), "tmp", ".tmp", PosixFilePermissions.asFileAttribute(PRIVATE_FILE));
        Files.writeString(tmp, text);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    static void mkfifo(Path fifo) throws IOException {
        Process p = new ProcessBuilder("mkfifo", "-m", "600", fifo.toString()).redirectErrorStream(true).start();
        try {
            p.getInputStream().readAllBytes();
            if (p.waitFor() != 0) throw new IOException("mkfifo " + fifo + " failed");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /** The jar's size and modification time; an upgrade changes it. */
    record JarStamp(long size, long modified) {
        static JarStamp of(Path jar) {
            if (jar == null) return new JarStamp(-1, -1);
            try {
                BasicFileAttributes a = Files.readAttributes(jar, BasicFileAttributes.class);
                return new JarStamp(a.size(), a.lastModifiedTime().toMillis());
            } catch (IOException e) {
                return new JarStamp(-2, -2);
            }
        }
    }
}
