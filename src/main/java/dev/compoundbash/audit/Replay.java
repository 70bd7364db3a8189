package dev.compoundbash.audit;

import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.function.LongConsumer;

/**
 * Audit replay: re-evaluates every command of one or more decision logs ({@link LogReader}) through
 * {@link Decider#decide}, exactly as the hook would decide it now, and compares with the recorded decision.
 * Streams: memory stays bounded whatever the log size (changed decisions are spooled to a temporary file).
 */
public final class Replay {
    /** Settings for an entry, given its recorded working directory (null when the log has none). */
    private final Function<String, PermissionSettings> settings;
    private final RuleEngine engine;
    private final String defaultCwd;
    private final String tmpDir;
    private String home;
    private final OffsetDateTime since;

    private final Map<String, Long> transitions = new TreeMap<>();
    private long total;
    private long changed;
    private long skippedLines;
    private final Path spool;
    private final BufferedWriter changes;

    /**
     * @param engine     the rules to judge with
     * @param settings   the permission settings for an entry's recorded cwd (null for the text log)
     * @param defaultCwd the working directory for entries that record none
     * @param tmpDir     {@code $TMPDIR}, may be null
     * @param since      only entries at or after this time; null for all
     * @throws IOException when the spool file cannot be created
     */
    public Replay(RuleEngine engine, Function<String, PermissionSettings> settings, String defaultCwd, String tmpDir,
                  OffsetDateTime since) throws IOException {
        this.engine = engine;
        this.settings = settings;
        this.defaultCwd = defaultCwd;
        this.tmpDir = tmpDir;
        this.since = since;
        this.spool = Files.createTempFile("compound-bash-replay-", ".txt");
        this.changes = Files.newBufferedWriter(spool, StandardCharsets.UTF_8);
    }

    /**
     * Replays every entry of {@code log}.
     *
     * @param log      a JSONL decision log or text log
     * @param progress receives the number of bytes read so far (for a progress bar); may be null
     * @throws IOException when the log cannot be read
     */
    public void replay(Path log, LongConsumer progress) throws IOException {
        try (InputStream raw = Files.newInputStream(log);
             CountingStream counted = new CountingStream(raw, progress);
             BufferedReader in = new BufferedReader(new InputStreamReader(counted, StandardCharsets.UTF_8))) {
            skippedLines += LogReader.read(log.toString(), in, this::one);
        }
        flush();
    }

    /** Entries are judged in batches of this many, on every core; memory stays bounded by one batch. */
    static final int BATCH = 2048;

    private final List<LogReader.Entry> batch = new ArrayList<>(BATCH);
    /** The settings of each batched entry, resolved on the reading thread: the settings function need not be thread-safe. */
    private final List<PermissionSettings> batchSettings = new ArrayList<>(BATCH);

    private void one(LogReader.Entry e) {
        if (since != null && (e.time() == null || e.time().isBefore(since))) return;
        batch.add(e);
        batchSettings.add(settings.apply(e.cwd()));
        if (batch.size() >= BATCH) flush();
    }

    /** Judges the pending batch in parallel with the one shared KieBase, then records the verdicts in log order. */
    private void flush() {
        if (batch.isEmpty()) return;
        List<ParallelReplay.Call> calls = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            LogReader.Entry e = batch.get(i);
            calls.add(new ParallelReplay.Call(e.command(), e.cwd() != null ? e.cwd() : defaultCwd, batchSettings.get(i),
                    e.permissionMode(), e.shell()));
        }
        List<Decider.Verdict> verdicts = ParallelReplay.decideCalls(calls, engine, tmpDir, home,
                Runtime.getRuntime().availableProcessors());
        for (int i = 0; i < verdicts.size(); i++) record(batch.get(i), verdicts.get(i));
        batch.clear();
        batchSettings.clear();
    }

    private java.util.function.BiConsumer<LogReader.Entry, Decider.Verdict> observer = (e, v) -> { };

    /**
     * Receives every entry with its new verdict, in log order (for tests and tools that need the verdicts
     * themselves, not only the report).
     *
     * @param observer called once per replayed entry
     */
    public void observe(java.util.function.BiConsumer<LogReader.Entry, Decider.Verdict> observer) {
        this.observer = observer;
    }

    private void record(LogReader.Entry e, Decider.Verdict v) {
        observer.accept(e, v);
        total++;
        String key = e.oldDecision() + " -> " + v.outcome();
        transitions.merge(key, 1L, Long::sum);
        if (e.oldDecision().equals("unknown") || e.oldDecision().equals(v.outcome())) return;
        changed++;
        try {
            changes.write(e.source() + (e.time() != null ? "  " + e.time() : "") + (e.cwd() != null ? "  cwd " + e.cwd() : "")
                    + (e.permissionMode() != null ? "  mode " + e.permissionMode() : "")
                    + "\n    command: " + LogReader.escape(e.command())
                    + "\n    old: " + e.oldDecision() + "  " + LogReader.escape(e.oldReason())
                    + "\n    new: " + v.outcome() + "  " + LogReader.escape(v.reason()) + "\n");
        } catch (IOException ex) {
            throw new java.io.UncheckedIOException(ex);
        }
    }

    /**
     * Judges the entries with this home directory ({@code ~} and {@code $HOME} in paths), as the hook would
     * under it; unset, paths through the home directory are unknown.
     *
     * @param home {@code $HOME}; may be null
     * @return this replay
     */
    public Replay home(String home) {
        this.home = home;
        return this;
    }

    /** Entries replayed so far. */
    public long total() {
        return total;
    }

    /** Entries whose decision changed (entries with no recorded decision never count). */
    public long changed() {
        return changed;
    }

    /** Counts per {@code "old -> new"} transition, sorted. */
    public Map<String, Long> transitions() {
        return new LinkedHashMap<>(transitions);
    }

    /**
     * Prints the summary (each old → new transition with its count), then every changed decision with both
     * reasons, then deletes the spool.
     *
     * @param out where the report goes
     * @throws IOException when the spool cannot be read back
     */
    public void report(PrintStream out) throws IOException {
        changes.close();
        out.println("old -> new          count");
        for (Map.Entry<String, Long> t : transitions.entrySet()) {
            String[] ends = t.getKey().split(" -> ");
            boolean diff = !ends[0].equals("unknown") && !ends[0].equals(ends[1]);
            out.printf("%-18s %6d%s%n", ends[0] + " -> " + ends[1], t.getValue(), diff ? "  changed" : "");
        }
        out.println(total + " decision(s) replayed, " + changed + " changed"
                + (skippedLines > 0 ? ", " + skippedLines + " unreadable line(s) skipped" : ""));
        if (changed > 0) {
            out.println();
            out.println("changed decisions:");
            try (BufferedReader r = Files.newBufferedReader(spool, StandardCharsets.UTF_8)) {
                String line;
                while ((line = r.readLine()) != null) out.println(line);
            }
        }
        Files.deleteIfExists(spool);
    }

    /** An input stream that reports how many bytes went through it. */
    private static final class CountingStream extends FilterInputStream {
        private final LongConsumer progress;
        private long count;

        CountingStream(InputStream in, LongConsumer progress) {
            super(in);
            this.progress = progress;
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) tick(1);
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) tick(n);
            return n;
        }

        private void tick(long n) {
            count += n;
            if (progress != null) progress.accept(count);
        }
    }

}
