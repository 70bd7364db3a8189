package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Option grammars of the commands that run another command, and where their payload starts. Each grammar follows
 * the command's manual: GNU findutils {@code xargs(1)} and BSD {@code xargs(1)}, {@code find(1)}, GNU coreutils
 * {@code timeout(1)}, {@code nice(1)}, {@code nohup(1)}, {@code stdbuf(1)}.
 */
public final class WrapperGrammar {

    /**
     * A payload: argv indices {@code [from, to)}; {@code readable} false when it is missing or malformed.
     *
     * @param form        {@link #ARGV}: the words run as a command; {@link #SCRIPT}: {@code words.get(0)} is shell
     *                    source parsed as a script ({@code sh -c}, {@code eval}, {@code watch})
     * @param words       the payload's words when they are not {@code argv[from, to)} (a script's text, or
     *                    {@code env -S}'s split string), else null; {@code [from, to)} still names the argv words
     *                    they came from, so their expansions are known
     * @param assignments {@code NAME=VALUE} words the wrapper puts in the payload's environment ({@code env},
     *                    {@code sudo})
     */
    public record Payload(int from, int to, boolean readable, String form, List<String> words,
                          List<String> assignments) {
        /** An argv payload {@code argv[from, to)} with no assignments. */
        public Payload(int from, int to, boolean readable) {
            this(from, to, readable, ARGV, null, List.of());
        }
    }

    /** {@link Payload#form()}: the payload words are a command. */
    public static final String ARGV = "argv";
    /** {@link Payload#form()}: the payload word is shell source. */
    public static final String SCRIPT = "script";

    /** A find primary that acts, at argv index {@code index}, with its file argument or null. */
    public record Action(String primary, int index, boolean mutating, String argument) {
    }

    /**
     * The result of unwrapping one argv.
     *
     * @param kind             the wrapper name ({@code xargs}, {@code find}, {@code timeout}, ...)
     * @param payloads         the payloads; empty when the wrapper has none ({@code timeout 10})
     * @param appendsArguments xargs without replace mode: stdin words are appended to the payload
     * @param replaceMode      xargs {@code -I/-J/-i/--replace}
     * @param implicitPayload  xargs with no command runs {@code echo}: the payload is that implicit argv
     * @param actions          find's acting primaries (empty for other wrappers)
     * @param privileged       sudo/doas: the payload runs as another user
     * @param ownRuleRequired  eval: the wrapper needs an allow rule of its own
     * @param outputs          files the wrapper itself writes
     * @param changesDirectory the payload runs in another directory ({@code env -C}, {@code sudo -D}), so its
     *                         relative paths are not relative to the working directory
     * @param replaceString    the text the wrapper replaces in the payload's words at run time ({@code xargs -I R},
     *                         {@code find -exec ... {}}), or null
     */
    public record Unwrapped(String kind, List<Payload> payloads, boolean appendsArguments, boolean replaceMode,
                            List<String> implicitPayload, List<Action> actions, boolean privileged,
                            boolean ownRuleRequired, List<Output> outputs, boolean changesDirectory,
                            String replaceString) {
        /** An unprivileged wrapper with no output files that keeps the working directory. */
        public Unwrapped(String kind, List<Payload> payloads, boolean appendsArguments, boolean replaceMode,
                         List<String> implicitPayload, List<Action> actions) {
            this(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, false, false, List.of(),
                    false, null);
        }

        /** The full form without a replacement string. */
        public Unwrapped(String kind, List<Payload> payloads, boolean appendsArguments, boolean replaceMode,
                         List<String> implicitPayload, List<Action> actions, boolean privileged,
                         boolean ownRuleRequired, List<Output> outputs, boolean changesDirectory) {
            this(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged, ownRuleRequired,
                    outputs, changesDirectory, null);
        }

        /** This result with the replacement string {@code r}. */
        Unwrapped withReplaceString(String r) {
            return new Unwrapped(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged,
                    ownRuleRequired, outputs, changesDirectory, r);
        }

        /** This result with {@code ownRuleRequired} set: the wrapper needs an allow rule of its own. */
        Unwrapped withOwnRule() {
            return new Unwrapped(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged,
                    true, outputs, changesDirectory, replaceString);
        }

        /** This result with {@code changesDirectory} set. */
        Unwrapped inOtherDirectory() {
            return new Unwrapped(kind, payloads, appendsArguments, replaceMode, implicitPayload, actions, privileged,
                    ownRuleRequired, outputs, true, replaceString);
        }
    }

    /**
     * A file the wrapper itself writes ({@code time -o FILE}, {@code script FILE}), checked like an output
     * redirection: at argv index {@code index} from character {@code offset}, named by {@code option} as written.
     */
    public record Output(int index, int offset, String option) {
        /** The file name: {@code argv[index]} from {@code offset} on (an attached value starts after the option). */
        public String path(List<String> argv) {
            return argv.get(index).substring(offset);
        }
    }

    private static final Set<String> XARGS_SHORT_WITH_VALUE = Set.of("I", "J", "L", "n", "P", "s", "E", "a", "d", "R", "S");
    private static final Set<String> XARGS_SHORT_OPTIONAL_VALUE = Set.of("i", "e", "l");
    private static final Set<String> XARGS_SHORT_FLAGS = Set.of("0", "r", "t", "p", "x", "o");
    private static final Set<String> XARGS_LONG_WITH_VALUE = Set.of("--max-args", "--max-procs", "--max-lines",
            "--replace", "--delimiter", "--eof", "--arg-file", "--max-chars", "--process-slot-var");
    private static final Set<String> XARGS_LONG_FLAGS = Set.of("--null", "--no-run-if-empty", "--verbose",
            "--interactive", "--exit", "--open-tty", "--show-limits");
    private static final Set<String> FIND_EXEC = Set.of("-exec", "-execdir", "-ok", "-okdir");
    private static final Set<String> FIND_WRITES_ONE = Set.of("-fprint", "-fprint0", "-fls");

    private WrapperGrammar() {
    }

    /**
     * Unwraps {@code argv} when its command name (directory stripped) is a known wrapper.
     *
     * @param argv the words of a simple command after quote removal; argv[0] is the name
     * @return the payloads and options, or null when argv is not a wrapper (including a find with no
     *         {@code -exec}-like primary: it is then an ordinary command; see {@link #findActions})
     */
    public static Unwrapped unwrap(List<String> argv) {
        if (argv.isEmpty()) return null;
        String name = baseName(argv.get(0));
        return switch (name) {
            case "xargs" -> xargs(argv);
            case "find" -> find(argv);
            case "timeout" -> timeout(argv);
            case "nice" -> nice(argv);
            case "nohup" -> simple("nohup", argv, 1);
            case "stdbuf" -> stdbuf(argv);
            case "bash", "sh", "zsh", "dash", "ksh" -> shell(name, argv);
            case "eval" -> eval(argv);
            case "env" -> env(argv);
            case "command" -> command(argv);
            // builtin, exec and trap are on the tier that needs an explicit allow rule: they also need their own.
            case "builtin" -> argv.size() > 1 ? simple("builtin", argv, 1).withOwnRule() : null;
            case "trap" -> trap(argv);
            case "alias" -> alias(argv);
            case "exec" -> exec(argv);
            case "sudo" -> sudo(argv);
            case "doas" -> doas(argv);
            case "ionice" -> ionice(argv);
            case "chrt" -> chrt(argv);
            case "taskset" -> taskset(argv);
            case "setsid" -> options("setsid", argv, "cfw", "", Set.of("--ctty", "--fork", "--wait"), Set.of());
            case "flock" -> flock(argv);
            case "watch" -> watch(argv);
            case "unbuffer" -> options("unbuffer", argv, "p", "", Set.of(), Set.of());
            case "caffeinate" -> options("caffeinate", argv, "dimsu", "tw", Set.of(), Set.of());
            case "script" -> script(argv);
            case "time" -> time(argv);
            default -> null;
        };
    }

    /** The acting primaries of a find argv (all of them, {@code -exec} included), outside payloads. */
    public static List<Action> findActions(List<String> argv) {
        List<Action> actions = new ArrayList<>();
        scanFind(argv, new ArrayList<>(), actions);
        return actions;
    }

    static String baseName(String n) {
        int slash = n.lastIndexOf('/');
        return slash >= 0 && slash < n.length() - 1 ? n.substring(slash + 1) : n;
    }

    private static Unwrapped simple(String kind, List<String> argv, int start) {
        int i = start;
        if (i < argv.size() && argv.get(i).equals("--")) i++;
        return single(kind, argv, i, true);
    }

    private static Unwrapped single(String kind, List<String> argv, int from, boolean readable) {
        List<Payload> payloads = from < argv.size() || !readable
                ? List.of(new Payload(Math.min(from, argv.size()), argv.size(), readable && from < argv.size()))
                : List.of();
        return new Unwrapped(kind, payloads, false, false, List.of(), List.of());
    }

    private static Unwrapped xargs(List<String> argv) {
        boolean replace = false;
        String replaceString = null;
        int i = 1;
        boolean readable = true;
        loop:
        while (i < argv.size()) {
            String t = argv.get(i);
            if (t.equals("--")) {
                i++;
                break;
            }
            if (t.startsWith("--")) {
                int eq = t.indexOf('=');
                String opt = eq > 0 ? t.substring(0, eq) : t;
                if (opt.equals("--replace")) {
                    replace = true;
                    replaceString = eq > 0 ? t.substring(eq + 1) : "{}";
                }
                if (XARGS_LONG_WITH_VALUE.contains(opt)) {
                    // --replace takes an optional attached value only (GNU); the others take a value.
                    i += (eq > 0 || opt.equals("--replace")) ? 1 : 2;
                } else if (XARGS_LONG_FLAGS.contains(opt)) {
                    i++;
                } else {
                    readable = false; // unknown option: cannot tell where the payload starts
                    break;
                }
                continue;
            }
            if (t.length() < 2 || t.charAt(0) != '-') break;
            // A cluster of short options: flags, then at most one option taking a value.
            for (int k = 1; k < t.length(); k++) {
                String c = String.valueOf(t.charAt(k));
                if (XARGS_SHORT_FLAGS.contains(c)) continue;
                if (XARGS_SHORT_WITH_VALUE.contains(c)) {
                    if (c.equals("I") || c.equals("J")) {
                        replace = true;
                        replaceString = k + 1 < t.length() ? t.substring(k + 1) : i + 1 < argv.size() ? argv.get(i + 1) : "";
                    }
                    i += (k + 1 < t.length()) ? 1 : 2;
                    continue loop;
                }
                if (XARGS_SHORT_OPTIONAL_VALUE.contains(c)) {
                    if (c.equals("i")) {
                        replace = true;
                        replaceString = k + 1 < t.length() ? t.substring(k + 1) : "{}";
                    }
                    i++;
                    continue loop;
                }
                readable = false;
                break loop;
            }
            i++;
        }
        if (!readable) {
            return new Unwrapped("xargs", List.of(new Payload(argv.size(), argv.size(), false)), false, false,
                    List.of(), List.of());
        }
        if (i >= argv.size()) {
            // No command: xargs runs echo with the input words.
            return new Unwrapped("xargs", List.of(), !replace, replace, List.of("echo"), List.of())
                    .withReplaceString(replaceString);
        }
        return new Unwrapped("xargs", List.of(new Payload(i, argv.size(), true)), !replace, replace, List.of(),
                List.of()).withReplaceString(replaceString);
    }

    private static Unwrapped find(List<String> argv) {
        List<Payload> payloads = new ArrayList<>();
        List<Action> actions = new ArrayList<>();
        scanFind(argv, payloads, actions);
        if (payloads.isEmpty()) return null;
        return new Unwrapped("find", payloads, false, false, List.of(), actions).withReplaceString("{}");
    }

    private static void scanFind(List<String> argv, List<Payload> payloads, List<Action> actions) {
        int i = 1;
        while (i < argv.size()) {
            String t = argv.get(i);
            if (FIND_EXEC.contains(t)) {
                boolean mutating = t.startsWith("-ok");
                int start = i + 1;
                int end = -1;
                int next = argv.size();
                for (int j = start; j < argv.size(); j++) {
                    String u = argv.get(j);
                    if (u.equals(";")) {
                        end = j;
                        next = j + 1;
                        break;
                    }
                    if (u.equals("+") && j > start && argv.get(j - 1).equals("{}")) {
                        end = j;
                        next = j + 1;
                        break;
                    }
                }
                actions.add(new Action(t, i, mutating, null));
                if (end < 0) {
                    payloads.add(new Payload(start, argv.size(), false));
                    return;
                }
                payloads.add(new Payload(start, end, end > start));
                i = next;
                continue;
            }
            if (t.equals("-delete")) {
                actions.add(new Action(t, i, true, null));
            } else if (FIND_WRITES_ONE.contains(t)) {
                actions.add(new Action(t, i, true, i + 1 < argv.size() ? argv.get(i + 1) : null));
                i++;
            } else if (t.equals("-fprintf")) {
                actions.add(new Action(t, i, true, i + 1 < argv.size() ? argv.get(i + 1) : null));
                i += 2;
            }
            i++;
        }
    }

    /**
     * {@code timeout [-s SIG|--signal=SIG] [-k DUR|--kill-after=DUR] [--foreground] [--preserve-status] [-v] DURATION
     * COMMAND...} (GNU coreutils timeout(1); {@code -f}/{@code -p} are the BSD spellings): the command follows the
     * DURATION operand.
     */
    private static Unwrapped timeout(List<String> argv) {
        Scan s = scan(argv, 1, "vfp", "sk", Set.of("--foreground", "--preserve-status", "--verbose"),
                Set.of("--signal", "--kill-after"));
        if (!s.readable()) return unreadable("timeout", argv);
        return single("timeout", argv, s.next() + 1, true);
    }

    private static Unwrapped nice(List<String> argv) {
        int i = 1;
        while (i < argv.size()) {
            String t = argv.get(i);
            if (t.equals("--")) {
                i++;
                break;
            }
            if (t.equals("-n") || t.equals("--adjustment")) {
                i += 2;
            } else if (t.startsWith("--adjustment=") || (t.startsWith("-n") && t.length() > 2)
                    || t.matches("-[0-9]+") || t.matches("--?[0-9]+")) {
                i++;
            } else if (t.startsWith("-") && t.length() > 1) {
                return single("nice", argv, argv.size(), false);
            } else {
                break;
            }
        }
        return single("nice", argv, i, true);
    }

    /** {@code stdbuf [-i|-o|-e MODE] [--input|--output|--error=MODE] COMMAND...} (GNU coreutils stdbuf(1)). */
    private static Unwrapped stdbuf(List<String> argv) {
        Scan s = scan(argv, 1, "", "ioe", Set.of(), Set.of("--input", "--output", "--error"));
        if (!s.readable()) return unreadable("stdbuf", argv);
        return single("stdbuf", argv, s.next(), true);
    }

    // ---- option scanning shared by the grammars below ---------------------------------------------------------

    /**
     * Options scanned getopt-style up to the first operand (every wrapper here stops at its first operand, like
     * getopt with a leading {@code +}): {@code next} is that operand's index; {@code seen} maps each option met
     * (as {@code -x} or {@code --long}) to its value or "". {@code readable} is false on an option the grammar
     * does not know, since the payload's start is then unknown.
     */
    record Scan(int next, boolean readable, java.util.Map<String, String> seen, List<Value> values) {
        boolean has(String... opts) {
            for (String o : opts) if (seen.containsKey(o)) return true;
            return false;
        }
    }

    /** An option's value: at argv index {@code index} from character {@code offset}. */
    record Value(String option, int index, int offset) {
    }

    static Scan scan(List<String> argv, int start, String shortFlags, String shortValue, Set<String> longFlags,
                     Set<String> longValue) {
        java.util.Map<String, String> seen = new java.util.LinkedHashMap<>();
        List<Value> values = new ArrayList<>();
        int i = start;
        while (i < argv.size()) {
            String t = argv.get(i);
            if (t.equals("--")) return new Scan(i + 1, true, seen, values);
            if (t.startsWith("--")) {
                int eq = t.indexOf('=');
                String opt = eq > 0 ? t.substring(0, eq) : t;
                if (longValue.contains(opt)) {
                    if (eq > 0) {
                        seen.put(opt, t.substring(eq + 1));
                        values.add(new Value(opt, i, eq + 1));
                        i++;
                    } else {
                        if (i + 1 >= argv.size()) return new Scan(argv.size(), false, seen, values);
                        seen.put(opt, argv.get(i + 1));
                        values.add(new Value(opt, i + 1, 0));
                        i += 2;
                    }
                } else if (longFlags.contains(opt) && eq < 0) {
                    seen.put(opt, "");
                    i++;
                } else {
                    return new Scan(argv.size(), false, seen, values);
                }
                continue;
            }
            if (t.length() < 2 || t.charAt(0) != '-') break;
            int k = 1;
            boolean tookNext = false;
            for (; k < t.length(); k++) {
                char c = t.charAt(k);
                if (shortFlags.indexOf(c) >= 0) {
                    seen.put("-" + c, "");
                } else if (shortValue.indexOf(c) >= 0) {
                    if (k + 1 < t.length()) {
                        seen.put("-" + c, t.substring(k + 1));
                        values.add(new Value("-" + c, i, k + 1));
                    } else {
                        if (i + 1 >= argv.size()) return new Scan(argv.size(), false, seen, values);
                        seen.put("-" + c, argv.get(i + 1));
                        values.add(new Value("-" + c, i + 1, 0));
                        tookNext = true;
                    }
                    break;
                } else {
                    return new Scan(argv.size(), false, seen, values);
                }
            }
            i += tookNext ? 2 : 1;
        }
        return new Scan(i, true, seen, values);
    }

    private static Unwrapped unreadable(String kind, List<String> argv) {
        return single(kind, argv, argv.size(), false);
    }

    /** A wrapper whose payload is every operand after its options; null when it has none (nothing runs). */
    private static Unwrapped options(String kind, List<String> argv, String shortFlags, String shortValue,
                                     Set<String> longFlags, Set<String> longValue) {
        Scan s = scan(argv, 1, shortFlags, shortValue, longFlags, longValue);
        if (!s.readable()) return unreadable(kind, argv);
        if (s.next() >= argv.size()) return null;
        return single(kind, argv, s.next(), true);
    }

    private static Unwrapped script(String kind, List<String> argv, int index, boolean privileged,
                                    boolean ownRule) {
        Payload p = new Payload(index, index + 1, true, SCRIPT, List.of(argv.get(index)), List.of());
        return new Unwrapped(kind, List.of(p), false, false, List.of(), List.of(), privileged, ownRule,
                List.of(), false);
    }

    // ---- shells and eval ----------------------------------------------------------------------------------------

    private static final Set<String> SHELL_LONG_FLAGS = Set.of("--norc", "--noprofile", "--posix", "--login",
            "--noediting", "--restricted", "--verbose", "--debugger", "--dump-strings", "--dump-po-strings",
            "--protected", "--no-rcs", "--no-globalrcs", "--emulate");
    private static final Set<String> SHELL_LONG_VALUE = Set.of("--rcfile", "--init-file");

    /**
     * {@code bash|sh|zsh|dash|ksh [options] -c SCRIPT [name [args...]]} (bash(1) "Invocation", dash(1), zsh(1)):
     * short options may be clustered ({@code -ec}); {@code -o}/{@code +o}/{@code -O}/{@code +O} take an option
     * name; the script is the first operand after the options. Without {@code -c} the shell runs a file or reads
     * stdin: null, an ordinary command.
     */
    private static Unwrapped shell(String name, List<String> argv) {
        String kind = name + " -c";
        boolean c = false;
        int i = 1;
        while (i < argv.size()) {
            String t = argv.get(i);
            if (t.equals("--") || t.equals("-")) {
                i++;
                break;
            }
            if (t.startsWith("--")) {
                int eq = t.indexOf('=');
                String opt = eq > 0 ? t.substring(0, eq) : t;
                if (SHELL_LONG_VALUE.contains(opt)) {
                    i += eq > 0 ? 1 : 2;
                } else if (SHELL_LONG_FLAGS.contains(t)) {
                    i++;
                } else {
                    return unreadable(kind, argv); // unknown option: where -c's script is cannot be told
                }
                continue;
            }
            if (t.length() < 2 || (t.charAt(0) != '-' && t.charAt(0) != '+')) break;
            boolean takesName = false;
            for (int k = 1; k < t.length(); k++) {
                char ch = t.charAt(k);
                if (ch == 'c' && t.charAt(0) == '-') c = true;
                else if (ch == 'o' || ch == 'O') takesName = true;
                else if ("abefhikmnprstuvxBCEHPTlDG".indexOf(ch) < 0) return unreadable(kind, argv);
            }
            i += takesName ? 2 : 1;
        }
        if (!c) return null;
        if (i >= argv.size()) return unreadable(kind, argv);
        return script(kind, argv, i, false, false);
    }

    /** {@code eval [--] ARG...}: the arguments joined by spaces are parsed as a script (bash(1) "eval"). */
    private static Unwrapped eval(List<String> argv) {
        int i = 1;
        if (i < argv.size() && argv.get(i).equals("--")) i++;
        if (i >= argv.size()) return null;
        Payload p = new Payload(i, argv.size(), true, SCRIPT, List.of(String.join(" ", argv.subList(i, argv.size()))),
                List.of());
        return new Unwrapped("eval", List.of(p), false, false, List.of(), List.of(), false, true, List.of(), false);
    }

    /**
     * {@code trap [-lp] [[ACTION] SIGSPEC...]} (bash(1) "trap"): with an action and at least one signal, the
     * action is a script bash runs when the signal arrives (or at exit). {@code -l}/{@code -p}, a lone operand and
     * an action of {@code -} or the empty string set no script: null, an ordinary command.
     */
    private static Unwrapped trap(List<String> argv) {
        int i = 1;
        while (i < argv.size() && argv.get(i).startsWith("-") && !argv.get(i).equals("-")) {
            if (argv.get(i).equals("--")) {
                i++;
                break;
            }
            if (argv.get(i).contains("l") || argv.get(i).contains("p")) return null;
            i++;
        }
        if (argv.size() - i < 2) return null;
        String action = argv.get(i);
        if (action.isEmpty() || action.equals("-")) return null;
        return script("trap", argv, i, false, true);
    }

    /**
     * {@code alias [-p] [NAME[=VALUE] ...]} (bash(1) "alias"): each VALUE is text that replaces NAME when a later
     * command starts with it, so it is parsed as a script; alias needs its own allow rule (explicit tier). With no
     * definition (listing only) it runs nothing: null, an ordinary command.
     */
    private static Unwrapped alias(List<String> argv) {
        List<Payload> payloads = new ArrayList<>();
        for (int i = 1; i < argv.size(); i++) {
            String a = argv.get(i);
            int eq = a.indexOf('=');
            if (a.startsWith("-") || eq <= 0) continue;
            payloads.add(new Payload(i, i + 1, true, SCRIPT, List.of(a.substring(eq + 1)), List.of()));
        }
        if (payloads.isEmpty()) return null;
        return new Unwrapped("alias", payloads, false, false, List.of(), List.of(), false, true, List.of(), false);
    }

    // ---- env, command, builtin, exec ----------------------------------------------------------------------------

    private static final Set<String> ENV_LONG_FLAGS = Set.of("--ignore-environment", "--null", "--debug",
            "--list-signal-handling", "--block-signal", "--default-signal", "--ignore-signal");
    private static final Set<String> ENV_LONG_VALUE = Set.of("--unset", "--chdir", "--split-string");

    /**
     * GNU coreutils {@code env(1)}: {@code -i}, {@code -0}, {@code -v}, {@code -u NAME}, {@code -C DIR},
     * {@code -S STRING} (split into words that take its place), {@code --}, then {@code NAME=VALUE} words,
     * then the command. The assignments go to the payload's environment. Without a command env prints the
     * environment: null, an ordinary command.
     */
    private static Unwrapped env(List<String> argv) {
        int i = 1;
        boolean chdir = false;
        while (i < argv.size()) {
            String t = argv.get(i);
            String split = null;
            int after = -1;
            if (t.equals("-S") || t.equals("--split-string")) {
                if (i + 1 >= argv.size()) return unreadable("env", argv);
                split = argv.get(i + 1);
                after = i + 2;
            } else if (t.startsWith("--split-string=")) {
                split = t.substring("--split-string=".length());
                after = i + 1;
            } else if (t.startsWith("-S") || (t.startsWith("-") && !t.startsWith("--") && t.indexOf('S') > 0
                    && t.substring(1, t.indexOf('S')).chars().allMatch(ch -> "i0v".indexOf(ch) >= 0))) {
                split = t.substring(t.indexOf('S') + 1);
                after = i + 1;
            }
            if (split != null) {
                List<String> words = splitString(split);
                if (words == null) return unreadable("env", argv);
                List<String> rebuilt = new ArrayList<>();
                rebuilt.add(argv.get(0));
                rebuilt.addAll(words);
                rebuilt.addAll(argv.subList(after, argv.size()));
                Unwrapped inner = env(rebuilt);
                if (inner == null) return null;
                boolean moved = chdir || inner.changesDirectory();
                List<Payload> payloads = new ArrayList<>();
                for (Payload p : inner.payloads()) {
                    // The split words have no argv index of their own: name the whole tail they came from.
                    payloads.add(new Payload(i, argv.size(), p.readable(), p.form(),
                            p.readable() ? rebuilt.subList(p.from(), p.to()) : null, p.assignments()));
                }
                Unwrapped fromSplit = new Unwrapped("env", payloads, false, false, List.of(), List.of());
                return moved ? fromSplit.inOtherDirectory() : fromSplit;
            }
            if (t.equals("--")) {
                i++;
                break;
            }
            if (t.startsWith("--")) {
                int eq = t.indexOf('=');
                String opt = eq > 0 ? t.substring(0, eq) : t;
                if (opt.equals("--chdir")) chdir = true;
                if (ENV_LONG_VALUE.contains(opt)) i += eq > 0 ? 1 : 2;
                else if (ENV_LONG_FLAGS.contains(opt)) i++;
                else return unreadable("env", argv);
                continue;
            }
            if (t.equals("-")) {
                i++; // an obsolete spelling of -i
                continue;
            }
            if (t.length() < 2 || t.charAt(0) != '-') break;
            boolean tookNext = false;
            for (int k = 1; k < t.length(); k++) {
                char ch = t.charAt(k);
                if ("i0v".indexOf(ch) >= 0) continue;
                if (ch == 'u' || ch == 'C') {
                    if (ch == 'C') chdir = true;
                    tookNext = k + 1 >= t.length();
                    break;
                }
                return unreadable("env", argv);
            }
            i += tookNext ? 2 : 1;
        }
        List<String> assignments = new ArrayList<>();
        while (i < argv.size() && isAssignmentWord(argv.get(i))) assignments.add(argv.get(i++));
        if (i >= argv.size()) return null;
        Unwrapped u = new Unwrapped("env", List.of(new Payload(i, argv.size(), true, ARGV, null, assignments)),
                false, false, List.of(), List.of());
        return chdir ? u.inOtherDirectory() : u;
    }

    /** {@code NAME=VALUE} with a valid shell name (bash(1) "DEFINITIONS": name). */
    static boolean isAssignmentWord(String w) {
        int eq = w.indexOf('=');
        return eq > 0 && w.substring(0, eq).matches("[A-Za-z_][A-Za-z0-9_]*");
    }

    /**
     * Splits an {@code env -S} string the way GNU env does: words separated by blanks, single quotes literal,
     * double quotes and backslash escapes ({@code \\ \" \' \_ \t \n \v \f \r}). Returns null on what this
     * reading does not follow ({@code ${VAR}} expansion, {@code \c}, comments, unbalanced quotes).
     */
    static List<String> splitString(String s) {
        List<String> out = new ArrayList<>();
        StringBuilder w = null;
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\n') {
                if (w != null) out.add(w.toString());
                w = null;
                i++;
                continue;
            }
            if (w == null) {
                if (c == '#') return null;
                w = new StringBuilder();
            }
            if (c == '$') return null;
            if (c == '\'') {
                int end = s.indexOf('\'', i + 1);
                if (end < 0) return null;
                w.append(s, i + 1, end);
                i = end + 1;
            } else if (c == '"') {
                i++;
                while (true) {
                    if (i >= s.length()) return null;
                    char d = s.charAt(i);
                    if (d == '"') break;
                    if (d == '$') return null;
                    if (d == '\\') {
                        if (i + 1 >= s.length()) return null;
                        String e = escape(s.charAt(i + 1));
                        if (e == null) return null;
                        w.append(e);
                        i += 2;
                    } else {
                        w.append(d);
                        i++;
                    }
                }
                i++;
            } else if (c == '\\') {
                if (i + 1 >= s.length()) return null;
                String e = escape(s.charAt(i + 1));
                if (e == null) return null;
                w.append(e);
                i += 2;
            } else {
                w.append(c);
                i++;
            }
        }
        if (w != null) out.add(w.toString());
        return out;
    }

    private static String escape(char c) {
        return switch (c) {
            case '\\' -> "\\";
            case '"' -> "\"";
            case '\'' -> "'";
            case '_' -> " ";
            case 't' -> "\t";
            case 'n' -> "\n";
            case 'v' -> "\u000b";
            case 'f' -> "\f";
            case 'r' -> "\r";
            case '#' -> "#";
            case '$' -> "$";
            default -> null;
        };
    }

    /**
     * {@code command [-pVv] NAME [ARG...]} (bash(1) "command"): runs NAME skipping functions; with {@code -v} or
     * {@code -V} it only describes NAME: null, an ordinary command (see {@link #isLookup}).
     */
    private static Unwrapped command(List<String> argv) {
        Scan s = scan(argv, 1, "pvV", "", Set.of(), Set.of());
        if (!s.readable()) return unreadable("command", argv);
        if (s.has("-v", "-V") || s.next() >= argv.size()) return null;
        return single("command", argv, s.next(), true);
    }

    /**
     * True for {@code command -v NAME...} and {@code command -V NAME...}: they only look names up and run nothing
     * (bash(1) "command").
     *
     * @param argv a sub-command's argv
     */
    public static boolean isLookup(List<String> argv) {
        if (argv.isEmpty() || !argv.get(0).equals("command")) return false;
        Scan s = scan(argv, 1, "pvV", "", Set.of(), Set.of());
        return s.readable() && s.has("-v", "-V");
    }

    /**
     * {@code exec [-cl] [-a NAME] [COMMAND [ARG...]]} (bash(1) "exec"): the command replaces the shell. With no
     * command exec only applies its redirections to the shell: null, an ordinary command.
     */
    private static Unwrapped exec(List<String> argv) {
        Scan s = scan(argv, 1, "cl", "a", Set.of(), Set.of());
        if (!s.readable()) return unreadable("exec", argv);
        if (s.next() >= argv.size()) return null;
        return single("exec", argv, s.next(), true).withOwnRule();
    }

    // ---- privilege ----------------------------------------------------------------------------------------------

    private static final Set<String> SUDO_LONG_FLAGS = Set.of("--askpass", "--background", "--bell", "--edit",
            "--preserve-env", "--set-home", "--login", "--remove-timestamp", "--reset-timestamp", "--list",
            "--non-interactive", "--preserve-groups", "--stdin", "--shell", "--validate", "--help", "--version");
    private static final Set<String> SUDO_LONG_VALUE = Set.of("--close-from", "--chdir", "--group", "--host",
            "--prompt", "--chroot", "--role", "--type", "--command-timeout", "--other-user", "--user");

    /**
     * {@code sudo(8)}: options with a value {@code -u -g -h -p -C -D -R -T -U -r -t}, flags {@code -A -B -b -E -H
     * -i -n -P -S -s -k}; then {@code VAR=value} words for the command's environment, then the command. {@code -i}
     * and {@code -s} with no command start a shell: a privileged wrapper with no payload. {@code -e} (sudoedit),
     * {@code -l}, {@code -v}, {@code -K}, {@code -V}, {@code -h} alone run no command: null.
     */
    private static Unwrapped sudo(List<String> argv) {
        Scan s = scan(argv, 1, "ABbEHiknPSsKlVve", "ugpCDRTUrth", SUDO_LONG_FLAGS, SUDO_LONG_VALUE);
        Unwrapped u = privileged("sudo", argv, s, s.has("-e", "--edit", "-l", "--list", "-v", "--validate", "-K",
                "--remove-timestamp", "-V", "--version", "--help"), s.has("-i", "-s", "--login", "--shell"));
        // -i runs a login shell in the target user's home; -D/--chdir and -R/--chroot move it too.
        return u != null && s.has("-D", "--chdir", "-R", "--chroot", "-i", "--login") ? u.inOtherDirectory() : u;
    }

    /**
     * {@code doas(1)} (OpenBSD): {@code doas [-Lns] [-a style] [-C config] [-u user] command [args]}. {@code -s}
     * with no command starts a shell; {@code -C} and {@code -L} run no command.
     */
    private static Unwrapped doas(List<String> argv) {
        Scan s = scan(argv, 1, "Lns", "aCu", Set.of(), Set.of());
        return privileged("doas", argv, s, s.has("-C", "-L"), s.has("-s"));
    }

    private static Unwrapped privileged(String kind, List<String> argv, Scan s, boolean noCommand, boolean shell) {
        if (!s.readable()) {
            return new Unwrapped(kind, List.of(new Payload(argv.size(), argv.size(), false)), false, false,
                    List.of(), List.of(), true, false, List.of(), false);
        }
        if (noCommand) return null;
        int i = s.next();
        List<String> assignments = new ArrayList<>();
        if (kind.equals("sudo")) while (i < argv.size() && isAssignmentWord(argv.get(i))) assignments.add(argv.get(i++));
        List<Payload> payloads = i < argv.size()
                ? List.of(new Payload(i, argv.size(), true, ARGV, null, assignments))
                : List.of();
        if (payloads.isEmpty() && !shell) return null;
        return new Unwrapped(kind, payloads, false, false, List.of(), List.of(), true, false, List.of(), false);
    }

    // ---- scheduling and process attributes -----------------------------------------------------------------------

    /**
     * util-linux {@code ionice(1)}: {@code -c CLASS}, {@code -n LEVEL}, {@code -t}; with {@code -p}, {@code -P} or
     * {@code -u} it acts on running processes and runs nothing: null.
     */
    private static Unwrapped ionice(List<String> argv) {
        Scan s = scan(argv, 1, "thV", "cnpPu", Set.of("--ignore", "--help", "--version"),
                Set.of("--class", "--classdata", "--pid", "--pgid", "--uid"));
        if (!s.readable()) return unreadable("ionice", argv);
        if (s.has("-p", "-P", "-u", "--pid", "--pgid", "--uid") || s.next() >= argv.size()) return null;
        return single("ionice", argv, s.next(), true);
    }

    /**
     * util-linux {@code chrt(1)}: {@code chrt [options] [PRIORITY] COMMAND [ARG...]}; policy flags {@code -a -b -d
     * -e -f -i -o -r -R -v}, {@code -T -P -D} take a value; {@code -p} (a running process) and {@code -m} run
     * nothing: null.
     */
    private static Unwrapped chrt(List<String> argv) {
        Scan s = scan(argv, 1, "abdefiorRvmphV", "TPD",
                Set.of("--all-tasks", "--batch", "--deadline", "--ext", "--fifo", "--idle", "--other", "--rr",
                        "--reset-on-fork", "--verbose", "--max", "--pid", "--help", "--version"),
                Set.of("--sched-runtime", "--sched-period", "--sched-deadline"));
        if (!s.readable()) return unreadable("chrt", argv);
        if (s.has("-p", "--pid", "-m", "--max", "-h", "--help", "-V", "--version")) return null;
        int i = s.next();
        if (i < argv.size() && argv.get(i).matches("[0-9]+")) i++;
        if (i >= argv.size()) return null;
        return single("chrt", argv, i, true);
    }

    /**
     * util-linux {@code taskset(1)}: {@code taskset [-ac] MASK COMMAND [ARG...]}; {@code -p} acts on a running
     * process: null.
     */
    private static Unwrapped taskset(List<String> argv) {
        Scan s = scan(argv, 1, "acphV", "", Set.of("--all-tasks", "--cpu-list", "--pid", "--help", "--version"),
                Set.of());
        if (!s.readable()) return unreadable("taskset", argv);
        if (s.has("-p", "--pid", "-h", "--help", "-V", "--version")) return null;
        int i = s.next() + 1; // the mask or cpu list
        if (i >= argv.size()) return null;
        return single("taskset", argv, i, true);
    }

    /**
     * util-linux {@code flock(1)}: {@code flock [options] FILE COMMAND [ARG...]}, {@code flock [options] FILE -c
     * SCRIPT} (run by {@code sh -c}) and {@code flock [options] FD} (no command: null). Flags {@code -s -x -e -u
     * -n -o -F --verbose}; {@code -w} and {@code -E} take a value.
     */
    private static Unwrapped flock(List<String> argv) {
        Scan s = scan(argv, 1, "sxenuoFhV", "wE",
                Set.of("--shared", "--exclusive", "--unlock", "--nonblock", "--nb", "--close", "--no-fork",
                        "--verbose", "--help", "--version"),
                Set.of("--wait", "--timeout", "--conflict-exit-code"));
        if (!s.readable()) return unreadable("flock", argv);
        int file = s.next();
        if (file + 1 >= argv.size()) return null;
        String next = argv.get(file + 1);
        if (next.equals("-c") || next.equals("--command")) {
            if (file + 2 >= argv.size()) return unreadable("flock", argv);
            return script("flock", argv, file + 2, false, false);
        }
        return single("flock", argv, file + 1, true);
    }

    /**
     * procps {@code watch(1)}: runs its command arguments joined by spaces through {@code sh -c}, or directly with
     * {@code -x}. Flags {@code -b -c -C -e -g -p -r -t -w -x -d} ({@code --differences[=permanent]}); {@code -n}
     * and {@code -q} take a value.
     */
    private static Unwrapped watch(List<String> argv) {
        Scan s = scan(argv, 1, "bcCegprtwxdhv", "nq",
                Set.of("--beep", "--color", "--no-color", "--errexit", "--chgexit", "--precise", "--no-rerun",
                        "--no-title", "--no-wrap", "--exec", "--differences", "--help", "--version"),
                Set.of("--interval", "--equexit"));
        if (!s.readable()) {
            // --differences=permanent is the one optional attached value.
            return unreadable("watch", argv);
        }
        int i = s.next();
        if (i >= argv.size()) return null;
        if (s.has("-x", "--exec")) return single("watch", argv, i, true);
        Payload p = new Payload(i, argv.size(), true, SCRIPT, List.of(String.join(" ", argv.subList(i, argv.size()))),
                List.of());
        return new Unwrapped("watch", List.of(p), false, false, List.of(), List.of());
    }

    /**
     * util-linux {@code script(1)}: {@code -c COMMAND} runs COMMAND through the shell; the typescript FILE operand
     * and the {@code -I -O -B -T} log files are written. BSD {@code script [-adkpqr] [-F pipe] [-t time] [file
     * [command ...]]} runs the words after FILE as a command. Without a command script starts an interactive
     * shell: null.
     */
    private static Unwrapped script(List<String> argv) {
        Scan s = scan(argv, 1, "aefqkdprhV", "cTIOBmEoFt",
                Set.of("--append", "--return", "--flush", "--force", "--quiet", "--help", "--version"),
                Set.of("--command", "--log-timing", "--log-in", "--log-out", "--log-io", "--logging-format",
                        "--echo", "--output-limit", "--timing"));
        if (!s.readable()) return unreadable("script", argv);
        List<Output> outputs = new ArrayList<>();
        Value cmd = null;
        for (Value v : s.values()) {
            if (Set.of("-T", "-I", "-O", "-B", "--log-timing", "--log-in", "--log-out", "--log-io")
                    .contains(v.option())) {
                outputs.add(new Output(v.index(), v.offset(), v.option()));
            }
            if (v.option().equals("-c") || v.option().equals("--command")) cmd = v;
        }
        int file = s.next();
        if (file < argv.size()) outputs.add(new Output(file, 0, "typescript"));
        List<Payload> payloads;
        if (cmd != null) {
            if (cmd.offset() > 0) return unreadable("script", argv); // an attached -cCMD: keep it simple
            payloads = List.of(new Payload(cmd.index(), cmd.index() + 1, true, SCRIPT,
                    List.of(argv.get(cmd.index())), List.of()));
        } else if (file + 1 < argv.size()) {
            payloads = List.of(new Payload(file + 1, argv.size(), true));
        } else {
            return null;
        }
        return new Unwrapped("script", payloads, false, false, List.of(), List.of(), false, false,
                List.copyOf(outputs), false);
    }

    /**
     * GNU {@code time(1)} as a command ({@code /usr/bin/time}, {@code command time}): {@code -o FILE} (written,
     * checked like an output redirection), {@code -a}, {@code -f FORMAT}, {@code -p}, {@code -q}, {@code -v}; BSD
     * time's {@code -h -l}. The keyword {@code time} is the parser's, not this.
     */
    private static Unwrapped time(List<String> argv) {
        Scan s = scan(argv, 1, "apqvVhl", "of",
                Set.of("--append", "--portability", "--quiet", "--verbose", "--help", "--version"),
                Set.of("--output", "--format"));
        if (!s.readable()) return unreadable("time", argv);
        List<Output> outputs = new ArrayList<>();
        for (Value v : s.values()) {
            if (v.option().equals("-o") || v.option().equals("--output")) {
                outputs.add(new Output(v.index(), v.offset(), v.option()));
            }
        }
        List<Payload> payloads = s.next() < argv.size() ? List.of(new Payload(s.next(), argv.size(), true))
                : List.of();
        return new Unwrapped("time", payloads, false, false, List.of(), List.of(), false, false,
                List.copyOf(outputs), false);
    }
}
