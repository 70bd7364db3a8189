package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses words and everything inside them: quoting (Bash Reference Manual §3.1.2), parameter expansion (§3.5.3),
 * command substitution (§3.5.4), arithmetic expansion (§3.5.5), process substitution (§3.5.6), tilde prefixes
 * (§3.5.2), extended globs (§3.5.8.1), assignments and compound array values (§3.4, §6.7), and the bodies of
 * unquoted here-documents (§3.6.6). Works on the shared {@link Lexer} state and calls back into {@link Parser} for
 * command lists nested in {@code $( )}, {@code <( )} and backquotes.
 *
 * <p>Two readings of a text meet here, as in bash: the parser's (parse.y {@code read_token_word},
 * {@code parse_matched_pair}), which finds where a construct ends and translates {@code $'...'} and
 * {@code $"..."}, and the expansion's (subst.c), which expands the translated text. Where they differ the parts
 * follow the expansion, since that decides what runs:
 * <ul>
 *   <li>arithmetic text ({@code $(( ))}, {@code (( ))}, {@code for (( ))}, {@code $[ ]}, subscripts, substring
 *   offsets and lengths) is expanded like double-quoted text (subst.c {@code expand_arith_string} with
 *   {@code Q_DOUBLE_QUOTES|Q_ARITH}): single quotes are plain characters there, so a {@code $(...)} written
 *   inside {@code '...'} runs, and {@code $'...'}, which the parser replaces by its decoded text in single quotes,
 *   is decoded text that is expanded again;</li>
 *   <li>in a {@code ${...}} inside double quotes the parser inserts the decoded text of {@code $'...'} as it is
 *   ({@code extquote}, on by default), and the expansion then reads it together with the text around it;</li>
 *   <li>the subscript of a compound array element and of a declaration builtin's {@code NAME[SUB]=VALUE} is
 *   expanded as a word and its value is then evaluated as arithmetic, expanded once more.</li>
 * </ul>
 * Where bash's behaviour depends on state the parser cannot know (an associative array, {@code shopt -u extquote},
 * {@code BASH_COMPAT}), the parts hold every reading, so no command any of them runs is missed.
 */
final class WordParser {
    /** Ordinary word: ends at an unquoted metacharacter. */
    static final int NORMAL = 0;
    /** Assignment value: as NORMAL, plus tilde prefixes after {@code :}. */
    static final int ASSIGN = 1;
    /** Inside double quotes: ends at {@code "}. */
    static final int DQ = 2;
    /** Body of an unquoted here-document: runs to the end of the region. */
    static final int HEREDOC = 3;
    /** Operand of a {@code ${...}} operator: ends at the matching {@code }}. */
    static final int OPERAND = 4;
    /** Pattern of {@code ${x/pat/rep}}: as OPERAND, also ends at {@code /}. */
    static final int PATTERN = 5;
    /**
     * Text inside an operand that bash expands as it stands (a {@code '...'} region or decoded {@code $'...'}
     * text in a double-quoted {@code ${...}}): as OPERAND, to the end of the region, single quotes plain.
     */
    static final int OPERAND_ALL = 6;
    /** Array subscript expanded as a word: ends at the matching {@code ]}; blanks allowed. */
    static final int SUBSCRIPT = 7;
    /** Array subscript inside a word: ends at the matching {@code ]} or an unquoted metacharacter. */
    static final int SUBSCRIPT_W = 8;
    /** Extended glob pattern: ends at the matching {@code )}. */
    static final int EXTGLOB = 9;
    /** Right side of {@code =~} in {@code [[ ]]}: parentheses and {@code |} allowed, blanks inside parentheses. */
    static final int REGEX = 10;
    /** Arithmetic text: ends at the {@code )} that closes it (or a {@code ;} when {@link #arithSemi}). */
    static final int ARITH_PAREN = 11;
    /** Arithmetic text of {@code $[ ]} and of subscripts: ends at the matching {@code ]}. */
    static final int ARITH_BRACKET = 12;
    /** Arithmetic offset of {@code ${x:offset:length}}: ends at {@code :} or {@code }}. */
    static final int ARITH_OFFSET = 13;
    /** Arithmetic length of {@code ${x:offset:length}}: ends at {@code }}. */
    static final int ARITH_LENGTH = 14;
    /** Arithmetic text bash expands as it stands (a {@code '...'} region, decoded text, a value): to the end. */
    static final int ARITH_ALL = 15;

    /** Quoting context of a text, for the modes that depend on it: none (an unquoted word). */
    static final int Q_NONE = 0;
    /** Inside double quotes in the source: the parser inserts decoded {@code $'...'} text as it is. */
    static final int Q_DQ = 1;
    /**
     * Expanded like double-quoted text, but never read by the parser's matched-pair reader, so nothing is
     * translated: a here-document body, text inside a {@code '...'} region, decoded text, a value evaluated again.
     */
    static final int Q_HD = 2;
    /** Inside arithmetic text the parser reads: {@code $'...'} becomes its decoded text in single quotes. */
    static final int Q_AR = 3;
    /** A {@code ${...}} in the body of an unquoted here-document: as {@link #Q_HD}, except its operator's word. */
    static final int Q_HEREDOC = 4;
    /**
     * The word after {@code % # / ^ ,} or a substring {@code :} in a {@code ${...}} of a here-document body, which
     * bash reads with
     * {@code $'...'} translated while it expands the body (subst.c {@code extract_heredoc_dolbrace_string}: the
     * decoded text in single quotes, or as it is inside a nested {@code ${...}}).
     */
    static final int Q_HDT = 5;

    /** Splice re-parses ({@link #splice}) nested in one another before the input is rejected. */
    static final int MAX_SPLICE_DEPTH = 3;

    private final Lexer lx;
    private final Parser parser;
    private boolean hdStrip;
    /** In ARITH_PAREN: whether a {@code ;} at depth 0 ends the text (the clauses of {@code for (( ; ; ))}). */
    private boolean arithSemi;
    /**
     * While a {@code ${...}} inside double quotes is parsed: the {@code $'...'} strings in it at the parser's level
     * (local start, end), which bash replaces by their decoded text before expanding; null elsewhere.
     */
    List<int[]> spliceRegions;
    /** Parts that a construct adds after the one it returns (the spliced reading of a {@code ${...}}). */
    private List<WordPart> extraParts;
    /** Whether tilde prefixes after {@code =} and {@code :} of an assignment-shaped word are expanded. */
    boolean assignmentTildes = true;

    WordParser(Lexer lx, Parser parser) {
        this.lx = lx;
        this.parser = parser;
    }

    private static boolean isOperandMode(int mode) {
        return mode == OPERAND || mode == PATTERN || mode == OPERAND_ALL;
    }

    private static boolean isArith(int mode) {
        return mode >= ARITH_PAREN && mode <= ARITH_ALL;
    }

    /** Whether text in {@code mode} is expanded as it stands, never read by the parser's matched-pair reader. */
    private static boolean expansionOnly(int mode, int q) {
        return mode == OPERAND_ALL || mode == ARITH_ALL || mode == HEREDOC || q == Q_HD || q == Q_HEREDOC;
    }

    // ---------------------------------------------------------------- words

    /** Parses a word in {@code mode} starting at the current position; the word may be empty. */
    Word word(int mode, boolean dq) throws ParseException {
        return word(mode, dq ? Q_DQ : Q_NONE);
    }

    private Word word(int mode, int q) throws ParseException {
        lx.cur();
        int start = lx.pos;
        List<WordPart> parts = parts(mode, q, start, null);
        return mkWord(start, lx.pos, parts);
    }

    /** A word of local text {@code start..end}; it keeps that text when it is not the source text. */
    private Word mkWord(int start, int end, List<WordPart> parts) {
        String text = null;
        if (lx.map != null) {
            for (int i = start; i < end; i++) {
                if (lx.s[i] == '{') {
                    text = lx.text(start, end);
                    break;
                }
            }
        }
        return new Word(lx.span(start, end, parts), parts, text);
    }

    /** Parses a non-empty ordinary word or throws "unexpected token". */
    Word requireWord() throws ParseException {
        Word w = word(NORMAL, Q_NONE);
        if (w.parts().isEmpty()) throw lx.unexpected();
        return w;
    }

    /**
     * Parses the parts of a word. {@code wordStart} is where the whole word began (for tilde prefixes);
     * {@code out} may carry parts already parsed.
     */
    List<WordPart> parts(int mode, boolean dq, int wordStart, List<WordPart> out) throws ParseException {
        return parts(mode, dq ? Q_DQ : Q_NONE, wordStart, out);
    }

    private List<WordPart> parts(int mode, int q, int wordStart, List<WordPart> out) throws ParseException {
        lx.enter();
        if (out == null) out = new ArrayList<>(2);
        final char[] s = lx.s;
        int litStart = -1;
        boolean dirty = false;
        int depth = 0;
        boolean dqOperand = q != Q_NONE && isOperandMode(mode);
        boolean arith = isArith(mode);
        boolean quotesActive = mode != DQ && mode != HEREDOC && !dqOperand && !arith;
        for (;;) {
            int p = lx.pos;
            if (p >= lx.n) break;
            char c = s[p];
            if (c == '\\' && p + 1 < lx.n && s[p + 1] == '\n') {
                if (litStart < 0) litStart = p;
                dirty = true;
                lx.pos = p + 2;
                continue;
            }
            // ---- stop conditions
            boolean stop = false;
            switch (mode) {
                case NORMAL, ASSIGN -> stop = Lexer.isMeta(c) && !((c == '<' || c == '>') && nextIs(p, '('));
                case DQ -> stop = c == '"';
                case OPERAND, PATTERN -> {
                    // only ${ nests (parsed as a part); a bare { does not: the first } closes (parse_matched_pair
                    // with P_FIRSTCLOSE, extract_dollar_brace_string)
                    if (c == '}') stop = true;
                    else if (mode == PATTERN && c == '/') stop = true;
                }
                case SUBSCRIPT, SUBSCRIPT_W -> {
                    if (c == ']' && depth == 0) stop = true;
                    else if (mode == SUBSCRIPT_W && Lexer.isMeta(c) && !((c == '<' || c == '>') && nextIs(p, '('))) {
                        stop = true;
                    }
                    else if (c == '[') depth++;
                    else if (c == ']') depth--;
                }
                case EXTGLOB -> {
                    if (c == ')' && depth == 0) stop = true;
                    else if (c == '(') depth++;
                    else if (c == ')') depth--;
                }
                case REGEX -> {
                    if (depth == 0 && (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' || c == '<'
                            || c == '>' || c == ')')) stop = true;
                    else if (c == '(') depth++;
                    else if (c == ')') depth--;
                }
                case ARITH_PAREN -> {
                    if (c == '(') depth++;
                    else if (c == ')') {
                        if (depth == 0) stop = true;
                        else depth--;
                    } else if (c == ';' && depth == 0 && arithSemi) stop = true;
                }
                case ARITH_BRACKET -> {
                    if (c == '[') depth++;
                    else if (c == ']') {
                        if (depth == 0) stop = true;
                        else depth--;
                    }
                }
                case ARITH_OFFSET, ARITH_LENGTH -> {
                    if (c == '(' || c == '[') depth++;
                    else if ((c == ')' || c == ']') && depth > 0) depth--;
                    else if (depth == 0 && (c == '}' || (c == ':' && mode == ARITH_OFFSET))) stop = true;
                }
                default -> {
                }
            }
            if (stop) break;
            WordPart part = null;
            List<WordPart> many = null;
            switch (c) {
                case '\\' -> {
                    if (litStart < 0) litStart = p;
                    if (p + 1 < lx.n && escapes(mode, q, s[p + 1])) {
                        dirty = true;
                        lx.pos = p + 2;
                    } else if ((arith || dqOperand) && p + 1 < lx.n) {
                        // the parser passes the next character through: it neither quotes nor closes anything
                        lx.pos = p + 2;
                    } else {
                        lx.pos = p + 1;
                    }
                    continue;
                }
                case '\'' -> {
                    if (quotesActive) {
                        part = singleQuoted();
                    } else if ((arith && mode != ARITH_ALL) || (dqOperand && mode != OPERAND_ALL)) {
                        // The parser matches the quotes (a closer inside does not count); the expansion reads
                        // the quote characters as plain text and expands what is between them.
                        many = quotedRegion(p, arith ? ARITH_ALL : OPERAND_ALL, Q_HD);
                    }
                }
                case '"' -> {
                    if (mode != HEREDOC) part = doubleQuoted(p, p + 1, false);
                }
                case '$' -> {
                    part = dollar(mode, q);
                    if (part == null && extraParts != null) {
                        many = extraParts;
                        extraParts = null;
                    }
                }
                case '`' -> part = backquote(mode == DQ || dqOperand || arith);
                case '<', '>' -> {
                    // also inside ${...}: the parser reads <( ) there as a command (parse_matched_pair, LEX_GTLT),
                    // and the expansion runs it in an unquoted word and in a pattern even inside double quotes
                    if ((mode == NORMAL || mode == ASSIGN || isOperandMode(mode) || mode == ARITH_OFFSET
                            || mode == ARITH_LENGTH || mode == ARITH_BRACKET || mode == SUBSCRIPT
                            || mode == SUBSCRIPT_W) && nextIs(p, '(')) part = procSubst(p, c == '>');
                }
                case '=' -> {
                    // =(list): zsh's process substitution through a temporary file, at the start of a word; it
                    // runs whatever EQUALS is set to (zsh manual 14.2.2)
                    if (lx.root.zsh && mode == NORMAL && p == wordStart && nextIs(p, '(')) {
                        lx.root.zshForms.add("=(...), zsh's process substitution");
                        part = procSubst(p, false);
                    }
                }
                case '@', '!', '+', '*', '?' -> {
                    if (mode != DQ && mode != HEREDOC && mode != REGEX && mode != SUBSCRIPT && mode != SUBSCRIPT_W
                            && !arith && nextIs(p, '(')) part = extGlob(p, c);
                }
                case '~' -> {
                    boolean assignmentTilde = mode == NORMAL && assignmentTildes && litStart >= 0 && p > wordStart
                            && (s[p - 1] == '=' || s[p - 1] == ':') && assignmentPrefix(wordStart, p, s[p - 1] == '=');
                    if ((mode == NORMAL || mode == ASSIGN) && (p == wordStart || assignmentTilde
                            || (mode == ASSIGN && p > 0 && s[p - 1] == ':' && litStart >= 0))) {
                        int e = tildeEnd(p, assignmentTilde ? ASSIGN : mode);
                        if (e >= 0) {
                            if (litStart >= 0) {
                                out.add(literal(litStart, p, dirty, mode, q));
                                litStart = -1;
                                dirty = false;
                            }
                            lx.pos = e;
                            part = new WordPart.Tilde(lx.span(p, e), lx.text(p + 1, e).replace("\\\n", ""));
                        }
                    }
                }
                case '\n' -> {
                    if (mode == HEREDOC && hdStrip) {
                        if (litStart < 0) litStart = p;
                        lx.pos = p + 1;
                        out.add(literal(litStart, lx.pos, dirty, mode, q));
                        litStart = -1;
                        dirty = false;
                        while (lx.pos < lx.n && s[lx.pos] == '\t') lx.pos++;
                        continue;
                    }
                }
                default -> {
                }
            }
            if (part == null && many == null) {
                if (lx.pos == p) {
                    // plain literal character (or a '$' that starts no expansion)
                    if (litStart < 0) litStart = p;
                    lx.pos = p + 1;
                }
                continue;
            }
            if (litStart >= 0) {
                // a part started after literal text that has not been flushed yet (quotes, globs, ...)
                out.add(literal(litStart, p, dirty, mode, q));
                litStart = -1;
                dirty = false;
            }
            if (part != null) out.add(part);
            if (many != null) out.addAll(many);
            if (extraParts != null) {
                out.addAll(extraParts);
                extraParts = null;
            }
        }
        if (litStart >= 0) out.add(literal(litStart, lx.pos, dirty, mode, q));
        lx.leave();
        return out;
    }

    /**
     * Whether the word text from {@code wordStart} to {@code p} starts with an assignment's {@code NAME=},
     * {@code NAME+=} or {@code NAME[SUB]=} (general.c {@code assignment}): bash marks such a word as an assignment
     * wherever it stands, and then expands a tilde prefix after its first {@code =} and after any {@code :}
     * (subst.c {@code expand_word_internal}; not in posix mode). {@code atEquals}: p follows that first {@code =}.
     */
    private boolean assignmentPrefix(int wordStart, int p, boolean atEquals) {
        char[] s = lx.s;
        int i = wordStart;
        if (i >= p || !Lexer.isNameStart(s[i])) return false;
        while (i < p && Lexer.isNameChar(s[i])) i++;
        if (i < p && s[i] == '[') {
            int close = subscriptClose(i, false);
            if (close < 0 || close >= p) return false;
            i = close + 1;
        }
        if (i < p && s[i] == '+') i++;
        if (i >= p || s[i] != '=') return false;
        return !atEquals || i == p - 1;
    }

    private boolean nextIs(int p, char want) {
        int q = lx.norm(p + 1);
        return q < lx.n && lx.s[q] == want;
    }

    /**
     * End of a tilde prefix starting at {@code p} ({@code ~} or {@code ~user}), or -1 when there is none (general.c
     * {@code bash_tilde_find_word} and {@code bash_tilde_expand}, readline's {@code tilde_expand}): the prefix runs to
     * the first {@code /} (or {@code :} in an assignment) and is not expanded when a quote character or backslash is
     * in it; the user name ends there or at {@code :} or, outside assignment values, {@code =~}. A name holding an
     * expansion is read as an expansion after a literal {@code ~} (no such user exists).
     */
    private int tildeEnd(int p, int mode) {
        char[] s = lx.s;
        for (int q = lx.norm(p + 1); q < lx.n && s[q] != '/' && !Lexer.isMeta(s[q]); q = lx.norm(q + 1)) {
            char c = s[q];
            if (mode == ASSIGN && c == ':') break;
            if (c == '\\' || c == '\'' || c == '"') return -1;
        }
        int q = lx.norm(p + 1);
        while (q < lx.n) {
            char c = s[q];
            if (c == '(') return -1; // an extended glob such as ~@(a|b): no tilde prefix
            if (c == '/' || Lexer.isMeta(c) || c == ':') return q;
            if (c == '=' && mode != ASSIGN && lx.norm(q + 1) < lx.n && s[lx.norm(q + 1)] == '~') return q;
            if (c == '$' || c == '`' || c == '{' || c == '}' || c == '*' || c == '?' || c == '[' || c == ']') return -1;
            q = lx.norm(q + 1);
        }
        return q;
    }

    /** Whether a backslash escapes {@code e} in {@code mode} (else it stays literal). */
    private static boolean escapes(int mode, int q, char e) {
        if (mode == DQ || isArith(mode)) return e == '$' || e == '`' || e == '"' || e == '\\' || e == '\n';
        if (mode == HEREDOC) return e == '$' || e == '`' || e == '\\' || e == '\n';
        if (q != Q_NONE && isOperandMode(mode)) {
            return e == '$' || e == '`' || e == '"' || e == '\\' || e == '\n' || e == '}';
        }
        return true;
    }

    private WordPart.Literal literal(int start, int end, boolean dirty, int mode, int q) {
        String raw = lx.text(start, end);
        String value = dirty ? unescape(raw, mode, q) : raw;
        return new WordPart.Literal(lx.span(start, end), raw, value);
    }

    /** Removes line continuations and the backslashes that escape a character in {@code mode}. */
    static String unescape(String raw, int mode, boolean dq) {
        return unescape(raw, mode, dq ? Q_DQ : Q_NONE);
    }

    private static String unescape(String raw, int mode, int q) {
        StringBuilder sb = new StringBuilder(raw.length());
        int n = raw.length();
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (c == '\\' && i + 1 < n) {
                char e = raw.charAt(i + 1);
                if (e == '\n') {
                    i++;
                    continue;
                }
                if (escapes(mode, q, e)) {
                    sb.append(e);
                    i++;
                    continue;
                }
                if (isArith(mode)) {
                    sb.append(c).append(e);
                    i++;
                    continue;
                }
            }
            sb.append(c);
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- quotes

    private WordPart singleQuoted() throws ParseException {
        int start = lx.pos;
        int q = start + 1;
        while (q < lx.n && lx.s[q] != '\'') q++;
        if (q >= lx.n) throw lx.errAt(start, "unexpected end of file while looking for matching `''");
        lx.pos = q + 1;
        return new WordPart.SingleQuoted(lx.span(start, q + 1), lx.text(start + 1, q));
    }

    /**
     * A {@code '...'} at {@code start} that the parser matches as quotes but the expansion reads as text (in
     * arithmetic and in a double-quoted {@code ${...}} operand): the region, quote characters included, parsed on
     * its own in {@code mode}.
     */
    private List<WordPart> quotedRegion(int start, int mode, int q) throws ParseException {
        int e = start + 1;
        while (e < lx.n && lx.s[e] != '\'') e++;
        if (e >= lx.n) throw lx.errAt(start, "unexpected end of file while looking for matching `''");
        return region(start, e + 1, mode, q);
    }

    /** Parses local text {@code from..to} on its own in {@code mode}; the position ends at {@code to}. */
    private List<WordPart> region(int from, int to, int mode, int q) throws ParseException {
        int saved = lx.limit(to);
        List<Lexer.Pending> pending = lx.pending;
        lx.pending = new ArrayList<>(0);
        boolean savedSemi = arithSemi;
        List<int[]> savedRegions = spliceRegions;
        int savedBase = lx.substitutionBase;
        lx.substitutionBase = lx.substitutionDepth + 1;
        List<WordPart> parts;
        try {
            lx.pos = from;
            parts = parts(mode, q, from, null);
            if (lx.pos != to) throw lx.errAt(from, "unexpected end of quoted text");
            lx.finishHereDocs();
        } catch (ParseException e) {
            throw e.inExpansion();
        } finally {
            lx.limit(saved);
            lx.substitutionBase = savedBase;
            lx.pending = pending;
            arithSemi = savedSemi;
            spliceRegions = savedRegions;
        }
        lx.pos = to;
        return parts;
    }

    /** Parses {@code "..."} whose opening quote is at {@code contentStart - 1}; the part starts at {@code start}. */
    private WordPart doubleQuoted(int start, int contentStart, boolean localized) throws ParseException {
        lx.pos = contentStart;
        List<WordPart> parts = parts(DQ, Q_DQ, contentStart, null);
        if (lx.pos >= lx.n) throw lx.errAt(start, "unexpected end of file while looking for matching `\"'");
        lx.pos++;
        return new WordPart.DoubleQuoted(lx.span(start, lx.pos, parts), parts, localized);
    }

    /** The end (exclusive, after the closing quote) of the {@code $'...'} at {@code start}. */
    private int ansiCEnd(int start) throws ParseException {
        int q = lx.norm(start + 1) + 1;
        while (q < lx.n && lx.s[q] != '\'') {
            if (lx.s[q] == '\\' && q + 1 < lx.n) q++;
            q++;
        }
        if (q >= lx.n) throw lx.errAt(start, "unexpected end of file while looking for matching `''");
        return q + 1;
    }

    private WordPart ansiC(int start) throws ParseException {
        int end = ansiCEnd(start);
        int contentStart = lx.norm(start + 1) + 1;
        String raw = lx.text(contentStart, end - 1);
        lx.pos = end;
        return new WordPart.AnsiCQuoted(lx.span(start, end), raw, AnsiC.decode(raw));
    }

    /**
     * The {@code $'...'} at {@code start} where the parser puts its decoded text in single quotes and the
     * expansion reads those quotes as plain text (arithmetic, an operand of a {@code ${...}} in arithmetic): the
     * decoded text, parsed on its own in {@code mode} (text bash expands as it stands).
     */
    private List<WordPart> decodedAnsiC(int start, int mode) throws ParseException {
        int end = ansiCEnd(start);
        String decoded = AnsiC.decode(lx.text(lx.norm(start + 1) + 1, end - 1));
        List<WordPart> parts = nestedText(decoded.toCharArray(), start, end, mode, Q_HD);
        lx.pos = end;
        return parts;
    }

    /** Parses {@code text}, which stands for local text {@code start..end}, as a whole in {@code mode}. */
    private List<WordPart> nestedText(char[] text, int start, int end, int mode, int q) throws ParseException {
        int[] map = new int[text.length + 1];
        int[] endMap = new int[text.length + 1];
        java.util.Arrays.fill(map, lx.rootOffset(start));
        java.util.Arrays.fill(endMap, lx.rootEnd(end));
        try {
            return Parser.parseNestedParts(lx.root, text, map, endMap, lx.depth, mode, q);
        } catch (ParseException e) {
            throw e.inExpansion();
        }
    }

    /** Parses the whole scanned text in {@code mode} (for {@link Parser#parseNestedParts}). */
    List<WordPart> wholeText(int mode, int q) throws ParseException {
        lx.pos = 0;
        List<WordPart> parts = parts(mode, q, 0, null);
        if (lx.pos != lx.n) throw lx.errAt(lx.pos, "unexpected text after expansion");
        lx.finishHereDocs();
        return parts;
    }

    /** Parses the whole scanned text as one word made by brace expansion (for {@link Parser#parseWord}). */
    Word wholeWord() throws ParseException {
        assignmentTildes = false;
        lx.pos = 0;
        Word w = word(NORMAL, Q_NONE);
        if (lx.pos != lx.n) throw lx.errAt(lx.pos, "not one word");
        lx.finishHereDocs();
        return w;
    }

    /** The end of the substitution starting at {@code start} (for {@link Parser#substitutionEnd}). */
    int substitutionEnd(int start) throws ParseException {
        lx.pos = start;
        if (lx.s[start] == '$') dollarParen(start, Q_AR);
        else procSubst(start, lx.s[start] == '>');
        return lx.pos;
    }

    // ---------------------------------------------------------------- $ expansions

    private static boolean isSpecialParam(int c) {
        return c == '@' || c == '*' || c == '#' || c == '?' || c == '$' || c == '!' || c == '-';
    }

    /**
     * Parses the expansion at a {@code $}, or returns null (position unchanged) when it is a literal {@code $}.
     * A construct that yields several parts returns null with them in {@link #extraParts} and the position moved.
     */
    private WordPart dollar(int mode, int q) throws ParseException {
        int start = lx.pos;
        int c = lx.next();
        boolean arith = isArith(mode);
        boolean dqOperand = q != Q_NONE && isOperandMode(mode);
        switch (c) {
            case '\'' -> {
                if (mode == DQ || mode == HEREDOC) return null;
                if (arith || dqOperand) {
                    // no translation where only the expansion reads the text: `$` is a plain character
                    if (expansionOnly(mode, q)) return null;
                    int sub = arith ? ARITH_ALL : OPERAND_ALL;
                    if ((q == Q_DQ || q == Q_HDT) && spliceRegions != null) {
                        // Inside double quotes the decoded text is inserted as it is (spliced by paramBraced);
                        // with extquote off it is not translated: `$` and the quoted text are read as written.
                        // In a here-document it is single-quoted, or inserted as it is in a nested ${...}.
                        int end = ansiCEnd(start);
                        spliceRegions.add(new int[]{start, end});
                        List<WordPart> readings = new ArrayList<>(region(start, end, sub, Q_HD));
                        if (q == Q_HDT) {
                            readings.addAll(decodedAnsiC(start, sub));
                            lx.pos = end;
                        }
                        extraParts = readings;
                        return null;
                    }
                    extraParts = decodedAnsiC(start, sub);
                    return null;
                }
                return ansiC(start);
            }
            case '"' -> {
                if (mode == DQ || mode == HEREDOC) return null;
                if ((arith || dqOperand) && expansionOnly(mode, q)) return null;
                return doubleQuoted(start, lx.norm(start + 1) + 1, true);
            }
            case '(' -> {
                return dollarParen(start, nestedArithQuoting(mode, q));
            }
            case '[' -> {
                // $[ ] is read by the parser's matched-pair reader with the quoting around it (parse.y
                // parse_matched_pair, unlike $(( )), which parse_comsub reads without): inside double quotes its
                // $'...' is inserted decoded as it is
                int aq = bracketArithQuoting(mode, q);
                List<int[]> outer = spliceRegions;
                boolean own = (aq == Q_DQ || aq == Q_HDT) && outer == null;
                if (own) spliceRegions = new ArrayList<>(0);
                List<int[]> regions;
                Arithmetic a;
                try {
                    lx.advance(2);
                    a = arith(']', false, aq);
                    if (lx.cur() != ']') {
                        throw lx.errAt(start, "unexpected end of file while looking for matching `]'");
                    }
                    lx.pos++;
                } finally {
                    regions = spliceRegions;
                    spliceRegions = outer;
                }
                WordPart.ArithExpansion ae = new WordPart.ArithExpansion(lx.spanOf(start, lx.pos, a), a, true);
                if (own && regions != null && !regions.isEmpty()) {
                    extraParts = splice(start, lx.pos, regions, aq == Q_DQ ? DQ : HEREDOC);
                }
                return ae;
            }
            case '{' -> {
                return paramBraced(start, braceQuoting(mode, q));
            }
            default -> {
                if (Lexer.isNameStart(c)) {
                    lx.advance();
                    StringBuilder name = new StringBuilder();
                    while (Lexer.isNameChar(lx.cur())) {
                        name.append((char) lx.cur());
                        lx.pos++;
                    }
                    return new WordPart.ParamExpansion(lx.span(start, lx.pos), false, "", name.toString(), null,
                            null, List.of());
                }
                if (Lexer.isDigit(c) || isSpecialParam(c)) {
                    lx.advance();
                    lx.pos++;
                    return new WordPart.ParamExpansion(lx.span(start, lx.pos), false, "",
                            String.valueOf((char) c), null, null, List.of());
                }
                return null;
            }
        }
    }

    /** The quoting of a {@code ${...}} met in {@code mode}. */
    private static int braceQuoting(int mode, int q) {
        if (mode == DQ) return Q_DQ;
        if (mode == HEREDOC) return Q_HEREDOC;
        if (expansionOnly(mode, q)) return Q_HD;
        if (isArith(mode)) return q == Q_NONE ? Q_AR : q;
        if (isOperandMode(mode)) return q;
        return Q_NONE;
    }

    /** The quoting of a {@code $[ ]} met in {@code mode}: that of the text around it (see {@link #dollar}). */
    private static int bracketArithQuoting(int mode, int q) {
        if (mode == DQ) return Q_DQ;
        if (expansionOnly(mode, q)) return Q_HD;
        if ((isArith(mode) || isOperandMode(mode)) && (q == Q_DQ || q == Q_HDT)) return q;
        return Q_AR;
    }

    /** The quoting of a {@code $(( ))} or {@code $[ ]} met in {@code mode}: translated unless only expanded. */
    private static int nestedArithQuoting(int mode, int q) {
        return expansionOnly(mode, q) ? Q_HD : Q_AR;
    }

    /** {@code $(( ))} when it closes as arithmetic, else {@code $( )} (bash's rule). Position at {@code $}. */
    private WordPart dollarParen(int start, int arithQ) throws ParseException {
        if (lx.next2() == '(' && !lx.arithFailed.contains(start)) {
            List<Lexer.Pending> savedPending = new ArrayList<>(lx.pending);
            int savedDepth = lx.depth;
            try {
                lx.advance(3);
                Arithmetic a = arith(')', false, arithQ);
                if (lx.cur() == ')' && lx.next() == ')') {
                    lx.advance();
                    lx.pos++;
                    return new WordPart.ArithExpansion(lx.spanOf(start, lx.pos, a), a, false);
                }
            } catch (ParseException e) {
                // not arithmetic: fall back to a command substitution (unless bash took it as arithmetic)
                if (e.isInExpansion()) throw e;
            }
            lx.pending = savedPending;
            lx.depth = savedDepth;
            lx.arithFailed.add(start);
            lx.pos = start;
        }
        lx.advance(2);
        CommandList body = parser.nestedList("$(");
        return new WordPart.CommandSubstitution(lx.spanOf(start, lx.pos, body), body, false);
    }

    private WordPart procSubst(int start, boolean output) throws ParseException {
        lx.pos = start;
        lx.advance(2);
        CommandList body = parser.nestedList(output ? ">(" : "<(");
        return new WordPart.ProcessSubstitution(lx.spanOf(start, lx.pos, body), output, body);
    }

    private WordPart extGlob(int start, char op) throws ParseException {
        lx.pos = start;
        lx.advance(2);
        Word pattern = word(EXTGLOB, Q_NONE);
        if (lx.cur() != ')') throw lx.errAt(start, "unexpected end of file while looking for matching `)'");
        lx.pos++;
        return new WordPart.ExtGlob(lx.spanOf(start, lx.pos, pattern), String.valueOf(op), pattern);
    }

    /**
     * Parses {@code ${...}} at {@code start} with quoting {@code q}. Subscripts, offsets and lengths are
     * arithmetic text. Inside double quotes ({@link #Q_DQ}) the {@code $'...'} strings of the expansion are first
     * read as written (extquote off), and, if there are any, the expansion is parsed a second time from the text
     * bash makes of it, each replaced by its decoded text (parse.y {@code parse_matched_pair}: "Translate $'...'
     * here"); the parts of that reading follow the expansion in {@link #extraParts}.
     */
    private WordPart paramBraced(int start, int q) throws ParseException {
        List<int[]> outerRegions = spliceRegions;
        boolean collects = q == Q_DQ || q == Q_HEREDOC || q == Q_HDT;
        boolean outermost = collects && outerRegions == null;
        if (collects) {
            if (outermost) spliceRegions = new ArrayList<>(0);
        } else {
            spliceRegions = null;
        }
        boolean savedSemi = arithSemi;
        WordPart.ParamExpansion pe;
        List<int[]> regions;
        try {
            pe = paramBracedParts(start, q);
        } finally {
            regions = spliceRegions;
            spliceRegions = outerRegions;
            arithSemi = savedSemi;
        }
        if (outermost && regions != null && !regions.isEmpty()) {
            List<WordPart> before = extraParts;
            extraParts = null;
            List<WordPart> spliced = splice(start, lx.pos, regions, q == Q_DQ ? DQ : HEREDOC);
            List<WordPart> all = new ArrayList<>();
            if (before != null) all.addAll(before);
            all.addAll(spliced);
            extraParts = all;
        }
        return pe;
    }

    /**
     * The text bash expands for local text {@code start..end} holding the {@code $'...'} strings {@code regions},
     * each replaced by its decoded text, parsed as double-quoted text that is expanded as it stands.
     */
    private List<WordPart> splice(int start, int end, List<int[]> regions, int mode) throws ParseException {
        if (lx.root.spliceDepth >= MAX_SPLICE_DEPTH) {
            throw lx.errAt(start, "ANSI-C strings nest too deeply in double-quoted parameter expansions");
        }
        StringBuilder text = new StringBuilder(end - start);
        List<Integer> map = new ArrayList<>(end - start);
        List<Integer> endMap = new ArrayList<>(end - start);
        int i = start;
        for (int[] r : regions) {
            for (; i < r[0]; i++) {
                text.append(lx.s[i]);
                map.add(lx.rootOffset(i));
                endMap.add(lx.rootEnd(i));
            }
            String decoded = AnsiC.decode(lx.text(lx.norm(r[0] + 1) + 1, r[1] - 1));
            for (int k = 0; k < decoded.length(); k++) {
                text.append(decoded.charAt(k));
                map.add(lx.rootOffset(r[0]));
                endMap.add(lx.rootEnd(r[1]));
            }
            i = r[1];
        }
        for (; i < end; i++) {
            text.append(lx.s[i]);
            map.add(lx.rootOffset(i));
            endMap.add(lx.rootEnd(i));
        }
        map.add(lx.rootOffset(end));
        endMap.add(lx.rootEnd(end));
        int[] m = new int[map.size()];
        int[] em = new int[endMap.size()];
        for (int k = 0; k < m.length; k++) {
            m[k] = map.get(k);
            em[k] = endMap.get(k);
        }
        lx.root.spliceDepth++;
        try {
            return Parser.parseNestedParts(lx.root, text.toString().toCharArray(), m, em, lx.depth, mode, Q_HD);
        } catch (ParseException e) {
            throw e.inExpansion();
        } finally {
            lx.root.spliceDepth--;
        }
    }

    private WordPart.ParamExpansion paramBracedParts(int start, int q) throws ParseException {
        lx.enter();
        lx.advance(2);
        String prefix = "";
        int c = lx.cur();
        if (c == '#' || c == '!') {
            int nx = lx.next();
            if (nx != '}' && (Lexer.isNameChar(nx) || isSpecialParam(nx))) {
                prefix = c == '#' ? "#" : "!";
                lx.advance();
            }
        }
        c = lx.cur();
        StringBuilder name = new StringBuilder();
        if (Lexer.isNameStart(c)) {
            while (Lexer.isNameChar(lx.cur())) {
                name.append((char) lx.cur());
                lx.pos++;
            }
        } else if (Lexer.isDigit(c)) {
            while (Lexer.isDigit(lx.cur())) {
                name.append((char) lx.cur());
                lx.pos++;
            }
        } else if (isSpecialParam(c)) {
            name.append((char) c);
            lx.pos++;
        }
        if (name.length() == 0) throw lx.errAt(start, "bad substitution");
        Word index = null;
        if (lx.cur() == '[') {
            lx.pos++;
            index = word(ARITH_BRACKET, q);
            if (lx.cur() != ']') throw lx.errAt(start, "unexpected end of file while looking for matching `]'");
            lx.pos++;
            if (bareCloseBrace(index)) {
                // bash's reader ends a ${ at its first unquoted } (parse.y parse_matched_pair, P_FIRSTCLOSE: a [
                // does not nest there) and only the expansion reads the subscript: "${b[{$,}"\<newline>cmd ..."
                // ends the word, and the command, before cmd (measured), where the hook would read on to the ]
                throw lx.errAt(start, "a } inside the subscript of a ${...}, where bash's reader ends it");
            }
        }
        String op = null;
        List<Word> operands = new ArrayList<>(2);
        c = lx.cur();
        if (q == Q_HEREDOC) {
            // measured (bash 5.2): the substring, pattern, replacement and case words are read translated, the
            // words of :- := :+ :? - = + ? are not
            int nx = lx.next();
            q = "%#/^,".indexOf(c) >= 0 || (c == ':' && "-=?+".indexOf(nx) < 0) ? Q_HDT : Q_HD;
        }
        if (c != '}') {
            int nx = lx.next();
            switch (c) {
                case ':' -> {
                    if (nx == '-' || nx == '=' || nx == '?' || nx == '+') {
                        op = ":" + (char) nx;
                        lx.advance(2);
                        operands.add(word(OPERAND, q));
                    } else {
                        op = ":";
                        lx.advance();
                        operands.add(word(ARITH_OFFSET, q));
                        if (lx.cur() == ':') {
                            lx.advance();
                            operands.add(word(ARITH_LENGTH, q));
                        }
                    }
                }
                case '-', '=', '?', '+' -> {
                    op = String.valueOf((char) c);
                    lx.advance();
                    operands.add(word(OPERAND, q));
                }
                case '#', '%', '^', ',' -> {
                    if (nx == c) {
                        op = "" + (char) c + (char) c;
                        lx.advance(2);
                    } else {
                        op = String.valueOf((char) c);
                        lx.advance();
                    }
                    if (lx.cur() != '}' || c == '#' || c == '%') operands.add(word(OPERAND, q));
                }
                case '/' -> {
                    lx.advance();
                    int k = lx.cur();
                    if (k == '/' || k == '#' || k == '%') {
                        op = "/" + (char) k;
                        lx.advance();
                    } else {
                        op = "/";
                    }
                    operands.add(word(PATTERN, q));
                    if (lx.cur() == '/') {
                        lx.advance();
                        operands.add(word(OPERAND, q));
                    }
                }
                case '@' -> {
                    op = "@";
                    lx.advance();
                    if (!(prefix.equals("!") && lx.cur() == '}')) operands.add(word(OPERAND, q));
                }
                case '*' -> {
                    if (!prefix.equals("!") || nx != '}') throw lx.errAt(start, "bad substitution");
                    op = "*";
                    lx.advance();
                }
                default -> throw lx.errAt(start, "bad substitution");
            }
        }
        if (lx.cur() != '}') {
            if (lx.cur() == Lexer.EOF) {
                throw lx.errAt(start, "unexpected end of file while looking for matching `}'");
            }
            throw lx.errAt(start, "bad substitution");
        }
        lx.pos++;
        List<Node> kids = new ArrayList<>(operands);
        if (index != null) kids.add(index);
        lx.leave();
        return new WordPart.ParamExpansion(lx.span(start, lx.pos, kids), true, prefix, name.toString(), index, op,
                List.copyOf(operands));
    }

    // ---------------------------------------------------------------- arithmetic

    /**
     * Parses arithmetic text up to (not including) the closing {@code close} at nesting level 0 (or a {@code ;}
     * when {@code semi}); the caller checks and consumes the closer. The text is read as bash expands it
     * (subst.c {@code expand_arith_string}): like double-quoted text, with single quotes as plain characters.
     */
    Arithmetic arith(char close, boolean semi) throws ParseException {
        return arith(close, semi, Q_AR);
    }

    private Arithmetic arith(char close, boolean semi, int q) throws ParseException {
        lx.cur();
        int start = lx.pos;
        boolean savedSemi = arithSemi;
        List<int[]> savedRegions = spliceRegions;
        arithSemi = semi;
        // $(( )) is read apart from the quoting around it; $[ ] inside double quotes collects for the splice
        if (q != Q_DQ && q != Q_HDT) spliceRegions = null;
        List<WordPart> parts;
        try {
            parts = parts(close == ')' ? ARITH_PAREN : ARITH_BRACKET, q, start, null);
        } finally {
            arithSemi = savedSemi;
            spliceRegions = savedRegions;
        }
        if (lx.pos >= lx.n) throw lx.errAt(start, "unexpected end of file in arithmetic expression");
        return new Arithmetic(lx.span(start, lx.pos, parts), lx.text(start, lx.pos), parts);
    }

    /**
     * The evaluation bash applies to the value of a subscript it has already expanded as a word (the index of a
     * compound array element, {@code NAME[SUB]=VALUE} given to a declaration builtin): the value is arithmetic
     * text, expanded again (Bash Reference Manual §6.7 "Arrays"; measured: {@code a=(['$(cmd)']=1)} runs cmd).
     * Returns {@code index} with an {@link WordPart.ArithExpansion} of that value appended when the value holds
     * an expansion; otherwise {@code index} itself.
     *
     * <p>An index with expansions of its own ({@code [$x==\$(c1)]}, {@code ["$(c2)"'$(c1)']}) has a value only
     * known at run time, which the extractor reports as run-time code. The text its quoted and escaped parts leave
     * after the first expansion is still code bash runs ({@code \$(c1)} becomes {@code $(c1)}): it is read with
     * the expansions standing for their values, so the commands in it are sub-commands (a denied one denies); text
     * that does not parse so is left to the run-time code fact alone.
     */
    private Word evaluatedIndex(Word index) throws ParseException {
        String v = WordValue.staticValue(index.parts());
        boolean dynamic = v == null;
        if (dynamic) {
            StringBuilder all = new StringBuilder();
            StringBuilder quoted = new StringBuilder();
            firstExpansion(index.parts(), all, quoted);
            if (quoted.indexOf("$") < 0 && quoted.indexOf("`") < 0) return index;
            v = all.toString();
        }
        if (v.indexOf('$') < 0 && v.indexOf('`') < 0) return index;
        int start = lx.pos;
        List<WordPart> parts;
        try {
            parts = Parser.parseNestedParts(lx.root, v.toCharArray(), fill(v.length() + 1, index.span().start()),
                    fill(v.length() + 1, index.span().end()), lx.depth, ARITH_ALL, Q_HD);
        } catch (ParseException e) {
            lx.pos = start;
            if (dynamic) return index;
            throw e.inExpansion();
        }
        lx.pos = start;
        boolean expands = false;
        for (WordPart p : parts) expands |= !(p instanceof WordPart.Literal);
        if (!expands) return index;
        Arithmetic a = new Arithmetic(index.span(), v, parts);
        List<WordPart> out = new ArrayList<>(index.parts());
        out.add(new WordPart.ArithExpansion(index.span(), a, false));
        return new Word(index.span(), out, index.text());
    }

    /**
     * The text of {@code parts} after bash's first expansion of a subscript in {@code all}, every expansion (whose
     * value is only known at run time; its own commands are read where it is written) standing as {@code $1}, a
     * value the hook reads as unknown; {@code quoted} gets only the text of the literal and quoted parts.
     */
    private void firstExpansion(List<WordPart> parts, StringBuilder all, StringBuilder quoted) {
        for (WordPart p : parts) {
            String text = p instanceof WordPart.Literal lit ? lit.value()
                    : p instanceof WordPart.SingleQuoted sq ? sq.value()
                    : p instanceof WordPart.AnsiCQuoted ac ? ac.value() : null;
            if (text != null) {
                all.append(text);
                quoted.append(text);
            } else if (p instanceof WordPart.DoubleQuoted dq) {
                firstExpansion(dq.parts(), all, quoted);
            } else {
                all.append("$1");
            }
        }
    }

    /** Whether the literal text of {@code index} holds a } outside quotes and escapes. */
    private static boolean bareCloseBrace(Word index) {
        for (WordPart p : index.parts()) {
            if (!(p instanceof WordPart.Literal lit)) continue;
            String raw = lit.raw();
            char quote = 0;
            for (int i = 0; i < raw.length(); i++) {
                char c = raw.charAt(i);
                if (quote == 0 && c == '\\') {
                    i++;
                } else if (quote != 0) {
                    if (c == quote) quote = 0;
                    else if (quote == '"' && c == '\\') i++;
                } else if (c == '\'' || c == '"') {
                    quote = c;
                } else if (c == '}') {
                    return true;
                }
            }
        }
        return false;
    }

    private static int[] fill(int n, int v) {
        int[] a = new int[n];
        java.util.Arrays.fill(a, v);
        return a;
    }

    // ---------------------------------------------------------------- backquotes

    /** Parses {@code `...`} at the current position; its body is un-escaped and parsed recursively. */
    private WordPart backquote(boolean inDq) throws ParseException {
        lx.enter();
        final char[] s = lx.s;
        int start = lx.pos;
        int q = start + 1;
        while (q < lx.n && s[q] != '`') {
            if (s[q] == '\\' && q + 1 < lx.n) q++;
            q++;
        }
        if (q >= lx.n) throw lx.errAt(start, "unexpected end of file while looking for matching ``'");
        int len = q - (start + 1);
        char[] buf = new char[len];
        int[] map = new int[len + 1];
        int[] endMap = new int[len + 1];
        int k = 0;
        for (int i = start + 1; i < q; i++) {
            char c = s[i];
            if (c == '\\' && i + 1 < q) {
                char e = s[i + 1];
                if (e == '\n') {
                    // bash removes backslash-newline while it reads the backquoted text, before the body is parsed
                    i++;
                    continue;
                }
                if (e == '\\' || e == '`' || e == '$' || (inDq && e == '"')) {
                    map[k] = lx.rootOffset(i);
                    endMap[k] = lx.rootEnd(i);
                    buf[k++] = e;
                    i++;
                    continue;
                }
            }
            map[k] = lx.rootOffset(i);
            endMap[k] = lx.rootEnd(i);
            buf[k++] = c;
        }
        map[k] = lx.rootOffset(q);
        endMap[k] = lx.rootEnd(q);
        char[] body = k == len ? buf : java.util.Arrays.copyOf(buf, k);
        int[] bodyMap = k == len ? map : java.util.Arrays.copyOf(map, k + 1);
        int[] bodyEndMap = k == len ? endMap : java.util.Arrays.copyOf(endMap, k + 1);
        CommandList list = Parser.parseNested(lx.root, body, bodyMap, bodyEndMap, lx.depth);
        lx.pos = q + 1;
        lx.leave();
        return new WordPart.CommandSubstitution(lx.spanOf(start, q + 1, list), list, true);
    }

    // ---------------------------------------------------------------- here-document bodies

    /**
     * Builds the body word of a here-document occupying {@code start..end} (bash(1) "Here Documents"). A quoted
     * body is one literal, read as written. An unquoted body is what bash expands: the text with every unquoted
     * backslash-newline removed (lines are joined as they are read, before the delimiter comparison and before any
     * parsing, so a quote, comment or nested here-document in a substitution sees the joined text). That text is
     * parsed by a nested parser whose offsets map back to the source, like a backquoted body.
     */
    Word hereDocBody(int start, int end, boolean quoted, boolean strip) throws ParseException {
        if (quoted) {
            String raw = lx.text(start, end);
            String value = strip ? stripTabs(raw) : raw;
            WordPart.Literal lit = new WordPart.Literal(lx.span(start, end), raw, value);
            return new Word(lx.span(start, end), List.of(lit));
        }
        final char[] s = lx.s;
        int len = end - start;
        char[] buf = new char[len];
        int[] map = new int[len + 1];
        int[] endMap = new int[len + 1];
        int k = 0;
        for (int i = start; i < end; i++) {
            char c = s[i];
            if (c == '\\' && i + 1 < end) {
                if (s[i + 1] == '\n') {
                    i++;
                    continue;
                }
                // a backslash quotes the next character: it cannot start a continuation
                map[k] = lx.rootOffset(i);
                endMap[k] = lx.rootEnd(i);
                buf[k++] = c;
                i++;
                c = s[i];
            }
            map[k] = lx.rootOffset(i);
            endMap[k] = lx.rootEnd(i);
            buf[k++] = c;
        }
        map[k] = lx.rootOffset(end);
        endMap[k] = lx.rootEnd(end);
        char[] text = k == len ? buf : java.util.Arrays.copyOf(buf, k);
        List<WordPart> parts = Parser.parseHereDocBody(lx.root, text, java.util.Arrays.copyOf(map, k + 1),
                java.util.Arrays.copyOf(endMap, k + 1), lx.depth, strip);
        return new Word(lx.span(start, end, parts), parts);
    }

    /**
     * Parses the whole scanned text as the (already joined) body of an unquoted here-document: expansions,
     * backslash escapes of {@code $ ` \ newline}, and with {@code strip} the leading tabs of every line removed.
     */
    List<WordPart> hereDocParts(boolean strip) throws ParseException {
        boolean savedStrip = hdStrip;
        hdStrip = strip;
        lx.pos = 0;
        if (strip) while (lx.pos < lx.n && lx.s[lx.pos] == '\t') lx.pos++;
        List<WordPart> parts = parts(HEREDOC, Q_HD, lx.pos, null);
        lx.finishHereDocs();
        hdStrip = savedStrip;
        return parts;
    }

    private static String stripTabs(String raw) {
        StringBuilder sb = new StringBuilder(raw.length());
        boolean lineStart = true;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (lineStart && c == '\t') continue;
            lineStart = c == '\n';
            sb.append(c);
        }
        return sb.toString();
    }

    // ---------------------------------------------------------------- assignments

    /**
     * The local offset of the {@code ]} that closes the subscript opened at {@code open}, read lexically as bash's
     * parser reads it (quotes, backslashes and nested {@code $( )}, {@code ${ }}, {@code $[ ]} skipped), or -1.
     * With {@code word}, an unquoted metacharacter ends the search.
     */
    private int subscriptClose(int open, boolean word) {
        char[] s = lx.s;
        int depth = 0;
        int i = open + 1;
        while (i < lx.n) {
            char c = s[i];
            if (c == '\\') {
                i += 2;
                continue;
            }
            if (c == '\'' || c == '"' || c == '`') {
                i = skipQuoted(i);
                if (i < 0) return -1;
                continue;
            }
            // a process substitution is part of the word it stands in (parse.y read_token_word), not its end
            if ((c == '$' && i + 1 < lx.n && (s[i + 1] == '(' || s[i + 1] == '{' || s[i + 1] == '['))
                    || ((c == '<' || c == '>') && i + 1 < lx.n && s[i + 1] == '(')) {
                i = skipGroup(i + 1);
                if (i < 0) return -1;
                continue;
            }
            if (c == '[') {
                depth++;
            } else if (c == ']') {
                if (depth == 0) return i;
                depth--;
            } else if (word && Lexer.isMeta(c)) {
                return -1;
            }
            i++;
        }
        return -1;
    }

    /** After the quoted string starting at {@code i} (its quote character at {@code i}), or -1. */
    private int skipQuoted(int i) {
        char[] s = lx.s;
        char quote = s[i];
        int j = i + 1;
        while (j < lx.n && s[j] != quote) {
            if (s[j] == '\\' && quote != '\'') j++;
            else if (quote == '"' && s[j] == '$' && j + 1 < lx.n && (s[j + 1] == '(' || s[j + 1] == '{')) {
                j = skipGroup(j + 1);
                if (j < 0) return -1;
                continue;
            }
            j++;
        }
        return j < lx.n ? j + 1 : -1;
    }

    /** After the group whose opening bracket is at {@code i} ({@code ( { [}), quotes skipped, or -1. */
    private int skipGroup(int i) {
        char[] s = lx.s;
        char open = s[i];
        char close = open == '(' ? ')' : open == '{' ? '}' : ']';
        int depth = 0;
        int j = i;
        while (j < lx.n) {
            char c = s[j];
            if (c == '\\') {
                j += 2;
                continue;
            }
            if (c == '\'' || c == '"' || c == '`') {
                j = skipQuoted(j);
                if (j < 0) return -1;
                continue;
            }
            if (c == open) depth++;
            else if (c == close && --depth == 0) return j + 1;
            j++;
        }
        return -1;
    }

    /**
     * At the start of a word that may be an assignment ({@code NAME=}, {@code NAME+=}, {@code NAME[sub]=},
     * with a scalar or {@code ( )} value): returns an {@link Assignment}, or, when {@code asWord} (an argument
     * of a declaration builtin), a {@link Word} whose parts spell it (with a {@link WordPart.ArrayLiteral} for a
     * compound value). When the text is not assignment-shaped, returns the plain {@link Word}. The subscript of an
     * assignment statement is arithmetic text; that of a declaration argument is expanded as a word and its value
     * then evaluated as arithmetic ({@link #evaluatedIndex}).
     */
    Node wordOrAssignment(boolean asWord) throws ParseException {
        lx.cur();
        int start = lx.pos;
        if (!Lexer.isNameStart(lx.s[start])) return word(NORMAL, Q_NONE);
        StringBuilder name = new StringBuilder();
        while (Lexer.isNameChar(lx.cur())) {
            name.append((char) lx.cur());
            lx.pos++;
        }
        int nameEnd = lx.pos;
        Word index = null;
        int idxClose = -1;
        List<WordPart> prefix = null;
        if (lx.cur() == '[') {
            int open = lx.pos;
            int close = subscriptClose(open, asWord);
            boolean assignment = !asWord && close > 0 && close + 1 < lx.n
                    && (lx.s[close + 1] == '=' || (lx.s[close + 1] == '+' && close + 2 < lx.n
                    && lx.s[close + 2] == '='));
            lx.pos++;
            if (assignment) {
                index = word(ARITH_BRACKET, Q_NONE);
                if (lx.pos != close) throw lx.errAt(open, "unexpected end of file while looking for matching `]'");
            } else {
                index = word(asWord ? SUBSCRIPT_W : SUBSCRIPT, Q_NONE);
            }
            if (lx.cur() != ']') {
                prefix = new ArrayList<>();
                prefix.add(new WordPart.Literal(lx.span(start, open + 1), lx.text(start, open + 1),
                        WordParser.unescape(lx.text(start, open + 1), NORMAL, Q_NONE)));
                prefix.addAll(index.parts());
                List<WordPart> parts = parts(NORMAL, Q_NONE, start, prefix);
                return mkWord(start, lx.pos, parts);
            }
            idxClose = lx.pos;
            lx.pos++;
        }
        boolean append = false;
        int c = lx.cur();
        if (c == '+' && lx.next() == '=') {
            append = true;
            lx.advance();
            lx.advance();
        } else if (c == '=') {
            lx.advance();
        } else {
            // not an assignment: the rest is an ordinary word
            List<WordPart> parts = new ArrayList<>();
            if (index == null) {
                lx.pos = start;
                return word(NORMAL, Q_NONE);
            }
            String head = lx.text(start, nameEnd + 1);
            parts.add(new WordPart.Literal(lx.span(start, nameEnd + 1), head, unescape(head, NORMAL, Q_NONE)));
            parts.addAll(index.parts());
            parts.add(new WordPart.Literal(lx.span(idxClose, idxClose + 1), "]", "]"));
            parts = parts(NORMAL, Q_NONE, start, parts);
            return mkWord(start, lx.pos, parts);
        }
        if (asWord && index != null) index = evaluatedIndex(index);
        int opEnd = lx.pos;
        List<ArrayElement> array = null;
        Word value = null;
        int arrStart = lx.pos;
        if (lx.cur() == '(') {
            array = arrayElements();
        } else {
            int vs = lx.pos;
            List<WordPart> vparts = parts(ASSIGN, Q_NONE, vs, null);
            value = mkWord(vs, lx.pos, vparts);
        }
        if (!asWord) {
            List<Node> kids = new ArrayList<>();
            if (index != null) kids.add(index);
            if (value != null) kids.add(value);
            if (array != null) kids.addAll(array);
            return new Assignment(lx.span(start, lx.pos, kids), name.toString(), index, append, value, array);
        }
        List<WordPart> parts = new ArrayList<>();
        String op = append ? "+=" : "=";
        if (index == null) {
            String raw = lx.text(start, opEnd);
            parts.add(new WordPart.Literal(lx.span(start, opEnd), raw, name + op));
        } else {
            String raw = lx.text(start, nameEnd + 1);
            parts.add(new WordPart.Literal(lx.span(start, nameEnd + 1), raw, name + "["));
            parts.addAll(index.parts());
            parts.add(new WordPart.Literal(lx.span(idxClose, opEnd), lx.text(idxClose, opEnd), "]" + op));
        }
        if (array != null) {
            parts.add(new WordPart.ArrayLiteral(lx.span(arrStart, lx.pos, array), array));
        } else {
            parts.addAll(value.parts());
        }
        return mkWord(start, lx.pos, parts);
    }

    /**
     * Rejects an extended glob in a compound assignment's element: without extglob (bash -c's default) it is a
     * syntax error, after which bash reads on inside the compound assignment and runs the lines that follow
     * (measured: {@code b=(@(a) "<newline>x<newline>")} runs x), so what runs depends on a shell option the hook
     * cannot see.
     */
    private void noExtGlob(List<WordPart> parts, int at) throws ParseException {
        for (WordPart part : parts) {
            if (part instanceof WordPart.ExtGlob) {
                throw lx.errAt(at, "extended glob in a compound assignment (a syntax error without extglob)");
            }
        }
    }

    /** Parses {@code ( elements )} of a compound assignment (§6.7); position at {@code (}. */
    private List<ArrayElement> arrayElements() throws ParseException {
        lx.enter();
        int open = lx.pos;
        lx.pos++;
        List<ArrayElement> out = new ArrayList<>();
        for (;;) {
            lx.skipNewlines();
            int c = lx.cur();
            if (c == ')') {
                lx.pos++;
                break;
            }
            if (c == Lexer.EOF) throw lx.errAt(open, "unexpected end of file while looking for matching `)'");
            int es = lx.pos;
            if (c == '[') {
                lx.pos++;
                Word idx = word(SUBSCRIPT, Q_NONE);
                if (lx.cur() == ']') {
                    int close = lx.pos;
                    lx.pos++;
                    int k = lx.cur();
                    boolean isAssign = k == '=' || (k == '+' && lx.next() == '=');
                    if (isAssign) {
                        if (k == '+') lx.advance();
                        lx.advance();
                        idx = evaluatedIndex(idx);
                        int vs = lx.pos;
                        List<WordPart> vp = parts(ASSIGN, Q_NONE, vs, null);
                        noExtGlob(vp, es);
                        Word v = mkWord(vs, lx.pos, vp);
                        out.add(new ArrayElement(lx.spanOf(es, lx.pos, idx, v), idx, v));
                        continue;
                    }
                    List<WordPart> parts = new ArrayList<>();
                    parts.add(new WordPart.Literal(lx.span(es, es + 1), "[", "["));
                    parts.addAll(idx.parts());
                    parts.add(new WordPart.Literal(lx.span(close, close + 1), "]", "]"));
                    parts = parts(NORMAL, Q_NONE, es, parts);
                    Word v = mkWord(es, lx.pos, parts);
                    out.add(new ArrayElement(v.span(), null, v));
                    continue;
                }
                List<WordPart> parts = new ArrayList<>();
                parts.add(new WordPart.Literal(lx.span(es, es + 1), "[", "["));
                parts.addAll(idx.parts());
                Word v = mkWord(es, lx.pos, parts);
                out.add(new ArrayElement(v.span(), null, v));
                continue;
            }
            Word v = word(NORMAL, Q_NONE);
            if (v.parts().isEmpty()) throw lx.unexpected();
            noExtGlob(v.parts(), es);
            out.add(new ArrayElement(v.span(), null, v));
        }
        lx.leave();
        return out;
    }
}
