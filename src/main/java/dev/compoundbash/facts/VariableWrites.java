package dev.compoundbash.facts;

import dev.compoundbash.shell.Parser;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which shell variables a builtin's arguments or an arithmetic expression may assign, so that a later command is
 * not approved after one that chooses what runs is set ({@code PATH}, {@code BASH_CMDS}, ...; see
 * {@code SafeEnvironment.changesWhatRuns}). Follows bash(1) "SHELL BUILTIN COMMANDS" (read, printf, getopts,
 * mapfile/readarray, unset, wait, declare/typeset/local/export/readonly) and "ARITHMETIC EVALUATION" (assignment
 * operators {@code = *= /= %= += -= <<= >>= &= ^= |=} and {@code ++}/{@code --}). A name only known at run time is
 * reported as null. Over-approximates: a word that might be a name counts as one.
 */
public final class VariableWrites {
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    /** An assignment's name at the start of a declaration argument: {@code NAME=}, {@code NAME+=}, {@code NAME[}. */
    private static final Pattern LEADING_NAME = Pattern.compile("^([A-Za-z_][A-Za-z0-9_]*)(?:\\[|\\+?=|$)");
    private static final String ASSIGN_OP = "(?:[-+*/%&|^]|<<|>>)?=(?!=)";
    /** {@code NAME[...] op=} anywhere in an arithmetic expression (a static name). */
    private static final Pattern ARITH_ASSIGN = Pattern.compile(
            "(?<![A-Za-z0-9_$])([A-Za-z_][A-Za-z0-9_]*+)\\s*+(?:\\[[^\\[\\]]*+\\])?\\s*+" + ASSIGN_OP);
    /**
     * A name with a subscript anywhere in arithmetic ({@code PATH[a[0]]=1} nests brackets, which the patterns
     * above do not follow): counted as assigned, an over-approximation.
     */
    private static final Pattern ARITH_SUBSCRIPTED = Pattern.compile(
            "(?<![A-Za-z0-9_$])([A-Za-z_][A-Za-z0-9_]*+)\\s*+\\[");
    /** {@code ++NAME}, {@code NAME--}, ... */
    private static final Pattern ARITH_STEP = Pattern.compile(
            "(?:\\+\\+|--)\\s*+([A-Za-z_][A-Za-z0-9_]*+)|(?<![A-Za-z0-9_$])([A-Za-z_][A-Za-z0-9_]*+)\\s*+(?:\\[[^\\[\\]]*+\\])?\\s*+(?:\\+\\+|--)");
    /** An expansion on the left of an assignment operator: {@code $n = 1}, {@code ${n}++}, {@code $(cmd)=1}. */
    private static final Pattern ARITH_DYNAMIC_ASSIGN = Pattern.compile(
            "(?:\\$\\{[^{}]*+\\}|\\$[A-Za-z_0-9@*#?$!-]|\\$\\([^()]*+\\)|`[^`]*+`)\\s*+(?:\\[[^\\[\\]]*+\\])?\\s*+(?:"
                    + ASSIGN_OP + "|\\+\\+|--)|(?:\\+\\+|--)\\s*+\\$");

    private VariableWrites() {
    }

    /**
     * The variables a builtin assigns by name.
     *
     * @param argv the words after quote removal, argv[0] the builtin's name; a dynamic word as its source text
     * @param dyn  which words contain an expansion
     * @return the names (base names for {@code NAME[sub]}), null for a name only known at run
     *         time; empty for any other command
     */
    public static List<String> byBuiltin(List<String> argv, boolean[] dyn) {
        return byBuiltin(argv, dyn, nameOperands(argv, dyn));
    }

    /**
     * {@link #byBuiltin(List, boolean[])} with the builtin's {@link #nameOperands} already read.
     *
     * @param operands {@code nameOperands(argv, dyn)}
     */
    public static List<String> byBuiltin(List<String> argv, boolean[] dyn, List<Operand> operands) {
        List<String> out = new ArrayList<>();
        if (!argv.isEmpty() && !dyn[0] && Parser.DECLARATION.contains(argv.get(0))) {
            // -n makes a name reference: assignments through it set whatever it names.
            OptionGrammar.Parsed p = declarationOptions(argv, dyn);
            if (p.has("-n") || !p.certain()) out.add(null);
        }
        for (Operand o : operands) out.add(nameOf(o.text()));
        return out;
    }

    /**
     * The variable a name operand assigns: the name before a subscript, {@code +=} or {@code =}
     * ({@code a[1]=x} gives {@code a}), or null when it does not start with a name.
     *
     * @param text the operand as written
     * @return the base name
     */
    public static String nameOf(String text) {
        Matcher m = LEADING_NAME.matcher(text);
        return m.find() ? m.group(1) : null;
    }

    /**
     * A word of a builtin's argv used as a variable name.
     *
     * @param index the word's index in argv
     * @param text  the name as written (for an attached option value such as {@code read -aNAME}, the rest of the
     *              word; for a declaration, the whole {@code NAME=VALUE} word)
     */
    public record Operand(int index, String text) {
    }

    /**
     * {@link #nameOperands(List, boolean[])} for a command's words as {@link Arg}s: a word is dynamic when it holds
     * an expansion ({@link Arg#dynamic()}).
     *
     * @param args the words, args[0] the builtin's name
     * @return the name operands, in order; empty for any other command
     */
    public static List<Operand> nameOperands(List<Arg> args) {
        if (args.isEmpty() || args.get(0).dynamic() || !NAME_TAKERS.contains(args.get(0).text())) {
            return new ArrayList<>();
        }
        return nameOperands(Arg.texts(args), dynamic(args));
    }

    /** The builtins {@link #nameOperands(List, boolean[])} reads; any other command names no variable. */
    private static final Set<String> NAME_TAKERS = Set.of("read", "printf", "wait", "mapfile", "readarray",
            "getopts", "unset", "export", "declare", "typeset", "local", "readonly");

    /**
     * {@link #byBuiltin(List, boolean[], List)} for a command's words as {@link Arg}s.
     *
     * @param args     the words, args[0] the builtin's name
     * @param operands its {@link #nameOperands(List)}
     * @return the names, as {@link #byBuiltin(List, boolean[])}
     */
    public static List<String> byBuiltin(List<Arg> args, List<Operand> operands) {
        if (operands.isEmpty() && (args.isEmpty() || args.get(0).dynamic()
                || !Parser.DECLARATION.contains(args.get(0).text()))) {
            return new ArrayList<>();
        }
        return byBuiltin(Arg.texts(args), dynamic(args), operands);
    }

    /** Which words hold an expansion, for the readers here that take texts. */
    private static boolean[] dynamic(List<Arg> args) {
        boolean[] dyn = new boolean[args.size()];
        for (int i = 0; i < dyn.length; i++) dyn[i] = args.get(i).dynamic();
        return dyn;
    }

    /**
     * Which words of a builtin's argv are variable names (for the declaration builtins, {@code NAME=VALUE} words):
     * read's operands and {@code -a} value, printf's {@code -v} value, wait's {@code -p} value, mapfile's last
     * operand, getopts' second operand, unset's operands (not with {@code -f}), every operand of a declaration
     * builtin. Options are read by each builtin's {@code internal_getopt} grammar ({@link OptionGrammar#named}: the
     * same grammars the tiers judge them with): a usage error assigns nothing; from a word only known at run time
     * that may be an option on, every word counts as a name (an over-approximation).
     *
     * @param argv the words, argv[0] the builtin's name
     * @param dyn  which words contain an expansion
     * @return the name operands, in order; empty for any other command
     */
    public static List<Operand> nameOperands(List<String> argv, boolean[] dyn) {
        List<Operand> out = new ArrayList<>();
        if (argv.isEmpty() || dyn[0]) return out;
        switch (argv.get(0)) {
            case "read" -> options(argv, dyn, "read", "-a", true, false, out);
            case "printf" -> options(argv, dyn, "printf", "-v", false, false, out);
            case "wait" -> options(argv, dyn, "wait", "-p", false, false, out);
            case "mapfile", "readarray" -> options(argv, dyn, "mapfile", null, true, true, out);
            case "getopts" -> {
                // getopts OPTSTRING NAME [ARG...]
                OptionGrammar.Parsed p = OptionGrammar.named("getopts").parse(words(argv, dyn), 1);
                int i = p.clean() ? p.end() : 1;
                if (p.ok() && argv.size() > i + 1) out.add(new Operand(i + 1, argv.get(i + 1)));
            }
            case "unset" -> {
                OptionGrammar.Parsed p = OptionGrammar.named("unset").parse(words(argv, dyn), 1);
                if (!p.ok()) break;
                boolean functions = p.has("-f") && p.certain();
                if (p.has("-f") && p.has("-v")) break; // bash: cannot unset a function and a variable at once
                if (functions) break;
                int from = p.certain() ? p.end() : p.uncertainAt();
                for (int i = from; i < argv.size(); i++) out.add(new Operand(i, argv.get(i)));
            }
            case "export", "declare", "typeset", "local", "readonly" -> {
                OptionGrammar.Parsed p = declarationOptions(argv, dyn);
                if (!p.ok()) break;
                int from = p.certain() ? p.end() : p.uncertainAt();
                for (int i = from; i < argv.size(); i++) {
                    String a = argv.get(i);
                    // an option-looking word after the first operand is no identifier (bash rejects it, assigning
                    // nothing); from an uncertain word on it may still be an option
                    if (!dyn[i] && (a.startsWith("-") || a.startsWith("+")) && a.length() > 1) continue;
                    out.add(new Operand(i, a));
                }
            }
            default -> {
            }
        }
        return out;
    }

    /** The options of a declaration builtin (bash 5.2 {@code declare.def} DECLARE_OPTS, {@code setattr.def}). */
    private static OptionGrammar.Parsed declarationOptions(List<String> argv, boolean[] dyn) {
        String g = switch (argv.get(0)) {
            case "export" -> "export";
            case "readonly" -> "readonly";
            default -> "declare";
        };
        return OptionGrammar.named(g).parse(words(argv, dyn), 1);
    }

    /** The words as {@link Arg}s: a dynamic word may be anything, several words or none. */
    private static List<Arg> words(List<String> argv, boolean[] dyn) {
        List<Arg> out = new ArrayList<>(argv.size());
        for (int i = 0; i < argv.size(); i++) {
            out.add(dyn[i] ? new Arg(argv.get(i), false, false, false, "", false, true, false)
                    : Arg.literal(argv.get(i)));
        }
        return out;
    }

    /**
     * A builtin's options by its grammar: the value of {@code nameOption} is a variable name; with
     * {@code operandsAreNames} every operand is (only the last one with {@code lastOperandOnly}).
     */
    private static void options(List<String> argv, boolean[] dyn, String grammar, String nameOption,
                                boolean operandsAreNames, boolean lastOperandOnly, List<Operand> out) {
        OptionGrammar.Parsed p = OptionGrammar.named(grammar).parse(words(argv, dyn), 1);
        if (!p.ok()) return; // a usage error: the builtin assigns nothing
        for (OptionGrammar.Option o : p.options()) {
            if (nameOption == null || !o.key().equals(nameOption)) continue;
            String text = argv.get(o.valueIndex());
            out.add(new Operand(o.valueIndex(), o.valueOffset() > 0 ? text.substring(o.valueOffset()) : text));
        }
        int i = p.certain() ? p.end() : p.uncertainAt();
        if (!p.certain()) {
            // from a word only known at run time on, every word may be a name (or the name option's value)
            for (int k = i; k < argv.size(); k++) out.add(new Operand(k, argv.get(k)));
            return;
        }
        if (!operandsAreNames || i >= argv.size()) return;
        if (lastOperandOnly) {
            out.add(new Operand(argv.size() - 1, argv.get(argv.size() - 1)));
            return;
        }
        for (; i < argv.size(); i++) out.add(new Operand(i, argv.get(i)));
    }

    /**
     * The variables an arithmetic expression may assign: static names before an assignment operator or next to
     * {@code ++}/{@code --}, and null for an expansion in that place. Quote characters are
     * removed first, as bash removes them before evaluating.
     *
     * @param text the expression's source text
     * @return the names, in order of appearance, without repeats
     */
    public static Set<String> inArithmetic(String text) {
        Set<String> out = new LinkedHashSet<>();
        // Every form needs an =, ++, -- or a subscript: most texts have none and skip the patterns.
        if (text.indexOf('=') < 0 && text.indexOf('[') < 0 && !text.contains("++") && !text.contains("--")) {
            return out;
        }
        String t = text.replace("\"", "").replace("'", "").replace("\\\n", "").replace("\\", "");
        Matcher m = ARITH_ASSIGN.matcher(t);
        while (m.find()) out.add(m.group(1));
        m = ARITH_SUBSCRIPTED.matcher(t);
        while (m.find()) out.add(m.group(1));
        m = ARITH_STEP.matcher(t);
        while (m.find()) out.add(m.group(1) != null ? m.group(1) : m.group(2));
        if (ARITH_DYNAMIC_ASSIGN.matcher(t).find()) out.add(null);
        return out;
    }

    /**
     * Names an arithmetic expression reads (identifiers and {@code $name}/{@code ${name}} references): bash
     * evaluates each such variable's value as an expression in turn.
     *
     * @param text the expression's source text
     * @return the names, without repeats
     */
    public static Set<String> referencedInArithmetic(String text) {
        Set<String> out = new LinkedHashSet<>();
        Matcher m = NAME.matcher(text);
        while (m.find()) {
            int s = m.start();
            // skip digits-prefixed tokens such as 0x1f or 10#7 (a name never follows a digit)
            if (s > 0 && Character.isLetterOrDigit(text.charAt(s - 1)) && text.charAt(s - 1) != '$') continue;
            out.add(m.group());
        }
        return out;
    }
}
