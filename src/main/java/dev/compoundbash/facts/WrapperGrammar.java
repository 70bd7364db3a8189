package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The commands that run another command, and what they run: where the payload starts, what the wrapper's options
 * mean (replace mode, output files, another directory, another user or root). Option words are read by
 * {@link OptionGrammar} with each program's own grammar (its schema's options, {@code programs/NAME.json}: the
 * optstring and long options of its source), and the words after them the way the program's {@code main} reads them: GNU findutils
 * {@code xargs} and {@code find} (its expression grammar, {@code find/parser.c}), GNU coreutils {@code timeout nice
 * nohup stdbuf env chroot}, util-linux {@code setsid ionice chrt taskset flock script unshare su runuser setpriv},
 * procps {@code watch}, GNU {@code time}, expect's {@code unbuffer}, {@code sudo}, {@code doas}, macOS
 * {@code caffeinate}, bash's builtins {@code command builtin exec eval trap alias} and the shells' invocation
 * ({@code shell.c}).
 *
 * <p>Where an implementation other than the installed GNU/Linux one reads the same words (BSD {@code xargs env time
 * script}, FreeBSD {@code timeout}, a newer {@code watch}), each is read and the readings merged: one that reports a
 * usage error runs nothing; when the others disagree, the reading is uncertain.
 *
 * <p>A word only known at run time is read as anything it could be. When the reading cannot be settled (such a word
 * may be an option, the program reports a usage error, or the implementations disagree), the wrapper gets an
 * unreadable payload, so it is never approved, and <em>candidate</em> payloads ({@link Payload#candidate()}): every
 * later word that could start the command, so that deny and ask rules still see what it may run.
 */
public final class WrapperGrammar {

    /**
     * A payload: argv indices {@code [from, to)}; {@code readable} false when it is missing or malformed.
     *
     * @param form        {@link #ARGV}: the words run as a command; {@link #SCRIPT}: {@code words.get(0)} is shell
     *                    source parsed as a script ({@code sh -c}, {@code eval}, {@code watch})
     * @param words       the payload's words when they are not {@code argv[from, to)} (a script's text, {@code env
     *                    -S}'s split string, the shell {@code su} runs), else null; {@code [from, to)} still names
     *                    the argv words they came from, so their expansions are known
     * @param assignments {@code NAME=VALUE} words the wrapper puts in the payload's environment ({@code env},
     *                    {@code sudo}, {@code xargs --process-slot-var=NAME})
     * @param candidate   the wrapper's reading is uncertain and this is one command it may run: read for deny and ask
     *                    rules (the wrapper also has an unreadable payload, so it is never approved); a candidate's
     *                    own candidates are not read again (they are among the wrapper's)
     */
    public record Payload(int from, int to, boolean readable, String form, List<String> words,
                          List<String> assignments, boolean candidate) {
        /** An argv payload {@code argv[from, to)} with no assignments. */
        public Payload(int from, int to, boolean readable) {
            this(from, to, readable, ARGV, null, List.of(), false);
        }

        /** A payload that is not a candidate. */
        public Payload(int from, int to, boolean readable, String form, List<String> words, List<String> assignments) {
            this(from, to, readable, form, words, assignments, false);
        }
    }

    /** {@link Payload#form()}: the payload words are a command. */
    public static final String ARGV = "argv";
    /** {@link Payload#form()}: the payload word is shell source. */
    public static final String SCRIPT = "script";
    /** At most this many candidate payloads per wrapper whose reading is uncertain. */
    static final int MAX_CANDIDATES = 64;

    /** A find primary that acts, at argv index {@code index}, with its file argument or null. */
    public record Action(String primary, int index, boolean mutating, String argument) {
    }

    /**
     * The result of unwrapping one argv.
     *
     * @param kind               the wrapper name ({@code xargs}, {@code find}, {@code timeout}, ...)
     * @param payloads           the payloads; empty when the wrapper has none ({@code sudo -s})
     * @param appendsArguments   xargs without replace mode: stdin words are appended to the payload
     * @param replaceMode        xargs {@code -I/-J/-i/--replace}
     * @param implicitPayload    xargs with no command runs {@code echo}: the payload is that implicit argv
     * @param actions            find's acting primaries (empty for other wrappers)
     * @param privileged         the payload runs as another user or under another root ({@code sudo doas su
     *                           runuser setpriv chroot}, {@code unshare -R})
     * @param ownRuleRequired    eval, exec, builtin, trap, alias: the wrapper needs an allow rule of its own
     * @param outputs            files the wrapper itself writes
     * @param changesDirectory   the payload runs in another directory ({@code env -C}, {@code sudo -D}, {@code find
     *                           -execdir}, {@code chroot}), so its relative paths are not relative to the working
     *                           directory
     * @param replaceString      the text the wrapper replaces in the payload's words at run time ({@code xargs -I R},
     *                           {@code find -exec ... {}}), or null
     * @param readsStandardInput the payload is a shell that reads its script from standard input: its here-document
     *                           or here-string is read as well ({@code bash -l <<EOF}, {@code script} without
     *                           {@code -c})
     * @param runner             a runner ({@code npx}, {@code ssh}, {@code docker exec}, {@code parallel}: the
     *                           schema's reader {@code runner} or {@code parallel}): an allow rule for the runner as
     *                           written approves the commands it runs that no rule denies or asks (wrappers.drl)
     * @param remote             the payloads run on another machine, or in a container, VM or another root
     *                           (the schema's {@code payload.remote}): their paths name files there, so the path pass
     *                           does not judge them against the local file rules
     */
    public record Unwrapped(String kind, List<Payload> payloads, boolean appendsArguments, boolean replaceMode,
                            List<String> implicitPayload, List<Action> actions, boolean privileged,
                            boolean ownRuleRequired, List<Output> outputs, boolean changesDirectory,
                            String replaceString, boolean readsStandardInput, boolean runner, boolean remote) {
        /** Payloads that run here. */
        public Unwrapped(String kind, List<Payload> payloads, boolean appendsArguments, boolean replaceMode,
                         List<String> implicitPayload, List<Action> actions, boolean privileged,
                         boolean ownRuleRequired, List<Output> outputs, boolean changesDirectory,
                         String replaceString, boolean readsStandardInput, boolean runner) {
            this(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged, ownRuleRequired,
                    outputs, changesDirectory, replaceString, readsStandardInput, runner, false);
        }

        /** The same reading, its payloads running elsewhere when {@code remote}. */
        Unwrapped withRemote(boolean remote) {
            return new Unwrapped(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged,
                    ownRuleRequired, outputs, changesDirectory, replaceString, readsStandardInput, runner, remote);
        }
        /** Not a runner. */
        public Unwrapped(String kind, List<Payload> payloads, boolean appendsArguments, boolean replaceMode,
                         List<String> implicitPayload, List<Action> actions, boolean privileged,
                         boolean ownRuleRequired, List<Output> outputs, boolean changesDirectory,
                         String replaceString, boolean readsStandardInput) {
            this(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged, ownRuleRequired,
                    outputs, changesDirectory, replaceString, readsStandardInput, false);
        }

        /** The same reading as a runner's. */
        Unwrapped asRunner() {
            return new Unwrapped(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged,
                    ownRuleRequired, outputs, changesDirectory, replaceString, readsStandardInput, true, remote);
        }

        /** An unprivileged wrapper with no output files that keeps the working directory. */
        public Unwrapped(String kind, List<Payload> payloads, boolean appendsArguments, boolean replaceMode,
                         List<String> implicitPayload, List<Action> actions) {
            this(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, false, false, List.of(),
                    false, null, false);
        }

        /** The full form without a replacement string. */
        public Unwrapped(String kind, List<Payload> payloads, boolean appendsArguments, boolean replaceMode,
                         List<String> implicitPayload, List<Action> actions, boolean privileged,
                         boolean ownRuleRequired, List<Output> outputs, boolean changesDirectory) {
            this(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged, ownRuleRequired,
                    outputs, changesDirectory, null, false);
        }

        /** The full form without the standard-input flag. */
        public Unwrapped(String kind, List<Payload> payloads, boolean appendsArguments, boolean replaceMode,
                         List<String> implicitPayload, List<Action> actions, boolean privileged,
                         boolean ownRuleRequired, List<Output> outputs, boolean changesDirectory,
                         String replaceString) {
            this(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged, ownRuleRequired,
                    outputs, changesDirectory, replaceString, false);
        }

        Unwrapped withOwnRule() {
            return new Unwrapped(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged,
                    true, outputs, changesDirectory, replaceString, readsStandardInput, runner, remote);
        }

        Unwrapped inOtherDirectory(boolean moved) {
            if (!moved || changesDirectory) return this;
            return new Unwrapped(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged,
                    ownRuleRequired, outputs, true, replaceString, readsStandardInput, runner);
        }

        Unwrapped asPrivileged() {
            if (privileged) return this;
            return new Unwrapped(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, true,
                    ownRuleRequired, outputs, changesDirectory, replaceString, readsStandardInput, runner);
        }

        Unwrapped withOutputs(List<Output> more) {
            if (more.isEmpty()) return this;
            List<Output> all = new ArrayList<>(outputs);
            for (Output o : more) if (!all.contains(o)) all.add(o);
            return new Unwrapped(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged,
                    ownRuleRequired, List.copyOf(all), changesDirectory, replaceString, readsStandardInput, runner);
        }

        /** True when the reading is uncertain or a usage error: one payload is unreadable. */
        public boolean uncertain() {
            for (Payload p : payloads) if (!p.readable()) return true;
            return false;
        }
    }

    /**
     * A file the wrapper itself writes ({@code time -o FILE}, {@code script FILE}, {@code flock FILE}), checked like an
     * output redirection: at argv index {@code index} from character {@code offset}, named by {@code option}.
     */
    public record Output(int index, int offset, String option) {
        /** The file name: {@code argv[index]} from {@code offset} on (an attached value starts after the option). */
        public String path(List<String> argv) {
            String w = argv.get(index);
            return offset <= w.length() ? w.substring(offset) : "";
        }
    }

    private WrapperGrammar() {
    }

    // ---- entry points -------------------------------------------------------------------------------------------

    /**
     * Unwraps a literal argv (every word's value known): {@link #unwrap(List, List)} with no environment.
     *
     * @param argv strings (each a literal word) or {@link Arg}s
     * @return as for {@link #unwrap(List, List)}
     */
    public static Unwrapped unwrap(List<?> argv) {
        return unwrap(argv, List.of());
    }

    /**
     * Unwraps {@code argv} when its command name (directory stripped) is a known wrapper.
     *
     * @param argv        the words of a simple command as {@link Arg}s (or literal strings); argv[0] is the name
     * @param environment {@code NAME=VALUE} words in the command's environment from the command line (its prefix
     *                    and what enclosing wrappers added): a shell started with {@code BASH_ENV} or {@code ENV}
     *                    there runs that file first
     * @return the payloads and options, or null when argv is not a wrapper or runs nothing by design (a find with no
     *         {@code -exec}-like primary, {@code command -v}, {@code sudo -l}, {@code --help})
     */
    public static Unwrapped unwrap(List<?> argv, List<String> environment) {
        List<Arg> a = args(argv);
        if (a.isEmpty() || !a.get(0).known()) return null;
        String name = baseName(a.get(0).prefix());
        ProgramSchemas.Schema schema = ProgramSchemas.of(name);
        if (schema == null) return null;
        // a program whose words hold a program in its own language (sed, awk): the commands that program runs
        if (schema.language() != null) return ProgramText.read(schema, a).unwrapped();
        // a runner at the program's level or at one of its subcommands (npm exec, docker exec): RunnerReader
        if (RunnerReader.isRunner(schema.payload()) || schema.payload() == null) {
            Unwrapped u = RunnerReader.read(name, schema, a);
            // a program that runs commands through options of its own (sort --compress-program, tar -I, rsync -e)
            if (u == null && schema.payload() == null) return OptionPayloads.read(name, schema, a);
            return u;
        }
        // the reader the program's schema names (programs/NAME.json "payload")
        return switch (schema.payload().reader()) {
            case "xargs" -> merge("xargs", a, List.of(xargsGnu(a), xargsBsd(a)));
            case "find" -> find(a);
            case "timeout" -> merge("timeout", a, List.of(timeout(a, "timeout"), timeout(a, "timeout@freebsd")));
            case "nice" -> nice(a);
            case "nohup" -> plain("nohup", a, "nohup", true);
            case "stdbuf" -> stdbuf(a);
            case "shell" -> shell(name, a, environment);
            case "eval" -> eval(a);
            case "env" -> merge("env", a, List.of(env(a, "env", false), env(a, "env@bsd", false)));
            case "command" -> command(a);
            case "builtin" -> builtinCommand(a);
            case "trap" -> trap(a);
            case "alias" -> alias(a);
            case "exec" -> exec(a);
            case "sudo" -> sudo(a);
            case "doas" -> doas(a);
            case "ionice" -> ionice(a);
            case "chrt" -> chrt(a);
            case "taskset" -> taskset(a);
            case "setsid" -> plain("setsid", a, "setsid", true);
            case "flock" -> flock(a);
            case "watch" -> merge("watch", a, List.of(watch(a, "watch"), watch(a, "watch@4.0.6")));
            case "unbuffer" -> unbuffer(a);
            case "caffeinate" -> plain("caffeinate", a, "caffeinate", false);
            case "script" -> script(a);
            case "time" -> merge("time", a, List.of(time(a, "time"), time(a, "time@bsd")));
            case "unshare" -> unshare(a);
            case "chroot" -> chroot(a);
            case "su" -> su(a, name.equals("runuser"));
            case "setpriv" -> setpriv(a);
            case "mapfile" -> mapfile(name, a);
            case "compgen" -> compgen(a);
            case "git-config" -> ConfigCode.git(a, environment);
            case "make-config" -> ConfigCode.make(a);
            case "sg" -> sg(a);
            case "busybox" -> busybox(a);
            case "parallel" -> parallel(a);
            case "precommand" -> precommand(name, a);
            case "emulate" -> emulate(a);
            default -> throw new IllegalStateException(schema.file() + ": unknown payload reader "
                    + schema.payload().reader());
        };
    }

    /**
     * The command lines {@code rm} would be given to remove what {@code find ... -delete} removes (files and
     * directories under the starting points, none prompting): {@code rm -rf POINTS}, {@code rm -r POINTS},
     * {@code rm -f POINTS}, {@code rm POINTS}, so that deny and ask rules on rm meet -delete (docs/CLAUDE-CODE.md:
     * Claude Code's own rules do not). The starting points are GNU find's: the words after the options
     * {@code -H -L -P -D X -OLEVEL} up to the first one starting with {@code -}, {@code (}, {@code )}, {@code !}
     * or {@code ,}; none is {@code .}.
     *
     * @param argv a find command's words, {@code find} first
     * @return the rm lines
     */
    public static List<String> deleteAsRemoval(List<String> argv) {
        int i = 1;
        while (i < argv.size()) {
            String w = argv.get(i);
            if (w.equals("-H") || w.equals("-L") || w.equals("-P") || w.startsWith("-O") && w.length() > 2) i++;
            else if (w.equals("-D")) i += 2;
            else break;
        }
        List<String> points = new ArrayList<>();
        for (; i < argv.size(); i++) {
            String w = argv.get(i);
            if (w.startsWith("-") || w.equals("(") || w.equals(")") || w.equals("!") || w.equals(",")) break;
            points.add(w);
        }
        String p = points.isEmpty() ? "." : String.join(" ", points);
        return List.of("rm -rf " + p, "rm -r " + p, "rm -f " + p, "rm " + p, "rm -fr " + p, "rm -r -f " + p);
    }

    /**
     * The acting primaries of a find argv (all of them, {@code -exec} included), outside payloads, as GNU find's
     * parser reads them; a word only known at run time where a primary may stand counts as a mutating action.
     *
     * @param argv strings or {@link Arg}s, argv[0] {@code find}
     * @return the actions in order
     */
    public static List<Action> findActions(List<?> argv) {
        return new FindReader(args(argv)).read().actions;
    }

    /**
     * True for {@code command -v NAME...} and {@code command -V NAME...}: they only look names up and run nothing
     * (bash(1) "command"; {@code builtins/command.def}: {@code internal_getopt (list, "pvV")}).
     *
     * @param argv a sub-command's argv (strings or {@link Arg}s)
     */
    public static boolean isLookup(List<?> argv) {
        List<Arg> a = args(argv);
        if (a.isEmpty() || !is(a.get(0), "command")) return false;
        OptionGrammar.Parsed p = OptionGrammar.named("command").parse(a, 1);
        return p.clean() && (p.has("-v") || p.has("-V"));
    }

    static String baseName(String n) {
        int slash = n.lastIndexOf('/');
        return slash >= 0 && slash < n.length() - 1 ? n.substring(slash + 1) : n;
    }

    private static List<Arg> args(List<?> argv) {
        List<Arg> out = new ArrayList<>(argv.size());
        for (Object o : argv) out.add(o instanceof Arg x ? x : Arg.literal(String.valueOf(o)));
        return out;
    }

    /** True when the word's value is exactly {@code s}. */
    static boolean is(Arg w, String s) {
        return w.known() && w.prefix().equals(s);
    }

    /** True when some value the word may take is {@code s}. */
    static boolean mayBe(Arg w, String s) {
        if (w.known()) return w.prefix().equals(s);
        if (!s.startsWith(w.prefix())) return false;
        return !(w.lead() && w.prefix().isEmpty() && s.startsWith("-"));
    }

    /** True when some value the word may take contains {@code c}. */
    private static boolean mayContain(Arg w, char c) {
        return w.known() ? w.prefix().indexOf(c) >= 0 : true;
    }

    private static List<String> texts(List<Arg> a, int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) out.add(a.get(i).text());
        return out;
    }

    // ---- readings, usage errors and uncertainty ----------------------------------------------------------------

    /** What one implementation does with the words: runs {@code unwrapped} (null: nothing), or a usage error. */
    private record Reading(Unwrapped unwrapped, int errorAt) {
        static Reading of(Unwrapped u) {
            return new Reading(u, -1);
        }

        boolean error() {
            return errorAt >= 0;
        }
    }

    private static Reading usage(int at) {
        return new Reading(null, Math.max(at, 0));
    }

    /**
     * The reading of several implementations of one program: a usage error runs nothing, so it is left out; the
     * rest must agree, else the reading is uncertain (every payload of every reading becomes a candidate).
     */
    private static Unwrapped merge(String kind, List<Arg> a, List<Reading> readings) {
        List<Reading> ran = new ArrayList<>();
        int firstError = Integer.MAX_VALUE;
        for (Reading r : readings) {
            if (r.error()) firstError = Math.min(firstError, r.errorAt);
            else ran.add(r);
        }
        if (ran.isEmpty()) return unreadable(kind, a, firstError, false);
        Unwrapped first = ran.get(0).unwrapped;
        boolean agree = true;
        for (Reading r : ran) agree &= Objects.equals(first, r.unwrapped);
        if (agree) return first;
        List<Payload> payloads = new ArrayList<>();
        payloads.add(new Payload(a.size(), a.size(), false));
        int from = a.size();
        boolean privileged = false;
        List<Output> outputs = new ArrayList<>();
        for (Reading r : ran) {
            if (r.unwrapped == null) continue;
            privileged |= r.unwrapped.privileged;
            for (Output o : r.unwrapped.outputs) if (!outputs.contains(o)) outputs.add(o);
            for (Payload p : r.unwrapped.payloads) {
                if (!p.readable()) continue;
                from = Math.min(from, p.from);
                Payload c = new Payload(p.from, p.to, true, p.form, p.words, p.assignments, true);
                if (!payloads.contains(c)) payloads.add(c);
            }
        }
        addCandidates(payloads, a, from, a.size());
        return new Unwrapped(kind, List.copyOf(payloads), false, false, List.of(), List.of(), privileged, false,
                List.copyOf(outputs), true, null, false);
    }

    /** A single reading as the wrapper's. */
    private static Unwrapped single(String kind, List<Arg> a, Reading r, boolean privileged) {
        if (r.error()) return unreadable(kind, a, r.errorAt, privileged);
        return r.unwrapped;
    }

    /**
     * The reading cannot be settled from word {@code from} on (a usage error there, or a word only known at run
     * time): an unreadable payload, never approved, and the candidates from {@code from} on for deny and ask rules.
     */
    static Unwrapped unreadable(String kind, List<Arg> a, int from, boolean privileged) {
        List<Payload> payloads = new ArrayList<>();
        payloads.add(new Payload(a.size(), a.size(), false));
        addCandidates(payloads, a, from, a.size());
        return new Unwrapped(kind, List.copyOf(payloads), false, false, List.of(), List.of(), privileged, false,
                List.of(), true, null, false);
    }

    /**
     * Every word of {@code [from, to)} that names a command a deny rule could match (its value known, not an option)
     * starts a candidate payload running to {@code to}.
     */
    private static void addCandidates(List<Payload> payloads, List<Arg> a, int from, int to) {
        int added = 0;
        for (int j = Math.max(from, 1); j < to && added < MAX_CANDIDATES; j++) {
            Arg w = a.get(j);
            if (!w.known() || w.prefix().startsWith("-") || w.prefix().isEmpty()) continue;
            Payload c = new Payload(j, to, true, ARGV, null, List.of(), true);
            if (!payloads.contains(c)) {
                payloads.add(c);
                added++;
            }
        }
    }

    /** Candidate scripts: every static word of {@code [from, n)} as shell source (a shell's script may be any). */
    private static void addScriptCandidates(List<Payload> payloads, List<Arg> a, int from) {
        int added = 0;
        for (int j = Math.max(from, 1); j < a.size() && added < MAX_CANDIDATES; j++) {
            Arg w = a.get(j);
            if (!w.isStatic() || w.text().isEmpty() || w.text().startsWith("-")) continue;
            payloads.add(new Payload(j, j + 1, true, SCRIPT, List.of(w.text()), List.of(), true));
            added++;
        }
    }

    /** A reading that cannot be settled from word {@code at} on (not a usage error: it may run something). */
    private static Reading uncertain(String kind, List<Arg> a, int at, boolean privileged) {
        return Reading.of(unreadable(kind, a, at, privileged));
    }

    /** An uncertain reading that still names the files the options read so far write. */
    private static Reading withOutputs(Reading r, List<Output> outputs) {
        return r.error() || r.unwrapped == null ? r : Reading.of(r.unwrapped.withOutputs(outputs));
    }

    /** Stops at a parse that is not clean: a usage error, or a word only known at run time. */
    private static Reading stop(String kind, List<Arg> a, OptionGrammar.Parsed p, boolean privileged) {
        return p.certain() ? usage(p.end()) : uncertain(kind, a, p.uncertainAt(), privileged);
    }

    /**
     * True when one of the options that make the program print and exit at once (--help, --version, ...) is read
     * before any usage error: getopt's caller handles options in order, so it exits before reaching the error.
     */
    private static boolean exitsAtOnce(OptionGrammar g, OptionGrammar.Parsed p, String... options) {
        Set<String> keys = new LinkedHashSet<>();
        for (String s : options) keys.add(g.key(s));
        for (OptionGrammar.Option o : p.options()) if (keys.contains(o.key())) return true;
        return false;
    }

    private static Unwrapped argvPayload(String kind, List<Arg> a, int from) {
        return new Unwrapped(kind, List.of(new Payload(from, a.size(), true)), false, false, List.of(), List.of());
    }

    /**
     * A wrapper whose payload is every word after its options ({@code nohup}, {@code setsid}, {@code caffeinate});
     * without a command it reports a usage error ({@code required}) or runs nothing.
     */
    private static Unwrapped plain(String kind, List<Arg> a, String grammar, boolean required) {
        OptionGrammar g = OptionGrammar.named(grammar);
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnceIfDeclared(g, p, "--help", "--version", "-h", "-V")) return null;
        if (!p.clean()) return unreadable(kind, a, p.end(), false);
        if (p.end() >= a.size()) return required ? unreadable(kind, a, a.size(), false) : null;
        return argvPayload(kind, a, p.end());
    }

    private static boolean hasAny(OptionGrammar g, String... spelled) {
        for (String s : spelled) {
            try {
                g.key(s);
                return true;
            } catch (IllegalArgumentException e) {
                // not declared
            }
        }
        return false;
    }

    /** {@link #exitsAtOnce} over the options of the list the grammar declares. */
    private static boolean exitsAtOnceIfDeclared(OptionGrammar g, OptionGrammar.Parsed p, String... spelled) {
        List<String> declared = new ArrayList<>();
        for (String s : spelled) if (hasAny(g, s)) declared.add(s);
        return exitsAtOnce(g, p, declared.toArray(String[]::new));
    }

    // ---- GNU parallel ------------------------------------------------------------------------------------------

    /** GNU parallel's input-source separators (parallel(1) ":::", ":::+", "::::", "::::+"). */
    private static final Set<String> PARALLEL_SOURCES = Set.of(":::", ":::+", "::::", "::::+");

    /**
     * GNU parallel (20221122, parallel(1)): options in order (Getopt::Long bundling, require_order); the command
     * template is the words up to the first input-source separator, joined with spaces and run by a shell (with
     * {@code -q} the words are quoted: a command); the arguments are inserted where a replacement string stands
     * ({@code {}}, {@code {.}}, {@code {1}} ...) or appended. With no template each argument after {@code :::} is a
     * command (shell source); commands read from standard input or a file ({@code ::::}, {@code -a}) cannot be
     * read. A {@code {= perl =}} replacement string is perl code: unreadable. An option the table lacks, {@code -I}
     * and {@code --replace} (a replacement string of the user's), or a word only known at run time where an option
     * may stand make the reading unreadable, with candidates.
     */
    private static Unwrapped parallel(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("parallel");
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnce(g, p, "--version", "--help", "--citation", "--number-of-cpus", "--number-of-cores")) return null;
        if (!p.clean()) return unreadable("parallel", a, p.certain() ? p.errorAt() : p.uncertainAt(), false).asRunner();
        boolean quote = p.has("-q");
        boolean fromFile = p.has("-a");
        int i = p.end();
        int sep = a.size();
        for (int k = i; k < a.size(); k++) {
            if (!a.get(k).known()) {
                if (a.get(k).mayBeOption() || mayContain(a.get(k), ':')) return unreadable("parallel", a, k, false).asRunner();
                continue;
            }
            if (PARALLEL_SOURCES.contains(a.get(k).prefix())) {
                sep = k;
                break;
            }
        }
        List<Payload> payloads = new ArrayList<>();
        if (sep == i) {
            // no template: each argument of a ::: source is a command; a file's lines or stdin are not known
            if (fromFile || p.has("--pipe") || p.has("--pipepart")) return unreadable("parallel", a, sep, false).asRunner();
            String source = null;
            for (int k = sep; k < a.size(); k++) {
                Arg w = a.get(k);
                if (w.known() && PARALLEL_SOURCES.contains(w.prefix())) {
                    source = w.prefix();
                    continue;
                }
                if (!source.startsWith(":::") || source.startsWith("::::")) {
                    return unreadable("parallel", a, k, false).asRunner();
                }
                payloads.add(new Payload(k, k + 1, true, SCRIPT, List.of(w.text()), List.of()));
            }
            if (payloads.isEmpty()) return unreadable("parallel", a, sep, false).asRunner();
            return runnerOf("parallel", payloads, false);
        }
        List<String> words = texts(a, i, sep);
        String template = String.join(" ", words);
        if (template.contains("{=")) return unreadable("parallel", a, i, false).asRunner();
        if (sep == a.size() && !fromFile && !p.has("--pipe") && !p.has("--pipepart")) {
            // arguments from standard input: the template is still the command (xargs reads the same way)
        }
        if (quote) payloads.add(new Payload(i, sep, true));
        else payloads.add(new Payload(i, sep, true, SCRIPT, List.of(template), List.of()));
        return runnerOf("parallel", payloads, !template.contains("{"));
    }

    private static Unwrapped runnerOf(String kind, List<Payload> payloads, boolean appends) {
        return new Unwrapped(kind, List.copyOf(payloads), appends, false, List.of(), List.of(), false, false,
                List.of(), false, null, false, true);
    }

    // ---- xargs ----------------------------------------------------------------------------------------------------

    /**
     * GNU xargs (findutils 4.9.0 {@code xargs/xargs.c} main): the options are handled in order, and they exclude each
     * other as the source says: {@code -I/-i/--replace} sets replace mode and clears {@code -n}/{@code -L};
     * {@code -L}/{@code -l} clear replace mode; {@code -n} clears it too, except {@code -n 1} after it, which is
     * ignored. {@code --process-slot-var=NAME} sets NAME in every child (a NAME holding {@code =} is an error). No
     * command: {@code echo}.
     */
    private static Reading xargsGnu(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("xargs");
        OptionGrammar.Parsed p = g.parse(a, 1);
        String replace = null;
        boolean replaceUnknown = false;
        List<String> slotVars = new ArrayList<>();
        for (OptionGrammar.Option o : p.options()) {
            switch (o.key()) {
                case "--help", "--version" -> {
                    return Reading.of(null);
                }
                case "-I", "-i" -> {
                    if (o.value() == null) {
                        replace = "{}";
                        replaceUnknown = false;
                    } else if (o.value().known()) {
                        replace = o.value().prefix();
                        replaceUnknown = false;
                    } else {
                        replace = "";
                        replaceUnknown = true;
                    }
                }
                case "-L", "-l" -> {
                    // A value only known at run time is a valid count or an error: either way -I is off.
                    if (o.value() != null && o.value().known() && number(o.text(), 1) == null) {
                        return usage(o.index());
                    }
                    replace = null;
                    replaceUnknown = false;
                }
                case "-n" -> {
                    if (!o.value().known()) {
                        if (replace != null || replaceUnknown) return uncertain("xargs", a, o.valueIndex(), false);
                        continue;
                    }
                    Long count = number(o.text(), 1);
                    if (count == null) return usage(o.index());
                    if ((replace != null || replaceUnknown) && count != 1) {
                        replace = null;
                        replaceUnknown = false;
                    }
                }
                case "--process-slot-var" -> {
                    Arg v = o.value();
                    if (v.known() && v.prefix().contains("=")) return usage(o.index());
                    slotVars.add(v.text() + "=");
                }
                default -> {
                }
            }
        }
        if (!p.clean()) return stop("xargs", a, p, false);
        if (replaceUnknown) return uncertain("xargs", a, p.end(), false);
        boolean replaceMode = replace != null;
        if (p.end() >= a.size()) {
            return Reading.of(new Unwrapped("xargs", List.of(), !replaceMode, replaceMode, List.of("echo"), List.of(),
                    false, false, List.of(), false, replace, false));
        }
        Payload payload = new Payload(p.end(), a.size(), true, ARGV, null, List.copyOf(slotVars));
        return Reading.of(new Unwrapped("xargs", List.of(payload), !replaceMode, replaceMode, List.of(), List.of(),
                false, false, List.of(), false, replace, false));
    }

    /**
     * BSD xargs (FreeBSD {@code usr.bin/xargs/xargs.c}, macOS): {@code -I R} replaces R in the arguments (and no
     * later option turns it off); {@code -J R} inserts the input words where the word R stands (read as arguments
     * added at run time); {@code -R}/{@code -S} without {@code -I} and {@code -x} without {@code -n} are usage
     * errors. No command: {@code echo}.
     */
    private static Reading xargsBsd(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("xargs@bsd");
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (!p.clean()) return stop("xargs", a, p, false);
        String replace = null;
        boolean insert = false;
        for (OptionGrammar.Option o : p.options()) {
            if (o.key().equals("-I") || o.key().equals("-J")) {
                if (!o.value().known()) return uncertain("xargs", a, o.valueIndex(), false);
                replace = o.text();
                insert = o.key().equals("-J");
            }
        }
        boolean iflag = replace != null && !insert;
        if (!iflag && (p.has("-R") || p.has("-S"))) return usage(p.end());
        if (p.has("-x") && !p.has("-n")) return usage(p.end());
        boolean appends = replace == null || insert;
        if (p.end() >= a.size()) {
            return Reading.of(new Unwrapped("xargs", List.of(), appends, replace != null, List.of("echo"), List.of(),
                    false, false, List.of(), false, replace, false));
        }
        return Reading.of(new Unwrapped("xargs", List.of(new Payload(p.end(), a.size(), true)), appends,
                replace != null, List.of(), List.of(), false, false, List.of(), false, replace, false));
    }

    /** A number as {@code strtol} base 10 reads a whole word (findutils {@code parse_num}), at least {@code min}. */
    private static Long number(String s, long min) {
        if (s == null) return null;
        String t = s.strip();
        if (!t.matches("[+-]?[0-9]+")) return null;
        try {
            long v = Long.parseLong(t.startsWith("+") ? t.substring(1) : t);
            return v < min ? null : v;
        } catch (NumberFormatException e) {
            return null;
        }
    }

    // ---- find -----------------------------------------------------------------------------------------------------

    private static Unwrapped find(List<Arg> a) {
        FindReader r = new FindReader(a).read();
        if (r.exits) return null; // -help/-version: find prints and exits while it parses, before anything runs
        boolean moved = r.moved;
        if (r.stoppedAt >= 0) {
            // A usage error (find dies before running anything) or a word only known at run time.
            if (r.error && r.payloads.isEmpty() && !anyExecAfter(a, r.stoppedAt)) return null;
            List<Payload> payloads = new ArrayList<>();
            payloads.add(new Payload(a.size(), a.size(), false));
            for (Payload p : r.payloads) payloads.add(new Payload(p.from, p.to, p.readable, p.form, p.words,
                    p.assignments, true));
            int added = 0;
            for (int j = Math.max(r.stoppedAt, 1); j < a.size() && added < MAX_CANDIDATES; j++) {
                Arg w = a.get(j);
                if (!w.known() || w.prefix().startsWith("-") || w.prefix().equals(";") || w.prefix().isEmpty()) {
                    continue;
                }
                int end = j;
                while (end < a.size() && !is(a.get(end), ";")) end++;
                payloads.add(new Payload(j, end, true, ARGV, null, List.of(), true));
                added++;
            }
            return new Unwrapped("find", List.copyOf(payloads), false, false, List.of(), r.actions, false, false,
                    List.of(), true, "{}", false);
        }
        if (r.payloads.isEmpty()) return null;
        return new Unwrapped("find", List.copyOf(r.payloads), false, false, List.of(), r.actions, false, false,
                List.of(), moved, "{}", false);
    }

    private static boolean anyExecAfter(List<Arg> a, int from) {
        for (int j = Math.max(from, 1); j < a.size(); j++) {
            Arg w = a.get(j);
            if (!w.known()) return true;
            if (FIND_EXEC.contains(w.prefix())) return true;
        }
        return false;
    }

    /** Primaries with no argument (findutils 4.9.0 {@code find/parser.c} parse_table, the leading dash removed). */
    private static final Set<String> FIND_NO_ARGUMENT = Set.of("!", "not", "(", ")", ",", "a", "and", "o", "or",
            "daystart", "delete", "d", "empty", "executable", "follow", "ignore_readdir_race", "ls", "mount",
            "noleaf", "nogroup", "nouser", "noignore_readdir_race", "nowarn", "warn", "print", "print0", "prune",
            "quit", "readable", "writable", "xdev", "true", "false",
            // bfs 2.6.1 (bfs(1), bfs --help; Claude Code's find is bfs): its primaries GNU find lacks
            "exclude", "color", "nocolor", "nohidden", "hidden", "status", "unique", "acl", "capable", "sparse",
            "xattr", "printx", "rm");
    /** Primaries with one argument. */
    private static final Set<String> FIND_ONE_ARGUMENT = Set.of("amin", "anewer", "atime", "cmin", "cnewer",
            "context", "ctime", "files0-from", "fls", "fprint", "fprint0", "fstype", "gid", "group", "ilname", "iname",
            "inum", "ipath", "iregex", "iwholename", "links", "lname", "maxdepth", "mindepth", "mmin", "mtime", "name",
            "newer", "path", "perm", "printf", "regex", "regextype", "samefile", "size", "type", "uid", "used", "user",
            "wholename", "xtype",
            // bfs 2.6.1: -[aBcm]since TIME, -since TIME, -Bmin/-Bnewer/-Btime, -xattrname NAME
            "since", "asince", "Bsince", "csince", "msince", "Bmin", "Bnewer", "Btime", "xattrname");
    /** bfs 2.6.1 primaries with an optional numeric argument ({@code -depth [-+]N}, {@code -exit [STATUS]}). */
    private static final Set<String> FIND_OPTIONAL_NUMBER = Set.of("depth", "exit");
    /** Primaries that print help or the version and exit while the expression is parsed: nothing runs. */
    private static final Set<String> FIND_EXITS = Set.of("help", "-help", "version", "-version");
    private static final Set<String> FIND_EXEC = Set.of("-exec", "-execdir", "-ok", "-okdir");
    /** bfs 2.6.1's leading flags without a value (before the starting points, as -H -L -P). */
    private static final Set<String> BFS_LEADING_FLAGS = Set.of("-E", "-X", "-d", "-s", "-x");
    private static final Set<String> FIND_WRITES = Set.of("fprint", "fprint0", "fls");

    /**
     * The first word of a find expression that neither GNU find (findutils 4.9.0 {@code parse_table}) nor bfs 2.6.1
     * (the find Claude Code runs) lists as a primary, an operator or a leading option: unknown, never harmless (the
     * closed world, docs/PROGRAMS.md); a word only known at run time where a primary may stand is read as an action
     * already ({@link #findActions}).
     *
     * @param argv a find command's words, {@code find} first (strings or {@link Arg}s)
     * @return the word's index, or -1 when every primary is known
     */
    public static int findUnknownPrimary(List<?> argv) {
        return new FindReader(args(argv)).read().unknownAt;
    }

    /**
     * GNU find's command line (findutils 4.9.0): {@code process_leading_options} ({@code -H -L -P -D X -Olevel
     * --}), the start points up to the first word that {@code looks_like_expression} ({@code -x}, {@code (},
     * {@code !}), then the expression: each word a primary of {@code parse_table} (one leading dash removed;
     * {@code -newerXY} special) with its fixed number of arguments, whatever they look like ({@code -name -fprintf}
     * is a test with the pattern {@code -fprintf}); {@code -exec}/{@code -execdir} end at {@code ;} or at {@code +}
     * right after a word holding {@code {}}, {@code -ok}/{@code -okdir} only at {@code ;} ({@code insert_exec_ok}).
     * Anything else is a fatal error before anything runs.
     */
    private static final class FindReader {
        final List<Arg> a;
        final List<Payload> payloads = new ArrayList<>();
        final List<Action> actions = new ArrayList<>();
        int stoppedAt = -1;
        boolean error;
        boolean moved;
        boolean exits;
        /** The index of a word no find lists as a primary, or -1. */
        int unknownAt = -1;

        FindReader(List<Arg> a) {
            this.a = a;
        }

        void stop(int at, boolean isError) {
            stoppedAt = at;
            error = isError;
        }

        /** find's looks_like_expression for known text. */
        static boolean looksLikeExpression(String t, boolean leading) {
            if (t.isEmpty()) return false;
            return switch (t.charAt(0)) {
                case '-' -> t.length() > 1;
                case ')', ',' -> t.length() == 1 && !leading;
                case '!', '(' -> t.length() == 1;
                default -> false;
            };
        }

        /** Whether an unknown word might look like an expression: true when its first character is not known. */
        static boolean mayLookLikeExpression(Arg w) {
            if (!w.prefix().isEmpty()) return looksLikeExpression(w.prefix(), false) || w.prefix().length() == 1
                    && "-!(),".indexOf(w.prefix().charAt(0)) >= 0;
            return !w.lead();
        }

        FindReader read() {
            int n = a.size();
            int i = 1;
            // process_leading_options
            while (i < n) {
                Arg w = a.get(i);
                if (!w.known()) {
                    if (w.many() || mayLookLikeExpression(w)) {
                        stop(i, false);
                        return this;
                    }
                    break;
                }
                String t = w.prefix();
                if (t.equals("-H") || t.equals("-L") || t.equals("-P")) {
                    i++;
                } else if (t.equals("--")) {
                    i++;
                    break;
                } else if (t.equals("-D")) {
                    if (i + 1 >= n) {
                        stop(i, true);
                        return this;
                    }
                    i += 2;
                } else if (t.startsWith("-O")) {
                    i++;
                } else if (BFS_LEADING_FLAGS.contains(t)) {
                    i++; // bfs -E -X -d -s -x
                } else if (t.equals("-S")) {
                    if (i + 1 >= n) {
                        stop(i, true);
                        return this;
                    }
                    i += 2; // bfs -S bfs|dfs|ids|eds
                } else {
                    break;
                }
            }
            // start points
            while (i < n) {
                Arg w = a.get(i);
                if (!w.known()) {
                    if (w.many() || mayLookLikeExpression(w)) {
                        stop(i, false);
                        return this;
                    }
                    i++;
                    continue;
                }
                if (looksLikeExpression(w.prefix(), true)) break;
                i++;
            }
            // the expression
            while (i < n) {
                Arg w = a.get(i);
                if (!w.known()) {
                    actions.add(new Action(w.text(), i, true, null));
                    stop(i, false);
                    return this;
                }
                String t = w.prefix();
                if (!looksLikeExpression(t, false)) {
                    stop(i, true); // paths must precede expression
                    return this;
                }
                if (t.length() == 8 && t.startsWith("-newer")) {
                    if ("aBcm".indexOf(t.charAt(6)) < 0 || "aBcmt".indexOf(t.charAt(7)) < 0 || i + 1 >= n) {
                        stop(i, true);
                        return this;
                    }
                    if (a.get(i + 1).many()) {
                        stop(i + 1, false);
                        return this;
                    }
                    i += 2;
                    continue;
                }
                String name = t.startsWith("-") ? t.substring(1) : t;
                if (FIND_EXITS.contains(name)) {
                    exits = true;
                    payloads.clear();
                    actions.clear();
                    stop(i, true);
                    return this;
                }
                if (FIND_NO_ARGUMENT.contains(name)) {
                    // bfs -rm is -delete (bfs(1))
                    if (name.equals("delete") || name.equals("rm")) actions.add(new Action(t, i, true, null));
                    i++;
                    continue;
                }
                if (FIND_OPTIONAL_NUMBER.contains(name)) {
                    // bfs: -depth N, -exit STATUS take the next word when it is a number
                    if (i + 1 < n && a.get(i + 1).known() && a.get(i + 1).prefix().matches("[-+]?[0-9]+")) i++;
                    else if (i + 1 < n && !a.get(i + 1).known() && !mayLookLikeExpression(a.get(i + 1))) {
                        stop(i + 1, false);
                        return this;
                    }
                    i++;
                    continue;
                }
                if (FIND_ONE_ARGUMENT.contains(name) || name.equals("fprintf")) {
                    int arity = name.equals("fprintf") ? 2 : 1;
                    if (i + arity >= n) {
                        stop(i, true); // missing argument
                        return this;
                    }
                    for (int k = 1; k <= arity; k++) {
                        if (a.get(i + k).many()) {
                            stop(i + k, false);
                            return this;
                        }
                    }
                    if (FIND_WRITES.contains(name) || name.equals("fprintf")) {
                        actions.add(new Action(t, i, true, a.get(i + 1).text()));
                    }
                    i += 1 + arity;
                    continue;
                }
                if (FIND_EXEC.contains("-" + name) && t.startsWith("-")) {
                    if (!exec(i, "-" + name)) return this;
                    i = next;
                    continue;
                }
                unknownAt = i;
                stop(i, true); // unknown predicate
                return this;
            }
            return this;
        }

        int next;

        /** Unknown words met so far in payloads: each may fork one reading more, so there is a bound. */
        int alternatives;

        /**
         * True when find could read the command with the word at {@code j} being {@code terminator}: the same words
         * with that one replaced do not end in a usage error (a reading that is uncertain too counts as possible).
         */
        boolean terminatorParses(int j, String terminator) {
            if (++alternatives > 8) return true;
            List<Arg> alt = new ArrayList<>(a);
            alt.set(j, Arg.literal(terminator));
            FindReader r = new FindReader(alt);
            r.alternatives = alternatives;
            r.read();
            alternatives = r.alternatives;
            return !(r.stoppedAt >= 0 && r.error) || r.exits;
        }

        /** insert_exec_ok: the payload from i+1 to its terminator; false when reading stopped. */
        boolean exec(int i, String primary) {
            int n = a.size();
            boolean dir = primary.endsWith("dir");
            boolean allowPlus = primary.startsWith("-exec");
            int start = i + 1;
            int braces = 0;
            String braceWord = null;
            boolean sawBraces = false;
            int end = -1;
            boolean multiple = false;
            for (int j = start; j < n; j++) {
                Arg w = a.get(j);
                if (!w.known()) {
                    // It may be ";" (or "+" after a word holding {}), which would end the payload here. That reading
                    // matters only when the words after it still parse: otherwise find dies before running anything.
                    boolean mayEnd = w.many() || (mayBe(w, ";") && terminatorParses(j, ";"))
                            || (allowPlus && sawBraces && mayBe(w, "+") && terminatorParses(j, "+"));
                    if (mayEnd) {
                        actions.add(new Action(primary, i, primary.startsWith("-ok"), null));
                        payloads.add(new Payload(start, j, j > start, ARGV, null, List.of()));
                        stop(j, false);
                        return false;
                    }
                    sawBraces = w.text().contains("{}");
                    if (sawBraces) braces++;
                    continue;
                }
                String t = w.prefix();
                if (t.equals(";")) {
                    end = j;
                    break;
                }
                if (allowPlus && t.equals("+") && sawBraces) {
                    end = j;
                    multiple = true;
                    break;
                }
                sawBraces = t.contains("{}");
                if (sawBraces) {
                    braces++;
                    braceWord = t;
                    if (j == start && dir) {
                        stop(i, true); // {} in the utility name of -execdir/-okdir
                        return false;
                    }
                }
            }
            if (end < 0 || end == start) {
                stop(i, true); // missing argument to -exec
                return false;
            }
            if (multiple && (braces > 1 || braceWord == null || !braceWord.equals("{}"))) {
                stop(i, true);
                return false;
            }
            actions.add(new Action(primary, i, primary.startsWith("-ok"), null));
            payloads.add(new Payload(start, end, true));
            moved |= dir;
            next = end + 1;
            return true;
        }
    }

    // ---- coreutils ------------------------------------------------------------------------------------------------

    /**
     * {@code timeout [OPTION] DURATION COMMAND [ARG]...} (coreutils 9.1 {@code src/timeout.c}; FreeBSD's reads the
     * same words): the command follows the DURATION operand; without one it is a usage error.
     */
    private static Reading timeout(List<Arg> a, String grammar) {
        OptionGrammar g = OptionGrammar.named(grammar);
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnceIfDeclared(g, p, "--help", "--version")) return Reading.of(null);
        if (!p.clean()) return stop("timeout", a, p, false);
        int duration = p.end();
        if (duration + 1 >= a.size()) return usage(a.size());
        if (a.get(duration).many()) return uncertain("timeout", a, duration, false);
        return Reading.of(argvPayload("timeout", a, duration + 1));
    }

    /**
     * coreutils 9.1 {@code src/nice.c}: a word {@code -N}, {@code --N} or {@code -+N} (a digit after the sign) is an
     * adjustment; otherwise one option at a time is read by {@code getopt_long "+n:"}; the first other word is the
     * command. Without a command nice prints the niceness: nothing runs.
     */
    private static Unwrapped nice(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("nice");
        int n = a.size();
        int i = 1;
        while (i < n) {
            Arg w = a.get(i);
            if (!w.known()) {
                if (!w.mayBeOption()) break;
                return unreadable("nice", a, i, false);
            }
            String s = w.prefix();
            if (s.length() > 1 && s.charAt(0) == '-') {
                int d = 1 + (s.charAt(1) == '-' || s.charAt(1) == '+' ? 1 : 0);
                if (d < s.length() && Character.isDigit(s.charAt(d))) {
                    i++;
                    continue;
                }
            }
            OptionGrammar.Parsed p = g.parse(a.subList(0, Math.min(n, i + 2)), i);
            if (p.options().isEmpty()) {
                if (!p.clean() && (p.errorAt() == i || p.uncertainAt() == i || p.uncertainAt() == i + 1)) {
                    return unreadable("nice", a, i, false);
                }
                if (is(w, "--")) i++;
                break;
            }
            OptionGrammar.Option o = p.options().get(0);
            if (o.key().equals("--help") || o.key().equals("--version")) return null;
            if (o.value() != null && !o.value().known() && o.valueIndex() == i + 1 && a.get(i + 1).many()) {
                return unreadable("nice", a, i + 1, false);
            }
            i = o.valueIndex() > o.index() ? o.valueIndex() + 1 : o.index() + 1;
        }
        if (i >= n) return null;
        return argvPayload("nice", a, i);
    }

    /**
     * coreutils 9.1 {@code src/stdbuf.c}: {@code stdbuf OPTION... COMMAND}; a command is required, and so is at least
     * one buffering option.
     */
    private static Unwrapped stdbuf(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("stdbuf");
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnce(g, p, "--help", "--version")) return null;
        if (!p.clean()) return unreadable("stdbuf", a, p.end(), false);
        if (p.end() >= a.size() || p.options().isEmpty()) return unreadable("stdbuf", a, p.end(), false);
        return argvPayload("stdbuf", a, p.end());
    }

    /**
     * coreutils 9.1 {@code src/env.c} (and BSD env: {@code -P ALTPATH} looks the utility up there, read as a PATH
     * assignment): options, where {@code -S STRING} is split into words that replace it and are read again from the
     * start ({@code parse_split_string}); then {@code -} (same as {@code -i}); then every word holding {@code =} goes
     * to the command's environment ({@code putenv}); then the command. Without a command env prints the environment:
     * nothing runs.
     */
    private static Reading env(List<Arg> a, String grammar, boolean moved) {
        OptionGrammar g = OptionGrammar.named(grammar);
        OptionGrammar.Parsed p = g.parse(a, 1);
        boolean chdir = moved;
        List<String> assignments = new ArrayList<>();
        for (OptionGrammar.Option o : p.options()) {
            switch (o.key()) {
                case "--help", "--version" -> {
                    return Reading.of(null);
                }
                case "-C" -> chdir = true;
                case "-P" -> assignments.add("PATH=" + o.value().text());
                case "-S" -> {
                    // A string only known at run time, or one holding ${NAME}, splits into words not known here.
                    if (!o.value().known()) return uncertain("env", a, o.valueIndex(), false);
                    List<String> split = splitString(o.text());
                    if (split == null) return uncertain("env", a, o.valueIndex(), false);
                    int after = o.valueIndex() + 1;
                    List<Arg> rebuilt = new ArrayList<>();
                    rebuilt.add(a.get(0));
                    for (String s : split) rebuilt.add(Arg.literal(s));
                    rebuilt.addAll(a.subList(after, a.size()));
                    Reading inner = env(rebuilt, grammar, chdir);
                    if (inner.error()) return usage(o.index());
                    if (inner.unwrapped == null) return inner;
                    List<Payload> payloads = new ArrayList<>();
                    for (Payload x : inner.unwrapped.payloads) {
                        List<String> pre = new ArrayList<>(assignments);
                        pre.addAll(x.assignments());
                        // The split words have no argv index of their own: name the whole tail they came from.
                        payloads.add(new Payload(o.index(), a.size(), x.readable(), x.form(),
                                !x.readable() ? null : x.words() != null ? x.words() : texts(rebuilt, x.from(), x.to()),
                                List.copyOf(pre),
                                x.candidate()));
                    }
                    return Reading.of(new Unwrapped("env", List.copyOf(payloads), false, false, List.of(), List.of())
                            .inOtherDirectory(inner.unwrapped.changesDirectory));
                }
                default -> {
                }
            }
        }
        if (!p.clean()) return stop("env", a, p, false);
        int i = p.end();
        if (i < a.size() && is(a.get(i), "-")) i++;
        for (; i < a.size(); i++) {
            Arg w = a.get(i);
            if (w.prefix().indexOf('=') >= 0) {
                assignments.add(w.text()); // NAME=VALUE (its value may be only known at run time)
                continue;
            }
            if (w.known()) break;
            return uncertain("env", a, i, false); // it may hold = (an assignment) or not (the command)
        }
        if (i >= a.size()) return chdir ? usage(i) : Reading.of(null);
        if (grammar.equals("env") && p.has("-0")) return usage(i); // GNU: "cannot specify --null (-0) with command"
        Unwrapped u = new Unwrapped("env", List.of(new Payload(i, a.size(), true, ARGV, null,
                List.copyOf(assignments))), false, false, List.of(), List.of());
        return Reading.of(u.inOtherDirectory(chdir));
    }

    /**
     * Splits an {@code env -S} string as coreutils 9.1 {@code build_argv} does: words separated by blanks; single
     * quotes literal except {@code \\} and {@code \'}; double quotes with the escapes {@code \" \# \$ \' \\ \_ \f \n
     * \r \t \v} ({@code \_} a space inside double quotes, a separator outside); {@code #} starting a word and
     * {@code \c} (outside double quotes) end the string. Returns null on what this reading does not follow:
     * {@code ${NAME}} (expanded from env's environment at run time), unbalanced quotes, an unknown escape (each an
     * error in env, so nothing runs).
     */
    static List<String> splitString(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder w = null;
        boolean sq = false;
        boolean dq = false;
        boolean sep = true;
        int i = 0;
        loop:
        while (i < s.length()) {
            char c = s.charAt(i);
            switch (c) {
                case '\'' -> {
                    if (!dq) {
                        sq = !sq;
                        if (w == null || sep) {
                            if (w != null) out.add(w.toString());
                            w = new StringBuilder();
                            sep = false;
                        }
                        i++;
                        continue;
                    }
                }
                case '"' -> {
                    if (!sq) {
                        dq = !dq;
                        if (w == null || sep) {
                            if (w != null) out.add(w.toString());
                            w = new StringBuilder();
                            sep = false;
                        }
                        i++;
                        continue;
                    }
                }
                case ' ', '\t', '\n', '\u000b', '\f', '\r' -> {
                    if (!sq && !dq) {
                        sep = true;
                        i++;
                        continue;
                    }
                }
                case '#' -> {
                    if (sep && !sq && !dq) break loop;
                }
                case '\\' -> {
                    if (sq && (i + 1 >= s.length() || (s.charAt(i + 1) != '\\' && s.charAt(i + 1) != '\''))) {
                        break;
                    }
                    if (i + 1 >= s.length()) return null;
                    char e = s.charAt(i + 1);
                    Character v;
                    switch (e) {
                        case '"', '#', '$', '\'', '\\' -> v = e;
                        case '_' -> {
                            if (!dq) {
                                sep = true;
                                i += 2;
                                continue loop;
                            }
                            v = ' ';
                        }
                        case 'c' -> {
                            if (dq) return null;
                            break loop;
                        }
                        case 'f' -> v = '\f';
                        case 'n' -> v = '\n';
                        case 'r' -> v = '\r';
                        case 't' -> v = '\t';
                        case 'v' -> v = '\u000b';
                        default -> {
                            return null;
                        }
                    }
                    if (w == null || sep) {
                        if (w != null) out.add(w.toString());
                        w = new StringBuilder();
                        sep = false;
                    }
                    w.append(v);
                    i += 2;
                    continue;
                }
                case '$' -> {
                    if (!sq) return null;
                }
                default -> {
                }
            }
            if (w == null || sep) {
                if (w != null) out.add(w.toString());
                w = new StringBuilder();
                sep = false;
            }
            w.append(c);
            i++;
        }
        if (sq || dq) {
            // an unterminated quote is an error, unless the string ended at # or \c first
            if (i >= s.length()) return null;
        }
        if (w != null) out.add(w.toString());
        return out;
    }

    // ---- bash builtins --------------------------------------------------------------------------------------------

    /**
     * {@code command [-pVv] NAME [ARG...]} (bash(1) "command"): runs NAME skipping functions; with {@code -v} or
     * {@code -V} it only describes NAME: null, an ordinary command (see {@link #isLookup}).
     */
    private static Unwrapped command(List<Arg> a) {
        OptionGrammar.Parsed p = OptionGrammar.named("command").parse(a, 1);
        if (!p.clean()) return unreadable("command", a, p.end(), false);
        if (p.has("-v") || p.has("-V") || p.end() >= a.size()) return null;
        return argvPayload("command", a, p.end());
    }

    /** {@code builtin [--] NAME [ARG...]} (bash 5.2 {@code builtins/builtin.def}: {@code no_options}). */
    private static Unwrapped builtinCommand(List<Arg> a) {
        OptionGrammar.Parsed p = OptionGrammar.named("builtin").parse(a, 1);
        if (!p.clean()) return unreadable("builtin", a, p.end(), false).withOwnRule();
        if (p.end() >= a.size()) return null;
        return argvPayload("builtin", a, p.end()).withOwnRule();
    }

    /**
     * {@code exec [-cl] [-a NAME] [COMMAND [ARG...]]} (bash(1) "exec"): the command replaces the shell. With no
     * command exec only applies its redirections to the shell: null, an ordinary command.
     */
    private static Unwrapped exec(List<Arg> a) {
        OptionGrammar.Parsed p = OptionGrammar.named("exec").parse(a, 1);
        if (!p.clean()) return unreadable("exec", a, p.end(), false).withOwnRule();
        if (p.end() >= a.size()) return null;
        return argvPayload("exec", a, p.end()).withOwnRule();
    }

    /**
     * zsh's precommand modifiers {@code noglob}, {@code nocorrect} and {@code -} (zsh manual 6.2 "Precommand
     * Modifiers"): no options, the words after the modifier are the command; in bash no such command exists. Never
     * approved without an allow rule of its own; deny and ask rules see the command.
     */
    private static Unwrapped precommand(String name, List<Arg> a) {
        if (a.size() < 2) return null;
        return argvPayload(name, a, 1).withOwnRule();
    }

    /**
     * zsh's {@code emulate [-lLR] [MODE [-c CODE] ...]} (zsh manual 17 "emulate"): {@code -c CODE} runs CODE as
     * shell code in that emulation; without it nothing runs.
     */
    private static Unwrapped emulate(List<Arg> a) {
        for (int i = 1; i < a.size(); i++) {
            if (!a.get(i).isStatic()) return shellUncertain("emulate", a, i).withOwnRule();
            if (!a.get(i).prefix().equals("-c")) continue;
            if (i + 1 >= a.size()) return null;
            Payload s = new Payload(i + 1, i + 2, true, SCRIPT, List.of(texts(a, i + 1, i + 2).get(0)), List.of());
            return new Unwrapped("emulate", List.of(s), false, false, List.of(), List.of(), false, true, List.of(),
                    false);
        }
        return null;
    }

    /**
     * {@code eval [--] ARG...}: the arguments joined by spaces are parsed as a script (bash(1) "eval"; {@code
     * no_options}: any other option is a usage error).
     */
    private static Unwrapped eval(List<Arg> a) {
        OptionGrammar.Parsed p = OptionGrammar.named("eval").parse(a, 1);
        if (!p.clean()) return shellUncertain("eval", a, p.end()).withOwnRule();
        int i = p.end();
        if (i >= a.size()) return null;
        for (int k = i; k < a.size(); k++) {
            // A word only known at run time is spliced into the script text: every static word may hold commands.
            if (!a.get(k).isStatic()) return shellUncertain("eval", a, i).withOwnRule();
        }
        Payload s = new Payload(i, a.size(), true, SCRIPT, List.of(String.join(" ", texts(a, i, a.size()))), List.of());
        return new Unwrapped("eval", List.of(s), false, false, List.of(), List.of(), false, true, List.of(), false);
    }

    /**
     * {@code trap [-lp] [[ACTION] SIGSPEC...]} (bash(1) "trap"; {@code internal_getopt (list, "lp")}): with an action
     * and at least one signal, the action is a script bash runs when the signal arrives (or at exit).
     * {@code -l}/{@code -p}, a lone operand and an action of {@code -} or the empty string set no script: null.
     */
    private static Unwrapped trap(List<Arg> a) {
        OptionGrammar.Parsed p = OptionGrammar.named("trap").parse(a, 1);
        if (!p.clean()) return unreadable("trap", a, p.end(), false).withOwnRule();
        if (p.has("-l") || p.has("-p")) return null;
        int i = p.end();
        if (a.size() - i < 2) return null;
        Arg action = a.get(i);
        if (action.known() && (action.prefix().isEmpty() || action.prefix().equals("-"))) return null;
        Payload s = new Payload(i, i + 1, true, SCRIPT, List.of(action.text()), List.of());
        return new Unwrapped("trap", List.of(s), false, false, List.of(), List.of(), false, true, List.of(), false);
    }

    /**
     * {@code alias [-p] [NAME[=VALUE] ...]} (bash(1) "alias"): each VALUE is text that replaces NAME when a later
     * command starts with it, so it is parsed as a script; alias needs its own allow rule (explicit tier). A word only
     * known at run time may define any alias: unreadable. With no definition (listing only) it runs nothing: null.
     */
    private static Unwrapped alias(List<Arg> a) {
        OptionGrammar.Parsed p = OptionGrammar.named("alias").parse(a, 1);
        if (!p.clean()) return unreadable("alias", a, p.end(), false).withOwnRule();
        List<Payload> payloads = new ArrayList<>();
        for (int i = p.end(); i < a.size(); i++) {
            Arg w = a.get(i);
            String t = w.text();
            int eq = t.indexOf('=');
            if (!w.known() && (eq <= 0 || !w.prefix().contains("="))) {
                payloads.add(new Payload(a.size(), a.size(), false));
                continue;
            }
            if (eq <= 0) continue;
            payloads.add(new Payload(i, i + 1, true, SCRIPT, List.of(t.substring(eq + 1)), List.of()));
        }
        if (payloads.isEmpty()) return null;
        return new Unwrapped("alias", payloads, false, false, List.of(), List.of(), false, true, List.of(), false);
    }

    /**
     * {@code mapfile}/{@code readarray} (bash 5.2 {@code builtins/mapfile.def}): {@code -C CALLBACK} is evaluated as code
     * for every {@code -c} lines ({@code run_callback}: {@code evalstring ("CALLBACK INDEX LINE")}). The builtin then
     * needs its own allow rule, like eval; without {@code -C} it runs nothing: null.
     */
    private static Unwrapped mapfile(String name, List<Arg> a) {
        OptionGrammar.Parsed p = OptionGrammar.named("mapfile").parse(a, 1);
        List<Payload> payloads = new ArrayList<>();
        for (OptionGrammar.Option o : p.options()) {
            if (!o.key().equals("-C")) continue;
            String text = a.get(o.valueIndex()).text().substring(o.valueOffset());
            payloads.add(new Payload(o.valueIndex(), o.valueIndex() + 1, true, SCRIPT, List.of(text), List.of()));
        }
        if (!p.clean()) {
            if (payloads.isEmpty() && p.ok() && p.certain()) return null;
            return shellUncertain(name, a, p.end()).withOwnRule();
        }
        if (payloads.isEmpty()) return null;
        return new Unwrapped(name, List.copyOf(payloads), false, false, List.of(), List.of(), false, true, List.of(),
                false);
    }

    /**
     * {@code compgen} (bash 5.2 {@code builtins/complete.def}): {@code -C COMMAND} runs COMMAND, {@code -F FUNCTION} runs
     * a shell function (its body is not read here: unreadable), and the {@code -W WORDLIST} is expanded as words, so
     * the command substitutions in it run (read as the words of a null command). Needs its own allow rule; without
     * these options it only lists names: null.
     */
    private static Unwrapped compgen(List<Arg> a) {
        OptionGrammar.Parsed p = OptionGrammar.named("compgen").parse(a, 1);
        if (!p.clean()) return shellUncertain("compgen", a, p.end()).withOwnRule();
        List<Payload> payloads = new ArrayList<>();
        for (OptionGrammar.Option o : p.options()) {
            String text = a.get(o.valueIndex() < 0 ? o.index() : o.valueIndex()).text()
                    .substring(Math.max(0, o.valueOffset()));
            switch (o.key()) {
                case "-C" -> payloads.add(new Payload(o.valueIndex(), o.valueIndex() + 1, true, SCRIPT, List.of(text),
                        List.of()));
                case "-W" -> payloads.add(new Payload(o.valueIndex(), o.valueIndex() + 1, true, SCRIPT,
                        List.of(": " + text), List.of()));
                case "-F" -> payloads.add(new Payload(a.size(), a.size(), false));
                default -> {
                }
            }
        }
        if (payloads.isEmpty()) return null;
        return new Unwrapped("compgen", List.copyOf(payloads), false, false, List.of(), List.of(), false, true,
                List.of(), false);
    }

    // ---- shells ---------------------------------------------------------------------------------------------------

    /** bash 5.2 {@code shell.c} {@code long_args}: word options, {@code --name} or {@code -name}; true = takes a value. */
    private static final java.util.Map<String, Boolean> SHELL_LONG = java.util.Map.ofEntries(
            java.util.Map.entry("debug", false), java.util.Map.entry("debugger", false),
            java.util.Map.entry("dump-po-strings", false), java.util.Map.entry("dump-strings", false),
            java.util.Map.entry("help", false), java.util.Map.entry("init-file", true),
            java.util.Map.entry("login", false), java.util.Map.entry("noediting", false),
            java.util.Map.entry("noprofile", false), java.util.Map.entry("norc", false),
            java.util.Map.entry("posix", false), java.util.Map.entry("pretty-print", false),
            java.util.Map.entry("protected", false), java.util.Map.entry("rcfile", true),
            java.util.Map.entry("restricted", false), java.util.Map.entry("verbose", false),
            java.util.Map.entry("version", false), java.util.Map.entry("wordexp", false));
    /** bash 5.2 {@code flags.c} {@code shell_flags} and the invocation letters {@code c l s o O D} of shell.c. */
    private static final String SHELL_FLAGS = "abefhikmnprtuvxBCEHPT";
    /** Variables whose file a starting shell runs before its script (bash(1) INVOCATION). */
    private static final Set<String> START_UP_VARIABLES = Set.of("BASH_ENV", "ENV");

    /**
     * {@code bash|sh|zsh|dash|ksh [options] [-c SCRIPT [name [args...]]]} as bash 5.2 {@code shell.c} reads it:
     * word options first ({@code parse_long_options}: {@code --login} or {@code -login}, {@code --rcfile FILE},
     * ...), then clusters of letters ({@code parse_shell_options}; each {@code o}/{@code O} takes the next word;
     * {@code -} or {@code --} end them); with {@code -c} the first word after the options is the script.
     *
     * <p>A shell that runs a file before its script never has that reading approved: {@code --rcfile FILE},
     * {@code --init-file FILE}, {@code -i} (interactive: ~/.bashrc), {@code -l}/{@code --login} (the profiles),
     * {@code BASH_ENV} or {@code ENV} in its environment. It gets an unreadable payload for that file; the script
     * is still read for deny and ask rules. Without {@code -c} the shell runs a file or reads standard input: null,
     * unless it runs a start-up file first.
     */
    private static Unwrapped shell(String name, List<Arg> a, List<String> environment) {
        String kind = name + " -c";
        int n = a.size();
        int i = 1;
        boolean startUp = false;
        for (String e : environment) {
            int eq = e.indexOf('=');
            if (eq > 0 && START_UP_VARIABLES.contains(e.substring(0, eq))) startUp = true;
        }
        // parse_long_options
        while (i < n) {
            Arg w = a.get(i);
            if (!w.known()) {
                if (!w.mayBeOption()) break;
                return shellUncertain(kind, a, i);
            }
            String t = w.prefix();
            if (!t.startsWith("-")) break;
            boolean longarg = t.startsWith("--") && t.length() > 2;
            String word = longarg ? t.substring(2) : t.substring(1);
            Boolean value = SHELL_LONG.get(word);
            if (value == null) {
                if (longarg) return shellUncertain(kind, a, i); // bash: invalid option
                break;
            }
            if (word.equals("help") || word.equals("version")) return null;
            if (word.equals("login") || word.equals("rcfile") || word.equals("init-file")) startUp = true;
            if (value) {
                if (i + 1 >= n) return shellUncertain(kind, a, i);
                if (a.get(i + 1).many()) return shellUncertain(kind, a, i + 1);
                i++;
            }
            i++;
        }
        // parse_shell_options
        boolean command = false;
        while (i < n) {
            Arg w = a.get(i);
            if (!w.known()) {
                if (!w.mayBeOption() && (w.prefix().isEmpty() ? w.lead() : w.prefix().charAt(0) != '+')) break;
                return shellUncertain(kind, a, i);
            }
            String t = w.prefix();
            if (t.isEmpty() || (t.charAt(0) != '-' && t.charAt(0) != '+')) break;
            if (t.equals("-") || t.equals("--")) {
                i++;
                break;
            }
            int next = i + 1;
            char sign = t.charAt(0);
            for (int k = 1; k < t.length(); k++) {
                char c = t.charAt(k);
                if (c == 'c') {
                    command = true;
                } else if (c == 'l' || (c == 'i' && sign == '-')) {
                    startUp = true;
                } else if (c == 'o' || c == 'O') {
                    if (next >= n) return null; // lists the options
                    if (a.get(next).many()) return shellUncertain(kind, a, next);
                    next++;
                } else if (c != 's' && c != 'D' && SHELL_FLAGS.indexOf(c) < 0) {
                    return shellUncertain(kind, a, i); // invalid option
                }
            }
            i = next;
        }
        List<Payload> payloads = new ArrayList<>();
        if (startUp) payloads.add(new Payload(n, n, false));
        if (!command) {
            if (!startUp) return null;
            return new Unwrapped(kind, List.copyOf(payloads), false, false, List.of(), List.of(), false, false,
                    List.of(), false, null, true);
        }
        if (i >= n) return shellUncertain(kind, a, n);
        if (a.get(i).many()) return shellUncertain(kind, a, i);
        payloads.add(new Payload(i, i + 1, true, SCRIPT, List.of(a.get(i).text()), List.of()));
        return new Unwrapped(kind, List.copyOf(payloads), false, false, List.of(), List.of());
    }

    /** A shell invocation that cannot be read from word {@code from} on: any later word may be its script. */
    private static Unwrapped shellUncertain(String kind, List<Arg> a, int from) {
        List<Payload> payloads = new ArrayList<>();
        payloads.add(new Payload(a.size(), a.size(), false));
        addScriptCandidates(payloads, a, from);
        return new Unwrapped(kind, List.copyOf(payloads), false, false, List.of(), List.of(), false, false,
                List.of(), true, null, false);
    }

    /** {@code u} with argv candidates from {@code from} on as well. */
    private static Unwrapped withArgvCandidates(Unwrapped u, List<Arg> a, int from) {
        List<Payload> ps = new ArrayList<>(u.payloads);
        addCandidates(ps, a, from, a.size());
        return new Unwrapped(u.kind, List.copyOf(ps), u.appendsArguments, u.replaceMode, u.implicitPayload, u.actions,
                u.privileged, u.ownRuleRequired, u.outputs, u.changesDirectory, u.replaceString, u.readsStandardInput);
    }

    /** The shell a program starts for a command string or interactively: {@code sh} stands for {@code $SHELL}. */
    private static Payload shellPayload(List<String> words) {
        return new Payload(0, 1, true, ARGV, List.copyOf(words), List.of());
    }

    // ---- privilege ------------------------------------------------------------------------------------------------

    /**
     * sudo 1.9.16p2 ({@code src/parse_args.c}): options by {@code getopt_long} with {@code VAR=value} words allowed
     * among them (a word not starting with {@code /} or {@code =} that holds {@code =}, not right after {@code --});
     * a bare {@code -h} followed by a word that is neither an option nor a variable takes that word as the host;
     * then the command. {@code -e} (sudoedit), {@code -l}, {@code -v}, {@code -K}, {@code -k} alone, {@code -V},
     * {@code -h} run no command: null. {@code -s}/{@code -i} with a command run it through the shell; without one
     * they start a shell: a privileged wrapper with no payload. {@code -D}, {@code -R} and {@code -i} move it to
     * another directory.
     */
    private static Unwrapped sudo(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("sudo");
        List<OptionGrammar.Option> options = new ArrayList<>();
        List<String> assignments = new ArrayList<>();
        int i = 1;
        int n = a.size();
        boolean host = false;
        while (true) {
            OptionGrammar.Parsed p = g.parse(a, i);
            options.addAll(p.options());
            for (OptionGrammar.Option o : p.options()) {
                if (o.key().equals("-V") || (o.key().equals("-h") && o.value() == null && !o.spelled().equals("-h"))) {
                    return null;
                }
            }
            if (!p.clean()) return unreadable("sudo", a, p.end(), true);
            int e = p.end();
            boolean endOfArgs = e > 1 && is(a.get(e - 1), "--");
            OptionGrammar.Option last = p.options().isEmpty() ? null : p.options().get(p.options().size() - 1);
            boolean bareH = last != null && last.key().equals("-h") && last.value() == null && e == last.index() + 1
                    && is(a.get(last.index()), "-h");
            if (e < n && bareH && !endOfArgs) {
                Arg w = a.get(e);
                if (!w.known() && !w.lead()) return unreadable("sudo", a, e, true);
                if (!(w.known() && w.prefix().startsWith("-")) && !envar(w)) {
                    host = true;
                    i = e + 1;
                    continue;
                }
            }
            if (e < n && !endOfArgs) {
                Arg w = a.get(e);
                if (!w.known() && (mayContain(w, '=') && !w.prefix().startsWith("/") && !w.prefix().startsWith("="))
                        && w.prefix().indexOf('=') < 0) {
                    return unreadable("sudo", a, e, true); // a variable or the command
                }
                if (envar(w)) {
                    assignments.add(w.text());
                    i = e + 1;
                    continue;
                }
            }
            i = e;
            break;
        }
        boolean shell = false;
        boolean moved = false;
        boolean runsNothing = false;
        boolean k = false;
        boolean list = false;
        for (OptionGrammar.Option o : options) {
            switch (o.key()) {
                case "-e", "-v", "-K" -> runsNothing = true;
                case "-l" -> list = true;
                case "-k" -> k = true;
                case "-h" -> {
                    if (o.value() == null && !host) runsNothing = true; // help
                }
                case "-s" -> shell = true;
                case "-i" -> {
                    shell = true;
                    moved = true;
                }
                case "-D", "-R" -> moved = true;
                default -> {
                }
            }
        }
        if (runsNothing || list || (k && i >= n && !shell)) return null;
        if (i >= n) {
            if (!shell) return null;
            return new Unwrapped("sudo", List.of(), false, false, List.of(), List.of(), true, false, List.of(), moved);
        }
        Payload p = new Payload(i, n, true, ARGV, null, List.copyOf(assignments));
        return new Unwrapped("sudo", List.of(p), false, false, List.of(), List.of(), true, false, List.of(), moved);
    }

    /** sudo's {@code is_envar}: not starting with {@code /} or {@code =}, holding {@code =}. */
    private static boolean envar(Arg w) {
        String t = w.prefix();
        if (t.startsWith("/") || t.startsWith("=")) return false;
        return t.indexOf('=') > 0;
    }

    /**
     * OpenBSD {@code doas(1)}: {@code doas [-Lns] [-a style] [-C config] [-u user] command [args]}. {@code -s}
     * with no command starts a shell; {@code -C} and {@code -L} run no command.
     */
    private static Unwrapped doas(List<Arg> a) {
        OptionGrammar.Parsed p = OptionGrammar.named("doas").parse(a, 1);
        if (!p.clean()) return unreadable("doas", a, p.end(), true);
        if (p.has("-C") || p.has("-L")) return null;
        if (p.end() >= a.size()) {
            if (!p.has("-s")) return null;
            return new Unwrapped("doas", List.of(), false, false, List.of(), List.of(), true, false, List.of(), false);
        }
        return new Unwrapped("doas", List.of(new Payload(p.end(), a.size(), true)), false, false, List.of(), List.of(),
                true, false, List.of(), false);
    }

    /**
     * {@code busybox APPLET [ARGS...]} runs the applet named by its first argument (BusyBox multi-call binary,
     * busybox(1)); {@code busybox} alone or with an option ({@code --list}, {@code --help}) runs none.
     */
    private static Unwrapped busybox(List<Arg> a) {
        if (a.size() < 2) return null;
        Arg applet = a.get(1);
        if (applet.known() && applet.prefix().startsWith("-")) return null;
        // its applets are not the programs the tiers know: approved only with an allow rule of its own
        return new Unwrapped("busybox", List.of(new Payload(1, a.size(), true)), false, false, List.of(), List.of())
                .withOwnRule();
    }

    /**
     * shadow-utils {@code sg [-] GROUP [-c] COMMAND} ({@code src/newgrp.c}; measured with shadow 4.13): the first
     * word after the group (and an optional {@code -c}) runs as {@code /bin/sh -c COMMAND} with the group's id; later
     * words are ignored ({@code sg g echo four five} runs {@code sh -c echo}). Privileged, like {@code su}. No
     * command: a shell of the user's (read here as unreadable).
     */
    private static Unwrapped sg(List<Arg> a) {
        int i = 1;
        if (i < a.size() && is(a.get(i), "-")) i++;
        if (i < a.size() && a.get(i).many()) return unreadable("sg", a, i, true);
        i++; // the group
        if (i < a.size() && is(a.get(i), "-c")) i++;
        if (i >= a.size()) return unreadable("sg", a, a.size(), true);
        Arg cmd = a.get(i);
        if (!cmd.known() || cmd.many()) return unreadable("sg", a, i, true);
        Payload payload = new Payload(i, i + 1, true, ARGV, List.of("sh", "-c", cmd.prefix()), List.of());
        return new Unwrapped("sg", List.of(payload), false, false, List.of(), List.of(), true, false, List.of(),
                false);
    }

    /**
     * util-linux 2.38.1 {@code login-utils/su-common.c} for {@code su} and {@code runuser}: options permuted among
     * the operands; a first operand {@code -} means {@code --login}; {@code runuser -u USER COMMAND...} runs the
     * command itself; otherwise the first operand is the user and the shell runs ({@code run_shell}): the {@code -s}
     * shell (or, with {@code -m}/{@code -p}, {@code $SHELL}; else the user's own, read here as {@code sh}) with
     * {@code -f}, {@code -c COMMAND} and the remaining operands as its arguments. Privileged; a login shell moves to
     * the user's home and runs its profile.
     */
    private static Unwrapped su(List<Arg> a, boolean runuser) {
        String kind = runuser ? "runuser" : "su";
        OptionGrammar g = OptionGrammar.named("su");
        OptionGrammar.Parsed p = g.parse(a, 1);
        Reading permuted = suReading(kind, a, g, p, runuser);
        if (!p.orderDependent()) return single(kind, a, permuted, true);
        OptionGrammar.Parsed inOrder = g.inOrder().parse(a, 1);
        Unwrapped u = merge(kind, a, List.of(permuted, suReading(kind, a, g.inOrder(), inOrder, runuser)));
        return u == null ? null : u.asPrivileged();
    }

    private static Reading suReading(String kind, List<Arg> a, OptionGrammar g, OptionGrammar.Parsed p,
                                     boolean runuser) {
        if (exitsAtOnce(g, p, "-h", "-V")) return Reading.of(null);
        if (!p.clean()) return stop(kind, a, p, true);
        if (!runuser && p.has("-u")) return usage(p.all("-u").get(0).index());
        List<Integer> ops = new ArrayList<>(p.operandIndices());
        boolean login = p.has("-l");
        if (!ops.isEmpty() && is(a.get(ops.get(0)), "-")) {
            login = true;
            ops.remove(0);
        }
        for (int k : ops) if (a.get(k).many()) return uncertain(kind, a, k, true);
        if (runuser && p.has("-u")) {
            if (p.has("-s") || p.has("-f") || p.has("-c") || p.has("--session-command") || login) return usage(1);
            if (ops.isEmpty()) return usage(a.size());
            List<String> words = new ArrayList<>();
            for (int k : ops) words.add(a.get(k).text());
            int from = ops.get(0);
            Payload payload = contiguous(ops) ? new Payload(from, ops.get(ops.size() - 1) + 1, true)
                    : new Payload(from, a.size(), true, ARGV, List.copyOf(words), List.of());
            return Reading.of(new Unwrapped(kind, List.of(payload), false, false, List.of(), List.of(), true, false,
                    List.of(), false));
        }
        if (!ops.isEmpty()) ops.remove(0); // the user
        List<String> words = new ArrayList<>();
        String shellValue = p.value("-s");
        if (p.has("-s") && shellValue == null) return uncertain(kind, a, p.all("-s").get(0).index(), true);
        words.add(shellValue != null ? shellValue : "sh");
        if (login) words.add("-l");
        if (p.has("-f")) words.add("-f");
        OptionGrammar.Option cmd = null;
        for (OptionGrammar.Option o : p.options()) {
            if (o.key().equals("-c") || o.key().equals("--session-command")) cmd = o;
        }
        if (cmd != null) {
            if (!cmd.value().known()) return uncertain(kind, a, cmd.valueIndex(), true);
            words.add("-c");
            words.add(cmd.text());
        } else if (!ops.isEmpty()) {
            // The shell reads its arguments as its own invocation: a first one that is no option is a script file
            // (found through PATH), whose text is not known here and may be any program's.
            Arg first = a.get(ops.get(0));
            if (!first.known()) return uncertain(kind, a, ops.get(0), true);
            if (!first.prefix().startsWith("-") && !first.prefix().startsWith("+")) return uncertain(kind, a, ops.get(0), true);
        }
        for (int k : ops) words.add(a.get(k).text());
        Unwrapped u = new Unwrapped(kind, List.of(new Payload(1, a.size(), true, ARGV, List.copyOf(words), List.of())),
                false, false, List.of(), List.of(), true, false, List.of(), login);
        return Reading.of(u);
    }

    private static boolean contiguous(List<Integer> ks) {
        for (int k = 1; k < ks.size(); k++) if (ks.get(k) != ks.get(k - 1) + 1) return false;
        return true;
    }

    /**
     * util-linux 2.38.1 {@code sys-utils/setpriv.c}: {@code setpriv [options] COMMAND [ARG...]}; {@code -d} and
     * {@code --list-caps} run no command; otherwise a command is required. It changes the user, groups and
     * capabilities: privileged.
     */
    private static Unwrapped setpriv(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("setpriv");
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnce(g, p, "-h", "-V")) return null;
        if (!p.clean()) return unreadable("setpriv", a, p.end(), true);
        if (p.has("-d") || p.has("--list-caps")) return null;
        if (p.end() >= a.size()) return unreadable("setpriv", a, a.size(), true);
        return argvPayload("setpriv", a, p.end()).asPrivileged();
    }

    /**
     * coreutils 9.1 {@code src/chroot.c}: {@code chroot [OPTION] NEWROOT [COMMAND [ARG]...]}, long options only; the
     * command runs under NEWROOT with {@code /} as its directory; without one chroot runs {@code "$SHELL" -i}.
     * Privileged.
     */
    private static Unwrapped chroot(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("chroot");
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnce(g, p, "--help", "--version")) return null;
        if (!p.clean()) return unreadable("chroot", a, p.end(), true);
        int root = p.end();
        if (root >= a.size()) return unreadable("chroot", a, a.size(), true);
        if (a.get(root).many()) return unreadable("chroot", a, root, true);
        if (root + 1 >= a.size()) {
            return new Unwrapped("chroot", List.of(shellPayload(List.of("sh", "-i"))), false, false, List.of(),
                    List.of(), true, false, List.of(), true);
        }
        return argvPayload("chroot", a, root + 1).asPrivileged().inOtherDirectory(true);
    }

    /**
     * util-linux 2.38.1 {@code sys-utils/unshare.c}: {@code unshare [options] [program [arguments]]}; without a program
     * it runs {@code $SHELL}. {@code -R}/{@code --root} changes the root (privileged, like chroot), {@code -w}/
     * {@code --wd} the directory.
     */
    private static Unwrapped unshare(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("unshare");
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnce(g, p, "-h", "-V")) return null;
        boolean root = p.has("-R");
        if (!p.clean()) return unreadable("unshare", a, p.end(), root);
        boolean moved = root || p.has("-w");
        Unwrapped u = p.end() >= a.size()
                ? new Unwrapped("unshare", List.of(shellPayload(List.of("sh"))), false, false, List.of(), List.of())
                : argvPayload("unshare", a, p.end());
        u = u.inOtherDirectory(moved);
        return root ? u.asPrivileged() : u;
    }

    // ---- util-linux scheduling and process attributes -------------------------------------------------------------

    /**
     * util-linux 2.38.1 {@code schedutils/ionice.c}: {@code -c CLASS}, {@code -n LEVEL}, {@code -t}; with {@code -p},
     * {@code -P} or {@code -u} it acts on running processes and runs nothing: null.
     */
    private static Unwrapped ionice(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("ionice");
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnce(g, p, "-h", "-V")) return null;
        if (!p.clean()) return unreadable("ionice", a, p.end(), false);
        if (p.has("-p") || p.has("-P") || p.has("-u") || p.end() >= a.size()) return null;
        return argvPayload("ionice", a, p.end());
    }

    /**
     * util-linux {@code schedutils/chrt.c}: {@code chrt [options] PRIORITY COMMAND [ARG...]}; {@code -p} (a running
     * process) and {@code -m} run nothing: null. 2.38 requires PRIORITY; later versions let it be left out, so a first
     * operand that is not a number is read as the command (2.38 reports an error there and runs nothing).
     */
    private static Unwrapped chrt(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("chrt");
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnce(g, p, "-h", "-V", "-m")) return null;
        if (!p.clean()) return unreadable("chrt", a, p.end(), false);
        if (p.has("-p")) return null;
        int i = p.end();
        if (i >= a.size()) return unreadable("chrt", a, i, false);
        Arg prio = a.get(i);
        if (!prio.known()) return unreadable("chrt", a, i, false);
        if (prio.prefix().matches("[+-]?[0-9]+")) i++;
        if (i >= a.size()) return unreadable("chrt", a, i, false);
        return argvPayload("chrt", a, i);
    }

    /**
     * util-linux 2.38.1 {@code schedutils/taskset.c}: {@code taskset [-ac] MASK COMMAND [ARG...]}; {@code -p} acts on
     * a running process and a lone MASK only prints: null.
     */
    private static Unwrapped taskset(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("taskset");
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnce(g, p, "-h", "-V")) return null;
        if (!p.clean()) return unreadable("taskset", a, p.end(), false);
        if (p.has("-p")) return null;
        int mask = p.end();
        if (mask >= a.size()) return unreadable("taskset", a, mask, false);
        if (a.get(mask).many()) return unreadable("taskset", a, mask, false);
        if (mask + 1 >= a.size()) return null;
        return argvPayload("taskset", a, mask + 1);
    }

    /**
     * util-linux 2.38.1 {@code sys-utils/flock.c}: {@code flock [options] FILE COMMAND [ARG...]}, {@code flock
     * [options] FILE -c COMMAND} (exactly one word, run by {@code $SHELL -c}) and {@code flock [options] FD} (no
     * command: null). FILE is opened {@code O_RDONLY|O_CREAT}: created empty when absent, never written, so it is not
     * counted as an output.
     */
    private static Unwrapped flock(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("flock");
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnce(g, p, "-h", "-V")) return null;
        if (!p.clean()) return unreadable("flock", a, p.end(), false);
        int file = p.end();
        int n = a.size();
        if (file >= n) return unreadable("flock", a, file, false);
        if (a.get(file).many()) return unreadable("flock", a, file, false);
        if (file + 1 >= n) return null;
        Arg next = a.get(file + 1);
        if (!next.known() && (mayBe(next, "-c") || mayBe(next, "--command") || next.many())) {
            return unreadable("flock", a, file + 1, false);
        }
        if (is(next, "-c") || is(next, "--command")) {
            if (n != file + 3) return unreadable("flock", a, file + 1, false);
            Payload s = new Payload(file + 2, file + 3, true, SCRIPT, List.of(a.get(file + 2).text()), List.of());
            return new Unwrapped("flock", List.of(s), false, false, List.of(), List.of());
        }
        return argvPayload("flock", a, file + 1);
    }

    /**
     * procps-ng {@code src/watch.c} (4.0.2 as installed, 4.0.6 read too): runs its command words joined by spaces
     * through {@code system()} ({@code /bin/sh -c}), or directly with {@code -x}; a command is required.
     */
    private static Reading watch(List<Arg> a, String grammar) {
        OptionGrammar g = OptionGrammar.named(grammar);
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnce(g, p, "-h", "-v")) return Reading.of(null);
        if (!p.clean()) return stop("watch", a, p, false);
        int i = p.end();
        if (i >= a.size()) return usage(i);
        if (p.has("-x")) return Reading.of(argvPayload("watch", a, i));
        for (int k = i; k < a.size(); k++) {
            // A word only known at run time is spliced into the script text: every static word may hold commands.
            if (!a.get(k).isStatic()) return Reading.of(withArgvCandidates(shellUncertain("watch", a, i), a, i));
        }
        Payload s = new Payload(i, a.size(), true, SCRIPT, List.of(String.join(" ", texts(a, i, a.size()))), List.of());
        return Reading.of(new Unwrapped("watch", List.of(s), false, false, List.of(), List.of()));
    }

    /**
     * expect 5.45.4 {@code unbuffer}: a first word {@code -p} is unbuffer's; the rest goes to {@code spawn -noecho},
     * whose flags ({@code Tcl_GetIndexFromObj}: a unique prefix is enough) come before the program; {@code -open},
     * {@code -leaveopen} and {@code -pty} spawn no program.
     */
    private static Unwrapped unbuffer(List<Arg> a) {
        int i = 1;
        if (i < a.size()) {
            Arg w = a.get(i);
            if (!w.known() && mayBe(w, "-p")) return unreadable("unbuffer", a, i, false);
            if (is(w, "-p")) i++;
        }
        OptionGrammar g = OptionGrammar.named("unbuffer@spawn");
        OptionGrammar.Parsed p = g.parse(a, i);
        if (!p.clean()) return unreadable("unbuffer", a, p.end(), false);
        if (p.has("-open") || p.has("-leaveopen") || p.has("-pty")) return null;
        if (p.end() >= a.size()) return unreadable("unbuffer", a, p.end(), false);
        return argvPayload("unbuffer", a, p.end());
    }

    /**
     * util-linux 2.38.1 {@code term-utils/script.c} (options permuted among operands): {@code -c COMMAND} runs
     * COMMAND through {@code $SHELL -c}; the first operand is the typescript file, written unless {@code -I},
     * {@code -O} or {@code -B} name the logs; {@code -I -O -B -T} and {@code -t FILE} are written; further
     * operands are ignored. Without {@code -c} script runs an interactive {@code $SHELL -i}. BSD script ({@code
     * script [file [command ...]]}) runs the words after the file. Both readings are merged.
     */
    private static Unwrapped script(List<Arg> a) {
        OptionGrammar g = OptionGrammar.named("script");
        OptionGrammar.Parsed p = g.parse(a, 1);
        List<Reading> readings = new ArrayList<>();
        readings.add(scriptGnu(a, g, p));
        if (p.orderDependent()) readings.add(scriptGnu(a, g.inOrder(), g.inOrder().parse(a, 1)));
        readings.add(scriptBsd(a));
        return merge("script", a, readings);
    }

    private static Reading scriptGnu(List<Arg> a, OptionGrammar g, OptionGrammar.Parsed p) {
        if (exitsAtOnce(g, p, "-h", "-V")) return Reading.of(null);
        if (!p.clean()) return stop("script", a, p, false);
        List<Output> outputs = new ArrayList<>();
        OptionGrammar.Option cmd = null;
        boolean logs = false;
        for (OptionGrammar.Option o : p.options()) {
            switch (o.key()) {
                case "-B", "-I", "-O" -> {
                    logs = true;
                    outputs.add(new Output(o.valueIndex(), o.valueOffset(), o.spelled()));
                }
                case "-T" -> outputs.add(new Output(o.valueIndex(), o.valueOffset(), o.spelled()));
                case "-t" -> {
                    if (o.value() != null) {
                        String t = o.value().text();
                        int skip = o.value().known() && t.startsWith("=") ? 1 : 0;
                        outputs.add(new Output(o.valueIndex(), o.valueOffset() + skip, o.spelled()));
                    }
                }
                case "-c" -> cmd = o;
                default -> {
                }
            }
        }
        List<Integer> ops = p.operandIndices();
        if (!logs && !ops.isEmpty()) outputs.add(new Output(ops.get(0), 0, "typescript"));
        Payload payload;
        if (cmd != null) {
            payload = new Payload(cmd.valueIndex(), cmd.valueIndex() + 1, true, SCRIPT,
                    List.of(cmd.valueOffset() == 0 ? cmd.value().text()
                            : a.get(cmd.valueIndex()).text().substring(cmd.valueOffset())), List.of());
        } else {
            payload = shellPayload(List.of("sh", "-i"));
        }
        return Reading.of(new Unwrapped("script", List.of(payload), false, false, List.of(), List.of(), false, false,
                List.copyOf(outputs), false));
    }

    /** BSD script: {@code script [-adeFfkpqrw] [-T fmt] [-t time] [file [command ...]]}; {@code -p} plays back. */
    private static Reading scriptBsd(List<Arg> a) {
        OptionGrammar.Parsed p = OptionGrammar.named("script@bsd").parse(a, 1);
        if (!p.clean()) return stop("script", a, p, false);
        if (p.has("-p")) return Reading.of(null);
        int file = p.end();
        List<Output> outputs = file < a.size() ? List.of(new Output(file, 0, "typescript")) : List.of();
        Payload payload = file + 1 < a.size() ? new Payload(file + 1, a.size(), true) : shellPayload(List.of("sh", "-i"));
        return Reading.of(new Unwrapped("script", List.of(payload), false, false, List.of(), List.of(), false, false,
                outputs, false));
    }

    /**
     * GNU time 1.9 ({@code /usr/bin/time}, {@code command time}): {@code -o FILE} is written (checked like an output
     * redirection), {@code -a -f -p -q -v}; a command is required. BSD time: {@code -a -h -l -o FILE -p}. The
     * keyword {@code time} is the parser's, not this.
     */
    private static Reading time(List<Arg> a, String grammar) {
        OptionGrammar g = OptionGrammar.named(grammar);
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (exitsAtOnceIfDeclared(g, p, "--help", "-V")) return Reading.of(null);
        List<Output> outputs = new ArrayList<>();
        for (OptionGrammar.Option o : p.options()) {
            if (o.key().equals("-o")) outputs.add(new Output(o.valueIndex(), o.valueOffset(), o.spelled()));
        }
        if (!p.clean()) return withOutputs(stop("time", a, p, false), outputs);
        if (p.end() >= a.size()) return usage(p.end());
        return Reading.of(new Unwrapped("time", List.of(new Payload(p.end(), a.size(), true)), false, false,
                List.of(), List.of(), false, false, List.copyOf(outputs), false));
    }
}
