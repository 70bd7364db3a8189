package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * The value of a {@link Word} after quote removal (Bash Reference Manual §3.5.9), when it is fully static.
 *
 * @param isStatic      true when the word contains no expansion (parameter, command, arithmetic, process
 *                      substitution, tilde, extglob), so {@code value} is exactly what bash passes on
 *                      (before globbing and brace expansion, which static text may still undergo)
 * @param value         the value after quote removal when static; null when dynamic
 * @param raw           the word's source text
 * @param expansions    the expansion parts the word contains at any quoting level (empty when static)
 * @param glob          true when an unquoted {@code * ? [} or extglob appears (pathname expansion may apply)
 * @param braceExpansion true when brace expansion (§3.5.1) would change the word ({@link BraceExpansion}), as it
 *                      does in a simple command's words
 */
public record WordValue(boolean isStatic, String value, String raw, List<WordPart> expansions, boolean glob,
                        boolean braceExpansion) {

    /** The static value, or the raw source text when the word is dynamic. */
    public String text() {
        return isStatic ? value : raw;
    }

    /**
     * Computes the value of {@code word}, whose source text is {@code source.substring(span)}.
     *
     * @param word   a word from a tree parsed from {@code source}
     * @param source the script source the word was parsed from
     */
    public static WordValue of(Word word, String source) {
        StringBuilder sb = new StringBuilder();
        List<WordPart> expansions = new ArrayList<>();
        boolean[] flags = new boolean[3]; // glob, brace, unquoted [
        collect(word.parts(), sb, expansions, flags, false);
        boolean isStatic = expansions.isEmpty();
        String raw = word.span().text(source);
        // A [ starts a bracket expression only when a ] follows it; alone (the test command [) it is literal
        // (bash(1) "Pattern Matching").
        if (flags[2] && raw.indexOf(']', raw.indexOf('[') + 1) > 0) flags[0] = true;
        // Brace expansion as bash does it (braces.c), not just the look of one.
        if (flags[1] || raw.indexOf('{') >= 0) flags[1] = BraceExpansion.changes(word, source);
        return new WordValue(isStatic, isStatic ? AnsiC.joined(sb.toString()) : null, raw, List.copyOf(expansions), flags[0],
                flags[1]);
    }

    /**
     * The value after quote removal of {@code parts} when they hold no expansion (literals, quoted strings,
     * double-quoted literals), else null.
     */
    static String staticValue(List<WordPart> parts) {
        StringBuilder sb = new StringBuilder();
        for (WordPart p : parts) {
            if (p instanceof WordPart.Literal lit) sb.append(lit.value());
            else if (p instanceof WordPart.SingleQuoted sq) sb.append(sq.value());
            else if (p instanceof WordPart.AnsiCQuoted ac) sb.append(ac.value());
            else if (p instanceof WordPart.DoubleQuoted dq) {
                String inner = staticValue(dq.parts());
                if (inner == null) return null;
                sb.append(inner);
            } else return null;
        }
        return AnsiC.joined(sb.toString());
    }

    private static void collect(List<WordPart> parts, StringBuilder sb, List<WordPart> expansions, boolean[] flags,
                                boolean quoted) {
        for (WordPart p : parts) {
            if (p instanceof WordPart.Literal lit) {
                sb.append(lit.value());
                if (!quoted) scanUnquoted(lit.raw(), flags);
            } else if (p instanceof WordPart.SingleQuoted sq) {
                sb.append(sq.value());
            } else if (p instanceof WordPart.AnsiCQuoted ac) {
                sb.append(ac.value());
            } else if (p instanceof WordPart.DoubleQuoted dq) {
                collect(dq.parts(), sb, expansions, flags, true);
            } else if (p instanceof WordPart.ArrayLiteral arr) {
                // A compound value of a declaration argument: static only if every element is.
                sb.append('(');
                boolean first = true;
                for (ArrayElement e : arr.elements()) {
                    if (!first) sb.append(' ');
                    first = false;
                    if (e.index() != null) {
                        sb.append('[');
                        collect(e.index().parts(), sb, expansions, flags, true);
                        sb.append("]=");
                    }
                    collect(e.value().parts(), sb, expansions, flags, false);
                }
                sb.append(')');
            } else {
                if (p instanceof WordPart.ExtGlob) flags[0] = true;
                expansions.add(p);
            }
        }
    }

    /** Marks unquoted glob characters and brace-expansion forms in a literal's raw text (escapes skipped). */
    private static void scanUnquoted(String raw, boolean[] flags) {
        int braceDepth = 0;
        boolean braceHasSep = false;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c == '\\') {
                i++;
                continue;
            }
            // A [ starts a bracket expression only when a ] closes it; alone (the test command [) it is literal
            // (bash(1) "Pattern Matching").
            if (c == '*' || c == '?') flags[0] = true;
            if (c == '[') flags[2] = true;
            if (c == '{') {
                braceDepth++;
            } else if (c == '}' && braceDepth > 0) {
                braceDepth--;
                if (braceHasSep) flags[1] = true;
            } else if (braceDepth > 0 && (c == ',' || (c == '.' && i + 1 < raw.length() && raw.charAt(i + 1) == '.'))) {
                braceHasSep = true;
            }
        }
    }
}
