package dev.compoundbash.shell;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/*
 * DIFFERENTIAL TEST: our Parser against shfmt (mvdan/sh 3.6, a mature Go bash parser).
 * =====================================================================================
 *
 * Files (src/test/resources/shell/):
 *   corpus.txt          the editable corpus (themes, one command per line, @@@{ ... @@@} for multi-line ones)
 *   corpus.jsonl        {"id","command"} per line, GENERATED from corpus.txt
 *   shfmt-oracle.jsonl  shfmt's extraction + bash's verdict per id, GENERATED, committed (mvn test needs no shfmt)
 *   make-oracle.py/.sh  the generator (its docstring defines the extraction rules)
 *
 * HOW TO REGENERATE THE ORACLE (after editing corpus.txt; needs shfmt 3.6, python3, bash):
 *     src/test/resources/shell/make-oracle.sh              # corpus.txt -> corpus.jsonl -> shfmt-oracle.jsonl
 *     mvn -q -o test -Dtest=DifferentialTest
 *   New entries go at the END of their theme, otherwise ids shift (ids below would then point at other
 *   commands). The script prints the ids on which shfmt and `bash -n` disagree: each must be in DIVERGENT.
 *
 * LIVE MODE: with shfmt on PATH and -Dshfmt.live=true (or env SHFMT_LIVE=1), the test re-runs make-oracle.py
 * over corpus.jsonl into target/shfmt-oracle-live.jsonl, compares our parser with that, and also checks that
 * the stored oracle is still identical to the live one (i.e. it was regenerated after the last edit):
 *     SHFMT_LIVE=1 mvn -q -o test -Dtest=DifferentialTest
 *
 * THE EXTRACTION (the same on both sides; see make-oracle.py):
 *   commands  : every simple command with at least one word, wherever it is nested (top level, $( ), `..`,
 *               subshells, <( ) >( ), here-document bodies, ${..} operands, $(( )), [[ ]], case patterns, array
 *               values, ...), as the list of its words' exact source texts. Leading assignments are not listed
 *               (assignment-only commands are not commands). shfmt's DeclClause (declare/local/export/readonly/
 *               typeset) lists the variant then each argument (flags, names, whole `name=value` texts) -- our
 *               parser keeps those as plain words of a Command.Simple, so the texts agree; shfmt's LetClause
 *               lists "let" then each expression's text -- again the same texts as our words.
 *   redirects : every redirection as [fd or "", operator, source text of the target word]; for << / <<- the
 *               target is the delimiter word as written.
 *   ORDER     : commands sorted by the start offset of their first word, redirections by the start offset of
 *               their target word. Offsets on each side are absolute positions in the command string (shfmt:
 *               UTF-8 bytes, converted by the script; ours: UTF-16 chars), so nested commands appear in source
 *               order on both sides, and commands inside a here-document body (whose text follows the line that
 *               holds the <<) sort after that line's commands on both sides.
 *   Word texts are Word.span().text(source) on our side; this requires our spans inside here-document bodies
 *   (also <<- ones, whose tabs are stripped) and inside backquoted bodies to be ABSOLUTE offsets into the
 *   original source. A span that is out of range is reported as "<bad span a..b>" and fails the comparison.
 *   Nested escaped backquotes (`..\`..\`..`) are the one place where shfmt's own positions are not the
 *   source text of the word: see DIVERGENT.
 *
 * PARSE ERRORS: ParseException on our side must coincide with shfmt's error, except for the ids in DIVERGENT,
 * where shfmt is not a good oracle; there our verdict must equal bash's (`bash -O extglob -n -c`, any non-warning
 * diagnostic = rejected) and the extraction is checked against EXPECTED (hand-written) when present. DIVERGENT
 * holds (a) shfmt stricter than bash, (b) shfmt more lenient than bash, (c) both parse but shfmt's extraction is
 * not the truth (then EXPECTED is required). STRICTER_THAN_BASH_N lists inputs bash -n accepts but bash fails
 * on at run time, which shfmt and we reject on purpose. Every id where the oracle's shfmt and bash verdicts
 * differ must be in one of the two maps (checked by corpusIsLargeEnough).
 */
class DifferentialTest {

    /**
     * Ids where shfmt is not the right oracle, with the reason. For these our verdict must match bash -n, and our
     * extraction must match EXPECTED when given. Two kinds: shfmt and bash disagree on whether the input parses;
     * or both parse but shfmt's extraction is not the true source text (then EXPECTED is required).
     */
    static final Map<String, String> DIVERGENT = new LinkedHashMap<>();

    static {
        // shfmt 3.6 stricter than bash
        DIVERGENT.put("strict-001", "shfmt: `$((ls); (pwd))` taken as arithmetic; bash backtracks to $( (ls); (pwd) )");
        DIVERGENT.put("strict-002", "shfmt validates arithmetic at parse time; bash -n does not evaluate `$((1 +))`");
        DIVERGENT.put("strict-003", "shfmt rejects an unclosed here-document; bash warns and ends it at EOF");
        DIVERGENT.put("strict-004", "shfmt rejects `! !`; bash allows repeated negation");
        DIVERGENT.put("strict-005", "shfmt rejects a lone `!`; bash accepts it (empty negated pipeline)");
        DIVERGENT.put("strict-006", "shfmt: `$((ls) | wc -l)` taken as arithmetic; bash backtracks to command subst");
        DIVERGENT.put("strict-007", "shfmt rejects an unclosed here-document; bash warns and ends it at EOF");
        DIVERGENT.put("strict-008", "shfmt rejects `! !`; bash allows repeated negation");
        DIVERGENT.put("timeneg-009", "shfmt rejects `time ! cmd`; bash accepts `!` after `time`");
        DIVERGENT.put("tricky-001", "shfmt: `$(( 1 + 2 ) )` taken as arithmetic; bash backtracks to $( (1 + 2) )");
        DIVERGENT.put("tricky-005", "shfmt: `$((echo a) )` taken as arithmetic; bash backtracks to command subst");
        DIVERGENT.put("hard-007", "shfmt rejects array-element prefix assignments `a[1]=x cmd`; bash accepts them");
        DIVERGENT.put("hard-046", "shfmt parses the [key] of an assoc array literal as arithmetic (`[c d]=3`);"
                + " bash takes the subscript as a word");
        DIVERGENT.put("hard2-005", "shfmt: `((echo a); echo b)` taken as arithmetic; bash backtracks to nested"
                + " subshells ( (echo a); echo b )");
        DIVERGENT.put("hard2-006", "shfmt rejects an empty `$(( ))`; bash accepts it (evaluates to 0)");
        DIVERGENT.put("edge-010", "shfmt rejects an array prefix assignment `foo=(a) echo`; bash accepts it");
        DIVERGENT.put("edge-044", "shfmt rejects a lone `!`; bash accepts it (empty negated pipeline)");
        // shfmt 3.6 more lenient than bash
        DIVERGENT.put("error-045", "shfmt takes a leading `else` as a command name; bash: unexpected token `else'");
        DIVERGENT.put("error-046", "shfmt accepts `do;` with an empty body; bash: unexpected token `;'");
        DIVERGENT.put("error-051", "shfmt takes a leading `in` as a command name; bash: unexpected token `in'");
        DIVERGENT.put("error-053", "shfmt accepts an empty group `{ }`; bash: unexpected token `}'");
        DIVERGENT.put("error-054", "shfmt accepts an empty subshell `( )`; bash: unexpected token `)'");
        DIVERGENT.put("error-056", "shfmt accepts `while;` with an empty condition; bash: unexpected token `;'");
        DIVERGENT.put("edge-004", "shfmt accepts `if;` with an empty condition; bash: unexpected token `;'");
        DIVERGENT.put("edge-006", "shfmt accepts a simple command as function body `f() echo x`; bash rejects");
        DIVERGENT.put("edge-027", "shfmt accepts `time | cat`; bash: unexpected token `|'");
        DIVERGENT.put("edge-031", "shfmt accepts an empty function body `f() { }`; bash: unexpected token `}'");
        // extraction differs (both parse): shfmt's positions are not the source text; EXPECTED gives the truth
        DIVERGENT.put("subst-007", "shfmt positions inside escaped nested backquotes are shifted by the backslash"
                + " (`\\`echo ..\\`` cut as '`echo ..\\`', last word 'backticks\\')");
        DIVERGENT.put("edge-045", "shfmt keeps an extglob pattern as an opaque literal and misses `echo a` inside"
                + " @(..); bash runs it (set -x shows `++ echo a`); our ExtGlob pattern is a parsed word");
        DIVERGENT.put("edge-046", "shfmt misses the backquoted `echo x` inside !(..); bash runs it");
        // shfmt 3.6 compares the physical line with the delimiter; bash joins backslash-newline in an unquoted
        // body first (parse.y read_a_line), so `EO\<newline>F` closes a <<EOF body and `echo ran` runs (bash 5.2)
        DIVERGENT.put("heredoc-040", "shfmt: `EO\\<nl>F` does not close the unquoted body; bash joins it to EOF,"
                + " ends the body and runs `echo ran` (then `EOF` as a command)");
        DIVERGENT.put("heredoc-044", "shfmt: `<tab>EO\\<nl>F` does not close the <<- body; bash joins, strips the"
                + " tab, ends the body and runs `echo ran`");
        DIVERGENT.put("heredoc-046", "shfmt keeps backslash-newline inside backquotes, so `EO\\<nl>F` does not"
                + " close the quoted body; bash removes it while reading the backquoted text and runs `echo ran`");
        DIVERGENT.put("heredoc-048", "shfmt parses the $( ) of an unquoted body from the raw lines; bash joins"
                + " `X\\<nl>` with the empty line first, so the inner <<'X' ends there and `echo ran` runs");
        DIVERGENT.put("heredoc-051", "as heredoc-040 inside $( ): bash ends the body at `EO\\<nl>F` and runs"
                + " `echo ran`");
    }

    /**
     * Ids that `bash -n` accepts but that fail when bash runs them (the text inside a here-document body or a
     * nested substitution is only parsed at expansion time), where shfmt and we both reject: being stricter than
     * bash -n is right for a permission hook. These follow the normal shfmt comparison (we must reject).
     */
    static final Map<String, String> STRICTER_THAN_BASH_N = new LinkedHashMap<>();

    static {
        STRICTER_THAN_BASH_N.put("edge-002", "unterminated $( in a here-document body: bash fails at expansion");
        STRICTER_THAN_BASH_N.put("edge-015", "${} : bash -n accepts, run time 'bad substitution'");
        STRICTER_THAN_BASH_N.put("edge-033", "$(echo `)`) : bash -n accepts, run time syntax error in the subst");
    }

    /** Hand-written extraction for DIVERGENT ids that bash accepts (shfmt gives none): commands, words by " ". */
    static final Map<String, List<List<String>>> EXPECTED = new TreeMap<>();

    static {
        EXPECTED.put("strict-001", List.of(List.of("echo", "$((ls); (pwd))"), List.of("ls"), List.of("pwd")));
        EXPECTED.put("strict-002", List.of(List.of("echo", "$((1 +))")));
        EXPECTED.put("strict-004", List.of(List.of("true")));
        EXPECTED.put("strict-005", List.of());
        EXPECTED.put("strict-006", List.of(List.of("ls"), List.of("wc", "-l")));
        EXPECTED.put("strict-008", List.of(List.of("grep", "-q", "x", "file"), List.of("echo", "double-negated")));
        EXPECTED.put("timeneg-009", List.of(List.of("false")));
        EXPECTED.put("strict-003", List.of(List.of("cat")));
        EXPECTED.put("strict-007", List.of(List.of("git", "commit", "-F", "-")));
        EXPECTED.put("tricky-001", List.of(List.of("echo", "$(( 1 + 2 ) )"), List.of("1", "+", "2")));
        EXPECTED.put("hard-007", List.of(List.of("env")));
        EXPECTED.put("hard-046", List.of());
        EXPECTED.put("hard2-005", List.of(List.of("echo", "a"), List.of("echo", "b")));
        EXPECTED.put("hard2-006", List.of(List.of("echo", "$(( ))")));
        EXPECTED.put("edge-010", List.of(List.of("echo")));
        EXPECTED.put("edge-044", List.of());
        EXPECTED.put("edge-045", List.of(List.of("ls", "@($(echo a)|b)"), List.of("echo", "a")));
        EXPECTED.put("edge-046", List.of(List.of("echo", "!(`echo x`).txt"), List.of("echo", "x")));
        EXPECTED.put("subst-007", List.of(List.of("echo", "`echo \\`echo nested backticks\\``"),
                List.of("echo", "\\`echo nested backticks\\`"), List.of("echo", "nested", "backticks")));
        EXPECTED.put("heredoc-040", List.of(List.of("cat"), List.of("echo", "ran"), List.of("EOF")));
        EXPECTED.put("heredoc-044", List.of(List.of("cat"), List.of("echo", "ran"), List.of("EOF")));
        EXPECTED.put("heredoc-046", List.of(List.of("cat"), List.of("echo", "ran"), List.of("EOF")));
        EXPECTED.put("heredoc-048", List.of(List.of("cat"), List.of("cat"), List.of("echo", "ran"), List.of("X")));
        EXPECTED.put("heredoc-051", List.of(List.of("cat"), List.of("echo", "ran"), List.of("EOF")));
        EXPECTED.put("tricky-005", List.of(List.of("echo", "$((echo a) )"), List.of("echo", "a")));
    }

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path REPORT = Paths.get("target", "differential-report.txt");

    record Entry(String id, String command) {
    }

    record Extraction(List<List<String>> commands, List<List<String>> redirects) {
    }

    // ---------------------------------------------------------------------------------------------------------

    @Test
    void corpusIsLargeEnough() throws IOException {
        List<Entry> corpus = loadCorpus();
        assertTrue(corpus.size() >= 600, "corpus has only " + corpus.size() + " entries");
        assertEquals(corpus.size(), corpus.stream().map(Entry::id).distinct().count(), "duplicate ids");
        Map<String, JsonNode> oracle = loadOracle(resource("shell/shfmt-oracle.jsonl"));
        for (Entry e : corpus) assertTrue(oracle.containsKey(e.id()), "oracle lacks " + e.id() + ": regenerate it");
        for (String id : DIVERGENT.keySet()) {
            assertTrue(oracle.containsKey(id), "DIVERGENT names unknown id " + id);
            JsonNode o = oracle.get(id);
            assertTrue(o.get("ok").asBoolean() != o.get("bash_ok").asBoolean() || EXPECTED.containsKey(id),
                    id + " is listed as divergent but shfmt and bash agree on it and it has no EXPECTED extraction");
        }
        for (JsonNode o : oracle.values()) {
            String id = o.get("id").asText();
            if (o.get("ok").asBoolean() != o.get("bash_ok").asBoolean()) {
                assertTrue(DIVERGENT.containsKey(id) || STRICTER_THAN_BASH_N.containsKey(id),
                        id + ": shfmt and bash -n disagree; add it to DIVERGENT or STRICTER_THAN_BASH_N");
            }
        }
    }

    @TestFactory
    Stream<DynamicTest> againstStoredOracle() throws IOException {
        return tests(loadCorpus(), loadOracle(resource("shell/shfmt-oracle.jsonl")), "stored");
    }

    @TestFactory
    Stream<DynamicTest> againstLiveShfmt() throws Exception {
        if (!liveRequested()) return Stream.empty();
        if (!onPath("shfmt")) {
            return Stream.of(DynamicTest.dynamicTest("live mode requested but shfmt is not on PATH",
                    () -> fail("shfmt not found on PATH")));
        }
        Path script = resource("shell/make-oracle.py");
        Path corpus = resource("shell/corpus.jsonl");
        Path out = Paths.get("target", "shfmt-oracle-live.jsonl").toAbsolutePath();
        Files.createDirectories(out.getParent());
        Process p = new ProcessBuilder(python(), script.toString(), "--no-corpus", "--corpus", corpus.toString(),
                "--out", out.toString()).redirectErrorStream(true).start();
        String log = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(600, TimeUnit.SECONDS) || p.exitValue() != 0) {
            return Stream.of(DynamicTest.dynamicTest("make-oracle.py failed", () -> fail(log)));
        }
        Map<String, JsonNode> live = loadOracle(out);
        Map<String, JsonNode> stored = loadOracle(resource("shell/shfmt-oracle.jsonl"));
        DynamicTest upToDate = DynamicTest.dynamicTest("stored oracle equals live shfmt output", () -> {
            List<String> stale = new ArrayList<>();
            for (Map.Entry<String, JsonNode> e : live.entrySet()) {
                if (!e.getValue().equals(stored.get(e.getKey()))) stale.add(e.getKey());
            }
            assertTrue(stale.isEmpty(), "stored shfmt-oracle.jsonl is stale for " + stale
                    + "; run src/test/resources/shell/make-oracle.sh");
        });
        return Stream.concat(Stream.of(upToDate), tests(loadCorpus(), live, "live"));
    }

    // ---------------------------------------------------------------------------------------------------------

    private Stream<DynamicTest> tests(List<Entry> corpus, Map<String, JsonNode> oracle, String mode) {
        Map<String, String> failures = new TreeMap<>();
        int[] passed = {0};
        Stream<DynamicTest> perEntry = corpus.stream().map(e -> DynamicTest.dynamicTest(
                e.id() + ": " + abbreviate(e.command()), () -> {
                    try {
                        check(e, oracle.get(e.id()));
                        passed[0]++;
                    } catch (AssertionError | RuntimeException ex) {
                        failures.put(e.id(), ex.getMessage());
                        throw ex;
                    }
                }));
        DynamicTest summary = DynamicTest.dynamicTest("summary (" + mode + ")", () -> {
            StringBuilder sb = new StringBuilder();
            sb.append("DifferentialTest (").append(mode).append("): ").append(corpus.size()).append(" entries, ")
                    .append(passed[0]).append(" agree, ").append(failures.size()).append(" disagree\n\n");
            Map<String, String> byId = new LinkedHashMap<>();
            for (Entry e : corpus) byId.put(e.id(), e.command());
            failures.forEach((id, msg) -> sb.append("=== ").append(id).append('\n').append(byId.get(id))
                    .append("\n--- ").append(msg).append("\n\n"));
            Files.createDirectories(REPORT.getParent());
            Files.writeString(mode.equals("live") ? Paths.get("target", "differential-report-live.txt") : REPORT,
                    sb.toString(), StandardCharsets.UTF_8);
        });
        return Stream.concat(perEntry, Stream.of(summary));
    }

    private static void check(Entry e, JsonNode oracle) {
        Objects.requireNonNull(oracle, () -> "no oracle line for " + e.id() + "; regenerate the oracle");
        String src = e.command();
        Script script;
        String ourError = null;
        try {
            script = Parser.parse(src);
        } catch (ParseException pe) {
            script = null;
            ourError = pe.getMessage();
        } catch (StackOverflowError so) {
            throw new AssertionError("parser overflowed the stack");
        } catch (RuntimeException re) {
            throw new AssertionError("parser crashed: " + re, re);
        }
        boolean shfmtOk = oracle.get("ok").asBoolean();
        boolean bashOk = oracle.get("bash_ok").asBoolean();
        String divergence = DIVERGENT.get(e.id());

        if (divergence != null) {
            assertEquals(bashOk, ourError == null, "[known divergent: " + divergence + "] expected "
                    + (bashOk ? "a parse (bash -n accepts)" : "a ParseException (bash -n rejects)")
                    + (ourError != null ? "; we said: " + ourError : ""));
            List<List<String>> expected = EXPECTED.get(e.id());
            if (expected != null && script != null) {
                assertEquals(expected, extract(script, src).commands(), "commands (hand-written expectation)");
            }
            return;
        }
        if (!shfmtOk) {
            assertTrue(ourError != null, "shfmt (and bash: " + (bashOk ? "accepts" : "rejects")
                    + ") reject this, but we parsed it; shfmt says: " + oracle.get("error").asText());
            return;
        }
        if (ourError != null) {
            fail("we threw ParseException but shfmt parses it (bash -n " + (bashOk ? "accepts" : "rejects")
                    + "): " + ourError);
        }
        Extraction ours = extract(script, src);
        List<List<String>> theirCmds = listOfLists(oracle.get("commands"));
        List<List<String>> theirRedirs = listOfLists(oracle.get("redirects"));
        assertEquals(render(theirCmds), render(ours.commands()), "commands (expected = shfmt, actual = ours)");
        assertEquals(render(theirRedirs), render(ours.redirects()), "redirects (expected = shfmt, actual = ours)");
    }

    /** The extraction over our AST, mirroring make-oracle.py's over shfmt's. */
    static Extraction extract(Script script, String src) {
        List<Object[]> cmds = new ArrayList<>();
        List<Object[]> redirs = new ArrayList<>();
        Walker.walk(script, (node, ancestors) -> {
            if (node instanceof Command.Simple s && !s.words().isEmpty()) {
                List<String> words = new ArrayList<>();
                for (Word w : s.words()) words.add(text(w.span(), src));
                cmds.add(new Object[]{s.words().get(0).span().start(), words});
            } else if (node instanceof Redirection r) {
                redirs.add(new Object[]{r.target().span().start(),
                        List.of(r.fd() == null ? "" : r.fd(), r.operator(), text(r.target().span(), src))});
            }
            return true;
        });
        Comparator<Object[]> byStart = Comparator.comparingInt(o -> (Integer) o[0]);
        cmds.sort(byStart);
        redirs.sort(byStart);
        List<List<String>> c = new ArrayList<>();
        for (Object[] o : cmds) c.add(castList(o[1]));
        List<List<String>> r = new ArrayList<>();
        for (Object[] o : redirs) r.add(castList(o[1]));
        return new Extraction(c, r);
    }

    @SuppressWarnings("unchecked")
    private static List<String> castList(Object o) {
        return (List<String>) o;
    }

    private static String text(Span span, String src) {
        if (span.start() < 0 || span.end() > src.length() || span.start() > span.end()) {
            return "<bad span " + span.start() + ".." + span.end() + ">";
        }
        return span.text(src);
    }

    /** One line per entry, so assertion diffs are readable. */
    private static String render(List<List<String>> lists) {
        StringBuilder sb = new StringBuilder();
        for (List<String> l : lists) {
            sb.append('[');
            for (int i = 0; i < l.size(); i++) {
                if (i > 0) sb.append(", ");
                sb.append('«').append(l.get(i)).append('»');
            }
            sb.append("]\n");
        }
        return sb.toString();
    }

    private static List<List<String>> listOfLists(JsonNode arr) {
        List<List<String>> out = new ArrayList<>();
        for (JsonNode inner : arr) {
            List<String> l = new ArrayList<>();
            for (JsonNode s : inner) l.add(s.asText());
            out.add(l);
        }
        return out;
    }

    private static String abbreviate(String cmd) {
        String one = cmd.replace("\n", "⏎");
        return one.length() > 70 ? one.substring(0, 67) + "..." : one;
    }

    // ---------------------------------------------------------------------------------------------------------

    static List<Entry> loadCorpus() throws IOException {
        List<Entry> out = new ArrayList<>();
        try (InputStream in = DifferentialTest.class.getClassLoader().getResourceAsStream("shell/corpus.jsonl")) {
            Objects.requireNonNull(in, "shell/corpus.jsonl not on the test classpath");
            BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            for (String line; (line = r.readLine()) != null; ) {
                if (line.isBlank()) continue;
                JsonNode n = JSON.readTree(line);
                out.add(new Entry(n.get("id").asText(), n.get("command").asText()));
            }
        }
        return out;
    }

    static Map<String, JsonNode> loadOracle(Path file) throws IOException {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) continue;
            JsonNode n = JSON.readTree(line);
            out.put(n.get("id").asText(), n);
        }
        return out;
    }

    private static Path resource(String name) throws IOException {
        URL url = DifferentialTest.class.getClassLoader().getResource(name);
        if (url == null) throw new IOException(name + " not on the test classpath");
        try {
            return Paths.get(url.toURI());
        } catch (URISyntaxException ex) {
            throw new IOException(ex);
        }
    }

    private static boolean liveRequested() {
        return Boolean.getBoolean("shfmt.live") || "1".equals(System.getenv("SHFMT_LIVE"))
                || "true".equalsIgnoreCase(System.getenv("SHFMT_LIVE"));
    }

    private static boolean onPath(String exe) {
        String path = System.getenv("PATH");
        if (path == null) return false;
        for (String dir : path.split(java.io.File.pathSeparator)) {
            if (Files.isExecutable(Paths.get(dir, exe))) return true;
        }
        return false;
    }

    private static String python() {
        return Files.isExecutable(Paths.get("/usr/bin/python3")) ? "/usr/bin/python3" : "python3";
    }
}
