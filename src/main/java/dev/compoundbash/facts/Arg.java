package dev.compoundbash.facts;

import dev.compoundbash.shell.Word;
import dev.compoundbash.shell.WordPart;
import dev.compoundbash.shell.WordValue;

import java.util.List;

/**
 * One word of a command as bash will expand it, built once from the AST ({@link #of(Word, String)}): its text, whether
 * its value is static, the literal text every word it becomes starts with, and whether it may become several words
 * or an option. Rules and option grammars read arguments through it instead of re-parsing text.
 *
 * <p>Follows the Bash Reference Manual §3.5 "Shell Expansions": an unquoted expansion undergoes word splitting and
 * may become any number of words of any value (options included); pathname expansion (§3.5.8) and brace expansion
 * (§3.5.1) may turn a word into several words sharing the literal text before the first glob or brace character; a
 * double-quoted expansion is one word of any value, except {@code "$@"}, {@code "${a[@]}"} and {@code "${!p@}"}
 * (§3.4.2, §6.7); a tilde prefix and a process substitution become one word starting with {@code /} or {@code ~}.
 *
 * @param text     the value after quote removal when static, else the word's source text (what {@code argv} holds)
 * @param isStatic the word has no expansion ({@link WordValue#isStatic()}); it may still glob or brace-expand
 * @param glob     an unquoted glob character or extglob is in it (pathname expansion may apply)
 * @param brace    an unquoted brace-expansion form is in it
 * @param prefix   literal text every resulting word starts with ("" when unknown)
 * @param known    the word becomes exactly one word, whose value is {@code prefix}
 * @param many     it may become zero or several words
 * @param lead     the first character of every resulting word is known not to be {@code -}, so none is an option
 * @param spliced  a wrapper splices run-time text into this otherwise static word ({@code xargs -I R},
 *                 {@code find -exec ... {}}): {@code text} is the literal word, its value only known at run time
 * @param variable the name of the one variable the word consists of ({@code $f}, {@code "$f"}, {@code ${f}}),
 *                 else null
 * @param homeSuffix when the word is the home directory followed by static text ({@code ~}, {@code ~/x},
 *                 {@code $HOME/x}, {@code "${HOME}"/x}), that text ({@code ""}, {@code "/x"}); else null
 * @param pieces   when the word is made of static text and plain variables only ({@code $d/config},
 *                 {@code "${d}"/x.$e}), its pieces in order, so a variable of known values (a loop's words) can be
 *                 substituted; else null
 * @param shape    what the word may become, as text in which {@link #UNKNOWN} stands for any text (spaces and
 *                 several words included, or none): the literal pieces in order, each expansion, glob character
 *                 or spliced text an {@code UNKNOWN} ({@code p$x} is {@code "p\0"}); equal to {@code text} for a
 *                 static word; deny and ask rules are matched against it by {@code BashPattern.mayMatch}
 */
public record Arg(String text, boolean isStatic, boolean glob, boolean brace, String prefix, boolean known,
                  boolean many, boolean lead, boolean spliced, String variable, String homeSuffix,
                  List<Piece> pieces, String shape) {

    /** In a {@link #shape()}, any text (bash words hold no NUL byte, so it never stands for itself). */
    public static final char UNKNOWN = '\0';

    /**
     * A piece of a word made of static text and variables: literal text, or a variable (quoted or not; an unquoted
     * one is split and globbed by bash, Bash Reference Manual §3.5.7, §3.5.8).
     *
     * @param text     the literal text, or null for a variable
     * @param variable the variable's name, or null for text
     * @param quoted   the variable stands inside double quotes
     */
    public record Piece(String text, String variable, boolean quoted) {
    }

    /** A word with pieces, whose shape is its prefix then anything (or the prefix alone when known). */
    public Arg(String text, boolean isStatic, boolean glob, boolean brace, String prefix, boolean known,
               boolean many, boolean lead, boolean spliced, String variable, String homeSuffix, List<Piece> pieces) {
        this(text, isStatic, glob, brace, prefix, known, many, lead, spliced, variable, homeSuffix, pieces,
                known ? prefix : prefix + UNKNOWN);
    }

    /** A word with a shape and no pieces. */
    public Arg(String text, boolean isStatic, boolean glob, boolean brace, String prefix, boolean known,
               boolean many, boolean lead, boolean spliced, String variable, String homeSuffix, String shape) {
        this(text, isStatic, glob, brace, prefix, known, many, lead, spliced, variable, homeSuffix, null, shape);
    }

    /** The shape a word with these properties has when nothing more is known: its prefix, then anything. */
    public Arg(String text, boolean isStatic, boolean glob, boolean brace, String prefix, boolean known,
               boolean many, boolean lead, boolean spliced, String variable, String homeSuffix) {
        this(text, isStatic, glob, brace, prefix, known, many, lead, spliced, variable, homeSuffix, (List<Piece>) null);
    }

    /** A word no wrapper splices into, with no variable or home-directory form. */
    public Arg(String text, boolean isStatic, boolean glob, boolean brace, String prefix, boolean known,
               boolean many, boolean lead) {
        this(text, isStatic, glob, brace, prefix, known, many, lead, false, null, null);
    }

    /** Any number of words of any value: arguments a wrapper appends at run time ({@code xargs}). */
    public static final Arg ANY = new Arg("", false, false, false, "", false, true, false);

    /**
     * A word whose value is exactly {@code value}: a static word without glob or brace characters, or a word a
     * wrapper derived from static text ({@code env -S} splitting).
     *
     * @param value the word's value
     * @return the argument
     */
    public static Arg literal(String value) {
        return new Arg(value, true, false, false, value, true, false, !value.isEmpty() && value.charAt(0) != '-');
    }

    /**
     * A word derived from text only known at run time, standing in a known position (one word of any value).
     *
     * @param text the text to show for it
     * @return the argument
     */
    public static Arg unknown(String text) {
        return new Arg(text, false, false, false, "", false, false, false);
    }

    /**
     * This static word with run-time text spliced in by a wrapper at each {@code replace}: one word whose value is
     * known only up to the literal text before the first {@code replace}.
     *
     * @param replace the replacement string ({@code {}}, or {@code xargs -I}'s)
     * @return the argument
     */
    public Arg splicedAt(String replace) {
        return splicedAt(replace, false);
    }

    /**
     * As {@link #splicedAt(String)}, for a wrapper whose spliced text never starts with {@code -} (find's paths:
     * a start path starting with {@code -} is read as an expression, findutils find(1)).
     *
     * @param replace    the replacement string
     * @param neverDash  the spliced text never starts with {@code -}
     * @return the argument
     */
    public Arg splicedAt(String replace, boolean neverDash) {
        String pre = text.substring(0, Math.max(0, text.indexOf(replace)));
        StringBuilder shape = new StringBuilder();
        int from = 0;
        for (int at = text.indexOf(replace); at >= 0 && !replace.isEmpty(); at = text.indexOf(replace, from)) {
            shape.append(text, from, at).append(UNKNOWN);
            from = at + replace.length();
        }
        shape.append(text.substring(from));
        boolean lead = pre.isEmpty() ? neverDash : pre.charAt(0) != '-';
        return new Arg(text, false, false, false, pre, false, false, lead, true, null, null, shape.toString());
    }

    /**
     * The argument for {@code word}, parsed from {@code source}.
     *
     * @param word   a word of a tree parsed from {@code source}
     * @param source the script source
     * @return the argument; never null
     */
    public static Arg of(Word word, String source) {
        WordValue v = WordValue.of(word, source);
        if (v.isStatic() && !v.glob() && !v.braceExpansion()) {
            String value = v.value();
            return new Arg(value, true, false, false, value, true, false, !value.isEmpty() && value.charAt(0) != '-');
        }
        Builder b = new Builder();
        b.parts(word.parts(), false);
        String pre = b.split ? "" : b.prefix.toString();
        boolean lead;
        if (b.split) {
            lead = false;
        } else if (!pre.isEmpty()) {
            lead = pre.charAt(0) != '-';
        } else {
            lead = Boolean.TRUE.equals(b.lead);
        }
        return new Arg(v.text(), v.isStatic(), v.glob(), v.braceExpansion(), pre, b.known && !b.many, b.many, lead,
                false, variable(word.parts()), homeSuffix(word.parts()), pieces(word.parts()), b.shape());
    }

    /**
     * The word without its first {@code n} characters of literal text ({@code of=$d/x} as {@code $d/x}), keeping
     * its pieces so loop words can still be substituted; null when the word does not start with that much literal
     * text in a word made of pieces.
     *
     * @param n how many literal characters to drop
     * @return the shorter word, or null
     */
    public Arg afterText(int n) {
        if (pieces == null || pieces.isEmpty() || pieces.get(0).text() == null || pieces.get(0).text().length() < n
                || prefix.length() < n) return null;
        List<Piece> rest = new java.util.ArrayList<>(pieces);
        String first = pieces.get(0).text().substring(n);
        if (first.isEmpty()) rest.remove(0);
        else rest.set(0, new Piece(first, null, pieces.get(0).quoted()));
        return new Arg(text.substring(Math.min(n, text.length())), false, false, false, prefix.substring(n), false,
                many, !prefix.substring(n).isEmpty() && prefix.charAt(n) != '-', false, null, null, List.copyOf(rest));
    }

    /** The pieces of a word made of static text and plain variables only, or null (see {@link #pieces()}). */
    private static List<Piece> pieces(List<WordPart> parts) {
        List<Piece> out = new java.util.ArrayList<>();
        if (!pieces(parts, false, out)) return null;
        return out.stream().anyMatch(p -> p.variable() != null) ? List.copyOf(out) : null;
    }

    private static boolean pieces(List<WordPart> parts, boolean quoted, List<Piece> out) {
        for (WordPart p : parts) {
            if (p instanceof WordPart.Literal lit) {
                if (!quoted && lit.raw().chars().anyMatch(c -> "*?[{\\".indexOf(c) >= 0)) return false;
                out.add(new Piece(lit.value(), null, quoted));
            } else if (p instanceof WordPart.SingleQuoted sq) {
                out.add(new Piece(sq.value(), null, true));
            } else if (p instanceof WordPart.DoubleQuoted dq && !dq.localized() && !quoted) {
                if (!pieces(dq.parts(), true, out)) return false;
            } else if (p instanceof WordPart.ParamExpansion pe && plain(pe)) {
                out.add(new Piece(null, pe.name(), quoted));
            } else {
                return false;
            }
        }
        return true;
    }

    /** The one simple variable the parts consist of, or null. */
    private static String variable(List<WordPart> parts) {
        if (parts.size() != 1) return null;
        WordPart p = parts.get(0);
        if (p instanceof WordPart.DoubleQuoted dq) {
            if (dq.localized() || dq.parts().size() != 1) return null;
            p = dq.parts().get(0);
        }
        return p instanceof WordPart.ParamExpansion pe && plain(pe) ? pe.name() : null;
    }

    private static boolean plain(WordPart.ParamExpansion pe) {
        return (pe.prefix() == null || pe.prefix().isEmpty()) && pe.index() == null
                && (pe.operator() == null || pe.operator().isEmpty()) && pe.name().matches("[A-Za-z_][A-Za-z0-9_]*");
    }

    /**
     * The static text after a leading home directory ({@code ~} without a user, {@code $HOME}, {@code ${HOME}},
     * quoted or not), or null when the word does not start so or holds any other expansion.
     */
    private static String homeSuffix(List<WordPart> parts) {
        if (parts.isEmpty()) return null;
        WordPart first = parts.get(0);
        List<WordPart> rest = parts.subList(1, parts.size());
        StringBuilder sb = new StringBuilder();
        if (first instanceof WordPart.Tilde t) {
            if (t.user() != null && !t.user().isEmpty()) return null;
        } else if (first instanceof WordPart.ParamExpansion pe && plain(pe) && pe.name().equals("HOME")) {
            // $HOME
        } else if (first instanceof WordPart.DoubleQuoted dq && !dq.localized() && !dq.parts().isEmpty()
                && dq.parts().get(0) instanceof WordPart.ParamExpansion pe && plain(pe) && pe.name().equals("HOME")) {
            if (!staticText(dq.parts().subList(1, dq.parts().size()), sb, true)) return null;
        } else {
            return null;
        }
        return staticText(rest, sb, false) ? sb.toString() : null;
    }

    /** Appends the value of parts holding no expansion, glob or brace; false when they hold one. */
    private static boolean staticText(List<WordPart> parts, StringBuilder sb, boolean quoted) {
        for (WordPart p : parts) {
            if (p instanceof WordPart.Literal lit) {
                if (!quoted && lit.raw().chars().anyMatch(c -> "*?[{".indexOf(c) >= 0)) return false;
                sb.append(lit.value());
            } else if (p instanceof WordPart.SingleQuoted sq) {
                sb.append(sq.value());
            } else if (p instanceof WordPart.DoubleQuoted dq && !dq.localized()) {
                if (!staticText(dq.parts(), sb, true)) return false;
            } else {
                return false;
            }
        }
        return true;
    }

    /** True when the word holds an expansion: its value is only known at run time. */
    public boolean dynamic() {
        return !isStatic;
    }

    /** True when some word it becomes could be an option (start with {@code -}, other than a lone {@code -}). */
    public boolean mayBeOption() {
        if (known) return prefix.length() > 1 && prefix.charAt(0) == '-';
        return !lead;
    }

    /**
     * The arguments of several words.
     *
     * @param words  words of a tree parsed from {@code source}
     * @param source the script source
     * @return one argument per word, in order
     */
    public static List<Arg> of(List<Word> words, String source) {
        return words.stream().map(w -> of(w, source)).toList();
    }

    /**
     * The texts of several words: what {@code argv} holds.
     *
     * @param args the words
     * @return their {@link #text()}s, in order
     */
    public static List<String> texts(List<Arg> args) {
        List<String> out = new java.util.ArrayList<>(args.size());
        for (Arg a : args) out.add(a.text());
        return out;
    }

    /** Walks the parts in order, keeping the literal prefix until the first part whose value is unknown. */
    private static final class Builder {
        final StringBuilder prefix = new StringBuilder();
        boolean open = true;      // still collecting the prefix
        boolean known = true;
        boolean many = false;
        boolean split = false;    // an unquoted expansion: later fields are arbitrary
        Boolean lead = null;      // decided by a leading non-literal part
        final StringBuilder shape = new StringBuilder();

        void stop() {
            open = false;
            known = false;
            unknown();
        }

        void unknown() {
            if (shape.length() == 0 || shape.charAt(shape.length() - 1) != UNKNOWN) shape.append(UNKNOWN);
        }

        void text(String s) {
            if (open) prefix.append(s);
            shape.append(s);
        }

        String shape() {
            return shape.toString();
        }

        void parts(List<WordPart> parts, boolean quoted) {
            for (WordPart p : parts) part(p, quoted);
        }

        void part(WordPart p, boolean quoted) {
            if (p instanceof WordPart.Literal lit) {
                if (quoted) {
                    text(lit.value());
                } else {
                    unquotedLiteral(lit.raw());
                }
            } else if (p instanceof WordPart.SingleQuoted sq) {
                text(sq.value());
            } else if (p instanceof WordPart.AnsiCQuoted ac) {
                text(ac.value());
            } else if (p instanceof WordPart.DoubleQuoted dq) {
                parts(dq.parts(), true);
            } else if (p instanceof WordPart.ProcessSubstitution) {
                // One word, /dev/fd/N, never split (Bash Reference Manual §3.5.6).
                if (open && prefix.length() == 0 && lead == null) lead = true;
                stop();
            } else if (p instanceof WordPart.Tilde) {
                // A directory name or the tilde text unchanged (§3.5.2): starts with '/' or '~'.
                if (open && prefix.length() == 0 && lead == null) lead = true;
                stop();
            } else if (p instanceof WordPart.ParamExpansion pe) {
                if (!quoted || multiWord(pe)) {
                    many = true;
                    split = true;
                }
                stop();
            } else if (p instanceof WordPart.ExtGlob) {
                many = true;
                stop();
            } else {
                // Command substitution, arithmetic expansion, an array literal, anything else: unknown text.
                if (!quoted) {
                    many = true;
                    split = true;
                }
                stop();
            }
        }

        /** {@code "$@"}, {@code "${a[@]}"}, {@code "${!prefix@}"} expand to several words even when quoted. */
        private static boolean multiWord(WordPart.ParamExpansion pe) {
            if ("@".equals(pe.name())) return true;
            if (pe.index() != null) return true;
            return "!".equals(pe.prefix()) || "@".equals(pe.operator()) || "*".equals(pe.operator());
        }

        private void unquotedLiteral(String raw) {
            for (int i = 0; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (c == '\\') {
                    if (i + 1 < raw.length()) {
                        char n = raw.charAt(++i);
                        if (n != '\n') text(String.valueOf(n));
                    }
                    continue;
                }
                if (c == '*' || c == '?' || c == '[' || c == '{') {
                    // Pathname or brace expansion: several words, all starting with the prefix so far. In the
                    // shape, * and ? become any text; after [ or { the rest of this literal does too (a bracket
                    // expression or an unexpanded brace form stands for text not known here).
                    many = true;
                    stop();
                    if (c == '[' || c == '{') return;
                    for (i++; i < raw.length(); i++) {
                        char d = raw.charAt(i);
                        if (d == '[' || d == '{') return;
                        if (d == '*' || d == '?') {
                            unknown();
                        } else if (d == '\\') {
                            if (i + 1 < raw.length()) {
                                char n = raw.charAt(++i);
                                if (n != '\n') shape.append(n);
                            }
                        } else {
                            shape.append(d);
                        }
                    }
                    return;
                }
                text(String.valueOf(c));
            }
        }
    }
}
