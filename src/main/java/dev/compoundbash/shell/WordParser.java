package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses words and everything inside them: quoting (Bash Reference Manual §3.1.2), parameter expansion (§3.5.3),
 * command substitution (§3.5.4), arithmetic expansion (§3.5.5), process substitution (§3.5.6), tilde prefixes
 * (§3.5.2), extended globs (§3.5.8.1), assignments and compound array values (§3.4, §6.7), and the bodies of
 * unquoted here-documents (§3.6.6). Works on the shared {@link Lexer} state and calls back into {@link Parser} for
 * command lists nested in {@code $( )}, {@code <( )} and backquotes.
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
    /** Offset of {@code ${x:off:len}}: as OPERAND, also ends at {@code :}. */
    static final int OFFSET = 6;
    /** Array subscript: ends at the matching {@code ]}; blanks allowed. */
    static final int SUBSCRIPT = 7;
    /** Array subscript inside a word: ends at the matching {@code ]} or an unquoted metacharacter. */
    static final int SUBSCRIPT_W = 8;
    /** Extended glob pattern: ends at the matching {@code )}. */
    static final int EXTGLOB = 9;
    /** Right side of {@code =~} in {@code [[ ]]}: parentheses and {@code |} allowed, blanks inside parentheses. */
    static final int REGEX = 10;

    private final Lexer lx;
    private final Parser parser;
    private boolean hdStrip;

    WordParser(Lexer lx, Parser parser) {
        this.lx = lx;
        this.parser = parser;
    }

    private static boolean isOperandMode(int mode) {
        return mode == OPERAND || mode == PATTERN || mode == OFFSET;
    }

    // ---------------------------------------------------------------- words

    /** Parses a word in {@code mode} starting at the current position; the word may be empty. */
    Word word(int mode, boolean dq) throws ParseException {
        lx.cur();
        int start = lx.pos;
        List<WordPart> parts = parts(mode, dq, start, null);
        return new Word(lx.span(start, lx.pos, parts), parts);
    }

    /** Parses a non-empty ordinary word or throws "unexpected token". */
    Word requireWord() throws ParseException {
        Word w = word(NORMAL, false);
        if (w.parts().isEmpty()) throw lx.unexpected();
        return w;
    }

    /**
     * Parses the parts of a word. {@code wordStart} is where the whole word began (for tilde prefixes);
     * {@code out} may carry parts already parsed.
     */
    List<WordPart> parts(int mode, boolean dq, int wordStart, List<WordPart> out) throws ParseException {
        lx.enter();
        if (out == null) out = new ArrayList<>(2);
        final char[] s = lx.s;
        int litStart = -1;
        boolean dirty = false;
        int depth = 0;
        boolean quotesActive = mode != DQ && mode != HEREDOC && !(dq && isOperandMode(mode));
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
                case OPERAND, PATTERN, OFFSET -> {
                    if (c == '}' && depth == 0) stop = true;
                    else if (mode == PATTERN && c == '/' && depth == 0) stop = true;
                    else if (mode == OFFSET && c == ':' && depth == 0) stop = true;
                    else if (c == '{') depth++;
                    else if (c == '}') depth--;
                }
                case SUBSCRIPT, SUBSCRIPT_W -> {
                    if (c == ']' && depth == 0) stop = true;
                    else if (mode == SUBSCRIPT_W && Lexer.isMeta(c)) stop = true;
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
                default -> {
                }
            }
            if (stop) break;
            WordPart part = null;
            switch (c) {
                case '\\' -> {
                    if (litStart < 0) litStart = p;
                    if (p + 1 < lx.n && escapes(mode, dq, s[p + 1])) {
                        dirty = true;
                        lx.pos = p + 2;
                    } else {
                        lx.pos = p + 1;
                    }
                    continue;
                }
                case '\'' -> {
                    if (quotesActive) part = singleQuoted();
                }
                case '"' -> {
                    if (mode != HEREDOC) part = doubleQuoted(p, p + 1, false);
                }
                case '$' -> part = dollar(mode, dq);
                case '`' -> part = backquote(mode == DQ || (dq && isOperandMode(mode)));
                case '<', '>' -> {
                    if ((mode == NORMAL || mode == ASSIGN) && nextIs(p, '(')) part = procSubst(p, c == '>');
                }
                case '@', '!', '+', '*', '?' -> {
                    if (mode != DQ && mode != HEREDOC && mode != REGEX && mode != SUBSCRIPT && mode != SUBSCRIPT_W
                            && nextIs(p, '(')) part = extGlob(p, c);
                }
                case '~' -> {
                    if ((mode == NORMAL || mode == ASSIGN) && (p == wordStart
                            || (mode == ASSIGN && p > 0 && s[p - 1] == ':' && litStart >= 0))) {
                        int q = tildeEnd(p, mode);
                        if (q >= 0) {
                            if (litStart >= 0) {
                                out.add(literal(litStart, p, dirty, mode, dq));
                                litStart = -1;
                                dirty = false;
                            }
                            lx.pos = q;
                            part = new WordPart.Tilde(lx.span(p, q), lx.text(p + 1, q));
                        }
                    }
                }
                case '\n' -> {
                    if (mode == HEREDOC && hdStrip) {
                        if (litStart < 0) litStart = p;
                        lx.pos = p + 1;
                        out.add(literal(litStart, lx.pos, dirty, mode, dq));
                        litStart = -1;
                        dirty = false;
                        while (lx.pos < lx.n && s[lx.pos] == '\t') lx.pos++;
                        continue;
                    }
                }
                default -> {
                }
            }
            if (part == null) {
                if (lx.pos == p) {
                    // plain literal character (or a '$' that starts no expansion)
                    if (litStart < 0) litStart = p;
                    lx.pos = p + 1;
                }
                continue;
            }
            if (litStart >= 0) {
                // a part started after literal text that has not been flushed yet (quotes, globs, ...)
                out.add(literal(litStart, p, dirty, mode, dq));
                litStart = -1;
                dirty = false;
            }
            out.add(part);
        }
        if (litStart >= 0) out.add(literal(litStart, lx.pos, dirty, mode, dq));
        lx.leave();
        return out;
    }

    private boolean nextIs(int p, char want) {
        int q = lx.norm(p + 1);
        return q < lx.n && lx.s[q] == want;
    }

    /** End of a tilde prefix starting at {@code p} ({@code ~} or {@code ~user}), or -1 when there is none. */
    private int tildeEnd(int p, int mode) {
        char[] s = lx.s;
        int q = p + 1;
        while (q < lx.n) {
            char c = s[q];
            if (Lexer.isNameChar(c) || c == '.' || c == '-' || c == '+') q++;
            else break;
        }
        if (q >= lx.n) return q;
        char c = s[q];
        if (c == '/' || Lexer.isMeta(c) || (mode == ASSIGN && c == ':')) return q;
        return -1;
    }

    /** Whether a backslash escapes {@code e} in {@code mode} (else it stays literal). */
    private static boolean escapes(int mode, boolean dq, char e) {
        if (mode == DQ) return e == '$' || e == '`' || e == '"' || e == '\\' || e == '\n';
        if (mode == HEREDOC) return e == '$' || e == '`' || e == '\\' || e == '\n';
        if (dq && isOperandMode(mode)) return e == '$' || e == '`' || e == '"' || e == '\\' || e == '\n' || e == '}';
        return true;
    }

    private WordPart.Literal literal(int start, int end, boolean dirty, int mode, boolean dq) {
        String raw = lx.text(start, end);
        String value = dirty ? unescape(raw, mode, dq) : raw;
        return new WordPart.Literal(lx.span(start, end), raw, value);
    }

    /** Removes line continuations and the backslashes that escape a character in {@code mode}. */
    static String unescape(String raw, int mode, boolean dq) {
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
                if (escapes(mode, dq, e)) {
                    sb.append(e);
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

    /** Parses {@code "..."} whose opening quote is at {@code contentStart - 1}; the part starts at {@code start}. */
    private WordPart doubleQuoted(int start, int contentStart, boolean localized) throws ParseException {
        lx.pos = contentStart;
        List<WordPart> parts = parts(DQ, true, contentStart, null);
        if (lx.pos >= lx.n) throw lx.errAt(start, "unexpected end of file while looking for matching `\"'");
        lx.pos++;
        return new WordPart.DoubleQuoted(lx.span(start, lx.pos, parts), parts, localized);
    }

    private WordPart ansiC(int start) throws ParseException {
        int q = lx.norm(start + 1) + 1;
        int contentStart = q;
        while (q < lx.n && lx.s[q] != '\'') {
            if (lx.s[q] == '\\' && q + 1 < lx.n) q++;
            q++;
        }
        if (q >= lx.n) throw lx.errAt(start, "unexpected end of file while looking for matching `''");
        String raw = lx.text(contentStart, q);
        lx.pos = q + 1;
        return new WordPart.AnsiCQuoted(lx.span(start, q + 1), raw, AnsiC.decode(raw));
    }

    // ---------------------------------------------------------------- $ expansions

    private static boolean isSpecialParam(int c) {
        return c == '@' || c == '*' || c == '#' || c == '?' || c == '$' || c == '!' || c == '-';
    }

    /** Parses the expansion at a {@code $}, or returns null (position unchanged) when it is a literal {@code $}. */
    private WordPart dollar(int mode, boolean dq) throws ParseException {
        int start = lx.pos;
        int c = lx.next();
        switch (c) {
            case '\'' -> {
                if (mode == DQ || mode == HEREDOC || (dq && isOperandMode(mode))) return null;
                return ansiC(start);
            }
            case '"' -> {
                if (mode == DQ || mode == HEREDOC || (dq && isOperandMode(mode))) return null;
                return doubleQuoted(start, lx.norm(start + 1) + 1, true);
            }
            case '(' -> {
                return dollarParen(start);
            }
            case '[' -> {
                lx.advance(2);
                Arithmetic a = arith(']', false);
                if (lx.cur() != ']') throw lx.errAt(start, "unexpected end of file while looking for matching `]'");
                lx.pos++;
                return new WordPart.ArithExpansion(lx.spanOf(start, lx.pos, a), a, true);
            }
            case '{' -> {
                return paramBraced(start, dq || mode == DQ || mode == HEREDOC);
            }
            default -> {
                if (Lexer.isNameStart(c)) {
                    lx.advance();
                    int ns = lx.pos;
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

    /** {@code $(( ))} when it closes as arithmetic, else {@code $( )} (bash's rule). Position at {@code $}. */
    private WordPart dollarParen(int start) throws ParseException {
        if (lx.next2() == '(' && !lx.arithFailed.contains(start)) {
            List<Lexer.Pending> savedPending = new ArrayList<>(lx.pending);
            int savedDepth = lx.depth;
            try {
                lx.advance(3);
                Arithmetic a = arith(')', false);
                if (lx.cur() == ')' && lx.next() == ')') {
                    lx.advance();
                    lx.pos++;
                    return new WordPart.ArithExpansion(lx.spanOf(start, lx.pos, a), a, false);
                }
            } catch (ParseException e) {
                // not arithmetic: fall back to a command substitution
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
        Word pattern = word(EXTGLOB, false);
        if (lx.cur() != ')') throw lx.errAt(start, "unexpected end of file while looking for matching `)'");
        lx.pos++;
        return new WordPart.ExtGlob(lx.spanOf(start, lx.pos, pattern), String.valueOf(op), pattern);
    }

    private WordPart paramBraced(int start, boolean dq) throws ParseException {
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
            index = word(SUBSCRIPT, false);
            if (lx.cur() != ']') throw lx.errAt(start, "unexpected end of file while looking for matching `]'");
            lx.pos++;
        }
        String op = null;
        List<Word> operands = new ArrayList<>(2);
        c = lx.cur();
        if (c != '}') {
            int nx = lx.next();
            switch (c) {
                case ':' -> {
                    if (nx == '-' || nx == '=' || nx == '?' || nx == '+') {
                        op = ":" + (char) nx;
                        lx.advance(2);
                        operands.add(word(OPERAND, dq));
                    } else {
                        op = ":";
                        lx.advance();
                        operands.add(word(OFFSET, dq));
                        if (lx.cur() == ':') {
                            lx.advance();
                            operands.add(word(OPERAND, dq));
                        }
                    }
                }
                case '-', '=', '?', '+' -> {
                    op = String.valueOf((char) c);
                    lx.advance();
                    operands.add(word(OPERAND, dq));
                }
                case '#', '%', '^', ',' -> {
                    if (nx == c) {
                        op = "" + (char) c + (char) c;
                        lx.advance(2);
                    } else {
                        op = String.valueOf((char) c);
                        lx.advance();
                    }
                    if (lx.cur() != '}' || c == '#' || c == '%') operands.add(word(OPERAND, dq));
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
                    operands.add(word(PATTERN, dq));
                    if (lx.cur() == '/') {
                        lx.advance();
                        operands.add(word(OPERAND, dq));
                    }
                }
                case '@' -> {
                    op = "@";
                    lx.advance();
                    if (!(prefix.equals("!") && lx.cur() == '}')) operands.add(word(OPERAND, dq));
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
     * when {@code semi}); the caller checks and consumes the closer.
     */
    Arithmetic arith(char close, boolean semi) throws ParseException {
        lx.enter();
        lx.cur();
        final char[] s = lx.s;
        int start = lx.pos;
        List<WordPart> parts = new ArrayList<>(2);
        int litStart = -1;
        boolean dirty = false;
        int depth = 0;
        for (;;) {
            int p = lx.pos;
            if (p >= lx.n) throw lx.errAt(start, "unexpected end of file in arithmetic expression");
            char c = s[p];
            if (c == '\\' && p + 1 < lx.n && s[p + 1] == '\n') {
                if (litStart < 0) litStart = p;
                dirty = true;
                lx.pos = p + 2;
                continue;
            }
            if (close == ')') {
                if (c == '(') depth++;
                else if (c == ')') {
                    if (depth == 0) break;
                    depth--;
                }
            } else {
                if (c == '[') depth++;
                else if (c == ']') {
                    if (depth == 0) break;
                    depth--;
                }
            }
            if (semi && c == ';' && depth == 0) break;
            WordPart part = null;
            if (c == '$') {
                part = dollar(NORMAL, false);
            } else if (c == '`') {
                part = backquote(false);
            } else if (c == '"') {
                part = doubleQuoted(p, p + 1, false);
            } else if (c == '\'') {
                part = singleQuoted();
            } else if (c == '\\' && p + 1 < lx.n) {
                if (litStart < 0) litStart = p;
                lx.pos = p + 2;
                continue;
            }
            if (part == null) {
                if (lx.pos == p) {
                    if (litStart < 0) litStart = p;
                    lx.pos = p + 1;
                }
                continue;
            }
            if (litStart >= 0) {
                parts.add(rawLiteral(litStart, p, dirty));
                litStart = -1;
                dirty = false;
            }
            parts.add(part);
        }
        if (litStart >= 0) parts.add(rawLiteral(litStart, lx.pos, dirty));
        lx.leave();
        return new Arithmetic(lx.span(start, lx.pos, parts), lx.text(start, lx.pos), parts);
    }

    private WordPart.Literal rawLiteral(int start, int end, boolean dirty) {
        String raw = lx.text(start, end);
        return new WordPart.Literal(lx.span(start, end), raw, dirty ? raw.replace("\\\n", "") : raw);
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
        List<WordPart> parts = parts(HEREDOC, false, lx.pos, null);
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
     * At the start of a word that may be an assignment ({@code NAME=}, {@code NAME+=}, {@code NAME[sub]=},
     * with a scalar or {@code ( )} value): returns an {@link Assignment}, or, when {@code asWord} (an argument
     * of a declaration builtin), a {@link Word} whose parts spell it (with a {@link WordPart.ArrayLiteral} for a
     * compound value). When the text is not assignment-shaped, returns the plain {@link Word}.
     */
    Node wordOrAssignment(boolean asWord) throws ParseException {
        lx.cur();
        int start = lx.pos;
        if (!Lexer.isNameStart(lx.s[start])) return word(NORMAL, false);
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
            lx.pos++;
            index = word(asWord ? SUBSCRIPT_W : SUBSCRIPT, false);
            if (lx.cur() != ']') {
                prefix = new ArrayList<>();
                prefix.add(new WordPart.Literal(lx.span(start, open + 1), lx.text(start, open + 1),
                        WordParser.unescape(lx.text(start, open + 1), NORMAL, false)));
                prefix.addAll(index.parts());
                List<WordPart> parts = parts(NORMAL, false, start, prefix);
                return new Word(lx.span(start, lx.pos, parts), parts);
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
                return word(NORMAL, false);
            }
            String head = lx.text(start, nameEnd + 1);
            parts.add(new WordPart.Literal(lx.span(start, nameEnd + 1), head, unescape(head, NORMAL, false)));
            parts.addAll(index.parts());
            parts.add(new WordPart.Literal(lx.span(idxClose, idxClose + 1), "]", "]"));
            parts = parts(NORMAL, false, start, parts);
            return new Word(lx.span(start, lx.pos, parts), parts);
        }
        int opEnd = lx.pos;
        List<ArrayElement> array = null;
        Word value = null;
        int arrStart = lx.pos;
        if (lx.cur() == '(') {
            array = arrayElements();
        } else {
            int vs = lx.pos;
            List<WordPart> vparts = parts(ASSIGN, false, vs, null);
            value = new Word(lx.span(vs, lx.pos, vparts), vparts);
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
        return new Word(lx.span(start, lx.pos, parts), parts);
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
                Word idx = word(SUBSCRIPT, false);
                if (lx.cur() == ']') {
                    int close = lx.pos;
                    lx.pos++;
                    int k = lx.cur();
                    boolean isAssign = k == '=' || (k == '+' && lx.next() == '=');
                    if (isAssign) {
                        if (k == '+') lx.advance();
                        lx.advance();
                        int vs = lx.pos;
                        List<WordPart> vp = parts(ASSIGN, false, vs, null);
                        Word v = new Word(lx.span(vs, lx.pos, vp), vp);
                        out.add(new ArrayElement(lx.spanOf(es, lx.pos, idx, v), idx, v));
                        continue;
                    }
                    List<WordPart> parts = new ArrayList<>();
                    parts.add(new WordPart.Literal(lx.span(es, es + 1), "[", "["));
                    parts.addAll(idx.parts());
                    parts.add(new WordPart.Literal(lx.span(close, close + 1), "]", "]"));
                    parts = parts(NORMAL, false, es, parts);
                    Word v = new Word(lx.span(es, lx.pos, parts), parts);
                    out.add(new ArrayElement(v.span(), null, v));
                    continue;
                }
                List<WordPart> parts = new ArrayList<>();
                parts.add(new WordPart.Literal(lx.span(es, es + 1), "[", "["));
                parts.addAll(idx.parts());
                Word v = new Word(lx.span(es, lx.pos, parts), parts);
                out.add(new ArrayElement(v.span(), null, v));
                continue;
            }
            Word v = word(NORMAL, false);
            if (v.parts().isEmpty()) throw lx.unexpected();
            out.add(new ArrayElement(v.span(), null, v));
        }
        lx.leave();
        return out;
    }
}
