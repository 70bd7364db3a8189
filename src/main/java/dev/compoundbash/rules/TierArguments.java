package dev.compoundbash.rules;

import dev.compoundbash.facts.Arg;
import dev.compoundbash.facts.OptionGrammar;

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
        String check = dev.compoundbash.facts.ProgramSchemas.tierArguments(name);
        if (check == null) return true;
        // the check the program's schema names (programs/NAME.json "tier": "arguments")
        return switch (check) {
            case "uniq" -> uniq(args);
            case "file" -> file(args);
            case "diff" -> diff(args);
            case "date" -> date(args);
            case "hostname" -> hostname(args);
            case "hash" -> hash(args);
            case "read" -> read(args);
            case "printf" -> printf(args);
            case "getopts" -> getopts(args);
            case "wait" -> waitBuiltin(args);
            case "unset" -> unset(args);
            case "alias" -> aliasDefinitions(args);
            case "unalias" -> unalias(args);
            case "test" -> test(args, false);
            case "bracket" -> bracket(args);
            case "conditional" -> test(args, true);
            default -> throw new IllegalStateException("unknown tier argument check " + check);
        };
    }

    // ---------------------------------------------------------------------------------------------------------
    // GNU getopt_long programs: each read by its grammar (OptionGrammar, its schema's options), then the options
    // that take it out of its tier looked up by key (a long option declared the same as a short one has its key).

    static final OptionGrammar FILE = OptionGrammar.named("file");
    static final OptionGrammar DIFF = OptionGrammar.named("diff");
    static final OptionGrammar DATE = OptionGrammar.named("date");
    static final OptionGrammar HOSTNAME = OptionGrammar.named("hostname");
    static final OptionGrammar UNIQ = OptionGrammar.named("uniq");

    /** The words read by {@code g} with none of the {@code restricted} options, exactly (no word left uncertain). */
    private static boolean cleanWithout(OptionGrammar g, List<Arg> words, String... restricted) {
        OptionGrammar.Parsed p = g.parse(words, 0);
        return p.clean() && without(p, restricted);
    }

    private static boolean without(OptionGrammar.Parsed p, String... restricted) {
        for (String r : restricted) if (p.has(r)) return false;
        return true;
    }

    /** file: not -z/-Z (decompressors found through PATH), -C (writes a compiled magic file), -p (writes atimes). */
    private static boolean file(List<Arg> words) {
        return cleanWithout(FILE, words, "-z", "-Z", "-C", "-p");
    }

    /** diff: not -l/--paginate (runs pr). */
    private static boolean diff(List<Arg> words) {
        return cleanWithout(DIFF, words, "-l");
    }

    /**
     * {@code uniq [OPTION]... [INPUT [OUTPUT]]} writes OUTPUT. Safe with at most one operand, or a second that is
     * {@code -}. Counted in word order from the first operand, since under POSIXLY_CORRECT every word after it is
     * an operand (coreutils uniq.c), and a word of unknown value counts as one. Every option of uniq is safe, so a
     * word only known at run time is safe where it stands as long as it is one word and nothing follows it.
     */
    private static boolean uniq(List<Arg> words) {
        OptionGrammar.Parsed p = UNIQ.parse(words, 0);
        if (!p.ok()) return false;
        int f = p.operandIndices().isEmpty() ? -1 : p.operandIndices().get(0);
        if (!p.certain()) f = f < 0 ? p.uncertainAt() : Math.min(f, p.uncertainAt());
        if (f < 0) return true;
        if (words.get(f).many()) return false;
        List<Arg> rest = words.subList(f + 1, words.size());
        if (rest.isEmpty()) return true;
        return rest.size() == 1 && rest.get(0).known() && rest.get(0).prefix().equals("-");
    }

    /** date: no -s/--set; each operand one word starting with '+' (a format, not a date to set). */
    private static boolean date(List<Arg> words) {
        OptionGrammar.Parsed p = DATE.parse(words, 0);
        if (!p.clean() || !without(p, "-s")) return false;
        for (Arg o : p.operandArgs()) if (o.many() || !o.prefix().startsWith("+")) return false;
        return true;
    }

    /** hostname: display options only; an operand, -b/--boot or -F/--file sets the name. */
    private static boolean hostname(List<Arg> words) {
        OptionGrammar.Parsed p = HOSTNAME.parse(words, 0);
        return p.clean() && without(p, "-b", "-F") && p.operandIndices().isEmpty();
    }

    // ---------------------------------------------------------------------------------------------------------
    // bash builtins (internal_getopt): options until the first operand or "--"; the same grammars VariableWrites
    // reads names with.

    /**
     * A builtin's leading options read by its grammar, each checked.
     *
     * @return index of the first operand (words.size() when none), or -1 when an option is unknown or refused, or
     *         a word in option position has a value that could be an option
     */
    private static int builtinOptions(List<Arg> words, String grammar,
                                      java.util.function.Predicate<OptionGrammar.Option> check) {
        OptionGrammar.Parsed p = OptionGrammar.named(grammar).parse(words, 0);
        if (!p.clean()) return -1;
        for (OptionGrammar.Option o : p.options()) {
            if (o.value() != null && o.value().many()) return -1;
            if (!check.test(o)) return -1;
        }
        return p.end();
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
        return builtinOptions(words, "hash", o -> !o.key().equals("-p")) >= 0;
    }

    /** read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]. */
    private static boolean read(List<Arg> words) {
        int i = builtinOptions(words, "read", o -> !o.key().equals("-a") || assignable(o.value()));
        if (i < 0) return false;
        for (; i < words.size(); i++) if (!assignable(words.get(i))) return false;
        return true;
    }

    /** printf [-v var] format [arguments]. */
    private static boolean printf(List<Arg> words) {
        return builtinOptions(words, "printf", o -> assignable(o.value())) >= 0;
    }

    /** getopts optstring name [arg ...] (a leading "--" is skipped; getopts takes no other option). */
    private static boolean getopts(List<Arg> words) {
        int i = builtinOptions(words, "getopts", o -> false);
        if (i < 0) return false;
        if (words.size() < i + 2) return true; // a usage error: assigns nothing
        if (words.get(i).many()) return false;
        return assignable(words.get(i + 1));
    }

    /** wait [-fn] [-p var] [id ...]. */
    private static boolean waitBuiltin(List<Arg> words) {
        return builtinOptions(words, "wait", o -> !o.key().equals("-p") || assignable(o.value())) >= 0;
    }

    /** unset [-f] [-v] [-n] [name ...]: plain names only (a subscript is evaluated). */
    private static boolean unset(List<Arg> words) {
        int i = builtinOptions(words, "unset", o -> true);
        if (i < 0) return false;
        for (; i < words.size(); i++) if (!assignable(words.get(i))) return false;
        return true;
    }

    /**
     * alias NAME=VALUE...: definitions only, every word static. A sub-command named alias is plain (not the wrapper
     * that reads the values as code) only where the alias pass followed it (facts.AliasPass, issue 19): the lines
     * after it are read with the alias expanded, so the definition itself runs nothing. Listing ({@code alias},
     * {@code alias -p}, {@code alias NAME}) prints the user's aliases and keeps its own rule.
     */
    private static boolean aliasDefinitions(List<Arg> words) {
        int i = 0;
        while (i < words.size() && words.get(i).known() && words.get(i).text().equals("-p")) i++;
        if (i < words.size() && words.get(i).known() && words.get(i).text().equals("--")) i++;
        if (i >= words.size()) return false;
        for (; i < words.size(); i++) {
            Arg w = words.get(i);
            if (w.dynamic() || w.text().indexOf('=') <= 0) return false;
        }
        return true;
    }

    /** unalias [-a] [NAME...]: static words (removing an alias runs nothing; the alias pass follows it). */
    private static boolean unalias(List<Arg> words) {
        for (Arg w : words) if (w.dynamic()) return false;
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
