package dev.compoundbash.oracle;

import dev.compoundbash.audit.DecisionCases;
import dev.compoundbash.facts.Facts;
import dev.compoundbash.facts.Finding;
import dev.compoundbash.facts.OptionGrammar;
import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.facts.Wrapper;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wrapper-option oracle of issue 14 (Deliver 3): option spellings of every installed wrapper ({@code xargs find
 * timeout nice nohup stdbuf env setsid ionice chrt taskset flock script watch unbuffer unshare chroot setpriv
 * /usr/bin/time}, the shells' {@code -c}, the {@code time} keyword, and as root {@code su runuser}) are generated
 * from their grammars and beyond them (clusters, attached and detached values, optional arguments, abbreviations
 * unique and ambiguous, {@code --}, {@code -}, unknown options and letters, words only known at run time), run by
 * the real programs in the sandbox of {@link ExecutionOracleTest} with a recording shim for every word that could be
 * run, and compared with the hook's reading of the same command.
 *
 * <p>Checks, per spelling:
 * <ul>
 * <li><b>exact</b>: when the hook's reading is certain (no unreadable payload), every argv the program ran is a
 *     payload of the reading, and a reading that says a payload runs is not contradicted by a program that ran
 *     nothing and reported success; a program that reported a usage error where the hook read a payload is
 *     counted as <em>over-read</em> (the hook reads more than runs: sound, since nothing runs);</li>
 * <li><b>allow</b>: with {@code Bash(pay *)} allowed, an allow is given only when every argv that ran was approved,
 *     and never for an uncertain reading;</li>
 * <li><b>deny</b>: with {@code Bash(pay *)} denied, whenever {@code pay} ran the hook denies (an uncertain reading
 *     included: its candidate payloads carry the deny).</li>
 * </ul>
 * The {@code adv-opt-*} cases of the adversarial corpus carry the argv the real program runs ({@code "runs"}):
 * each is run here and must run exactly that, so the corpus holds behaviour measured, not expected.
 *
 * <p>Budget {@code -Dwrapper.oracle.spellings} (default 1,000; {@code -Pfuzz} and {@code -Poracle} 20,000), seed
 * {@code -Dwrapper.oracle.seed}; counts go to {@code target/wrapper-oracle-stats.properties}, failures to
 * {@code target/wrapper-oracle-mismatches.txt}. Skipped without bubblewrap.
 */
class WrapperOptionOracleTest {

    /** The shim every generated payload runs; the rules allow or deny it. */
    static final String PAY = "pay";
    static final String[] WRAPPERS = {"xargs", "find", "timeout", "nice", "nohup", "stdbuf", "env", "setsid", "ionice",
            "chrt", "taskset", "flock", "script", "watch", "unbuffer", "unshare", "chroot", "setpriv", "time", "bash",
            "sh", "time-keyword", "su", "runuser"};
    /** Programs the wrappers need besides themselves, linked beside them. */
    static final String[] HELPERS = {"tclsh8.6", "bash", "sh", "printf"};
    /** Words that must not be shims: the wrappers and helpers themselves. */
    static final Set<String> NOT_SHIMS = Set.of("xargs", "find", "timeout", "nice", "nohup", "stdbuf", "env", "setsid",
            "ionice", "chrt", "taskset", "flock", "script", "watch", "unbuffer", "unshare", "chroot", "setpriv", "time",
            "bash", "sh", "su", "runuser", "tclsh8.6", "printf", "true", "false");
    static final int BATCH = 200;

    /** Under target/, not the shared /tmp: other processes on this machine clean /tmp while long runs go on. */
    Path tmp;

    @org.junit.jupiter.api.BeforeEach
    void workDirectory() throws IOException {
        Files.createDirectories(Path.of("target"));
        tmp = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "wrapper-oracle-");
    }

    @org.junit.jupiter.api.AfterEach
    void removeWorkDirectory() throws IOException {
        if (tmp == null || !Files.exists(tmp)) return;
        try (var walk = Files.walk(tmp)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }

    static RuleEngine engine;

    @BeforeAll
    static void load() {
        engine = RuleEngine.load(List.of());
    }

    /** One spelling: the command the hook judges, the command the sandbox runs, and the wrapper it exercises. */
    record Spelling(int index, String wrapper, String command, boolean root) {
    }

    /** What one run recorded. */
    record Run(List<List<String>> argvs, int status) {
    }

    static Path programPath(String name) {
        for (String d : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    static boolean installed(String wrapper) {
        return switch (wrapper) {
            case "bash", "sh", "time-keyword" -> true;
            default -> programPath(wrapper) != null;
        };
    }

    static boolean root() {
        try {
            Process p = new ProcessBuilder("id", "-u").start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            p.waitFor();
            return out.equals("0");
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void wrappersReadAsTheRealProgramsRunThem() throws Exception {
        Assumptions.assumeTrue(ExecutionOracleTest.bwrapWorks(), "bubblewrap cannot run here");
        int total = Integer.getInteger("wrapper.oracle.spellings", 1000);
        long seed = Long.getLong("wrapper.oracle.seed", System.nanoTime());
        boolean root = root();
        List<String> wrappers = new ArrayList<>();
        for (String w : WRAPPERS) {
            if (!installed(w)) continue;
            if ((w.equals("su") || w.equals("runuser")) && !root) continue;
            wrappers.add(w);
        }
        Random r = new Random(seed);
        SpellingGenerator gen = new SpellingGenerator();
        List<Spelling> spellings = new ArrayList<>();
        for (int i = 0; i < total; i++) {
            String w = wrappers.get(r.nextInt(wrappers.size()));
            spellings.add(new Spelling(i, w, gen.spelling(w, r), w.equals("su") || w.equals("runuser")));
        }
        Map<Integer, Run> runs = runAll(spellings);
        Stats stats = new Stats();
        List<String> failures = new ArrayList<>();
        for (Spelling s : spellings) {
            String f = check(s, runs.get(s.index()), stats);
            if (f != null) failures.add(f.replace("\n", "\\n"));
        }
        stats.write(seed, total, failures.size());
        Path out = Path.of("target/wrapper-oracle-mismatches.txt");
        Files.deleteIfExists(out);
        if (!failures.isEmpty()) Files.write(out, failures);
        assertThat(failures).as("seed " + seed + "; " + stats).isEmpty();
    }

    /** The adversarial corpus' option cases run exactly what they say the real program runs. */
    @Test
    void corpusOptionCasesRunWhatTheySay() throws Exception {
        Assumptions.assumeTrue(ExecutionOracleTest.bwrapWorks(), "bubblewrap cannot run here");
        Path corpus = Path.of("src/test/resources/adversarial/corpus.jsonl");
        List<Spelling> spellings = new ArrayList<>();
        Map<Integer, List<List<String>>> expected = new LinkedHashMap<>();
        Map<Integer, String> ids = new LinkedHashMap<>();
        var json = new com.fasterxml.jackson.databind.ObjectMapper();
        int i = 0;
        for (String line : Files.readAllLines(corpus, StandardCharsets.UTF_8)) {
            if (!line.contains("\"adv-opt-")) continue;
            var node = json.readTree(line);
            if (!node.path("runs").isArray()) continue;
            String cmd = node.path("command").asText();
            String first = cmd.split(" ")[0];
            List<List<String>> runsList = new ArrayList<>();
            for (var a : node.path("runs")) {
                List<String> argv = new ArrayList<>();
                a.forEach(x -> argv.add(x.asText()));
                runsList.add(argv);
            }
            boolean asRoot = cmd.startsWith("su ") || cmd.startsWith("runuser ");
            if (asRoot && !root()) continue;
            spellings.add(new Spelling(i, first, cmd, asRoot));
            expected.put(i, runsList);
            ids.put(i, node.path("id").asText());
            i++;
        }
        Assumptions.assumeTrue(!spellings.isEmpty(), "no adv-opt cases with \"runs\"");
        Map<Integer, Run> runs = runAll(spellings);
        List<String> failures = new ArrayList<>();
        for (Spelling s : spellings) {
            List<List<String>> got = new ArrayList<>(runs.get(s.index()).argvs());
            List<List<String>> want = new ArrayList<>(expected.get(s.index()));
            java.util.Comparator<List<String>> order = java.util.Comparator.comparing(Object::toString);
            got.sort(order);
            want.sort(order);
            if (!got.equals(want)) failures.add(ids.get(s.index()) + ": " + s.command() + " ran " + got + ", the case says " + want);
        }
        Files.writeString(Path.of("target/wrapper-oracle-corpus.properties"), "cases=" + spellings.size()
                + "\nfailures=" + failures.size() + "\n");
        assertThat(failures).isEmpty();
    }

    // ---- running ----------------------------------------------------------------------------------------------------

    /** Runs every spelling in sandboxes (a root one for su/runuser), batched, and reads what each recorded. */
    private Map<Integer, Run> runAll(List<Spelling> spellings) throws Exception {
        Path shims = Files.createDirectories(tmp.resolve("shims"));
        Path real = Files.createDirectories(tmp.resolve("real"));
        Set<String> names = new LinkedHashSet<>();
        for (Spelling s : spellings) names.addAll(shimNames(s.command()));
        names.add(PAY);
        for (String n : names) ExecutionOracleTest.recorder(shims.resolve(n), "", 1);
        for (String w : WRAPPERS) {
            Path p = programPath(w);
            if (p != null && !Files.exists(real.resolve(w))) Files.createSymbolicLink(real.resolve(w), p);
        }
        for (String h : HELPERS) {
            Path p = programPath(h);
            if (p != null && !Files.exists(real.resolve(h))) Files.createSymbolicLink(real.resolve(h), p);
        }
        List<List<Spelling>> batches = new ArrayList<>();
        List<Spelling> plain = spellings.stream().filter(s -> !s.root()).toList();
        List<Spelling> asRoot = spellings.stream().filter(Spelling::root).toList();
        for (int k = 0; k < plain.size(); k += BATCH) batches.add(plain.subList(k, Math.min(plain.size(), k + BATCH)));
        for (int k = 0; k < asRoot.size(); k += BATCH) batches.add(asRoot.subList(k, Math.min(asRoot.size(), k + BATCH)));
        ExecutorService pool = Executors.newFixedThreadPool(3);
        List<Future<Path>> futures = new ArrayList<>();
        for (int b = 0; b < batches.size(); b++) {
            List<Spelling> batch = batches.get(b);
            Path recs = Files.createDirectories(tmp.resolve("rec-" + b));
            Path work = Files.createDirectories(tmp.resolve("work-" + b));
            futures.add(pool.submit(() -> {
                Files.writeString(work.resolve("x"), "a\n");
                Files.writeString(work.resolve("lk"), "a\n"); // xargs -a lk reads it too
                List<ExecutionOracleTest.Case> cases = new ArrayList<>();
                for (Spelling s : batch) {
                    // the exit status is written after the command, into a file the recordings skip
                    cases.add(new ExecutionOracleTest.Case(s.index(), s.command()
                            + "\nprintf %s $? > \"$ORACLE_REC/.status\"", null, null));
                }
                List<String> ns = batch.get(0).root()
                        ? List.of("--unshare-ipc", "--unshare-pid", "--unshare-net", "--unshare-uts", "--cap-add", "ALL")
                        : List.of("--unshare-all");
                ExecutionOracleTest.runBatch(cases, shims, real, work, recs, ns);
                return recs;
            }));
        }
        Map<Integer, Run> out = new TreeMap<>();
        for (int b = 0; b < batches.size(); b++) {
            Path recs = futures.get(b).get();
            for (Spelling s : batches.get(b)) {
                Path dir = recs.resolve(String.valueOf(s.index()));
                Path status = dir.resolve(".status");
                int st = -1;
                if (Files.exists(status)) {
                    String t = Files.readString(status).strip();
                    st = t.isEmpty() ? -1 : Integer.parseInt(t);
                    Files.delete(status);
                }
                out.put(s.index(), new Run(ExecutionOracleTest.recordings(dir), st));
            }
        }
        pool.shutdown();
        return out;
    }

    /** Every word of the command that a program could run by name: each gets a recording shim. */
    static Set<String> shimNames(String command) {
        Set<String> out = new LinkedHashSet<>();
        for (String w : command.split("[\\s'\"=;|]+")) {
            if (w.isEmpty() || w.contains("/") || w.equals(".") || w.equals("..") || w.contains("$")
                    || w.contains("\\") || w.contains("`") || NOT_SHIMS.contains(w)) {
                continue;
            }
            out.add(w);
        }
        return out;
    }

    // ---- checking -----------------------------------------------------------------------------------------------

    /** Counts by outcome, written to target/wrapper-oracle-stats.properties. */
    static final class Stats {
        final Map<String, Integer> counts = new TreeMap<>();
        final Map<String, Integer> perWrapper = new TreeMap<>();
        /** Spellings the program refused (a usage error: nothing ran) where the hook read a payload. */
        final List<String> overRead = new ArrayList<>();

        void add(String key) {
            counts.merge(key, 1, Integer::sum);
        }

        void wrapper(String w) {
            perWrapper.merge(w, 1, Integer::sum);
        }

        void write(long seed, int total, int failures) throws IOException {
            StringBuilder b = new StringBuilder("seed=" + seed + "\nspellings=" + total + "\nfailures=" + failures + "\n");
            for (var e : counts.entrySet()) b.append(e.getKey()).append('=').append(e.getValue()).append('\n');
            for (var e : perWrapper.entrySet()) b.append("wrapper.").append(e.getKey()).append('=').append(e.getValue()).append('\n');
            Path p = Path.of("target/wrapper-oracle-stats.properties");
            Files.createDirectories(p.getParent());
            Files.writeString(p, b);
            Files.write(Path.of("target/wrapper-oracle-over-read.txt"), overRead);
        }

        @Override
        public String toString() {
            return counts.toString();
        }
    }

    static PermissionSettings rules(List<String> allow, List<String> deny) {
        return new PermissionSettings(allow, List.of(), deny, List.of(), List.of(), List.of());
    }

    private String check(Spelling s, Run run, Stats stats) throws IOException {
        stats.wrapper(s.wrapper());
        Path cwd = Files.createDirectories(tmp.resolve("cwd"));
        PermissionSettings allow = rules(List.of("Bash(" + PAY + " *)", "Bash(" + PAY + ")"), List.of());
        PermissionSettings deny = rules(List.of(), List.of("Bash(" + PAY + " *)", "Bash(" + PAY + ")"));
        Decider.Verdict allowed = Decider.decide(new Decider.Call(s.command(), cwd.toString(), null, allow, null), engine);
        Decider.Verdict denied = Decider.decide(new Decider.Call(s.command(), cwd.toString(), null, deny, null), engine);
        if (allowed.judgement() == null || allowed.judgement().facts() == null) {
            stats.add("unparsed");
            return null;
        }
        Facts facts = allowed.judgement().facts();
        boolean uncertain = facts.wrappers().stream().anyMatch(w -> !w.isPayloadReadable());
        List<SubCommand> payloads = new ArrayList<>();
        for (SubCommand sc : facts.subCommands()) {
            if (sc.getRole().equals("wrapper") || sc.getBaseName().equals("printf")) continue;
            payloads.add(sc);
        }
        List<List<String>> ran = run.argvs();
        String context = "[" + s.wrapper() + "] " + s.command() + " | ran " + ran + " status " + run.status()
                + " | hook reads " + payloads.stream().map(SubCommand::getArgv).toList()
                + (uncertain ? " (uncertain)" : "");
        stats.add(uncertain ? "reading.uncertain" : "reading.certain");
        stats.add(ran.isEmpty() ? "program.ranNothing" : "program.ran");

        // deny: whenever the denied program ran, the hook denies
        boolean payRan = ran.stream().anyMatch(a -> a.get(0).equals(PAY));
        if (payRan && !denied.outcome().equals("deny")) {
            return "DENY HIDDEN: " + context + " | verdict " + denied.outcome() + " " + denied.reason();
        }
        if (payRan) stats.add("deny.found");

        // allow: never for an uncertain reading; otherwise only when every argv that ran was approved
        if (allowed.outcome().equals("allow")) {
            stats.add("allow");
            if (uncertain) return "ALLOW OF AN UNCERTAIN READING: " + context;
            String problem = ExecutionOracleTest.checkAllow(
                    new ExecutionOracleTest.Case(s.index(), s.command(), allow, allowed), ran);
            if (problem != null) return problem + " | " + context;
        }

        if (uncertain) return null;
        // exact: a certain reading names what ran (a name only known at run time stands for any program: never
        // approved); a shell given a script file runs that file, found through PATH, with its arguments
        SubCommand top = facts.subCommands().stream().filter(sc -> sc.getBaseName().equals(s.wrapper()))
                .findFirst().orElse(null);
        for (List<String> argv : ran) {
            boolean read = payloads.stream().anyMatch(p -> p.isDynamicName() || ArgvMatch.matches(p, argv)
                    || matchesArgs(p, argv));
            if (!read && top != null && !top.getRole().equals("wrapper") && (s.wrapper().equals("bash")
                    || s.wrapper().equals("sh"))) {
                List<String> t = top.getArgv();
                read = t.size() >= argv.size() && t.subList(t.size() - argv.size(), t.size()).equals(argv);
            }
            if (!read) return "RAN WHAT THE HOOK DID NOT READ: " + argv + " | " + context;
        }
        boolean hookRunsShim = payloads.stream().anyMatch(p -> !p.isDynamicName()
                && shimNames(s.command()).contains(p.getBaseName()) || p.getBaseName().equals(PAY));
        if (ran.isEmpty() && hookRunsShim) {
            // find runs a payload only where its expression reaches it for a file (and -ok asks first)
            // (setsid without --wait leaves its forked child to run after the case is over; xargs -p asks on the
            // terminal first, and there is none)
            boolean conditional = s.wrapper().equals("find") || s.wrapper().equals("setsid")
                    || (s.wrapper().equals("xargs") && interactiveXargs(facts));
            if (run.status() == 0 && !conditional) {
                return "THE HOOK READS A PAYLOAD THAT DID NOT RUN (status 0): " + context;
            }
            stats.add("overRead");
            stats.overRead.add(context);
        } else if (!ran.isEmpty()) {
            stats.add("exact");
        } else {
            stats.add("nothingRuns");
        }
        return null;
    }

    /**
     * The recorded argv is the sub-command's, where every word whose value the hook does not know (an expansion, a
     * glob, a word a wrapper splices its replace string into, whatever that string is) stands for any arguments.
     */
    static boolean matchesArgs(SubCommand s, List<String> recorded) {
        List<dev.compoundbash.facts.Arg> args = s.getArgs();
        if (args.isEmpty() || recorded.isEmpty()) return false;
        String name = s.getBaseName();
        if (!name.equals(recorded.get(0))) return false;
        return argTokens(args, 1, recorded, 1, s.isArgumentsAppended());
    }

    private static boolean argTokens(List<dev.compoundbash.facts.Arg> f, int i, List<String> r, int j, boolean appended) {
        if (i == f.size()) return j == r.size() || appended;
        if (!f.get(i).known()) {
            for (int k = j; k <= r.size(); k++) if (argTokens(f, i + 1, r, k, appended)) return true;
            return false;
        }
        return j < r.size() && f.get(i).prefix().equals(r.get(j)) && argTokens(f, i + 1, r, j + 1, appended);
    }

    static boolean interactiveXargs(Facts facts) {
        for (SubCommand sc : facts.subCommands()) {
            if (!sc.getBaseName().equals("xargs")) continue;
            OptionGrammar.Parsed p = OptionGrammar.named("xargs").parseCommand(sc.getArgs());
            if (p.has("-p")) return true;
        }
        return false;
    }

    // ---- generating -------------------------------------------------------------------------------------------------

    /**
     * Option spellings: each wrapper's declared options (the options of its schema, {@code programs/NAME.json}) and words the
     * grammar does not declare (every letter, unknown long names, abbreviations of any length, so a grammar that
     * misses an option or its argument kind is found), values attached, after {@code =} and detached, optional
     * arguments given and left out, {@code --}, {@code -}, and words only known at run time (a variable set just
     * before, which the hook does not follow).
     */
    static final class SpellingGenerator {
        final String letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789?";
        final String[] values = {"1", "1", "1", "0", "x", "KILL", "L", "-v", "--", "lk", "out"};
        int variables;

        String spelling(String w, Random r) {
            variables = 0;
            StringBuilder pre = new StringBuilder();
            String body = switch (w) {
                case "xargs" -> "printf 'a\\n' | xargs " + options("xargs", r, pre) + payload(r, true);
                case "find" -> find(r, pre);
                case "timeout" -> "timeout " + options("timeout", r, pre) + pick(r, "1", "5", "0") + " " + payload(r, false);
                case "nice" -> "nice " + nice(r, pre) + payload(r, false);
                case "nohup" -> "nohup " + options("nohup", r, pre) + payload(r, false);
                case "stdbuf" -> "stdbuf " + options("stdbuf", r, pre) + payload(r, false);
                case "env" -> "env " + options("env", r, pre) + assignments(r) + payload(r, false);
                case "setsid" -> "setsid " + options("setsid", r, pre) + payload(r, false);
                case "ionice" -> "ionice " + options("ionice", r, pre) + payload(r, false);
                case "chrt" -> "chrt " + options("chrt", r, pre) + (r.nextInt(4) > 0 ? "0 " : "") + payload(r, false);
                case "taskset" -> "taskset " + options("taskset", r, pre) + pick(r, "1", "0x1", "0") + " " + payload(r, false);
                case "flock" -> "flock " + options("flock", r, pre) + "lk " + (r.nextBoolean() ? payload(r, false)
                        : pick(r, "-c", "--command") + " '" + PAY + " c'" + (r.nextInt(5) == 0 ? " extra" : ""));
                case "script" -> "script " + options("script", r, pre) + (r.nextBoolean() ? "-c '" + PAY + " s' " : "")
                        + (r.nextBoolean() ? "/dev/null" : "") + (r.nextInt(4) == 0 ? " " + payload(r, false) : "");
                case "watch" -> "watch -e " + options("watch", r, pre) + (r.nextBoolean() ? payload(r, false)
                        : "'" + PAY + " w; " + PAY + " v'");
                case "unbuffer" -> "unbuffer " + (r.nextInt(3) == 0 ? "-p " : "") + spawnFlags(r) + payload(r, false);
                case "unshare" -> "unshare " + options("unshare", r, pre) + payload(r, false);
                case "chroot" -> "chroot " + options("chroot", r, pre) + "/ " + payload(r, false);
                case "setpriv" -> "setpriv " + options("setpriv", r, pre) + payload(r, false);
                case "time" -> "/usr/bin/time " + options("time", r, pre) + payload(r, false);
                case "bash", "sh" -> w + " " + shellOptions(r) + "-c '" + PAY + " b' " + pick(r, "", "n a", "--");
                case "time-keyword" -> "time " + pick(r, "", "-p ", "-- ", "-p -- ", "-- -p ") + payload(r, false);
                case "su" -> "su " + suWords(r, pre);
                case "runuser" -> "runuser " + (r.nextBoolean() ? "-u root " + payload(r, false) : suWords(r, pre));
                default -> throw new IllegalArgumentException(w);
            };
            return pre + body;
        }

        static String pick(Random r, String... xs) {
            return xs[r.nextInt(xs.length)];
        }

        String payload(Random r, boolean braces) {
            String p = PAY + " " + pick(r, "a", "a b", "-a", "--", "{}", "-");
            if (braces && r.nextInt(3) == 0) p += " {}";
            return p;
        }

        /** A word that holds {@code word} only at run time: {@code v1='word'; ... $v1} (or quoted). */
        String runTime(String word, StringBuilder pre, Random r) {
            String v = "v" + (++variables);
            pre.append(v).append("='").append(word).append("'; ");
            return r.nextBoolean() ? "\"$" + v + "\"" : "$" + v;
        }

        /** Between 0 and 4 option words for the grammar, each with its values; sometimes not declared at all. */
        String options(String grammar, Random r, StringBuilder pre) {
            OptionGrammar g = OptionGrammar.named(grammar);
            List<Character> shorts = new ArrayList<>(g.shortOptions().keySet());
            List<String> longs = new ArrayList<>(g.longOptions().keySet());
            StringBuilder b = new StringBuilder();
            int n = r.nextInt(5);
            for (int k = 0; k < n; k++) {
                String word = optionWord(g, shorts, longs, r);
                if (r.nextInt(14) == 0) {
                    // the whole option word only known at run time
                    String[] parts = word.split(" ", 2);
                    b.append(runTime(parts[0], pre, r)).append(' ');
                    if (parts.length > 1) b.append(parts[1]).append(' ');
                } else {
                    b.append(word).append(' ');
                }
            }
            return b.toString();
        }

        String value(Random r) {
            return values[r.nextInt(values.length)];
        }

        String optionWord(OptionGrammar g, List<Character> shorts, List<String> longs, Random r) {
            int kind = r.nextInt(12);
            if (kind == 0) return "--";
            if (kind == 1) return "-" + letters.charAt(r.nextInt(letters.length())); // maybe undeclared
            if (kind == 2) return "--" + pick(r, "frob", "no", "h", "v", "he", "ver", "x") ;
            if ((kind <= 6 || longs.isEmpty()) && !shorts.isEmpty()) {
                // a cluster of one to three declared letters, the last one with its argument
                StringBuilder c = new StringBuilder("-");
                int len = 1 + r.nextInt(3);
                String tail = "";
                for (int m = 0; m < len; m++) {
                    char ch = shorts.get(r.nextInt(shorts.size()));
                    c.append(ch);
                    OptionGrammar.Argument a = g.shortOptions().get(ch);
                    if (a == OptionGrammar.Argument.REQUIRED) {
                        if (r.nextBoolean()) c.append(value(r));
                        else tail = " " + value(r);
                        break;
                    }
                    if (a == OptionGrammar.Argument.OPTIONAL) {
                        if (r.nextBoolean()) c.append(value(r));
                        else if (r.nextBoolean()) tail = " " + value(r); // not its argument
                        break;
                    }
                }
                return c + tail;
            }
            if (longs.isEmpty()) return "-" + letters.charAt(r.nextInt(letters.length()));
            String name = longs.get(r.nextInt(longs.size()));
            OptionGrammar.Argument a = g.longOptions().get(name);
            String spelled = r.nextInt(3) == 0 ? name.substring(0, 1 + r.nextInt(name.length())) : name;
            String dash = g.style() == OptionGrammar.Style.TCL ? "" : "--";
            return switch (a) {
                case NONE -> dash + spelled + (r.nextInt(8) == 0 ? "=" + value(r) : "");
                case REQUIRED -> dash + spelled + (r.nextBoolean() ? "=" + value(r) : " " + value(r));
                case OPTIONAL -> dash + spelled + (r.nextBoolean() ? "=" + value(r) : r.nextBoolean() ? " " + value(r) : "");
            };
        }

        String nice(Random r, StringBuilder pre) {
            StringBuilder b = new StringBuilder();
            int n = r.nextInt(3);
            for (int k = 0; k < n; k++) {
                switch (r.nextInt(5)) {
                    case 0 -> b.append(pick(r, "-5", "--5", "-+5", "-5x")).append(' ');
                    case 1 -> b.append(pick(r, "-n 1", "-n1", "--adj=1", "--adjustment 1", "--a 1", "-n")).append(' ');
                    default -> b.append(options("nice", r, pre));
                }
            }
            return b.toString();
        }

        String assignments(Random r) {
            StringBuilder b = new StringBuilder();
            int n = r.nextInt(3);
            for (int k = 0; k < n; k++) b.append(pick(r, "A=1", "a-b=1", "=x", "B=", "1x=2")).append(' ');
            return b.toString();
        }

        String spawnFlags(Random r) {
            StringBuilder b = new StringBuilder();
            int n = r.nextInt(3);
            for (int k = 0; k < n; k++) {
                b.append(pick(r, "-noecho", "-noe", "-n", "-nottyinit", "-nott", "-console", "-ignore INT",
                        "-ign INT", "-x", "--")).append(' ');
            }
            return b.toString();
        }

        String shellOptions(Random r) {
            StringBuilder b = new StringBuilder();
            int n = r.nextInt(3);
            for (int k = 0; k < n; k++) {
                b.append(pick(r, "-e", "-eu", "-o pipefail", "+o posix", "-O extglob", "--norc", "-norc", "--noprofile",
                        "-x", "-ex", "--posix", "-Z", "--frob", "-")).append(' ');
            }
            return b.toString();
        }

        String suWords(Random r, StringBuilder pre) {
            List<String> words = new ArrayList<>();
            if (r.nextBoolean()) words.add("root");
            int n = r.nextInt(3);
            for (int k = 0; k < n; k++) words.add(pick(r, "-c '" + PAY + " u'", "--command='" + PAY + " u'", "-f",
                    "-m", "-p", "-s /bin/bash", "--sh=/bin/bash", "-P", "--"));
            java.util.Collections.shuffle(words, r);
            return String.join(" ", words) + (r.nextInt(3) == 0 ? " " + PAY + " z" : "");
        }

        String find(Random r, StringBuilder pre) {
            StringBuilder b = new StringBuilder("find ");
            b.append(pick(r, "", "-H ", "-L ", "-P ", "-O1 ", "-D tree ", "-- "));
            b.append(pick(r, "x ", "x lk ", ". -maxdepth 0 ", ""));
            int n = r.nextInt(3);
            for (int k = 0; k < n; k++) {
                b.append(pick(r, "-name x ", "-name -fprintf ", "-path -exec ", "-type f ", "-true ", "! -false ",
                        "-newermm lk ", "-newerxy lk ", "-print ", "-o -false ", "-regex -ok ", "-bogus "));
            }
            String exec = pick(r, "-exec", "-exec", "-execdir", "-ok", "-okdir");
            b.append(exec).append(' ').append(PAY).append(' ').append(pick(r, "a", "{}", "a{}", "-name"))
                    .append(pick(r, " {} ;", " ;", " {} +", " +", " + {} ;"));
            if (r.nextInt(4) == 0) b.append(" -exec ").append(PAY).append(" q ;");
            return b.toString().replace(" ;", " \\;");
        }
    }
}
