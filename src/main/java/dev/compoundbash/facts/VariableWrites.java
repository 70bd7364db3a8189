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
            for (int i = 1; i < argv.size(); i++) {
                String a = argv.get(i);
                // -n makes a name reference: assignments through it set whatever it names.
                if (!dyn[i] && a.startsWith("-") && a.length() > 1 && a.indexOf('n') > 0) out.add(null);
            }
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
     * Which words of a builtin's argv are variable names (for the declaration builtins, {@code NAME=VALUE} words):
     * read's operands and {@code -a} value, printf's {@code -v} value, wait's {@code -p} value, mapfile's last
     * operand, getopts' second operand, unset's operands (not with {@code -f}), every operand of a declaration
     * builtin.
     *
     * @param argv the words, argv[0] the builtin's name
     * @param dyn  which words contain an expansion
     * @return the name operands, in order; empty for any other command
     */
    public static List<Operand> nameOperands(List<String> argv, boolean[] dyn) {
        List<Operand> out = new ArrayList<>();
        if (argv.isEmpty() || dyn[0]) return out;
        switch (argv.get(0)) {
            case "read" -> options(argv, dyn, "adinNptu", "a", true, false, out);
            case "printf" -> options(argv, dyn, "v", "v", false, false, out);
            case "wait" -> options(argv, dyn, "p", "p", false, false, out);
            case "mapfile", "readarray" -> options(argv, dyn, "dnOsuCc", "", true, true, out);
            case "getopts" -> {
                // getopts OPTSTRING NAME [ARG...]
                if (argv.size() > 2) out.add(new Operand(2, argv.get(2)));
            }
            case "unset" -> {
                boolean functions = false;
                boolean operands = false;
                for (int i = 1; i < argv.size(); i++) {
                    String a = argv.get(i);
                    if (!operands && !dyn[i] && a.equals("--")) {
                        operands = true;
                    } else if (!operands && !dyn[i] && a.startsWith("-") && a.length() > 1) {
                        functions |= a.contains("f");
                    } else {
                        operands = true;
                        if (!functions) out.add(new Operand(i, a));
                    }
                }
            }
            case "export", "declare", "typeset", "local", "readonly" -> {
                for (int i = 1; i < argv.size(); i++) {
                    String a = argv.get(i);
                    if (!dyn[i] && (a.startsWith("-") || a.startsWith("+")) && a.length() > 1) continue;
                    out.add(new Operand(i, a));
                }
            }
            default -> {
            }
        }
        return out;
    }

    /**
     * getopt-style options of a builtin: {@code withArgument} letters take a value (attached or the next word);
     * the values of {@code nameOptions} letters are variable names; with {@code operandsAreNames} every operand
     * is (only the last one with {@code lastOperandOnly}).
     */
    private static void options(List<String> argv, boolean[] dyn, String withArgument, String nameOptions,
                                boolean operandsAreNames, boolean lastOperandOnly, List<Operand> out) {
        int i = 1;
        for (; i < argv.size(); i++) {
            String a = argv.get(i);
            if (!dyn[i] && a.equals("--")) {
                i++;
                break;
            }
            if (dyn[i] || !a.startsWith("-") || a.length() < 2) break;
            for (int k = 1; k < a.length(); k++) {
                char c = a.charAt(k);
                if (withArgument.indexOf(c) < 0) continue;
                if (k + 1 < a.length()) {
                    // the value is attached (read -aNAME): the name is the rest of this word
                    if (nameOptions.indexOf(c) >= 0) out.add(new Operand(i, a.substring(k + 1)));
                } else if (i + 1 < argv.size()) {
                    i++;
                    if (nameOptions.indexOf(c) >= 0) out.add(new Operand(i, argv.get(i)));
                }
                break;
            }
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
