package dev.compoundbash.rules;

import dev.compoundbash.facts.Arg;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The arguments that take a program or builtin out of a safety tier (tiers.drl): the tiers approve a command by its
 * name, and these arguments make an otherwise read-only program write a file, change the system, run another
 * program, or set a shell variable that changes what later commands run. Each program's option grammar is
 * parsed the way it parses it: GNU {@code getopt_long} for the external programs (short options clustered,
 * an option's argument attached or in the next word, long options abbreviated to any unambiguous prefix and
 * given {@code =value}, operands and options in any order, {@code --} ending the options), bash's
 * {@code internal_getopt} for the builtins (clusters, no long options, options end at the first operand or
 * {@code --}).
 *
 * <p>Restrictions (the sources are each program's {@code --help} and man page as installed: GNU coreutils 9.1,
 * diffutils 3.8, file 5.44, Debian hostname 3.23; bash(1) 5.2 "SHELL BUILTIN COMMANDS" and {@code help NAME}):
 * <ul>
 * <li>{@code uniq [OPTION]... [INPUT [OUTPUT]]}: OUTPUT is written, so at most one operand (a second one only
 *     when it is {@code -}, standard output).</li>
 * <li>{@code file}: not {@code -z}/{@code --uncompress} or {@code -Z}/{@code --uncompress-noreport} (libmagic
 *     runs external decompressors found through PATH), {@code -C}/{@code --compile} (writes a compiled magic
 *     file), {@code -p}/{@code --preserve-date} (writes the files' access times back).</li>
 * <li>{@code diff}: not {@code -l}/{@code --paginate} (runs {@code pr}).</li>
 * <li>{@code date}: not {@code -s}/{@code --set}, and every operand a {@code +FORMAT}: an operand
 *     {@code MMDDhhmm[[CC]YY][.ss]} sets the clock.</li>
 * <li>{@code hostname}: only the display options ({@code -a -A -d -f -i -I -s -y} and their long forms); an
 *     operand, {@code -F}/{@code --file} or {@code -b}/{@code --boot} sets the host name.</li>
 * <li>{@code hash}: not {@code -p PATH NAME}, which binds NAME to any program.</li>
 * <li>{@code read}, {@code printf -v}, {@code getopts}, {@code wait -p}: the variables they assign must be
 *     plain names (a subscript is evaluated arithmetically, so {@code read 'a[PATH=1]'} sets PATH and
 *     {@code 'a[$(cmd)]'} runs cmd) and not variables that change what later commands run
 *     ({@link SafeEnvironment#changesWhatRuns}, {@code IFS}, {@code BASH*}, ...). {@code unset}: plain names
 *     only, none of those.</li>
 * <li>{@code test}, {@code [}, {@code [[}: the operand of {@code -v}/{@code -R} has no subscript (same
 *     evaluation); in {@code [[} the operands of {@code -eq -ne -lt -le -gt -ge} are integer literals (they are
 *     evaluated arithmetically: {@code [[ PATH=1 -eq 1 ]]} assigns PATH).</li>
 * </ul>
 * Every other program and builtin of the tiers takes any arguments: they only read, print, or change this
 * shell's own state (cd, pushd, popd, umask, ulimit, shift...), which the other rules judge where it matters.
 *
 * <p>An argument whose value is only known at run time (an expansion, a glob, a brace expansion, a wrapper's
 * {@code {}} or appended arguments) is judged by what it could become: an unquoted expansion may split into
 * any words (options included), a glob or brace expansion into several words sharing its literal prefix, a
 * double-quoted expansion into one word of any value. Whenever such a word could carry a restricted option,
 * an extra operand or a variable name, the command is not safe. Unknown options are not safe either: the
 * direction is conservative, since a command left out of the tier is simply not approved.
 */
public final class TierArguments {
    private TierArguments() {
    }

    /**
     * Whether the arguments keep the command in its tier.
     *
     * @param words             the command's words as {@code SubCommand#getArgs()} gives them: words.get(0) is the
     *                          name as written
     * @param argumentsAppended true when a wrapper adds unknown arguments after them at run time ({@code xargs uniq
     *                          in} runs {@code uniq in LINE...}; {@code SubCommand#isArgumentsAppended()})
     * @return false when some argument (or what a run-time word could expand to) writes a file, changes the
     *         system, runs a program or assigns a variable as listed in the class description; true otherwise,
     *         and true for every program without restrictions
     */
    public static boolean safe(List<Arg> words, boolean argumentsAppended) {
        if (words == null || words.isEmpty()) return false;
        String name = words.get(0).text();
        int slash = name.lastIndexOf('/');
        if (slash >= 0 && slash < name.length() - 1) name = name.substring(slash + 1);
        List<Arg> args = new ArrayList<>(words.subList(1, words.size()));
        if (argumentsAppended) args.add(Arg.ANY);
        return switch (name) {
            case "uniq" -> uniq(args);
            case "file" -> GnuResult.clean(FILE.parse(args));
            case "diff" -> GnuResult.clean(DIFF.parse(args));
            case "date" -> date(args);
            case "hostname" -> hostname(args);
            case "hash" -> hash(args);
            case "read" -> read(args);
            case "printf" -> printf(args);
            case "getopts" -> getopts(args);
            case "wait" -> waitBuiltin(args);
            case "unset" -> unset(args);
            case "test" -> test(args, false);
            case "[" -> bracket(args);
            case "[[" -> test(args, true);
            default -> true;
        };
    }

    // ---------------------------------------------------------------------------------------------------------
    // GNU getopt_long.

    private static final int NONE = 0;
    private static final int REQUIRED = 1;
    private static final int OPTIONAL = 2;

    /** A long option: name, argument kind, and whether it is restricted. */
    private record LongOption(String name, int argument, boolean restricted) {
    }

    /**
     * Where parsing ended.
     *
     * @param ok        false when a restricted or unknown option, a missing or splittable option argument was met
     * @param operands  the operands, in order, with their word index
     * @param unknownAt index of the first word that might be any option (its value is unknown), or -1; the words
     *                  from there on were not parsed
     * @param firstOperand index of the first operand in word order, or -1
     */
    private record GnuResult(boolean ok, List<Arg> operands, int unknownAt, int firstOperand) {
        static final GnuResult BAD = new GnuResult(false, List.of(), -1, -1);

        /** Parsed without a restricted or unknown option and without a word that could be one. */
        static boolean clean(GnuResult r) {
            return r.ok && r.unknownAt < 0;
        }
    }

    /**
     * One program's getopt_long grammar.
     *
     * @param shortOptions the optstring, {@code x:} for a required and {@code x::} for an optional argument
     * @param restrictedShort the short options that take the program out of its tier
     * @param longOptions  every long option the program knows
     */
    private record GnuGrammar(String shortOptions, String restrictedShort, List<LongOption> longOptions) {
        /** -1 unknown, else NONE / REQUIRED / OPTIONAL. */
        int shortArgument(char c) {
            if (c == ':' || c == '-') return -1;
            int i = shortOptions.indexOf(c);
            if (i < 0) return -1;
            if (i + 1 < shortOptions.length() && shortOptions.charAt(i + 1) == ':') {
                return i + 2 < shortOptions.length() && shortOptions.charAt(i + 2) == ':' ? OPTIONAL : REQUIRED;
            }
            return NONE;
        }

        /**
         * The long option {@code name} selects: the exact match, else the one option it abbreviates. Null when
         * none, when it abbreviates several (glibc then fails or picks one: not decided here), or when any
         * option it could abbreviate is restricted.
         */
        LongOption lookup(String name) {
            for (LongOption o : longOptions) if (o.name.equals(name)) return o.restricted ? null : o;
            if (name.isEmpty()) return null;
            LongOption found = null;
            for (LongOption o : longOptions) {
                if (!o.name.startsWith(name)) continue;
                if (o.restricted || found != null) return null;
                found = o;
            }
            return found;
        }

        /**
         * For one word whose known prefix is {@code prefix}: 1 when that prefix already settles the option and
         * holds the start of its argument ({@code --date=}, {@code -d@}), 0 when it names a restricted or unknown
         * option, -1 when the unknown rest could still be any option.
         */
        int knownOption(String prefix) {
            if (prefix.startsWith("--")) {
                int eq = prefix.indexOf('=');
                if (eq < 0) return -1;
                LongOption o = lookup(prefix.substring(2, eq));
                return o == null || o.argument == NONE ? 0 : 1;
            }
            for (int k = 1; k < prefix.length(); k++) {
                char c = prefix.charAt(k);
                int a = shortArgument(c);
                if (a < 0 || restrictedShort.indexOf(c) >= 0) return 0;
                // The argument is attached: it has a known first character, so it is not empty.
                if (a != NONE) return k + 1 < prefix.length() ? 1 : -1;
            }
            return -1;
        }

        GnuResult parse(List<Arg> words) {
            List<Arg> operands = new ArrayList<>();
            int first = -1;
            boolean options = true;
            for (int i = 0; i < words.size(); i++) {
                Arg w = words.get(i);
                if (!options || !w.mayBeOption()) {
                    operands.add(w);
                    if (first < 0) first = i;
                    continue;
                }
                if (!w.known()) {
                    // --name="$x" or -d"$x" (one word): the option is known, only its argument is not.
                    int known = w.many() ? -1 : knownOption(w.prefix());
                    if (known == 0) return GnuResult.BAD;
                    if (known > 0) continue;
                    return new GnuResult(true, operands, i, first < 0 ? i : first);
                }
                String v = w.prefix();
                if (v.equals("--")) {
                    options = false;
                    continue;
                }
                if (v.startsWith("--")) {
                    int eq = v.indexOf('=');
                    LongOption o = lookup(eq < 0 ? v.substring(2) : v.substring(2, eq));
                    if (o == null) return GnuResult.BAD;
                    if (o.argument == NONE && eq >= 0) return GnuResult.BAD;
                    if (o.argument == REQUIRED && eq < 0) {
                        if (++i >= words.size() || words.get(i).many()) return GnuResult.BAD;
                    }
                    continue;
                }
                for (int k = 1; k < v.length(); k++) {
                    char c = v.charAt(k);
                    int a = shortArgument(c);
                    if (a < 0 || restrictedShort.indexOf(c) >= 0) return GnuResult.BAD;
                    if (a == REQUIRED) {
                        if (k + 1 == v.length() && (++i >= words.size() || words.get(i).many())) return GnuResult.BAD;
                        break;
                    }
                    if (a == OPTIONAL) break;
                }
            }
            return new GnuResult(true, operands, -1, first);
        }
    }

    private static List<LongOption> longs(Object... spec) {
        List<LongOption> out = new ArrayList<>();
        for (int i = 0; i < spec.length; i += 2) {
            String name = (String) spec[i];
            int kind = (Integer) spec[i + 1];
            boolean restricted = name.startsWith("!");
            out.add(new LongOption(restricted ? name.substring(1) : name, kind, restricted));
        }
        return List.copyOf(out);
    }

    /** file(1) 5.44: optstring and long options of file.c / file_opts.h ({@code file --help}). */
    static final GnuGrammar FILE = new GnuGrammar("bcCde:Ef:F:hiklLm:nNpP:rsSvzZ0", "zZCp", longs(
            "help", NONE, "version", NONE, "magic-file", REQUIRED, "!uncompress", NONE,
            "!uncompress-noreport", NONE, "brief", NONE, "checking-printout", NONE, "exclude", REQUIRED,
            "exclude-quiet", REQUIRED, "files-from", REQUIRED, "separator", REQUIRED, "mime", NONE,
            "apple", NONE, "extension", NONE, "mime-type", NONE, "mime-encoding", NONE, "keep-going", NONE,
            "dereference", NONE, "no-dereference", NONE, "list", NONE, "no-buffer", NONE, "no-pad", NONE,
            "print0", NONE, "!preserve-date", NONE, "parameter", REQUIRED, "raw", NONE, "special-files", NONE,
            "no-sandbox", NONE, "!compile", NONE, "debug", NONE));

    /** GNU diff 3.8: optstring and long options of src/diff.c ({@code diff --help}). */
    static final GnuGrammar DIFF = new GnuGrammar("0123456789abBcC:dD:eEfF:hHiI:lL:nNpPqrsS:tTuU:vwW:x:X:yZ", "l",
            longs("binary", NONE, "brief", NONE, "changed-group-format", REQUIRED, "color", OPTIONAL,
                    "context", OPTIONAL, "ed", NONE, "exclude", REQUIRED, "exclude-from", REQUIRED,
                    "expand-tabs", NONE, "forward-ed", NONE, "from-file", REQUIRED, "help", NONE,
                    "horizon-lines", REQUIRED, "ifdef", REQUIRED, "ignore-all-space", NONE,
                    "ignore-blank-lines", NONE, "ignore-case", NONE, "ignore-file-name-case", NONE,
                    "ignore-matching-lines", REQUIRED, "ignore-space-change", NONE, "ignore-tab-expansion", NONE,
                    "ignore-trailing-space", NONE, "initial-tab", NONE, "inhibit-hunk-merge", NONE,
                    "label", REQUIRED, "left-column", NONE, "line-format", REQUIRED, "minimal", NONE,
                    "new-file", NONE, "new-group-format", REQUIRED, "new-line-format", REQUIRED,
                    "no-dereference", NONE, "no-ignore-file-name-case", NONE, "normal", NONE,
                    "old-group-format", REQUIRED, "old-line-format", REQUIRED, "!paginate", NONE,
                    "palette", REQUIRED, "rcs", NONE, "recursive", NONE, "report-identical-files", NONE,
                    "sdiff-merge-assist", NONE, "show-c-function", NONE, "show-function-line", REQUIRED,
                    "side-by-side", NONE, "speed-large-files", NONE, "starting-file", REQUIRED,
                    "strip-trailing-cr", NONE, "suppress-blank-empty", NONE, "suppress-common-lines", NONE,
                    "tabsize", REQUIRED, "text", NONE, "to-file", REQUIRED, "unchanged-group-format", REQUIRED,
                    "unchanged-line-format", REQUIRED, "unidirectional-new-file", NONE, "unified", OPTIONAL,
                    "version", NONE, "width", REQUIRED));

    /** GNU date (coreutils 9.1): optstring and long options of src/date.c ({@code date --help}). */
    static final GnuGrammar DATE = new GnuGrammar("d:f:I::r:Rs:u", "s", longs(
            "date", REQUIRED, "debug", NONE, "file", REQUIRED, "iso-8601", OPTIONAL, "reference", REQUIRED,
            "resolution", NONE, "rfc-email", NONE, "rfc-822", NONE, "rfc-2822", NONE, "rfc-3339", REQUIRED,
            "!set", REQUIRED, "uct", NONE, "utc", NONE, "universal", NONE, "help", NONE, "version", NONE));

    /** Debian hostname 3.23: optstring and long options of hostname.c ({@code hostname --help}). */
    static final GnuGrammar HOSTNAME = new GnuGrammar("aAdfbF:h?iIsVy", "bF", longs(
            "domain", NONE, "!boot", NONE, "!file", REQUIRED, "fqdn", NONE, "all-fqdns", NONE, "help", NONE,
            "long", NONE, "short", NONE, "version", NONE, "alias", NONE, "ip-address", NONE,
            "all-ip-addresses", NONE, "nis", NONE, "yp", NONE));

    /** GNU uniq (coreutils 9.1): optstring (obsolete -N included) and long options of src/uniq.c. */
    static final GnuGrammar UNIQ = new GnuGrammar("0123456789Dcdf:is:uw:z", "", longs(
            "count", NONE, "repeated", NONE, "all-repeated", OPTIONAL, "group", OPTIONAL, "ignore-case", NONE,
            "unique", NONE, "skip-fields", REQUIRED, "skip-chars", REQUIRED, "check-chars", REQUIRED,
            "zero-terminated", NONE, "help", NONE, "version", NONE));

    /**
     * {@code uniq [OPTION]... [INPUT [OUTPUT]]} writes OUTPUT. Safe with at most one operand, or a second that is
     * {@code -}. Counted in word order from the first operand, since under POSIXLY_CORRECT every word after it is
     * an operand (coreutils uniq.c), and a word of unknown value counts as one.
     */
    private static boolean uniq(List<Arg> words) {
        GnuResult r = UNIQ.parse(words);
        if (!r.ok) return false;
        int f = r.firstOperand;
        if (f < 0) return true;
        if (words.get(f).many()) return false;
        List<Arg> rest = words.subList(f + 1, words.size());
        if (rest.isEmpty()) return true;
        return rest.size() == 1 && rest.get(0).known() && rest.get(0).prefix().equals("-");
    }

    /** date: no -s/--set; each operand one word starting with '+' (a format, not a date to set). */
    private static boolean date(List<Arg> words) {
        GnuResult r = DATE.parse(words);
        if (!GnuResult.clean(r)) return false;
        for (Arg o : r.operands) if (o.many() || !o.prefix().startsWith("+")) return false;
        return true;
    }

    /** hostname: display options only; an operand sets the name. */
    private static boolean hostname(List<Arg> words) {
        GnuResult r = HOSTNAME.parse(words);
        return GnuResult.clean(r) && r.operands.isEmpty();
    }

    // ---------------------------------------------------------------------------------------------------------
    // bash builtins (internal_getopt): options until the first operand or "--".

    /** Checks one option of a builtin and its argument (null when it takes none). */
    @FunctionalInterface
    private interface OptionCheck {
        boolean ok(char option, Arg argument);
    }

    /**
     * Parses a builtin's leading options.
     *
     * @param optstring its options, {@code x:} for one with an argument
     * @return index of the first operand (words.size() when none), or -1 when an option is unknown or refused,
     *         or a word in option position has a value that could be an option
     */
    private static int builtinOptions(List<Arg> words, String optstring, OptionCheck check) {
        int i = 0;
        for (; i < words.size(); i++) {
            Arg w = words.get(i);
            if (!w.mayBeOption()) return i;
            if (!w.known()) return -1;
            String v = w.prefix();
            if (v.equals("--")) return i + 1;
            if (v.startsWith("--")) return -1;
            for (int k = 1; k < v.length(); k++) {
                char c = v.charAt(k);
                int at = optstring.indexOf(c);
                if (c == ':' || at < 0) return -1;
                if (at + 1 < optstring.length() && optstring.charAt(at + 1) == ':') {
                    Arg arg;
                    if (k + 1 < v.length()) {
                        arg = Arg.literal(v.substring(k + 1));
                    } else {
                        if (++i >= words.size()) return -1;
                        arg = words.get(i);
                        if (arg.many()) return -1;
                    }
                    if (!check.ok(c, arg)) return -1;
                    break;
                }
                if (!check.ok(c, null)) return -1;
            }
        }
        return i;
    }

    /**
     * Shell variables that a builtin must not assign: those that change what later commands run
     * ({@link SafeEnvironment#changesWhatRuns}) and the shell's own state (bash(1) "Shell Variables").
     */

    /** A plain variable name (no subscript) that may be assigned without changing what later commands run. */
    static boolean assignable(Arg w) {
        if (w == null || !w.known()) return false;
        String n = w.prefix();
        return n.matches("[A-Za-z_][A-Za-z0-9_]*") && !SafeEnvironment.changesWhatRuns(n)
                && !dev.compoundbash.facts.NameList.of(dev.compoundbash.facts.NameList.SHELL_STATE).contains(n);
    }

    /** hash [-lr] [-p pathname] [-dt] [name ...]: -p binds a name to any program. */
    private static boolean hash(List<Arg> words) {
        return builtinOptions(words, "dlp:rt", (c, a) -> c != 'p') >= 0;
    }

    /** read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]. */
    private static boolean read(List<Arg> words) {
        int i = builtinOptions(words, "Eersa:d:i:n:N:p:t:u:", (c, a) -> c != 'a' || assignable(a));
        if (i < 0) return false;
        for (; i < words.size(); i++) if (!assignable(words.get(i))) return false;
        return true;
    }

    /** printf [-v var] format [arguments]. */
    private static boolean printf(List<Arg> words) {
        return builtinOptions(words, "v:", (c, a) -> assignable(a)) >= 0;
    }

    /** getopts optstring name [arg ...] (a leading "--" is skipped). */
    private static boolean getopts(List<Arg> words) {
        int i = 0;
        if (!words.isEmpty()) {
            Arg first = words.get(0);
            if (first.known() && first.prefix().equals("--")) {
                i = 1;
            } else if (first.mayBeOption() && !first.known()) {
                return false;
            }
        }
        if (words.size() < i + 2) return true; // a usage error: assigns nothing
        if (words.get(i).many()) return false;
        return assignable(words.get(i + 1));
    }

    /** wait [-fn] [-p var] [id ...]. */
    private static boolean waitBuiltin(List<Arg> words) {
        return builtinOptions(words, "fnp:", (c, a) -> c != 'p' || assignable(a)) >= 0;
    }

    /** unset [-f] [-v] [-n] [name ...]: plain names only (a subscript is evaluated). */
    private static boolean unset(List<Arg> words) {
        int i = builtinOptions(words, "fnv", (c, a) -> true);
        if (i < 0) return false;
        for (; i < words.size(); i++) if (!assignable(words.get(i))) return false;
        return true;
    }

    /** [ EXPR ]: the expression without the closing bracket. */
    private static boolean bracket(List<Arg> words) {
        if (words.isEmpty()) return true;
        Arg last = words.get(words.size() - 1);
        if (!last.known() || !last.prefix().equals("]")) return false;
        return test(words.subList(0, words.size() - 1), false);
    }


    /**
     * test EXPR / [[ EXPR ]]: a word that is or may be {@code -v}/{@code -R} must be followed by a known word
     * without a subscript; no word may split into several; in {@code [[} arithmetic operands are integers.
     */
    private static boolean test(List<Arg> words, boolean conditional) {
        for (Arg w : words) if (w.many() && !w.lead()) return false;
        for (int i = 0; i < words.size(); i++) {
            Arg w = words.get(i);
            boolean nameTest = w.known() ? w.prefix().equals("-v") || w.prefix().equals("-R") : w.mayBeOption();
            if (nameTest && i + 1 < words.size()) {
                Arg n = words.get(i + 1);
                if (!n.known() || n.prefix().contains("[")) return false;
            }
            if (conditional && w.known() && dev.compoundbash.shell.TestExpr.ARITHMETIC_OPERATORS.contains(w.prefix())) {
                if (i == 0 || i + 1 >= words.size()) return false;
                if (!integer(words.get(i - 1)) || !integer(words.get(i + 1))) return false;
            }
        }
        return true;
    }

    private static boolean integer(Arg w) {
        return w.known() && w.prefix().matches("[+-]?[0-9]+");
    }
}
