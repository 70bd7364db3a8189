package dev.compoundbash.facts;

import dev.compoundbash.shell.BraceExpansion;
import dev.compoundbash.shell.Word;
import dev.compoundbash.shell.WordPart;
import dev.compoundbash.shell.WordValue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Word expansion given a shell state: what a word's values are once the constants and static loop words the
 * command assigned ({@link ShellState}, the flow's product) are substituted. Pure functions of their arguments;
 * the part of mvdan/sh's {@code expand} package (expansion given an {@code Environ}) the extractor needs, for deny
 * and ask rules.
 */
final class WordExpansion {
    private WordExpansion() {
    }

    /** At most this many other readings of one command are made for deny and ask rules. */
    static final int MAX_ALTERNATIVES = 16;

    /**
     * The values of a command's words that are one parameter expansion of a constant ({@link #evaluate}), by the
     * word's source text.
     *
     * @param pieces    the words brace expansion made, with the text their spans refer to
     * @param args      the same words as {@link Arg}s
     * @param constants the constants in scope
     * @return the computed values (empty when none)
     */
    static Map<String, String> evaluated(List<BraceExpansion.Piece> pieces, List<Arg> args,
                                         Map<String, String> constants) {
        if (constants.isEmpty()) return Map.of(); // nothing to substitute: every evaluation is null
        Map<String, String> evaluated = new HashMap<>();
        for (int k = 0; k < pieces.size(); k++) {
            Arg arg = args.get(k);
            if (!arg.isStatic()) {
                BraceExpansion.Piece piece = pieces.get(k);
                String e = evaluate(piece.word(), piece.source(), constants);
                if (e != null) evaluated.put(arg.text(), e);
            }
        }
        return evaluated;
    }

    /**
     * The value of a word that is one parameter expansion of a constant the command assigned (quoted or not), for
     * deny and ask rules, where bash's result is exact and cheap to compute (Bash Reference Manual 3.5.3, checked
     * under bash 5.2 by the adv-rt2-deny-const-* cases): {@code $x ${x}}, {@code ${x:OFF} ${x:OFF:LEN}} with
     * non-negative integer literals, case modification without a pattern ({@code ${x,,} ${x^^} ${x,} ${x^}},
     * {@code ${x@L} ${x@U} ${x@u}}), prefix and suffix removal and substitution with literal text (no glob
     * character, quote, backslash or {@code &}), {@code ${x[0]} ${x[@]} ${x[*]}} of a scalar, and {@code ${#x}};
     * else null.
     *
     * @param w         the word
     * @param source    the text its spans refer to
     * @param constants the constants in scope
     * @return the value, or null
     */
    static String evaluate(Word w, String source, Map<String, String> constants) {
        List<WordPart> parts = w.parts();
        if (parts.size() == 1 && parts.get(0) instanceof WordPart.DoubleQuoted dq && !dq.localized()) parts = dq.parts();
        if (parts.size() != 1 || !(parts.get(0) instanceof WordPart.ParamExpansion pe)) return null;
        String v = constants.get(pe.name());
        if (v == null || !pe.name().matches("[A-Za-z_][A-Za-z0-9_]*")) return null;
        if (pe.index() != null) {
            String i = pe.index().span().text(source);
            if (!i.equals("0") && !i.equals("@") && !i.equals("*")) return null;
        }
        String prefix = pe.prefix() == null ? "" : pe.prefix();
        if (prefix.equals("#")) return pe.operator() == null ? String.valueOf(v.length()) : null;
        if (!prefix.isEmpty()) return null;
        String op = pe.operator();
        if (op == null || op.isEmpty()) return v;
        List<String> ops = new ArrayList<>();
        for (Word o : pe.operands()) {
            WordValue ov = WordValue.of(o, source);
            if (!ov.isStatic()) return null;
            String t = o.span().text(source);
            if (t.chars().anyMatch(c -> "*?[]'\"\\&$`{}!@+()|".indexOf(c) >= 0)) return null;
            ops.add(ov.value());
        }
        switch (op) {
            case ",,": return ops.isEmpty() ? v.toLowerCase(java.util.Locale.ROOT) : null;
            case "^^": return ops.isEmpty() ? v.toUpperCase(java.util.Locale.ROOT) : null;
            case ",": return ops.isEmpty() && !v.isEmpty() ? Character.toLowerCase(v.charAt(0)) + v.substring(1) : null;
            case "^": return ops.isEmpty() && !v.isEmpty() ? Character.toUpperCase(v.charAt(0)) + v.substring(1) : null;
            case "@":
                if (ops.size() != 1) return null;
                return switch (ops.get(0)) {
                    case "L" -> v.toLowerCase(java.util.Locale.ROOT);
                    case "U" -> v.toUpperCase(java.util.Locale.ROOT);
                    case "u" -> v.isEmpty() ? v : Character.toUpperCase(v.charAt(0)) + v.substring(1);
                    default -> null;
                };
            case ":": {
                if (ops.isEmpty() || ops.size() > 2) return null;
                for (String o : ops) if (!o.matches("[0-9]{1,6}")) return null;
                int off = Integer.parseInt(ops.get(0));
                if (off > v.length()) return "";
                String rest = v.substring(off);
                if (ops.size() == 1) return rest;
                int len = Integer.parseInt(ops.get(1));
                return rest.substring(0, Math.min(len, rest.length()));
            }
            case "#", "##":
                if (ops.isEmpty()) return v;
                return ops.size() == 1 && v.startsWith(ops.get(0)) ? v.substring(ops.get(0).length())
                        : ops.size() == 1 ? v : null;
            case "%", "%%":
                if (ops.isEmpty()) return v;
                return ops.size() == 1 && v.endsWith(ops.get(0)) ? v.substring(0, v.length() - ops.get(0).length())
                        : ops.size() == 1 ? v : null;
            case "/", "//": {
                if (ops.isEmpty() || ops.size() > 2 || ops.get(0).isEmpty()) return null;
                String rep = ops.size() == 2 ? ops.get(1) : "";
                return op.equals("/") ? v.replaceFirst(java.util.regex.Pattern.quote(ops.get(0)),
                        java.util.regex.Matcher.quoteReplacement(rep)) : v.replace(ops.get(0), rep);
            }
            default:
                return null;
        }
    }

    /**
     * The argument vectors {@code args} may run as once the constants and static loop words the command assigned
     * are substituted for the variables that make up whole words ({@code x=push; git $x origin}), for deny and ask
     * rules; empty when no word is such a variable.
     *
     * @param args      the command's words
     * @param evaluated values computed from constants, by word text ({@link #evaluated})
     * @param state     the shell state where the command runs
     * @return at most {@link #MAX_ALTERNATIVES} argument vectors
     */
    static List<List<String>> alternatives(List<Arg> args, Map<String, String> evaluated, ShellState state) {
        Map<String, String> constants = state.constants();
        Map<String, List<Arg>> loopValues = state.loopValues();
        if (constants.isEmpty() && loopValues.isEmpty() && evaluated.isEmpty()) return List.of();
        List<List<String>> out = new ArrayList<>();
        out.add(new ArrayList<>());
        boolean any = false;
        String ifs = constants.get("IFS"); // null: the default, space tab newline
        for (Arg a : args) {
            List<List<String>> values = new ArrayList<>();
            String v = a.variable();
            boolean quoted = a.text().startsWith("\"");
            String computed = v == null ? evaluated.get(a.text()) : null;
            if (computed != null) {
                values.add(quoted ? List.of(computed) : fields(computed, ifs));
            } else if (v != null && constants.containsKey(v)) {
                String value = constants.get(v);
                values.add(quoted ? List.of(value) : fields(value, ifs));
            } else if (v != null && loopValues.containsKey(v)) {
                for (Arg item : loopValues.get(v)) {
                    if (!item.known()) {
                        values.clear();
                        break;
                    }
                    values.add(List.of(item.prefix()));
                }
            }
            if (values.isEmpty()) {
                for (List<String> o : out) o.add(a.text());
                continue;
            }
            any = true;
            List<List<String>> next = new ArrayList<>();
            for (List<String> o : out) {
                for (List<String> value : values) {
                    if (next.size() >= MAX_ALTERNATIVES) break;
                    List<String> n = new ArrayList<>(o);
                    n.addAll(value);
                    next.add(n);
                }
            }
            out = next;
        }
        if (!any) return List.of();
        out.removeIf(List::isEmpty);
        return out;
    }

    /**
     * Word splitting of an unquoted expansion's value (Bash Reference Manual 3.5.7 "Word Splitting"): IFS
     * whitespace (space, tab, newline in IFS) at the start and end is dropped and a run of it separates fields; each
     * other IFS character separates fields with the IFS whitespace around it, so two of them in a row make an empty
     * field, and one at the end makes none; an empty IFS splits nothing. Measured in bash 5.2: {@code IFS=x;
     * v=pushxorigin; git $v} runs {@code git push origin}, {@code IFS=,; v=',a,,b,'; printf '[%s]' $v} prints
     * {@code [][a][][b]}.
     *
     * @param value the value
     * @param ifs   IFS's value, or null for the default (space, tab, newline)
     * @return the fields
     */
    static List<String> fields(String value, String ifs) {
        if (ifs == null) ifs = " \t\n";
        List<String> out = new ArrayList<>();
        if (ifs.isEmpty()) {
            if (!value.isEmpty()) out.add(value);
            return out;
        }
        final String delimiters = ifs;
        java.util.function.IntPredicate isIfs = c -> delimiters.indexOf(c) >= 0;
        java.util.function.IntPredicate isWhite = c -> delimiters.indexOf(c) >= 0 && " \t\n".indexOf(c) >= 0;
        int n = value.length(), i = 0;
        while (i < n && isWhite.test(value.charAt(i))) i++;
        while (i < n) {
            int start = i;
            while (i < n && !isIfs.test(value.charAt(i))) i++;
            out.add(value.substring(start, i));
            while (i < n && isWhite.test(value.charAt(i))) i++;
            if (i < n && !isWhite.test(value.charAt(i))) {
                i++;
                while (i < n && isWhite.test(value.charAt(i))) i++;
            }
        }
        return out;
    }
}
