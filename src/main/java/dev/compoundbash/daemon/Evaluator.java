package dev.compoundbash.daemon;

import dev.compoundbash.hook.HookInput;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.hook.SafeOutcome;
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
 * answers hook calls that {@code bin/compound-bash} (a POSIX sh client running only shell builtins: no fork, no exec)
 * posts through a private runtime directory.
 *
 * <p>Protocol 2, all files inside one private runtime directory ({@link Protocol#runtimeDirectory}, mode 0700):
 * <ol>
 *   <li>At start the evaluator makes {@value Protocol#SLOTS} reply FIFOs {@code r.N} and holds each open for
 *       writing as long as it runs; it writes {@code pid} (its pid, then {@code proto=2}) last.</li>
 *   <li>The client writes {@code c.ID.env} (NUL-separated {@code NAME=value}: {@code PROTO}, {@code JAR},
 *       {@code BUDGET}, and the variables of {@link Protocol#SENT_VARIABLES}, {@code COMPOUND_BASH_AGENT} among them
 *       for another agent's hook) and {@code c.ID.in} (the hook input
 *       JSON), where ID is its process id. It claims a slot by creating {@code s.N} with its ID (sh's noclobber:
 *       {@code O_EXCL}), opens {@code r.N} for reading only (so the evaluator's exit is an end of file, never a hang),
 *       and writes {@code CB2 ID N\n} to the FIFO {@code req}. Lines are far shorter than {@code PIPE_BUF} (POSIX: at
 *       least 512 bytes), so concurrent requests never interleave (POSIX {@code write()}, pipes).</li>
 *   <li>The evaluator judges the input with {@link HookRunner} under exactly the sent environment, and writes one
 *       line {@code ID ok JSON} (JSON empty to defer), {@code ID out} (the answer is in {@code c.ID.out}: longer than
 *       a pipe write is atomic) or {@code ID cold} (client: run the cold path) to {@code r.N}. The client reads
 *       lines until the one for its ID (a client that died before reading leaves its line behind), then writes
 *       {@code DONE ID N}; the evaluator removes {@code s.N}. Slots of clients that died are freed (and their FIFO
 *       drained) by the idle watchdog.</li>
 *   <li>Every request is answered within the client's {@code BUDGET} seconds: when judging takes longer (user rule
 *       files compiling on a loaded machine), the answer is {@link SafeOutcome}, and the judging goes on so the
 *       next call finds the rules loaded.</li>
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
    private final RandomAccessFile[] slots = new RandomAccessFile[Protocol.SLOTS];
    private final java.util.concurrent.ScheduledExecutorService timer =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "compound-bash-budget");
                t.setDaemon(true);
                return t;
            });
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
            RuleEngine.load(List.of()); // the built-in rules, before the first request
            openSlots();
            Path req = dir.resolve(Protocol.REQUEST_FIFO);
            Files.deleteIfExists(req);
            mkfifo(req);
            Path pidFile = dir.resolve(Protocol.PID_FILE);
            writePrivate(pidFile, ProcessHandle.current().pid() + "\nproto=" + Protocol.VERSION + "\nversion="
                    + version + "\njar=" + jar + "\nstarted=" + Instant.now() + "\n");
            Files.deleteIfExists(dir.resolve(Protocol.STARTING));
            Thread watchdog = new Thread(this::watch, "compound-bash-idle");
            watchdog.setDaemon(true);
            watchdog.start();
            Thread warm = new Thread(this::warmUp, "compound-bash-warm-up");
            warm.setDaemon(true);
            warm.setPriority(Thread.MIN_PRIORITY);
            warm.start();
            try (RandomAccessFile fifo = new RandomAccessFile(req.toFile(), "rw");
                 InputStream in = new java.io.BufferedInputStream(new FileInputStream(fifo.getFD()), 512)) {
                serve(in);
            } finally {
                stopping = true;
                removeIfOurs(pidFile);
                Files.deleteIfExists(req);
                workers.shutdown();
                closeSlots();
            }
        }
        return 0;
    }

    /** Makes the reply FIFOs anew (a client of an evaluator that died holds the old ones) and opens each. */
    private void openSlots() throws IOException {
        List<String> cmd = new java.util.ArrayList<>(List.of("mkfifo", "-m", "600"));
        for (int i = 0; i < Protocol.SLOTS; i++) {
            Path r = dir.resolve("r." + i);
            Files.deleteIfExists(r);
            Files.deleteIfExists(dir.resolve("s." + i));
            cmd.add(r.toString());
        }
        run(cmd);
        for (int i = 0; i < Protocol.SLOTS; i++) slots[i] = new RandomAccessFile(dir.resolve("r." + i).toFile(), "rw");
    }

    private void closeSlots() {
        for (RandomAccessFile f : slots) {
            try {
                if (f != null) f.close();
            } catch (IOException e) {
                // closing anyway
            }
        }
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
            String[] w = l.split(" ");
            // An unknown protocol is ignored: that client reads an end of file when this evaluator exits.
            if (w.length != 3 || !digits(w[1], 10) || !digits(w[2], 3)) continue;
            int slot = Integer.parseInt(w[2]);
            if (slot >= Protocol.SLOTS) continue;
            if (w[0].equals("CB2")) {
                lastRequest.set(System.nanoTime());
                answer(w[1], slot);
            } else if (w[0].equals("DONE")) {
                release(slot, w[1]);
            }
        }
    }

    /** Whether {@code s} is 1 to {@code max} ASCII digits (as {@code [0-9]{1,max}}, without a regex per request). */
    static boolean digits(String s, int max) {
        if (s.isEmpty() || s.length() > max) return false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') return false;
        }
        return true;
    }

    /** Frees slot {@code slot} when client {@code id} holds it, and removes the long answer it has read. */
    private void release(int slot, String id) {
        Path s = dir.resolve("s." + slot);
        try {
            Files.deleteIfExists(dir.resolve("c." + id + ".out"));
        } catch (IOException e) {
            // cleaned with the stale files
        }
        try {
            if (Files.readString(s).strip().equals(id)) Files.deleteIfExists(s);
        } catch (IOException e) {
            // already free
        }
    }

    /** Frees the slots of clients that died, and drops what their FIFOs still hold. */
    private void freeDeadSlots() {
        for (int i = 0; i < Protocol.SLOTS; i++) {
            Path s = dir.resolve("s." + i);
            try {
                String owner = Files.readString(s).strip();
                boolean alive = owner.matches("[0-9]{1,10}")
                        && ProcessHandle.of(Long.parseLong(owner)).map(ProcessHandle::isAlive).orElse(false);
                if (alive) continue;
                if (!owner.matches("[0-9]{1,10}") && Files.getLastModifiedTime(s).toInstant()
                        .isAfter(Instant.now().minusSeconds(60))) {
                    continue; // being written
                }
                Files.deleteIfExists(s);
                RandomAccessFile r = slots[i];
                synchronized (r) {
                    FileInputStream in = new FileInputStream(r.getFD());
                    byte[] buf = new byte[4096];
                    int n;
                    while ((n = in.available()) > 0) {
                        if (in.read(buf, 0, Math.min(n, buf.length)) <= 0) break;
                    }
                }
            } catch (IOException | RuntimeException e) {
                // free or unreadable: nothing to do
            }
        }
    }

    /**
     * Judges request {@code id} and writes its reply line to slot {@code slot}'s FIFO: the verdict, or the safe
     * outcome when the verdict is not ready within the request's budget.
     */
    void answer(String id, int slot) {
        Path envFile = dir.resolve("c." + id + ".env");
        Object identity = identity(envFile);
        java.util.concurrent.atomic.AtomicBoolean replied = new java.util.concurrent.atomic.AtomicBoolean();
        byte[] envBytes;
        try {
            envBytes = Files.readAllBytes(envFile);
        } catch (IOException e) {
            reply(id, slot, "cold", identity, replied);
            return;
        }
        Map<String, String> env = Protocol.parseEnv(envBytes);
        long budget = budgetMillis(env);
        // The budget runs from now, also while the request waits for a worker.
        java.util.concurrent.ScheduledFuture<?> late = timer.schedule(() -> {
            if (replied.get()) return;
            String json;
            try {
                json = SafeOutcome.json(requestEnv(env), "it could not judge this call within "
                        + Math.round(budget / 1000.0) + " s (your rule files may still be compiling)");
            } catch (RuntimeException e) {
                json = "";
            }
            reply(id, slot, "ok " + json, identity, replied);
        }, budget, java.util.concurrent.TimeUnit.MILLISECONDS);
        workers.execute(() -> {
            if (replied.get()) return;
            String verdict;
            try {
                verdict = judge(envBytes, Files.readAllBytes(dir.resolve("c." + id + ".in")));
            } catch (IOException | RuntimeException e) {
                verdict = "cold";
            }
            late.cancel(false);
            served.incrementAndGet();
            reply(id, slot, verdict, identity, replied);
        });
    }

    /** The request's budget, less a margin for the client: from its {@code BUDGET} seconds, 15 s by default. */
    static long budgetMillis(Map<String, String> env) {
        long seconds = 15;
        try {
            String b = env.get("BUDGET");
            if (b != null && !b.isEmpty()) seconds = Math.max(1, Math.min(3600, Long.parseLong(b)));
        } catch (NumberFormatException e) {
            // the default
        }
        return seconds * 1000 - 500;
    }

    /** Writes {@code id reply} once (the first of the verdict and the budget's answer wins) and removes the request. */
    private void reply(String id, int slot, String reply, Object identity, java.util.concurrent.atomic.AtomicBoolean replied) {
        if (!replied.compareAndSet(false, true)) return;
        Path envFile = dir.resolve("c." + id + ".env");
        try {
            byte[] line = (id + " " + reply + "\n").getBytes(StandardCharsets.UTF_8);
            if (line.length > Protocol.MAX_LINE) {
                Path out = dir.resolve("c." + id + ".out");
                writePrivate(out, reply.substring(3) + "\n");
                line = (id + " out\n").getBytes(StandardCharsets.US_ASCII);
            }
            RandomAccessFile r = slots[slot];
            synchronized (r) {
                r.write(line);
            }
            // Removing the request's files here saves the client an rm; process ids are reused, so only when they
            // are still the ones this answer judged. A client answered "cold" runs the cold path on its saved input.
            if (reply.startsWith("ok") && identity != null && identity.equals(identity(envFile))) {
                Files.deleteIfExists(envFile);
                Files.deleteIfExists(dir.resolve("c." + id + ".in"));
            }
        } catch (IOException e) {
            // The client reads an end of file only if this evaluator exits; it runs the cold path then.
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
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new HookRunner(requestEnv(env), version, engines).run(new ByteArrayInputStream(input),
                new PrintStream(out, true, StandardCharsets.UTF_8));
        String json = out.toString(StandardCharsets.UTF_8).strip();
        if (json.indexOf('\n') >= 0) return "cold";
        return "ok " + json;
    }

    /** The client's environment without the protocol's own entries. */
    static Map<String, String> requestEnv(Map<String, String> env) {
        Map<String, String> requestEnv = new HashMap<>(env);
        requestEnv.remove("PROTO");
        requestEnv.remove("JAR");
        requestEnv.remove("BUDGET");
        return requestEnv;
    }

    /** Exits after the idle period; frees the slots of clients that died. */
    private void watch() {
        while (!stopping) {
            try {
                Thread.sleep(Math.max(1, Math.min(idle.toMillis(), 10_000)));
            } catch (InterruptedException e) {
                return;
            }
            freeDeadSlots();
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

    /**
     * Runs a few judgements in the background after start, so the JIT has compiled the common paths before most calls
     * come; checks the class-data archive this JVM was started with.
     */
    private void warmUp() {
        ClassDataArchive.checkAfterStart();
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
        run(List.of("mkfifo", "-m", "600", fifo.toString()));
    }

    private static void run(List<String> cmd) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        try {
            p.getInputStream().readAllBytes();
            if (p.waitFor() != 0) throw new IOException(String.join(" ", cmd) + " failed");
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
