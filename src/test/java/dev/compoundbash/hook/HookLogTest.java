package dev.compoundbash.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

class HookLogTest {

    @TempDir
    Path tmp;

    private static final Clock FIXED = Clock.fixed(Instant.parse("2025-01-02T03:04:05.678Z"), ZoneOffset.UTC);

    private HookLog fixedLog(Path file, ByteArrayOutputStream err) {
        return HookLog.open(Map.of(HookLog.LOG_ENV, file.toString()), "0.1.0", FIXED,
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    @Test
    void lineFormat() throws IOException {
        Path file = tmp.resolve("logs/sub/cb.log");
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        HookLog log = fixedLog(file, err);
        log.log(HookLog.loadedMessage(3, 1, 2, List.of(Path.of("/h/.claude/settings.json"))));
        log.log(HookLog.evaluatingMessage("ls -la | wc -l"));
        log.log(HookLog.parsedMessage(2));
        log.log(HookLog.okMessage("ls", "ls -la"));
        log.log(HookLog.okMessage("wc", "wc -l"));
        log.log(HookLog.allowMessage(2));
        log.log(HookLog.deferMessage("rm", "rm -rf x"));
        log.log(HookLog.askMessage("git", "matched ask pattern \"git push *\""));
        log.log(HookLog.denyMessage("rm", "matched deny pattern \"rm *\""));
        assertThat(file).doesNotExist(); // buffered until close
        log.close();

        assertThat(Files.readAllLines(file)).containsExactly(
                "2025-01-02T03:04:05.678Z [0.1.0] loaded 3 allow, 1 ask, 2 deny patterns from [/h/.claude/settings.json]",
                "2025-01-02T03:04:05.678Z [0.1.0] evaluating: ls -la | wc -l",
                "2025-01-02T03:04:05.678Z [0.1.0] parsed 2 sub-command(s)",
                "2025-01-02T03:04:05.678Z [0.1.0]   ok [ls]: matched allow pattern for \"ls -la\"",
                "2025-01-02T03:04:05.678Z [0.1.0]   ok [wc]: matched allow pattern for \"wc -l\"",
                "2025-01-02T03:04:05.678Z [0.1.0] ALLOW: all 2 sub-command(s) matched",
                "2025-01-02T03:04:05.678Z [0.1.0] DEFER [rm]: not in allow list: \"rm -rf x\"",
                "2025-01-02T03:04:05.678Z [0.1.0] ASK [git]: matched ask pattern \"git push *\"",
                "2025-01-02T03:04:05.678Z [0.1.0] DENY [rm]: matched deny pattern \"rm *\"");
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();

        // a second evaluation appends
        HookLog again = fixedLog(file, err);
        again.log("second");
        again.close();
        again.close(); // idempotent
        assertThat(Files.readAllLines(file)).hasSize(10).last().isEqualTo("2025-01-02T03:04:05.678Z [0.1.0] second");
    }

    @Test
    void realClockGivesIso8601WithOffset() throws IOException {
        Path file = tmp.resolve("cb.log");
        HookLog log = HookLog.open(Map.of(HookLog.LOG_ENV, file.toString()), "9.9");
        log.log("hello");
        log.close();
        assertThat(Files.readString(file)).matches(
                "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}(Z|[+-]\\d\\d:\\d\\d) \\[9\\.9\\] hello\n");
    }

    @Test
    void multiLineMessagesStayOnOnePhysicalLine() throws IOException {
        Path file = tmp.resolve("cb.log");
        HookLog log = fixedLog(file, new ByteArrayOutputStream());
        log.log("evaluating: cat <<EOF\nline 1\r\nEOF\u001b[31m\u2028x\ty \\n caf\u00e9");
        log.log(null);
        log.close();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines).containsExactly(
                "2025-01-02T03:04:05.678Z [0.1.0] evaluating: cat <<EOF\\nline 1\\r\\nEOF\\u001b[31m\\u2028x\ty \\n caf\u00e9",
                "2025-01-02T03:04:05.678Z [0.1.0] null");
    }

    @Test
    void longMessagesAreTruncated() {
        String m = HookLog.escape("x".repeat(HookLog.MAX_MESSAGE_CHARS + 5));
        assertThat(m).startsWith("xxx").endsWith("... [5 more chars]")
                .hasSize(HookLog.MAX_MESSAGE_CHARS + "... [5 more chars]".length());
    }

    @Test
    void defaultPathIsUnderHomeFromTheMap() {
        assertThat(HookLog.resolvePath(Map.of("HOME", "/h/u")))
                .isEqualTo(Path.of("/h/u/.claude/logs/compound-bash.log"));
        assertThat(HookLog.resolvePath(Map.of("HOME", "/h/u", HookLog.LOG_ENV, "/x/y.log")))
                .isEqualTo(Path.of("/x/y.log"));
        assertThat(HookLog.resolvePath(Map.of("HOME", "/h/u", HookLog.LOG_ENV, "")))
                .isEqualTo(Path.of("/h/u/.claude/logs/compound-bash.log"));
        assertThat(HookLog.resolvePath(Map.of())).isNull();
        assertThat(HookLog.resolvePath(Map.of("HOME", ""))).isNull();
        assertThat(HookLog.resolvePath(null)).isNull();
        assertThat(HookLog.resolvePath(Map.of(HookLog.LOG_ENV, "a\0b"))).isNull();
    }

    @Test
    void createsParentDirectoriesUnderHome() throws IOException {
        Path home = tmp.resolve("home");
        HookLog log = HookLog.open(Map.of("HOME", home.toString()), "1");
        log.log("x");
        log.close();
        assertThat(Files.readString(home.resolve(".claude/logs/compound-bash.log"))).endsWith("[1] x\n");
    }

    @Test
    void homeUnsetIsANoOp() {
        HookLog log = HookLog.open(new HashMap<>(), "1");
        assertThat(log.path()).isNull();
        assertThatCode(() -> {
            log.log("x");
            log.close();
        }).doesNotThrowAnyException();
    }

    @Test
    void unwritableLogNeverThrowsAndNeverWritesToStdout() throws IOException {
        Path aFile = Files.writeString(tmp.resolve("plain-file"), "content");
        Path dir = Files.createDirectories(tmp.resolve("a-directory"));
        PrintStream savedOut = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
            for (Path p : List.of(aFile.resolve("sub/cb.log"), dir, Path.of("/dev/stdout"), Path.of("/proc/self/fd/1"))) {
                ByteArrayOutputStream err = new ByteArrayOutputStream();
                HookLog log = fixedLog(p, err);
                assertThatCode(() -> {
                    log.log("line 1");
                    log.log("line 2");
                    log.close();
                    log.log("line 3");
                    log.close();
                }).as(p.toString()).doesNotThrowAnyException();
                String note = err.toString(StandardCharsets.UTF_8);
                assertThat(note).as(p.toString()).startsWith("compound-bash: cannot write log").hasLineCount(1);
            }
        } finally {
            System.setOut(savedOut);
        }
        assertThat(out.size()).isZero();
        assertThat(Files.readString(aFile)).isEqualTo("content");
    }

    @Test
    void nullErrorStreamIsTolerated() {
        HookLog log = HookLog.open(Map.of(HookLog.LOG_ENV, tmp.resolve("d").toString()), "1", FIXED, null);
        assertThatCode(() -> {
            Files.createDirectories(tmp.resolve("d"));
            log.log("x");
            log.close();
        }).doesNotThrowAnyException();
    }

    // ------------------------------------------------------------------ concurrency

    private static final Pattern LINE = Pattern.compile(
            "^\\S+ \\[v\\] (w[0-9]+)-e([0-9]+)-l([0-9]+) (x+)$");

    /** One writer: {@code evaluations} logs, each of {@code lines} lines, each flushed by close(). */
    static void writeEvaluations(Map<String, String> env, String id, int evaluations, int lines, int payload) {
        String pad = "x".repeat(payload);
        for (int e = 0; e < evaluations; e++) {
            HookLog log = HookLog.open(env, "v");
            for (int l = 0; l < lines; l++) {
                log.log(id + "-e" + e + "-l" + l + " " + pad);
            }
            log.close();
        }
    }

    /** Checks every line is whole and the lines of each evaluation are contiguous and in order. */
    private static void assertWholeContiguousEvaluations(Path file, int writers, int evaluations, int lines, int payload)
            throws IOException {
        List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(all).hasSize(writers * evaluations * lines);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < all.size(); i += lines) {
            String block = null;
            for (int l = 0; l < lines; l++) {
                Matcher m = LINE.matcher(all.get(i + l));
                assertThat(m.matches()).as("line %d is whole: %s", i + l, abbreviate(all.get(i + l))).isTrue();
                assertThat(m.group(4)).hasSize(payload);
                String b = m.group(1) + "-e" + m.group(2);
                if (block == null) {
                    block = b;
                }
                assertThat(b).as("line %d belongs to evaluation %s", i + l, block).isEqualTo(block);
                assertThat(Integer.parseInt(m.group(3))).isEqualTo(l);
            }
            assertThat(seen.add(block)).as("evaluation %s written once", block).isTrue();
        }
        assertThat(seen).hasSize(writers * evaluations);
    }

    private static String abbreviate(String s) {
        return s.length() <= 120 ? s : s.substring(0, 120) + "...";
    }

    @Test
    @Timeout(120)
    void sixteenThreadsAppendWholeLines() throws Exception {
        Path file = tmp.resolve("threads/cb.log");
        int writers = 16;
        int evaluations = 20;
        int lines = 10;
        int payload = 3000;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<?>> futures = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            String id = "w" + w;
            futures.add(pool.submit(() -> {
                start.await();
                writeEvaluations(Map.of(HookLog.LOG_ENV, file.toString()), id, evaluations, lines, payload);
                return null;
            }));
        }
        start.countDown();
        for (Future<?> f : futures) {
            f.get(100, TimeUnit.SECONDS);
        }
        pool.shutdown();
        assertWholeContiguousEvaluations(file, writers, evaluations, lines, payload);
    }

    @Test
    @Timeout(180)
    void manyProcessesAppendWholeLines() throws Exception {
        Path file = tmp.resolve("procs/cb.log");
        int writers = Math.max(4, Math.min(16, Integer.getInteger("test.processes", 16))); // 16 under -Pfull (CI)
        int evaluations = 10;
        int lines = 20;
        int payload = 4000; // 80 KB per append: larger than a pipe buffer or a page
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String cp = System.getProperty("java.class.path");
        List<Process> procs = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            ProcessBuilder pb = new ProcessBuilder(java, "-Xshare:auto", "-XX:TieredStopAtLevel=1", "-cp", cp,
                    HookLogStressMain.class.getName(), file.toString(), "w" + w,
                    String.valueOf(evaluations), String.valueOf(lines), String.valueOf(payload));
            pb.redirectErrorStream(true);
            pb.redirectOutput(tmp.resolve("proc-" + w + ".out").toFile());
            procs.add(pb.start());
        }
        for (int w = 0; w < writers; w++) {
            Process p = procs.get(w);
            assertThat(p.waitFor(150, TimeUnit.SECONDS)).isTrue();
            File out = tmp.resolve("proc-" + w + ".out").toFile();
            assertThat(p.exitValue()).as(Files.readString(out.toPath())).isZero();
            assertThat(Files.readString(out.toPath())).as("child %d printed nothing", w).isEmpty();
        }
        assertWholeContiguousEvaluations(file, writers, evaluations, lines, payload);
    }
}
