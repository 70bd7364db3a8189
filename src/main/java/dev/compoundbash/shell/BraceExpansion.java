package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Brace expansion (Bash Reference Manual §3.5.1 "Brace Expansion"), a port of bash 5.2's {@code braces.c}: the
 * words bash makes of one word before any other expansion. It works on the word's text as the parser read it,
 * quotes included, exactly as bash does: quoted braces and commas are not special, {@code ${...}},
 * {@code $(...)}, {@code <(...)} and {@code >(...)} are passed through, a brace group needs an unquoted comma or a
 * valid sequence expression ({@code {x..y[..incr]}}, integers with zero-padding or single letters), and an opening
 * brace between blanks, or followed by {@code }} after a blank, is literal.
 *
 * <p>Each resulting word is parsed again as a word, since bash expands it afterwards: brace expansion can make
 * new expansions out of literal text ({@code {$,}{{x@P},}} becomes {@code ${x@P} $ {x@P}}), which
 * {@link WordValue#of} then reports as dynamic and whose commands the parts reach.
 */
public final class BraceExpansion {
    /** Words one word may expand to before its command is never approved. */
    public static final int MAX_WORDS = 256;
    /** Characters all the words made of one word may hold before its command is never approved. */
    public static final int MAX_CHARS = 65_536;

    private BraceExpansion() {
    }

    /** One word of a brace expansion, with the source text its spans refer to. */
    public record Piece(Word word, String source) {
    }

    /**
     * The words bash makes of a word by brace expansion.
     *
     * @param pieces     the words, in order; the word itself (with the source given) when brace expansion leaves it
     *                   unchanged or {@code overflow}; empty when every word it makes is empty and unquoted, so it
     *                   expands to nothing
     * @param overflow   true when the expansion has more than the maximum number of words or a word bash makes of
     *                   it does not parse: what bash runs is then not known
     * @param expanded   true when brace expansion changed the word
     */
    public record Words(List<Piece> pieces, boolean overflow, boolean expanded) {
    }

    /** {@link #of(Word, String, int)} with at most {@link #MAX_WORDS} words. */
    public static Words of(Word word, String source) {
        return of(word, source, MAX_WORDS);
    }

    /**
     * The words bash makes of {@code word}, a word of a simple command (its command name or an argument; bash
     * does not brace-expand assignments, here-strings, {@code case} words or words inside {@code [[ ]]}).
     *
     * @param word   a word of a tree parsed from {@code source}
     * @param source the text the word's spans refer to
     * @param max    the most words accepted
     * @return the words; never null
     */
    public static Words of(Word word, String source, int max) {
        Words same = new Words(List.of(new Piece(word, source)), false, false);
        String text = word.text(source);
        if (text.indexOf('{') < 0) return same;
        for (WordPart p : word.parts()) {
            // NAME=(...) given to a declaration builtin: bash expands the elements later, not the word
            if (p instanceof WordPart.ArrayLiteral) return same;
        }
        List<String> out;
        try {
            out = expand(text, max);
        } catch (RuntimeException e) {
            out = null;
        }
        if (out == null) return new Words(same.pieces(), true, false);
        if (out.size() == 1 && out.get(0).equals(joinContinuations(text))) return same;
        long chars = 0;
        for (String t : out) chars += t.length();
        // bounded work: every word made is parsed again
        if (chars > MAX_CHARS) return new Words(same.pieces(), true, false);
        List<Piece> pieces = new ArrayList<>(out.size());
        for (String t : out) {
            if (t.isEmpty()) continue; // an unquoted empty word expands to nothing
            try {
                pieces.add(new Piece(Parser.parseWord(t), t));
            } catch (ParseException e) {
                return new Words(same.pieces(), true, false);
            }
        }
        return new Words(List.copyOf(pieces), false, true);
    }

    /**
     * Whether brace expansion changes {@code word} (or makes more words than {@link #MAX_WORDS}), without parsing
     * the words it makes.
     */
    public static boolean changes(Word word, String source) {
        String text = word.text(source);
        if (text.indexOf('{') < 0) return false;
        for (WordPart p : word.parts()) if (p instanceof WordPart.ArrayLiteral) return false;
        List<String> out = expand(text, MAX_WORDS);
        return out == null || out.size() != 1 || !out.get(0).equals(joinContinuations(text));
    }

    /**
     * Brace-expands {@code text}, a word as the parser read it (quotes included; line continuations outside single
     * quotes are removed first, as bash's reader does).
     *
     * @param text the word's text
     * @param max  the most words accepted
     * @return the words bash makes of it (the text itself when nothing expands), or null when more than {@code max}
     */
    public static List<String> expand(String text, int max) {
        try {
            String t = joinContinuations(text);
            Expander ex = new Expander(max);
            ex.marking = t.indexOf(DOLLAR) < 0;
            List<String> out = ex.braceExpand(t);
            if (!ex.marking) return out;
            List<String> settled = new ArrayList<>(out.size());
            for (String w : out) settled.add(settle(w));
            return settled;
        } catch (TooMany e) {
            return null;
        }
    }

    /** Stands for a {@code $} that ended a piece brace expansion joined to the next ({@link #settle}). */
    static final char DOLLAR = '\uE000';

    /**
     * A finished word with its joined {@code $}s ({@link #DOLLAR}) spelt as bash reads them there: bash's reader
     * turns {@code $'...'} and {@code $"..."} into quoted strings only where they are written, and brace expansion
     * comes after it, so a joined {@code $} before a quote is a plain {@code $} ({@code {$,}'x'} gives {@code $x}:
     * written {@code \$}); a {@code $} after an unescaped {@code $} is the name of that one
     * ({@code {$,}{$,}"y"} gives {@code $$"y"}: the process id, then y).
     */
    static String settle(String w) {
        if (w.indexOf(DOLLAR) < 0) return w;
        StringBuilder sb = new StringBuilder(w.length() + 4);
        int n = w.length();
        for (int i = 0; i < n; i++) {
            char c = w.charAt(i);
            if (c == '\\') {
                sb.append(c);
                if (i + 1 < n) sb.append(w.charAt(i + 1) == DOLLAR ? '$' : w.charAt(i + 1));
                i++;
            } else if (c == '\'' || c == '"') {
                int j = i + 1;
                while (j < n && w.charAt(j) != c) {
                    if (c == '"' && w.charAt(j) == '\\') j++;
                    j++;
                }
                sb.append(w.substring(i, Math.min(n, j + 1)).replace(DOLLAR, '$'));
                i = j;
            } else if (c == '$' && i + 1 < n && w.charAt(i + 1) == '\'') {
                // $'...' as written: backslash escapes, \' among them
                int j = i + 2;
                while (j < n && w.charAt(j) != '\'') {
                    if (w.charAt(j) == '\\') j++;
                    j++;
                }
                sb.append(w.substring(i, Math.min(n, j + 1)).replace(DOLLAR, '$'));
                i = j;
            } else if (c == '$' || c == DOLLAR) {
                char next = i + 1 < n ? w.charAt(i + 1) : 0;
                char after = i + 2 < n ? w.charAt(i + 2) : 0;
                // a $'...' or $"..." written after the braces was a quoted string before brace expansion
                boolean translated = next == '$' && (after == '\'' || after == '"');
                if (c == DOLLAR && (next == '\'' || next == '"' || translated)) {
                    sb.append("\\$");
                } else if (next == '$' || next == DOLLAR) {
                    sb.append("$$");
                    i++;
                } else {
                    sb.append('$');
                }
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    /** Removes backslash-newline pairs outside single quotes (bash removes them while reading the word). */
    static String joinContinuations(String t) {
        if (t.indexOf("\\\n") < 0) return t;
        StringBuilder sb = new StringBuilder(t.length());
        int n = t.length();
        boolean dq = false;
        for (int i = 0; i < n; i++) {
            char c = t.charAt(i);
            if (c == '\\' && i + 1 < n) {
                if (t.charAt(i + 1) == '\n') {
                    i++;
                    continue;
                }
                sb.append(c).append(t.charAt(++i));
                continue;
            }
            if (!dq && c == '\'') {
                boolean ansi = i > 0 && t.charAt(i - 1) == '$';
                int j = i + 1;
                while (j < n && t.charAt(j) != '\'') {
                    if (ansi && t.charAt(j) == '\\' && j + 1 < n) j++;
                    j++;
                }
                j = Math.min(j, n - 1);
                sb.append(t, i, j + 1);
                i = j;
                continue;
            }
            if (c == '"') dq = !dq;
            sb.append(c);
        }
        return sb.toString();
    }

    private static final class TooMany extends RuntimeException {
        TooMany() {
            super(null, null, false, false);
        }
    }

    /** braces.c, with a bound on the number of words. */
    private static final class Expander {
        private final int max;
        /** Whether joined {@code $}s are marked ({@link #DOLLAR}); off when the text holds the mark itself. */
        boolean marking;

        Expander(int max) {
            this.max = max;
        }

        /** brace_expand */
        List<String> braceExpand(String text) {
            int tlen = text.length();
            int[] idx = {0};
            int c;
            int c1;
            // find the first brace that begins a valid brace expansion
            do {
                c = gobble(text, idx, '{');
                c1 = c;
                if (c != 0) {
                    int[] j = {idx[0] + 1};
                    c = gobble(text, j, '}');
                    if (c == 0) {
                        idx[0]++;
                        c = c1;
                        continue;
                    }
                    c = c1;
                    break;
                }
                break;
            } while (c != 0);
            int i = idx[0];
            List<String> result = new ArrayList<>(List.of(text.substring(0, Math.min(i, tlen))));
            if (c != '{') return result;
            int start = ++i;
            idx[0] = i;
            c = gobble(text, idx, '}');
            i = idx[0];
            if (c == 0) return new ArrayList<>(List.of(text));
            String amble = text.substring(start, i);
            // no unquoted comma (backslashes only are considered here, as in bash): a sequence expression?
            int j = 0;
            boolean comma = false;
            while (j < amble.length()) {
                char a = amble.charAt(j);
                if (a == '\\') {
                    j += 2;
                    continue;
                }
                if (a == ',') {
                    comma = true;
                    break;
                }
                j++;
            }
            List<String> tack;
            if (!comma) {
                tack = seqterm(amble);
                if (tack == null) {
                    if (i + 1 < tlen) {
                        tack = new ArrayList<>(List.of(text.substring(start - 1, i + 1)));
                    } else {
                        return new ArrayList<>(List.of(text));
                    }
                }
            } else {
                tack = expandAmble(amble);
            }
            result = concat(result, tack);
            if (i + 1 < tlen) result = concat(result, braceExpand(text.substring(i + 1)));
            return result;
        }

        /** expand_amble */
        private List<String> expandAmble(String text) {
            List<String> result = null;
            int[] idx = {0};
            int start = 0;
            int c = 1;
            while (c != 0) {
                c = gobble(text, idx, ',');
                String tem = text.substring(start, Math.min(idx[0], text.length()));
                List<String> partial = braceExpand(tem);
                if (result == null) {
                    result = partial;
                } else {
                    result.addAll(partial);
                    if (result.size() > max) throw new TooMany();
                }
                idx[0]++;
                start = idx[0];
            }
            return result;
        }

        /** array_concat */
        private List<String> concat(List<String> a, List<String> b) {
            if (a == null) return b;
            if (b == null) return a;
            if (a.size() == 1 && a.get(0).isEmpty()) return b;
            if (b.size() == 1 && b.get(0).isEmpty()) return a;
            if ((long) a.size() * b.size() > max) throw new TooMany();
            List<String> out = new ArrayList<>(a.size() * b.size());
            for (String x : a) for (String y : b) out.add(join(x, y));
            return out;
        }

        /**
         * x followed by y. An unescaped {@code $} that ends x is marked ({@link #DOLLAR}): what it is depends on what
         * follows it in the finished word ({@link #settle}).
         */
        private String join(String x, String y) {
            if (!marking || !x.endsWith("$") || y.isEmpty()) return x + y;
            int bs = 0;
            for (int i = x.length() - 2; i >= 0 && x.charAt(i) == '\\'; i--) bs++;
            if (bs % 2 == 1) return x + y;
            return x.substring(0, x.length() - 1) + DOLLAR + y;
        }

        private static boolean blank(int c) {
            return c == ' ' || c == '\t';
        }

        private static int at(String t, int i) {
            return i < t.length() ? t.charAt(i) : 0;
        }

        /**
         * brace_gobbler: from {@code idx[0]}, skips to the character matching {@code satisfy}, minding quotes;
         * returns that character or 0. A {@code $'...'} (which bash's reader has already turned into a single-quoted
         * string) is skipped whole.
         */
        private int gobble(String text, int[] idx, int satisfy) {
            int level = 0;
            int quoted = 0;
            boolean passNext = false;
            int commas = satisfy == '}' ? 0 : 1;
            int i = idx[0];
            int c;
            while ((c = at(text, i)) != 0) {
                if (passNext) {
                    passNext = false;
                    i++;
                    continue;
                }
                if (c == '\\' && (quoted == 0 || quoted == '"' || quoted == '`')) {
                    passNext = true;
                    i++;
                    continue;
                }
                if (c == '$' && at(text, i + 1) == '{' && quoted != '\'') {
                    passNext = true;
                    i++;
                    if (quoted == 0) level++;
                    continue;
                }
                if (quoted == 0 && c == '$' && at(text, i + 1) == '\'') {
                    int j = i + 2;
                    while (j < text.length() && text.charAt(j) != '\'') {
                        if (text.charAt(j) == '\\') j++;
                        j++;
                    }
                    i = Math.min(j + 1, text.length());
                    continue;
                }
                if (quoted != 0) {
                    if (c == quoted) quoted = 0;
                    if (quoted == '"' && c == '$' && at(text, i + 1) == '(') {
                        i = substitutionEnd(text, i) + 1;
                        continue;
                    }
                    i++;
                    continue;
                }
                if (c == '"' || c == '\'' || c == '`') {
                    quoted = c;
                    i++;
                    continue;
                }
                if ((c == '$' || c == '<' || c == '>') && at(text, i + 1) == '(') {
                    i = substitutionEnd(text, i) + 1;
                    continue;
                }
                if (c == satisfy && level == 0 && quoted == 0 && commas > 0) {
                    // an open brace surrounded by whitespace, or followed by a close brace, is literal
                    if (c == '{' && ((i == 0 || blank(text.charAt(i - 1)))
                            && (blank(at(text, i + 1)) || at(text, i + 1) == '}'))) {
                        i++;
                        continue;
                    }
                    break;
                }
                if (c == '{') {
                    level++;
                } else if (c == '}' && level > 0) {
                    level--;
                } else if (satisfy == '}' && c == ',' && level == 0) {
                    commas++;
                } else if (satisfy == '}' && c == '.' && at(text, i + 1) == '.' && at(text, i + 2) != satisfy
                        && level == 0) {
                    commas++;
                }
                i++;
            }
            idx[0] = i;
            return c;
        }

        /**
         * The index of the {@code )} closing the substitution whose {@code $}, {@code <} or {@code >} is at
         * {@code i} (subst.c extract_command_subst), found by parsing it; the end of the text when it does not
         * close.
         */
        private int substitutionEnd(String text, int i) {
            // the same text is scanned many times (each brace group, each comma): parse each substitution once
            String key = i + ":" + text;
            Integer known = ends.get(key);
            if (known != null) return known;
            int e = Parser.substitutionEnd(text, i);
            int r = e < 0 ? text.length() - 1 : e - 1;
            ends.put(key, r);
            return r;
        }

        private final java.util.Map<String, Integer> ends = new java.util.HashMap<>();

        /** expand_seqterm */
        private List<String> seqterm(String text) {
            int t = text.indexOf("..");
            if (t < 0) return null;
            String lhs = text.substring(0, t);
            String rhs = text.substring(t + 2);
            if (lhs.isEmpty() || rhs.isEmpty()) return null;
            final int bad = 0, integer = 1, chr = 2, zint = 3;
            long[] tl = new long[1];
            int lhsT = legalNumber(lhs, tl) ? integer
                    : (isAlpha(lhs.charAt(0)) && lhs.length() == 1) ? chr : bad;
            int rhsT;
            long tr = 0;
            int ep; // index into rhs just after the end value
            if (isDigit(at(rhs, 0)) || ((at(rhs, 0) == '+' || at(rhs, 0) == '-') && isDigit(at(rhs, 1)))) {
                rhsT = integer;
                long[] v = new long[1];
                int e = strtoimax(rhs, 0, v);
                ep = e;
                tr = v[0];
                if (e == -2 || (ep < rhs.length() && rhs.charAt(ep) != '.')) rhsT = bad;
            } else if (isAlpha(at(rhs, 0)) && (rhs.length() == 1 || rhs.charAt(1) == '.')) {
                rhsT = chr;
                ep = 1;
            } else {
                rhsT = bad;
                ep = 0;
            }
            long incr = 1;
            int rhsNumLen = rhs.length();
            if (rhsT != bad) {
                int oep = ep;
                boolean range = false;
                if (ep < rhs.length() && rhs.charAt(ep) == '.' && at(rhs, ep + 1) == '.' && ep + 2 < rhs.length()) {
                    long[] v = new long[1];
                    int e = strtoimax(rhs, ep + 2, v);
                    if (e == -2) {
                        range = true;
                    } else {
                        incr = v[0];
                        ep = e < 0 ? ep + 2 : e;
                    }
                }
                if (range || ep != rhs.length()) rhsT = bad;
                rhsNumLen = oep;
            }
            if (lhsT != rhsT || lhsT == bad) return null;
            long lhsV;
            long rhsV;
            int width = 1;
            int type = lhsT;
            if (lhsT == chr) {
                lhsV = lhs.charAt(0);
                rhsV = rhs.charAt(0);
            } else {
                lhsV = tl[0];
                rhsV = tr;
                int lhsL = lhs.length();
                int rhsL = rhsNumLen;
                width = 0;
                if (lhsL > 1 && lhs.charAt(0) == '0') {
                    width = lhsL;
                    type = zint;
                }
                if (lhsL > 2 && lhs.charAt(0) == '-' && lhs.charAt(1) == '0') {
                    width = lhsL;
                    type = zint;
                }
                if (rhsL > 1 && rhs.charAt(0) == '0' && width < rhsL) {
                    width = rhsL;
                    type = zint;
                }
                if (rhsL > 2 && rhs.charAt(0) == '-' && rhs.charAt(1) == '0' && width < rhsL) {
                    width = rhsL;
                    type = zint;
                }
                if (width < lhsL && type == zint) width = lhsL;
                if (width < rhsL && type == zint) width = rhsL;
            }
            return mkseq(lhsV, rhsV, incr, type, width);
        }

        /** mkseq; null where bash gives up (overflow) */
        private List<String> mkseq(long start, long end, long incr, int type, int width) {
            if (incr == 0) incr = 1;
            if (incr == Long.MIN_VALUE) return null;
            if (start > end && incr > 0) {
                incr = -incr;
            } else if (start < end && incr < 0) {
                if (incr == Long.MIN_VALUE) return null;
                incr = -incr;
            }
            // SUBOVERFLOW(end, start, INTMAX_MIN+3, INTMAX_MAX-2)
            if ((start < 0 && end > Long.MAX_VALUE - 2 + start) || (start > 0 && end < Long.MIN_VALUE + 3 + start)) {
                return null;
            }
            long prevn = Math.abs(end - start);
            long steps = prevn / Math.abs(incr);
            if (steps > Integer.MAX_VALUE - 3) return null;
            if (steps + 1 > max) throw new TooMany();
            List<String> result = new ArrayList<>((int) steps + 1);
            long n = start;
            for (;;) {
                if (type == 1) {
                    result.add(Long.toString(n));
                } else if (type == 3) {
                    result.add(String.format("%0" + width + "d", (int) n));
                } else {
                    result.add(String.valueOf((char) (n & 0xFF)));
                }
                long next = n + incr;
                if (((n ^ next) & (incr ^ next)) < 0) break; // ADDOVERFLOW
                n = next;
                if ((incr < 0 && n < end) || (incr > 0 && n > end)) break;
            }
            return result;
        }

        private static boolean isDigit(int c) {
            return c >= '0' && c <= '9';
        }

        private static boolean isAlpha(int c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        }

        private static boolean isSpace(int c) {
            return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == 0x0B;
        }

        /**
         * strtoimax(s + from, &ep, 10): the value in {@code v[0]}; returns the index after the number, -1 when
         * nothing was converted (ep = s + from), -2 on overflow (ERANGE).
         */
        private static int strtoimax(String s, int from, long[] v) {
            int i = from;
            while (i < s.length() && isSpace(s.charAt(i))) i++;
            boolean neg = false;
            if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
                neg = s.charAt(i) == '-';
                i++;
            }
            int digits = i;
            long acc = 0;
            boolean overflow = false;
            while (i < s.length() && isDigit(s.charAt(i))) {
                int d = s.charAt(i) - '0';
                if (!overflow) {
                    try {
                        acc = Math.addExact(Math.multiplyExact(acc, 10), neg ? -d : d);
                    } catch (ArithmeticException e) {
                        overflow = true;
                    }
                }
                i++;
            }
            if (i == digits) {
                v[0] = 0;
                return -1;
            }
            if (overflow) return -2;
            v[0] = acc;
            return i;
        }

        /** general.c legal_number: a whole number with optional surrounding white space (leading) and blanks. */
        private static boolean legalNumber(String s, long[] v) {
            int e = strtoimax(s, 0, v);
            if (e < 0) return false;
            while (e < s.length() && blank(s.charAt(e))) e++;
            return e == s.length();
        }
    }
}
