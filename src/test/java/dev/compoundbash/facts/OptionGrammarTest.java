package dev.compoundbash.facts;

import dev.compoundbash.shell.Parser;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The option-grammar engine ({@link OptionGrammar}): glibc {@code getopt_long} (checked against util-linux
 * {@code getopt(1)}, which calls it), bash's {@code internal_getopt}, Tcl flags, and words only known at run time.
 */
class OptionGrammarTest {

    static List<String> words(String line) {
        return line.isEmpty() ? List.of() : Arrays.asList(line.split(" "));
    }

    /** The words of {@code ": " + source} as the hook reads them (Args with their run-time knowledge). */
    static List<Arg> args(String source) throws Exception {
        var script = Parser.parse(": " + source);
        var facts = FactExtractor.extract(script, new Environment(Path.of("/work"), List.of(), "Linux", null));
        List<Arg> all = facts.subCommands().get(0).getArgs();
        return all.subList(1, all.size());
    }

    static final OptionGrammar TIMEOUT = OptionGrammar.named("timeout");
    static final OptionGrammar XARGS = OptionGrammar.named("xargs");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            // clusters, attached and detached required arguments, optional arguments only attached
            "-vk5 -s TERM 10 cmd|-v -k=5 -s=TERM operands [10, cmd] end 4",
            "-vsKILL 1 x|-v -s=KILL operands [1, x] end 2",
            "-s -v 1|-s=-v operands [1] end 3",
            "--signal=HUP 1 x|-s=HUP operands [1, x] end 2",
            "--signal HUP 1 x|-s=HUP operands [1, x] end 3",
            "--sig HUP 1|-s=HUP operands [1] end 3",
            "--k=3 1|-k=3 operands [1] end 2",
            "--preserve 1|--preserve-status operands [1] end 2",
            "--fore --pre 1|--foreground --preserve-status operands [1] end 3",
            "-- -v 1|operands [-v, 1] end 2",
            "- 1|operands [-, 1] end 1",
            "1 -v|operands [1, -v] end 1",
            // errors: unknown, ambiguous prefix, missing argument, argument to a flag
            "--ver 1|operands [] end 1 error option '--ver' is ambiguous",
            "--bogus 1|operands [] end 1 error unrecognized option '--bogus'",
            "-x 1|operands [] end 1 error invalid option -- 'x'",
            "-s|operands [] end 1 error option requires an argument -- 's'",
            "--signal|operands [] end 1 error option '--signal' requires an argument",
            "--verbose=1 1|operands [] end 1 error option '--verbose' doesn't allow an argument",
    })
    void gnuRequireOrder(String line, String expected) {
        List<String> w = new ArrayList<>(List.of("timeout"));
        w.addAll(words(line));
        assertThat(TIMEOUT.parse(w, 1).toString()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            // xargs: -e[E] -i[R] -l[N] take an optional argument only when attached, --eof[=E] only with =
            "-e x|-e operands [x] end 2",
            "-eEND x|-e=END operands [x] end 2",
            "--eof END x|-e operands [END, x] end 2",
            "--eof=END x|-e=END operands [x] end 2",
            "-i rm {}|-i operands [rm, {}] end 2",
            "-iX rm X|-i=X operands [rm, X] end 2",
            "--replace X rm|-I operands [X, rm] end 2",
            "--replace=X rm|-I=X operands [rm] end 2",
            "-l 2 rm|-l operands [2, rm] end 2",
            "--max-lines 2 rm|-l operands [2, rm] end 2",
            "--no-run rm|-r operands [rm] end 2",
            "--process-slot-var=N sh|--process-slot-var=N operands [sh] end 2",
            "--pro N sh|--process-slot-var=N operands [sh] end 3",
    })
    void gnuOptionalArguments(String line, String expected) {
        List<String> w = new ArrayList<>(List.of("xargs"));
        w.addAll(words(line));
        assertThat(XARGS.parse(w, 1).toString()).isEqualTo(expected);
    }

    @Test
    void abbreviationsOfOneOptionAreNotAmbiguous() {
        // flock: --nonblocking and --nb are the same option (val 'n'); --timeout and --wait too ('w')
        OptionGrammar flock = OptionGrammar.named("flock");
        assertThat(flock.parse(List.of("flock", "--n", "f"), 1).error()).contains("ambiguous"); // also --no-fork
        assertThat(flock.parse(List.of("flock", "--non", "f"), 1).has("-n")).isTrue();
        OptionGrammar setpriv = OptionGrammar.named("setpriv");
        OptionGrammar.Parsed p = setpriv.parse(List.of("setpriv", "--n", "ls"), 1);
        assertThat(p.ok()).isTrue();
        assertThat(p.has("--nnp")).isTrue();
        assertThat(p.has("--no-new-privs")).isTrue();
        assertThat(setpriv.parse(List.of("setpriv", "--r", "ls"), 1).error()).contains("ambiguous");
    }

    @Test
    void permutationAndPosixlyCorrect() {
        OptionGrammar script = OptionGrammar.named("script");
        OptionGrammar.Parsed p = script.parse(List.of("script", "out", "-c", "ls", "-q"), 1);
        assertThat(p.ok()).isTrue();
        assertThat(p.value("-c")).isEqualTo("ls");
        assertThat(p.has("--quiet")).isTrue();
        assertThat(p.operands()).containsExactly("out");
        assertThat(p.orderDependent()).isTrue();
        OptionGrammar.Parsed posix = script.inOrder().parse(List.of("script", "out", "-c", "ls"), 1);
        assertThat(posix.options()).isEmpty();
        assertThat(posix.operands()).containsExactly("out", "-c", "ls");
        assertThat(script.parse(List.of("script", "-q", "out"), 1).orderDependent()).isFalse();
        assertThat(script.parse(List.of("script", "out", "--", "-c"), 1).orderDependent()).isTrue();
    }

    @Test
    void keysNameOptionsExactly() {
        assertThat(TIMEOUT.key("--signal")).isEqualTo("-s");
        assertThat(TIMEOUT.key("-s")).isEqualTo("-s");
        assertThat(TIMEOUT.key("--foreground")).isEqualTo("--foreground");
        assertThatThrownBy(() -> TIMEOUT.key("--sig")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> TIMEOUT.key("-q")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OptionGrammar.gnu("x", "long/y")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> OptionGrammar.gnu("-x")).isInstanceOf(IllegalArgumentException.class);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            // a word only known at run time that may be an option makes the reading uncertain at it
            "timeout \"$t\" 5 rm|uncertain 1",
            "timeout $t 5 rm|uncertain 1",
            "timeout -\"$x\" 5 rm|uncertain 1",
            "timeout --\"$x\" 5 rm|uncertain 1",
            "timeout -s\"$x\" 5 rm|uncertain 1",
            "timeout -s $x 5 rm|uncertain 2",
            "timeout -v\"$x\" 5 rm|uncertain 1",
            // ... but not where its prefix settles the option, or it cannot start with a dash
            "timeout -s \"$x\" 5 rm|end 3",
            "timeout --signal=\"$x\" 5 rm|end 2",
            "timeout -k5\"$x\" 5 rm|end 2",
            "timeout ~/d 5 rm|end 1",
            "timeout x\"$t\" rm|end 1",
            "timeout --bogus=\"$x\" 5|error 1",
            "timeout --verbose=\"$x\" 5|error 1",
    })
    void wordsOnlyKnownAtRunTime(String source, String expected) throws Exception {
        List<Arg> a = args(source);
        OptionGrammar.Parsed p = TIMEOUT.parse(a, 1);
        String got = !p.certain() ? "uncertain " + p.uncertainAt() : !p.ok() ? "error " + p.errorAt() : "end " + p.end();
        assertThat(got).as(p.toString()).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            // bash internal_getopt: clusters, no long options, end at the first operand or --
            "read -r -a arr x|-r -a=arr operands [x] end 4",
            "read -ra arr|-r -a=arr operands [] end 3",
            "read -rdx name|-r -d=x operands [name] end 2",
            "read -- -r|operands [-r] end 2",
            "read - x|operands [-, x] end 1",
            "read x -r|operands [x, -r] end 1",
            "read --help|operands [] end 1 error --help: the builtin prints its help and does nothing else",
            "read --r|operands [] end 1 error invalid option -- '-'",
            "read -q|operands [] end 1 error invalid option -- 'q'",
            "read -a|operands [] end 1 error option requires an argument -- 'a'",
            "declare +x -r a|+x -r operands [a] end 3",
    })
    void bashBuiltins(String line, String expected) {
        String name = line.split(" ")[0];
        OptionGrammar g = OptionGrammar.named(name);
        assertThat(g.parse(words(line), 1).toString()).isEqualTo(expected);
    }

    @Test
    void builtinOptionalArgumentTakesANextWordThatIsNoOption() {
        OptionGrammar g = OptionGrammar.builtin("ab;");
        assertThat(g.parse(List.of("x", "-b", "v", "op"), 1).value("-b")).isEqualTo("v");
        assertThat(g.parse(List.of("x", "-b", "-a", "op"), 1).value("-b")).isNull();
        assertThat(g.parse(List.of("x", "-b", "-a", "op"), 1).has("-a")).isTrue();
    }

    @Test
    void tclFlagsTakeUniquePrefixes() {
        OptionGrammar g = OptionGrammar.named("unbuffer@spawn");
        assertThat(g.parse(List.of("-noe", "ls"), 0).has("-noecho")).isTrue();
        assertThat(g.parse(List.of("-ign", "INT", "ls"), 0).value("-ignore")).isEqualTo("INT");
        assertThat(g.parse(List.of("-n", "ls"), 0).error()).contains("ambiguous");
        assertThat(g.parse(List.of("--", "ls"), 0).error()).contains("bad flag");
        assertThat(g.parse(List.of("ls", "-noecho"), 0).end()).isZero();
    }

    @Test
    void everyBuiltInGrammarLoads() {
        assertThat(OptionGrammar.names()).contains("timeout", "xargs", "env", "su", "runuser", "setpriv", "read",
                "xargs@bsd", "eval", "builtin");
        for (String n : OptionGrammar.names()) assertThat(OptionGrammar.named(n)).as(n).isNotNull();
    }

    /**
     * The grammar data is the installed programs' own: each declared optstring and every long option name appears in
     * the program's binary (their getopt_long tables are string constants there). Programs not installed are skipped.
     */
    @ParameterizedTest(name = "{0}")
    @CsvSource({"timeout", "nice", "stdbuf", "env", "xargs", "setsid", "ionice", "chrt", "taskset", "flock",
            "script", "unshare", "su", "setpriv", "watch", "time", "chroot", "nohup"})
    void declaredGrammarsMatchTheInstalledPrograms(String program) throws Exception {
        Path bin = null;
        for (String d : List.of("/usr/bin", "/bin", "/usr/sbin", "/sbin")) {
            Path p = Path.of(d, program);
            if (java.nio.file.Files.isRegularFile(p)) {
                bin = p;
                break;
            }
        }
        Assumptions.assumeTrue(bin != null, program + " is not installed");
        String bytes = new String(java.nio.file.Files.readAllBytes(bin), StandardCharsets.ISO_8859_1);
        OptionGrammar g = OptionGrammar.named(program);
        String declared = g.toString().split(" ", 3)[1];
        if (declared.length() > 1) assertThat(bytes).as(program + " optstring").contains(declared);
        for (String name : g.longOptions().keySet()) assertThat(bytes).as(program + " --" + name).contains(name);
    }

    // ---- differential: the engine against glibc getopt_long, through util-linux getopt(1) -------------------------

    static boolean getoptWorks() {
        try {
            Process p = new ProcessBuilder("getopt", "-T").start();
            return p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 4; // enhanced getopt
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /**
     * Random optstrings, long-option tables and words; each parsed by the engine and by {@code getopt(1)} (whose output
     * lists the options it read, canonical, then {@code --} and the operands). Distinct long options only: getopt(1)
     * gives each its own value, so "the same option" abbreviations are checked by the wrapper oracle instead.
     * Budget: {@code -Doptions.getopt.cases} (default 1,500; {@code -Pfuzz} 50,000).
     */
    @Test
    void engineAgreesWithGlibcGetoptLong() throws Exception {
        Assumptions.assumeTrue(getoptWorks(), "util-linux getopt(1) is not installed");
        int cases = Integer.getInteger("options.getopt.cases", 1500);
        long seed = Long.getLong("options.getopt.seed", 20261201L);
        Random r = new Random(seed);
        String letters = "abcdefgxyz0";
        String[] names = {"alpha", "alp", "all", "beta", "bet", "verbose", "version", "value", "v", "x-ray"};
        List<String> mismatches = new ArrayList<>();
        for (int c = 0; c < cases; c++) {
            boolean plus = r.nextBoolean();
            StringBuilder opt = new StringBuilder(plus ? "+" : "");
            for (char ch : letters.toCharArray()) {
                if (r.nextInt(3) == 0) continue;
                opt.append(ch);
                int k = r.nextInt(4);
                if (k == 1) opt.append(':');
                if (k == 2) opt.append("::");
            }
            List<String> longs = new ArrayList<>();
            for (String n : names) {
                if (r.nextInt(3) == 0) continue;
                int k = r.nextInt(4);
                longs.add(n + (k == 1 ? ":" : k == 2 ? "::" : ""));
            }
            List<String> argv = new ArrayList<>();
            argv.add("prog");
            int nw = r.nextInt(7);
            for (int i = 0; i < nw; i++) argv.add(randomWord(r, letters, names));
            OptionGrammar g = OptionGrammar.gnu(opt.toString(), longs.toArray(String[]::new));
            OptionGrammar.Parsed p = g.parse(argv, 1);
            String mine = p.ok() ? render(g, p) : "error";
            String theirs = getopt(opt.toString(), longs, argv.subList(1, argv.size()));
            if (!mine.equals(theirs)) {
                mismatches.add("optstring " + opt + " long " + longs + " argv " + argv + ": engine " + mine
                        + " getopt " + theirs);
            }
        }
        assertThat(mismatches).as("seed " + seed).isEmpty();
    }

    static String randomWord(Random r, String letters, String[] names) {
        return switch (r.nextInt(9)) {
            case 0 -> "--";
            case 1 -> "-";
            case 2 -> "op" + r.nextInt(3);
            case 3 -> {
                String n = names[r.nextInt(names.length)];
                yield "--" + n.substring(0, Math.min(n.length(), 1 + r.nextInt(2)));
            }
            case 4 -> "--" + names[r.nextInt(names.length)];
            case 5 -> "--" + names[r.nextInt(names.length)] + "=" + r.nextInt(9);
            case 6 -> "-" + letters.charAt(r.nextInt(letters.length()));
            case 7 -> "-" + letters.charAt(r.nextInt(letters.length())) + letters.charAt(r.nextInt(letters.length()))
                    + (r.nextBoolean() ? String.valueOf(r.nextInt(9)) : "");
            default -> {
                String n = names[r.nextInt(names.length)];
                yield "--" + n.substring(0, Math.min(n.length(), 2)) + "=v";
            }
        };
    }

    /** The engine's parse in getopt(1)'s output form. */
    static String render(OptionGrammar g, OptionGrammar.Parsed p) {
        StringBuilder b = new StringBuilder();
        for (OptionGrammar.Option o : p.options()) {
            b.append(' ').append(o.key());
            boolean takes = g.argument(o.key()) != OptionGrammar.Argument.NONE;
            if (takes) b.append(" '").append(o.value() == null ? "" : o.value().text()).append('\'');
        }
        b.append(" --");
        for (String op : p.operands()) b.append(" '").append(op).append('\'');
        return b.toString();
    }

    static String getopt(String optstring, List<String> longs, List<String> args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("getopt", "-n", "prog", "-o", optstring.isEmpty() ? "" : optstring));
        if (!longs.isEmpty()) {
            cmd.add("-l");
            cmd.add(String.join(",", longs));
        }
        cmd.add("--");
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().remove("POSIXLY_CORRECT");
        pb.environment().remove("GETOPT_COMPATIBLE");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        p.waitFor(10, TimeUnit.SECONDS);
        if (p.exitValue() != 0) return "error";
        return " " + out;
    }
}
