package dev.compoundbash.oracle;

import dev.compoundbash.facts.Environment;
import dev.compoundbash.facts.FactExtractor;
import dev.compoundbash.facts.Facts;
import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.oracle.WordGenerator.Context;
import dev.compoundbash.shell.Assignment;
import dev.compoundbash.shell.BraceExpansion;
import dev.compoundbash.shell.Command;
import dev.compoundbash.shell.ListItem;
import dev.compoundbash.shell.ParseException;
import dev.compoundbash.shell.Parser;
import dev.compoundbash.shell.Redirection;
import dev.compoundbash.shell.Script;
import dev.compoundbash.shell.Word;
import dev.compoundbash.shell.WordPart;
import dev.compoundbash.shell.WordValue;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The word-expansion oracle of issue 14: generated words ({@link WordGenerator}) in every context bash expands words
 * in ({@link Context}) are read by the hook's parser and extractor and run by the real {@code bash} in the
 * execution oracle's sandbox (bubblewrap, read-only root, no network, an empty work directory, a clean
 * environment; {@link ExecutionOracleTest#recorder} shims for the embedded commands {@code c0..c9}, and a
 * {@code command_not_found_handle} recording every other name bash tries to run).
 *
 * <p>Checks, per word:
 * <ul>
 *   <li><b>value</b>: where the hook calls the word static ({@link WordValue#isStatic()} of every word
 *   {@link BraceExpansion} makes of it, and the argv the extractor builds from them), bash's values
 *   ({@code printf '%s\0'} of {@code "$@"}, of the assigned variable, of what {@code read} got from a here-document
 *   or here-string) are exactly the hook's, in the same context;</li>
 *   <li><b>no command</b>: while expanding a word the hook calls static, bash runs no command;</li>
 *   <li><b>every command known</b>: every command bash runs while expanding a word is one of the hook's
 *   sub-commands ({@link ArgvMatch}); for here-document delimiters and here-documents inside a command
 *   substitution also the reverse: the marker commands after the body run exactly when the hook reads them as
 *   commands.</li>
 * </ul>
 * Budget: {@code -Doracle.words} (default 3,000; {@code -Pfuzz} 1,000,000), seed {@code -Doracle.wordSeed} (a new
 * one each run; printed on stderr at the start and in every failure, with the command that reproduces it).
 * Results in {@code target/word-oracle-stats.properties} and {@code target/word-oracle-mismatches.txt}. Skipped
 * when bubblewrap cannot run here.
 */
class WordOracleTest {
    static final int BATCH = 1000;
    static final String PRE = "s=abcdef; a=(0 1 2); y='a b'; ";
    /** Names the oracle must not expect to reach command_not_found_handle (bash builtins and keywords). */
    static final Set<String> BUILTINS = Set.of(".", ":", "[", "alias", "bg", "bind", "break", "builtin", "caller",
            "cd", "command", "compgen", "complete", "compopt", "continue", "declare", "dirs", "disown", "echo",
            "enable", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help", "history",
            "jobs", "kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read",
            "readarray", "readonly", "return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap",
            "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait", "!", "[[", "]]", "{", "}",
            "case", "coproc", "do", "done", "elif", "else", "esac", "fi", "for", "function", "if", "in", "select",
            "then", "time", "until", "while");

    @TempDir
    Path tmp;

    /**
     * One generated case.
     *
     * @param expected the values bash must print (after the count), or null when the hook does not know them
     * @param mustRun  argv that must be recorded (marker commands the hook reads as commands)
     * @param mustNot  names that must not run (marker commands the hook reads as text)
     */
    record Case(int id, Context context, String hookScript, String bashScript, List<String> expected,
                boolean isStatic, Facts facts, List<List<String>> mustRun, Set<String> mustNot) {
    }

    @Test
    void everyStaticWordIsBashsValueAndEveryCommandRunIsKnown() throws Exception {
        Assumptions.assumeTrue(ExecutionOracleTest.bwrapWorks(), "bubblewrap cannot run here");
        int total = Integer.getInteger("oracle.words", 3_000);
        long seed = Long.getLong("oracle.wordSeed", System.nanoTime());
        String reproduce = "seed " + seed + " (reproduce: mvn test -Dtest=WordOracleTest -Doracle.wordSeed=" + seed
                + " -Doracle.words=" + total + ")";
        System.err.println("word oracle: " + reproduce);
        try {
            run(total, seed, reproduce);
        } catch (AssertionError | Exception e) {
            // every failure names the seed, also one that is not a mismatch (an extractor assertion, a sandbox error)
            if (String.valueOf(e.getMessage()).contains(reproduce)) throw e;
            throw new AssertionError(reproduce + ": " + e, e);
        }
    }

    private void run(int total, long seed, String reproduce) throws Exception {
        Random r = new Random(seed);
        Path shims = Files.createDirectories(tmp.resolve("shims"));
        for (int i = 0; i < 10; i++) ExecutionOracleTest.recorder(shims.resolve("c" + i), "");
        WordGenerator gen = new WordGenerator();
        Environment env = Environment.of(tmp.resolve("work"), List.of(), null);
        Files.deleteIfExists(Path.of("target/word-oracle-mismatches.txt"));

        Map<Context, int[]> counts = new EnumMap<>(Context.class); // generated, parsed, valueChecked, ran
        for (Context c : Context.values()) counts.put(c, new int[4]);
        // which quoting forms each context received (context x form coverage)
        Map<Context, Map<WordGenerator.Form, Integer>> matrix = new EnumMap<>(Context.class);
        for (Context c : Context.values()) matrix.put(c, new EnumMap<>(WordGenerator.Form.class));
        List<String> mismatches = new ArrayList<>();
        long commandsRecorded = 0;
        int checked = 0;
        long started = System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            int id = 0;
            List<Future<BatchResult>> pending = new ArrayList<>();
            List<List<Case>> pendingCases = new ArrayList<>();
            while (id < total || !pending.isEmpty()) {
                // keep two batches in the sandboxes while the next one is generated
                while (id < total && pending.size() < 2) {
                    List<Case> batch = new ArrayList<>();
                    int end = Math.min(total, id + BATCH);
                    for (; id < end; id++) {
                        Context ctx = Context.values()[r.nextInt(Context.values().length)];
                        counts.get(ctx)[0]++;
                        gen.contextCounts.merge(ctx, 1, Integer::sum);
                        gen.current.clear();
                        Case c = generate(id, ctx, gen, r, env);
                        for (WordGenerator.Form f : gen.current) matrix.get(ctx).merge(f, 1, Integer::sum);
                        if (c == null) continue;
                        counts.get(ctx)[1]++;
                        batch.add(c);
                    }
                    Path dir = Files.createDirectories(tmp.resolve("batch-" + id));
                    pendingCases.add(batch);
                    pending.add(pool.submit(() -> runBatch(batch, shims, dir)));
                }
                BatchResult res = pending.remove(0).get();
                List<Case> batch = pendingCases.remove(0);
                for (Case c : batch) {
                    checked++;
                    counts.get(c.context())[3]++;
                    List<String> values = res.values().get(c.id());
                    List<List<String>> recorded = res.recordings().get(c.id());
                    commandsRecorded += recorded == null ? 0 : recorded.size();
                    if (c.expected() != null) counts.get(c.context())[2]++;
                    String problem = check(c, values, recorded == null ? List.of() : recorded);
                    if (problem != null) {
                        String err = res.errors().getOrDefault(c.id(), "");
                        mismatches.add((c.context() + ": " + problem + "; script: " + c.hookScript() + "; bash stderr: "
                                + err).replace("\n", "\\n"));
                    }
                }
                deleteTree(res.dir());
            }
        } finally {
            pool.shutdownNow();
        }
        long seconds = (System.nanoTime() - started) / 1_000_000_000L;
        StringBuilder stats = new StringBuilder("seed=" + seed + "\nwords=" + total + "\nchecked=" + checked
                + "\ncommandsRecorded=" + commandsRecorded + "\nmismatches=" + mismatches.size() + "\nseconds="
                + seconds + "\n");
        for (Context c : Context.values()) {
            int[] k = counts.get(c);
            stats.append("context.").append(c).append("=generated ").append(k[0]).append(", parsed ").append(k[1])
                    .append(", value-checked ").append(k[2]).append(", run ").append(k[3]).append('\n');
        }
        gen.formCounts.forEach((f, n) -> stats.append("form.").append(f).append('=').append(n).append('\n'));
        int cells = 0;
        for (Context c : Context.values()) {
            stats.append("matrix.").append(c).append('=').append(matrix.get(c)).append('\n');
            cells += matrix.get(c).size();
        }
        stats.append("matrixCells=").append(cells).append(" of ").append(Context.values().length
                * WordGenerator.Form.values().length).append('\n');
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/word-oracle-stats.properties"), stats);
        if (!mismatches.isEmpty()) {
            Files.write(Path.of("target/word-oracle-mismatches.txt"),
                    dev.compoundbash.shell.AnsiC.bytes(String.join("\n", mismatches) + "\n"));
        }
        assertThat(mismatches).as(reproduce + "; all in target/word-oracle-mismatches.txt").isEmpty();
    }

    // ---------------------------------------------------------------- cases

    private static Case generate(int id, Context ctx, WordGenerator gen, Random r, Environment env) {
        java.util.function.Supplier<String> word = () -> r.nextInt(3) == 0 ? gen.staticWord(r, 2) : gen.word(r, 2);
        try {
            return switch (ctx) {
                case ARGUMENT -> argument(id, ctx, PRE + "set -- " + word.get() + "\n", env);
                case DOUBLE_QUOTED -> argument(id, ctx, PRE + "set -- \"" + gen.dqContent(r, 2) + "\"\n", env);
                case COMMAND_NAME -> commandName(id, PRE + word.get() + " zz\n", env);
                case ASSIGNMENT -> assignment(id, PRE + "v=" + word.get() + "\n", env);
                case DECLARATION -> declaration(id, PRE + DECLARE[r.nextInt(DECLARE.length)] + " v=" + word.get()
                        + "\n", env);
                case ARRAY_ELEMENT -> {
                    String w = word.get();
                    yield w.startsWith("[") ? null : array(id, PRE + "b=(" + w + ")\n", env);
                }
                case KEYED_ELEMENT -> keyed(id, gen, r, env);
                case HERE_STRING -> hereString(id, PRE + "IFS= read -r -d '' v <<< " + word.get() + "\n", env);
                case HEREDOC_BODY -> hereDocBody(id, ctx, "<<EOF", heredocText(gen, r, false), "EOF", env);
                case HEREDOC_BODY_TABS -> hereDocBody(id, ctx, "<<-EOF", heredocText(gen, r, true), "\t\tEOF", env);
                case HEREDOC_DELIMITER -> delimiter(id, gen, r, env);
                case HEREDOC_IN_SUBSTITUTION -> inSubstitution(id, gen, r, env);
                case ARITHMETIC -> arithmetic(id, gen, r, env);
                case PARAMETER_OPERAND -> operand(id, gen, r, env);
            };
        } catch (ParseException e) {
            return null; // the hook rejects it: a parse error defers, nothing to compare
        }
    }

    private static Script parse(String script) throws ParseException {
        return Parser.parse(script);
    }

    private static Facts facts(Script s, Environment env) {
        return FactExtractor.extract(s, env);
    }

    private static Command.Simple lastSimple(Script s) {
        List<ListItem> items = s.body().items();
        for (int i = items.size() - 1; i >= 0; i--) {
            if (items.get(i).command() instanceof Command.Simple sc) return sc;
        }
        return null;
    }

    /** The values of every word brace expansion makes of {@code words}, or null when one is not static. */
    private static List<String> staticValues(List<Word> words, String source, boolean globsMatter) {
        List<String> out = new ArrayList<>();
        for (Word w : words) {
            BraceExpansion.Words ex = BraceExpansion.of(w, source);
            if (ex.overflow()) return null;
            for (BraceExpansion.Piece p : ex.pieces()) {
                WordValue v = WordValue.of(p.word(), p.source());
                if (!v.isStatic()) return null;
                // a pattern with a slash may match files outside the empty work directory
                if (globsMatter && v.glob() && v.value().indexOf('/') >= 0) return null;
                out.add(v.value());
            }
        }
        return out;
    }

    /** The one simple command with words of a script (the template's), or null when there are more or none. */
    private static Command.Simple onlyCommand(Script s) {
        Command.Simple found = null;
        for (ListItem item : s.body().items()) {
            if (!(item.command() instanceof Command.Simple sc)) return null;
            if (sc.words().isEmpty()) continue;
            if (found != null) return null;
            found = sc;
        }
        return found;
    }

    private static Case argument(int id, Context ctx, String hook, Environment env) throws ParseException {
        Script s = parse(hook);
        Command.Simple set = onlyCommand(s);
        if (set == null) return new Case(id, ctx, hook, hook, null, false, facts(s, env), List.of(), Set.of());
        List<Word> words = set == null || set.words().size() < 2 ? List.of() : set.words().subList(2, set.words().size());
        List<String> expected = staticValues(words, hook, true);
        Facts f = facts(s, env);
        if (expected != null) {
            SubCommand sc = f.subCommands().get(f.subCommands().size() - 1);
            for (SubCommand c : f.subCommands()) if (c.getArgv().get(0).equals("set")) sc = c;
            List<String> argv = sc.getArgv();
            assertThat(argv.subList(Math.min(2, argv.size()), argv.size())).as("extractor argv of " + hook)
                    .isEqualTo(expected);
        }
        return new Case(id, ctx, hook, hook + "printf '%s\\0' \"$#\" \"$@\"\n", expected, expected != null, f,
                List.of(), Set.of());
    }

    private static Case commandName(int id, String hook, Environment env) throws ParseException {
        Script s = parse(hook);
        Facts f = facts(s, env);
        Command.Simple c = lastSimple(s);
        List<List<String>> mustRun = new ArrayList<>();
        if (c != null && !c.words().isEmpty() && c.assignments().isEmpty()) {
            List<String> argv = staticValues(c.words(), hook, true);
            if (argv != null && !argv.isEmpty() && !BUILTINS.contains(argv.get(0)) && argv.get(0).indexOf('/') < 0
                    && !argv.get(0).isEmpty() && !argv.get(0).startsWith("%") && !argv.get(0).matches("c[0-9]") && WordValue.of(c.words().get(0),
                    hook).isStatic()) {
                mustRun.add(argv);
            }
        }
        return new Case(id, Context.COMMAND_NAME, hook, hook, null, false, f, mustRun, Set.of());
    }

    private static Case assignment(int id, String hook, Environment env) throws ParseException {
        Script s = parse(hook);
        Command.Simple c = lastSimple(s);
        List<String> expected = null;
        if (c != null && c.words().isEmpty() && !c.assignments().isEmpty()) {
            Assignment a = c.assignments().get(c.assignments().size() - 1);
            if (a.name().equals("v") && a.value() != null) {
                WordValue v = WordValue.of(a.value(), hook);
                if (v.isStatic()) expected = List.of(v.value());
            }
        }
        return new Case(id, Context.ASSIGNMENT, hook, hook + "printf '%s\\0' 1 \"$v\"\n", expected,
                expected != null, facts(s, env), List.of(), Set.of());
    }

    private static Case declaration(int id, String hook, Environment env) throws ParseException {
        Script s = parse(hook);
        Command.Simple c = lastSimple(s);
        List<String> expected = null;
        if (c != null && c.words().size() >= 2) {
            Word w = c.words().get(c.words().size() - 1);
            WordValue v = WordValue.of(w, hook);
            if (v.isStatic() && !v.braceExpansion() && v.value().startsWith("v=")) {
                expected = List.of(v.value().substring(2));
            }
        }
        return new Case(id, Context.DECLARATION, hook, hook + "printf '%s\\0' 1 \"$v\"\n", expected,
                expected != null, facts(s, env), List.of(), Set.of());
    }

    /** The declaration builtins and options a DECLARATION word is given to (all make a global v). */
    static final String[] DECLARE = {"declare", "declare", "typeset", "export", "readonly", "declare -x",
            "declare -g", "declare --"};

    /**
     * A subscripted element of a compound assignment, a key-value list, or an associative array's subscript (commands
     * checked only: the hook keeps no array values).
     */
    private static Case keyed(int id, WordGenerator gen, Random r, Environment env) throws ParseException {
        String sub = r.nextBoolean() ? gen.word(r, 2) : gen.arithmetic(r, 2).replace(" ", "");
        String w = r.nextInt(3) == 0 ? gen.staticWord(r, 2) : gen.word(r, 2);
        String body = switch (r.nextInt(12)) {
            case 0 -> "b=([" + sub + "]=" + w + ")";
            case 1 -> "b=(" + w + " [" + sub + "]=" + w + ")";
            case 2 -> "declare -a b=([" + sub + "]=" + w + ")";
            case 3 -> "declare -A b=([" + sub + "]=" + w + ")";
            case 4 -> "declare -A b; b=([" + sub + "]=" + w + ")";
            case 5 -> "declare -A b; b+=([" + sub + "]=" + w + " [k]=1)";
            case 6 -> "declare -A b=(" + sub + " " + w + ")";
            case 7 -> "declare b=([" + sub + "]=" + w + ")";
            case 8 -> "f() { local -a b=([" + sub + "]=" + w + "); }; f";
            case 9 -> "declare -A b; b[" + sub + "]=" + w;
            case 10 -> "declare -A b; : \"${b[" + sub + "]}\"";
            default -> "b+=([" + sub + "]+=" + w + ")";
        };
        String hook = PRE + "x=1\n" + body + "\n";
        Script s = parse(hook);
        return new Case(id, Context.KEYED_ELEMENT, hook, hook, null, false, facts(s, env), List.of(), Set.of());
    }

    private static Case array(int id, String hook, Environment env) throws ParseException {
        Script s = parse(hook);
        Command.Simple c = lastSimple(s);
        List<String> expected = null;
        if (c != null && c.words().isEmpty() && c.assignments().size() == 1) {
            Assignment a = c.assignments().get(0);
            if (a.array() != null && a.array().size() == 1 && a.array().get(0).index() == null) {
                List<String> v = staticValues(List.of(a.array().get(0).value()), hook, true);
                if (v != null) expected = v;
            }
        }
        return new Case(id, Context.ARRAY_ELEMENT, hook, hook + "printf '%s\\0' \"${#b[@]}\" \"${b[@]}\"\n",
                expected, expected != null, facts(s, env), List.of(), Set.of());
    }

    private static Redirection lastRedirection(Script s) {
        Command.Simple c = lastSimple(s);
        return c == null || c.redirections().isEmpty() ? null : c.redirections().get(c.redirections().size() - 1);
    }

    private static Case hereString(int id, String hook, Environment env) throws ParseException {
        Script s = parse(hook);
        Redirection r = lastRedirection(s);
        List<String> expected = null;
        if (r != null && r.operator().equals("<<<")) {
            WordValue v = WordValue.of(r.target(), hook);
            if (v.isStatic()) expected = List.of(v.value() + "\n");
        }
        return new Case(id, Context.HERE_STRING, hook, hook + "printf '%s\\0' 1 \"$v\"\n", expected,
                expected != null, facts(s, env), List.of(), Set.of());
    }

    /** Lines of here-document text (no line is the delimiter EOF); with {@code tabs} each starts with tabs. */
    private static String heredocText(WordGenerator gen, Random r, boolean tabs) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            if (tabs) b.append("\t".repeat(r.nextInt(3)));
            String line = r.nextInt(3) == 0 ? "\"" + gen.dqContent(r, 2) + "'" : gen.dqContent(r, 2);
            b.append(line).append('\n');
        }
        String t = b.toString();
        return t.matches("(?s)(.*\n)?\t*EOF(\n.*)?") ? "x\n" : t;
    }

    private static Case hereDocBody(int id, Context ctx, String op, String body, String close, Environment env)
            throws ParseException {
        String hook = PRE + "IFS= read -r -d '' v " + op + "\n" + body + close + "\n";
        Script s = parse(hook);
        Redirection r = lastRedirection(s);
        List<String> expected = null;
        if (r != null && r.hereDoc() != null) {
            WordValue v = WordValue.of(r.hereDoc().body(), hook);
            if (v.isStatic()) expected = List.of(v.value());
        }
        return new Case(id, ctx, hook, hook + "printf '%s\\0' 1 \"$v\"\n", expected, expected != null,
                facts(s, env), List.of(), Set.of());
    }

    private static String hookDelimiter(String op, String word) throws ParseException {
        Script probe = parse(": " + op + word + "\n");
        Redirection r = lastRedirection(probe);
        if (r == null || r.hereDoc() == null) throw new ParseException("no here-document", 1, 1);
        return r.hereDoc().delimiter();
    }

    private static Case delimiter(int id, WordGenerator gen, Random r, Environment env) throws ParseException {
        String word = gen.delimiterWord(r);
        // an extended glob is a syntax error in bash -c (extglob off) and a delimiter with it on: not comparable
        if (word.matches("(?s).*[@!+*?]\\(.*")) return null;
        boolean strip = r.nextBoolean();
        String op = strip ? "<<-" : "<<";
        String d = hookDelimiter(op, word);
        if (d.isEmpty() || d.indexOf('\n') >= 0) return null;
        // decoys: spellings bash would end at if it read the delimiter differently
        List<String> lines = new ArrayList<>(List.of("L1"));
        for (String decoy : List.of(word, word.replace("\\", ""), word.replaceAll("['\"]", ""),
                word.replaceAll("\\$(['\"])", "$1"), " " + d, d + " ", d + "x")) {
            if (!decoy.equals(d) && decoy.indexOf('\n') < 0 && !lines.contains(decoy)) lines.add(decoy);
        }
        StringBuilder body = new StringBuilder();
        for (String l : lines) body.append(l).append('\n');
        String hook = PRE + "IFS= read -r -d '' v " + op + word + "\n" + body + (strip ? "\t" : "") + d
                + "\nc9 after\n";
        Script s = parse(hook);
        Facts f = facts(s, env);
        Redirection red = null;
        for (ListItem item : s.body().items()) {
            if (item.command() instanceof Command.Simple sc && !sc.redirections().isEmpty()) {
                red = sc.redirections().get(0);
            }
        }
        List<String> expected = null;
        if (red != null && red.hereDoc() != null) {
            WordValue v = WordValue.of(red.hereDoc().body(), hook);
            if (v.isStatic()) expected = List.of(v.value());
        }
        // a body that runs to the end of the script (no line ends it: <<- with a delimiter starting with a tab)
        // takes the printf after it too: no value to compare, only the marker
        if (expected != null && expected.get(0).endsWith("c9 after\n")) expected = null;
        boolean hookRuns = f.subCommands().stream().anyMatch(c -> c.getArgv().equals(List.of("c9", "after")));
        // an unquoted body is expanded, and an expansion in a decoy line may end the shell (${u?}): then the marker
        // need not run
        boolean bodyExpands = red != null && red.hereDoc() != null && !red.hereDoc().quoted()
                && (body.indexOf("$") >= 0 || body.indexOf("`") >= 0);
        if (bodyExpands) hookRuns = false;
        return new Case(id, Context.HEREDOC_DELIMITER, hook, hook + "printf '%s\\0' 1 \"$v\"\n", expected,
                false, f, hookRuns ? List.of(List.of("c9", "after")) : List.of(),
                hookRuns || bodyExpands ? Set.of() : Set.of("c9"));
    }

    private static Case inSubstitution(int id, WordGenerator gen, Random r, Environment env) throws ParseException {
        String word = r.nextBoolean() ? "EOF" : gen.delimiterWord(r);
        boolean strip = r.nextInt(3) == 0;
        String op = strip ? "<<-" : "<<";
        String d = hookDelimiter(op, word);
        if (d.isEmpty() || d.indexOf('\n') >= 0 || d.indexOf(')') >= 0) return null;
        String closing = switch (r.nextInt(9)) {
            case 0 -> d + ")";
            case 1 -> d + " c7 x )";
            case 2 -> d + "X c7 )";
            case 3 -> " " + d + ")";
            case 4 -> d;
            case 5 -> "\t" + d + ")";
            case 6 -> d + "; c7 )";
            case 7 -> d + ")x";
            default -> d + " && c7 )";
        };
        String hook = PRE + "set -- \"$(c8 " + op + word + "\nL1\n" + closing + "\n" + d + "\n)\"\n";
        Script s = parse(hook);
        Facts f = facts(s, env);
        List<List<String>> mustRun = new ArrayList<>();
        Set<String> mustNot = new java.util.HashSet<>();
        boolean c7 = f.subCommands().stream().anyMatch(c -> c.getArgv().get(0).equals("c7"));
        if (c7) {
            for (SubCommand c : f.subCommands()) if (c.getArgv().get(0).equals("c7")) mustRun.add(c.getArgv());
        } else {
            mustNot.add("c7");
        }
        return new Case(id, Context.HEREDOC_IN_SUBSTITUTION, hook, hook + "printf '%s\\0' \"$#\" \"$@\"\n", null,
                false, f, mustRun, mustNot);
    }

    private static Case arithmetic(int id, WordGenerator gen, Random r, Environment env) throws ParseException {
        String a = gen.arithmetic(r, 2);
        String tight = a.replace(" ", "");
        String body = switch (r.nextInt(15)) {
            case 0 -> ": $((" + a + "))";
            case 1 -> "(( " + a + " ))";
            case 2 -> "for ((" + a + "; 0; )); do :; done";
            case 3 -> ": $[" + a + "]";
            case 4 -> ": ${s:" + a + ":1}";
            case 5 -> ": ${s:1:" + a + "}";
            case 6 -> ": ${a[" + a + "]}";
            case 7 -> "a[" + a + "]=1";
            case 8 -> "b=([" + tight + "]=1)";
            case 9 -> "declare c[" + tight + "]=1";
            case 10 -> ": \"$((" + a + "))\"";
            case 11 -> ": \"${a[" + a + "]}\"";
            case 12 -> ": \"${s:" + a + "}\"";
            case 13 -> "IFS= read -r -d '' v <<EOF\n$((" + a + "))\nEOF";
            default -> ": \"${s:1:" + a + "}\"";
        };
        String hook = PRE + "x=1\n" + body + "\n";
        Script s = parse(hook);
        return new Case(id, Context.ARITHMETIC, hook, hook, null, false, facts(s, env), List.of(), Set.of());
    }

    private static final String[] OPS = {":-", "-", ":=", "=", ":+", "+", ":?", "?", "#", "##", "%", "%%", "/",
            "//", "/#", "/%", "^", "^^", ",", ",,", ":", "@"};

    private static Case operand(int id, WordGenerator gen, Random r, Environment env) throws ParseException {
        boolean dq = r.nextBoolean();
        String state = new String[]{"x=abc", "x=", "unset x"}[r.nextInt(3)];
        String op = OPS[r.nextInt(OPS.length)];
        String w = op.equals("@") ? "QEPAaKk".charAt(r.nextInt(7)) + "" : gen.operand(r, 2, dq);
        String exp = "${x" + op + w + "}";
        String hook = PRE + state + "; : " + (dq ? "\"" + exp + "\"" : exp) + "\n";
        Script s = parse(hook);
        return new Case(id, Context.PARAMETER_OPERAND, hook, hook, null, false, facts(s, env), List.of(), Set.of());
    }

    // ---------------------------------------------------------------- checks

    /** Whether the hook reads no command in the case but the template's own builtin. */
    private static boolean onlyTemplate(Facts f) {
        return f.subCommands().stream().allMatch(s -> TEMPLATE.contains(s.getArgv().get(0)));
    }

    static final Set<String> TEMPLATE = Set.of("set", "read", "declare", ":", "typeset", "export", "readonly");

    static String check(Case c, List<String> values, List<List<String>> recorded) {
        if (c.isStatic() && onlyTemplate(c.facts()) && !recorded.isEmpty()) {
            return "a static word ran commands " + recorded + " (hook values " + c.expected() + ")";
        }
        List<SubCommand> subs = c.facts().subCommands();
        for (List<String> argv : recorded) {
            if (c.mustNot().contains(argv.get(0))) return "ran " + argv + ", which the hook reads as text";
            // a sub-command whose name is only known at run time is never approved: it covers whatever runs
            boolean known = subs.stream().anyMatch(s -> s.isDynamicName() || ArgvMatch.matches(s, argv));
            if (!known) {
                return "bash ran " + argv + ", not among the hook's sub-commands " + subs.stream()
                        .map(SubCommand::getArgv).toList();
            }
        }
        for (List<String> want : c.mustRun()) {
            if (recorded.stream().noneMatch(want::equals)) {
                return "the hook reads " + want + " as a command that runs; bash ran " + recorded;
            }
        }
        if (c.expected() != null) {
            if (values == null || values.isEmpty()) return "bash printed no values; hook: " + c.expected();
            List<String> got = values.subList(1, values.size());
            if (!got.equals(c.expected())) {
                return "values differ: bash " + quote(got) + ", hook " + quote(c.expected());
            }
        }
        return null;
    }

    private static String quote(List<String> v) {
        return v.stream().map(x -> "«" + x + "»").toList().toString();
    }

    // ---------------------------------------------------------------- the sandbox

    record BatchResult(Path dir, Map<Integer, List<String>> values, Map<Integer, List<List<String>>> recordings,
                       Map<Integer, String> errors) {
    }

    /**
     * Runs the bash script of every case in one sandbox, each by its own {@code bash -c} with a clean environment
     * (PATH holds only the shims), in an empty work directory; each script's stdout, stderr and recordings are
     * framed by a random mark.
     */
    static BatchResult runBatch(List<Case> cases, Path shims, Path dir) throws Exception {
        Path work = Files.createDirectories(dir.resolve("work"));
        Path recs = Files.createDirectories(dir.resolve("rec"));
        String mark = "MARK" + Long.toHexString(new Random().nextLong()) + Long.toHexString(System.nanoTime());
        StringBuilder input = new StringBuilder();
        for (Case c : cases) {
            Files.createDirectories(recs.resolve(String.valueOf(c.id())));
            String notFound = "command_not_found_handle() { printf '%s\\0' \"$@\" > \"$ORACLE_REC/nf$BASHPID.$RANDOM\";"
                    + " return 127; }\n";
            input.append(c.id()).append('\0').append(notFound).append(c.bashScript()).append('\0');
        }
        Path in = dir.resolve("commands");
        // a byte stand-in (AnsiC.text) in a script, from a delimiter the hook read, is that byte
        Files.write(in, dev.compoundbash.shell.AnsiC.bytes(input.toString()));
        Path out = dir.resolve("stdout");
        Path err = dir.resolve("stderr");
        String driver = "cd \"$1\"; while IFS= read -r -d '' i && IFS= read -r -d '' c; do "
                + "printf '%s\\0%s\\0' \"$M\" \"$i\"; printf '\\n%s %s\\n' \"$M\" \"$i\" >&2; "
                + "ORACLE_REC=\"$2/$i\" /bin/bash -c \"$c\" </dev/null; done < \"$3\"; sleep 0.05";
        Process p = new ProcessBuilder("bwrap", "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--dev", "/dev",
                "--proc", "/proc", "--bind", work.toString(), work.toString(), "--bind", recs.toString(),
                recs.toString(), "--ro-bind", shims.toString(), shims.toString(), "--ro-bind", in.toString(),
                in.toString(), "--unshare-all", "--die-with-parent", "--new-session",
                "/usr/bin/env", "-i", "PATH=" + shims, "HOME=/nonexistent-home", "M=" + mark, "LC_ALL=C.UTF-8",
                "/bin/bash", "-c", driver, "driver", work.toString(), recs.toString(), in.toString())
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(60L + cases.size(), TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("sandbox timed out");
        }
        Map<Integer, List<String>> values = new java.util.HashMap<>();
        byte[] raw = Files.readAllBytes(out);
        // bytes that are not UTF-8 ($'\xbb') are read as the hook holds them (AnsiC.text: one stand-in per byte)
        String text = dev.compoundbash.shell.AnsiC.text(raw);
        String[] tokens = text.split("\0", -1);
        Integer current = null;
        for (int i = 0; i < tokens.length; i++) {
            if (tokens[i].equals(mark) && i + 1 < tokens.length) {
                current = Integer.valueOf(tokens[++i]);
                values.put(current, new ArrayList<>());
            } else if (current != null && i < tokens.length - 1) {
                values.get(current).add(tokens[i]);
            }
        }
        Map<Integer, String> errors = new java.util.HashMap<>();
        String errText = new String(Files.readAllBytes(err), StandardCharsets.UTF_8);
        for (String chunk : errText.split("\n" + mark + " ")) {
            int nl = chunk.indexOf('\n');
            String head = nl < 0 ? chunk : chunk.substring(0, nl);
            if (head.matches("[0-9]+")) errors.put(Integer.valueOf(head), nl < 0 ? "" : chunk.substring(nl + 1));
        }
        Map<Integer, List<List<String>>> recordings = new java.util.HashMap<>();
        for (Case c : cases) {
            List<List<String>> rec = new ArrayList<>(ExecutionOracleTest.recordings(recs.resolve(String.valueOf(c.id()))));
            // an empty recording is a shim of an asynchronous process substitution killed with the sandbox after it
            // opened its file and before it wrote (a command with an empty name still records its NUL)
            if (emptyFileIn(recs.resolve(String.valueOf(c.id())))) {
                rec.removeIf(argv -> argv.size() == 1 && argv.get(0).isEmpty());
            }
            recordings.put(c.id(), rec);
        }
        return new BatchResult(dir, values, recordings, errors);
    }

    private static boolean emptyFileIn(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) return false;
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(f -> f.toFile().length() == 0);
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        }
    }
}
