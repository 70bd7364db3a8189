package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Character-level scanning state shared by {@link Parser}, {@link WordParser} and {@link TestExprParser}: the
 * text being scanned, the current position, line continuations, blanks and comments, operator and reserved-word
 * look-ahead, span and error construction, the nesting-depth guard and the queue of pending here-documents
 * (Bash Reference Manual §3.1.1 "Shell Operation", §3.1.2.1 "Escape Character", §3.1.3 "Comments",
 * §3.6.6 "Here Documents").
 *
 * <p>The scanned text is the script itself, the un-escaped body of a backquoted command substitution, or the
 * joined body of an unquoted here-document (its line continuations removed); in the latter two cases {@link #map}
 * translates local offsets to offsets of the script so that every span refers to the original source.
 */
final class Lexer {
    /** Returned by {@link #cur()} at the end of the scanned region. */
    static final int EOF = -1;

    /** The whole script, shared by nested lexers; knows where lines start. */
    static final class Root {
        final String text;
        final int[] lineStarts;
        final int lineCount;
        /** Splice re-parses of double-quoted parameter expansions in progress (WordParser.splice). */
        int spliceDepth;
        /** The text is read as zsh reads it ({@link Parser#parse(String, boolean)}): zsh's own grammar too. */
        final boolean zsh;
        /** The zsh-only forms the parser read, each described by what it is (both passes add the same ones). */
        final Set<String> zshForms = new LinkedHashSet<>();

        Root(String text) {
            this(text, false);
        }

        Root(String text, boolean zsh) {
            this.zsh = zsh;
            this.text = text;
            int count = 1;
            for (int i = 0, n = text.length(); i < n; i++) if (text.charAt(i) == '\n') count++;
            int[] starts = new int[count];
            int k = 1;
            for (int i = 0, n = text.length(); i < n; i++) if (text.charAt(i) == '\n') starts[k++] = i + 1;
            this.lineStarts = starts;
            this.lineCount = count;
        }

        /** 0-based index of the line holding {@code offset}. */
        int lineIndex(int offset) {
            int lo = 0, hi = lineCount - 1;
            while (lo < hi) {
                int mid = (lo + hi + 1) >>> 1;
                if (lineStarts[mid] <= offset) lo = mid; else hi = mid - 1;
            }
            return lo;
        }

        Span span(int start, int end) {
            int li = lineIndex(start);
            return new Span(start, end, li + 1, start - lineStarts[li] + 1);
        }
    }

    /** A here-document operator whose body has not been read yet. */
    record Pending(int opOffset, String delimiter, boolean quoted, boolean stripTabs) {
    }

    /** A body read in the first pass, with the position where scanning resumes after its delimiter line. */
    record HereDocResult(HereDoc node, int resume) {
    }

    final Root root;
    final char[] s;
    /**
     * Exclusive end of the region being scanned: the end of {@link #s}, or, while a quoted region is parsed on its
     * own ({@link #limit(int)}), the end of that region.
     */
    int n;
    int pos;
    /**
     * Local offset to root offset for span starts, length {@code s.length + 1}; null when {@code s} is the root
     * text. A character that was backslash-escaped in the root maps to its backslash.
     */
    final int[] map;
    /** Local offset to root offset for span ends: an escaped character maps to itself, after its backslash. */
    final int[] endMap;
    int depth;
    /**
     * How many command substitutions and process substitutions ({@code $( )}, {@code <( )}, {@code >( )}) the
     * current position is inside: there bash reads a here-document with the end-of-token rule of
     * {@link #readHereDoc}.
     */
    int substitutionDepth;
    /**
     * Substitution levels that do not count for that rule: 1 in a text bash parses only while expanding it (a
     * here-document body, decoded text), whose outermost {@code $( )} bash extracts without it (measured:
     * {@code cat <<X} with {@code $(c1 <<E} and the line {@code E c2 )} in its body runs neither c2 nor c1), 0
     * in the script and in every text parsed as commands.
     */
    int substitutionBase;
    /** The word parser working on this lexer (reads here-document bodies). */
    WordParser words;
    List<Pending> pending = new ArrayList<>(2);
    /** Here-document bodies by operator offset, from the first pass (null during the first pass). */
    final Map<Integer, HereDocResult> known;
    /** Bodies read during this pass. */
    final Map<Integer, HereDocResult> found = new HashMap<>();
    /** Offsets of {@code $((} / {@code ((} that did not close as arithmetic (so we do not try again). */
    final Set<Integer> arithFailed = new HashSet<>();
    /**
     * Nested lists ({@code $( )}, {@code <( )}, {@code >( )}) that failed to parse, by the offset after their
     * {@code (}, with the nesting depth they failed at. Backtracking from {@code $((} to {@code $(} reaches the same
     * inner list again at every level; parsing it from the same offset, no shallower and with no here-document
     * pending, fails again, so the first failure is rethrown instead of re-parsing (issue 8 fuzzing: unbalanced
     * nested {@code $((} was quadratic).
     */
    final Map<Integer, Failure> nestedFailed = new HashMap<>();

    /** A nested list's parse failure and the depth it happened at. */
    record Failure(ParseException error, int depth) {
    }

    Lexer(Root root, char[] s, int[] map, int[] endMap, int depth, Map<Integer, HereDocResult> known) {
        this.root = root;
        this.s = s;
        this.n = s.length;
        this.map = map;
        this.endMap = endMap;
        this.depth = depth;
        this.known = known;
    }

    // ---------------------------------------------------------------- depth guard

    void enter() throws ParseException {
        if (++depth > Parser.MAX_DEPTH) throw err("nesting deeper than " + Parser.MAX_DEPTH + " levels");
    }

    void leave() {
        depth--;
    }

    /**
     * Makes {@code end} the end of the scanned region (a quoted region parsed on its own) and returns the end it
     * replaces, to be given back to this method afterwards.
     */
    int limit(int end) {
        int old = n;
        n = end;
        return old;
    }

    // ---------------------------------------------------------------- characters

    /** Skips line continuations (backslash-newline) starting at {@code p}; returns the first real position. */
    int norm(int p) {
        while (p + 1 < n && s[p] == '\\' && s[p + 1] == '\n') p += 2;
        return p;
    }

    /** The current character after skipping line continuations (moves {@link #pos} past them), or EOF. */
    int cur() {
        pos = norm(pos);
        return pos < n ? s[pos] : EOF;
    }

    /** The character after the current one (continuations skipped), or EOF. Call after {@link #cur()}. */
    int next() {
        int p = norm(pos + 1);
        return p < n ? s[p] : EOF;
    }

    /** The character after {@link #next()}, or EOF. */
    int next2() {
        int p = norm(norm(pos + 1) + 1);
        return p < n ? s[p] : EOF;
    }

    /** Advances past the current character and any continuations after it. */
    void advance() {
        pos = norm(norm(pos) + 1);
    }

    void advance(int k) {
        for (int i = 0; i < k; i++) advance();
    }

    boolean atEnd() {
        return cur() == EOF;
    }

    static boolean isBlank(int c) {
        return c == ' ' || c == '\t';
    }

    /** Bash metacharacters (§2 "Definitions"): blank, newline, {@code | & ; ( ) < >}; EOF also ends a word. */
    static boolean isMeta(int c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '|' || c == '&' || c == ';' || c == '(' || c == ')'
                || c == '<' || c == '>' || c == EOF;
    }

    static boolean isNameStart(int c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
    }

    static boolean isNameChar(int c) {
        return isNameStart(c) || (c >= '0' && c <= '9');
    }

    static boolean isDigit(int c) {
        return c >= '0' && c <= '9';
    }

    /** Skips blanks, line continuations and a comment (to, not including, the newline). */
    void skipBlanks() {
        for (;;) {
            int c = cur();
            if (c == ' ' || c == '\t') {
                pos++;
            } else if (c == '#') {
                while (pos < n && s[pos] != '\n') pos++;
                return;
            } else {
                return;
            }
        }
    }

    /** Skips blanks, comments and newlines, reading pending here-document bodies at each newline. */
    void skipNewlines() throws ParseException {
        for (;;) {
            skipBlanks();
            if (cur() == '\n') consumeNewline(); else return;
        }
    }

    /** Consumes the newline at {@link #pos}, then reads the bodies of pending here-documents. */
    void consumeNewline() throws ParseException {
        pos++;
        if (!pending.isEmpty()) readHereDocs();
    }

    // ---------------------------------------------------------------- reserved words

    private int kwEnd;

    private static final Set<String> RESERVED = Set.of("!", "[[", "]]", "{", "}", "case", "coproc", "do", "done",
            "elif", "else", "esac", "fi", "for", "function", "if", "in", "select", "then", "time", "until", "while");
    /** zsh's reserved words beyond bash's (zsh manual 6.4 "Reserved Words"; nocorrect is read as a precommand). */
    private static final Set<String> ZSH_RESERVED = Set.of("repeat", "foreach", "end");

    /**
     * The reserved word at the current position if the next token is one (unquoted, followed by a metacharacter
     * or end of input), else null (§3.2.1 "Reserved Words"). Does not move past it; see {@link #consumeWord()}.
     */
    String peekReserved() {
        int p = norm(pos);
        int start = p;
        char[] buf = new char[8];
        int len = 0;
        while (p < n) {
            char c = s[p];
            if (isMeta(c)) break;
            if (!((c >= 'a' && c <= 'z') || c == '{' || c == '}' || c == '!' || c == '[' || c == ']')) return null;
            if (len == 8) return null;
            buf[len++] = c;
            p = norm(p + 1);
        }
        if (len == 0) return null;
        String w = new String(buf, 0, len);
        if (!RESERVED.contains(w) && !(root.zsh && ZSH_RESERVED.contains(w))) return null;
        kwEnd = p;
        pos = start;
        return w;
    }

    /** True when the next token is exactly the plain word {@code w} followed by a metacharacter. */
    boolean peekPlain(String w) {
        int p = norm(pos);
        for (int i = 0; i < w.length(); i++) {
            if (p >= n || s[p] != w.charAt(i)) return false;
            p = norm(p + 1);
        }
        if (p < n && !isMeta(s[p])) return false;
        kwEnd = p;
        return true;
    }

    /** Moves past the word last recognized by {@link #peekReserved()} or {@link #peekPlain(String)}. */
    void consumeWord() {
        pos = kwEnd;
    }

    // ---------------------------------------------------------------- spans and errors

    int rootOffset(int local) {
        if (map == null) return local;
        return map[Math.max(0, Math.min(local, map.length - 1))];
    }

    int rootEnd(int local) {
        if (endMap == null) return local;
        return endMap[Math.max(0, Math.min(local, endMap.length - 1))];
    }

    /** A span for local offsets {@code start..end}. */
    Span span(int start, int end) {
        if (end < start) end = start;
        int rs = rootOffset(start);
        return root.span(rs, Math.max(rs, rootEnd(end)));
    }

    /** A span from {@code start} to at least {@code end}, widened to cover every node in {@code kids}. */
    Span span(int start, int end, List<? extends Node> kids) {
        Span sp = span(start, end);
        int e = sp.end();
        int st = sp.start();
        for (Node k : kids) {
            if (k == null) continue;
            e = Math.max(e, k.span().end());
            st = Math.min(st, k.span().start());
        }
        if (e == sp.end() && st == sp.start()) return sp;
        return st == sp.start() ? new Span(sp.start(), e, sp.line(), sp.column()) : root.span(st, e);
    }

    /** Like {@link #span(int, int, List)} with individual children. */
    Span spanOf(int start, int end, Node... kids) {
        return span(start, end, java.util.Arrays.asList(kids));
    }

    ParseException err(String msg) {
        return errAt(pos, msg);
    }

    ParseException errAt(int local, String msg) {
        int off = rootOffset(Math.max(0, Math.min(local, s.length)));
        off = Math.min(off, root.text.length());
        int li = root.lineIndex(off);
        return new ParseException(msg, li + 1, off - root.lineStarts[li] + 1);
    }

    /** Describes the token at the current position for an error message, bash style. */
    String tokenDesc() {
        int c = cur();
        if (c == EOF) return "end of file";
        if (c == '\n') return "`newline'";
        int p = pos;
        int e = p;
        if (isMeta(c)) {
            e++;
            while (e < n && e - p < 3 && "|&;<>".indexOf(s[e]) >= 0 && "|&;<>".indexOf(c) >= 0) e++;
        } else {
            while (e < n && !isMeta(s[e]) && e - p < 40) e++;
        }
        return "`" + new String(s, p, Math.max(1, e - p)) + "'";
    }

    ParseException unexpected() {
        return err("syntax error near unexpected token " + tokenDesc());
    }

    // ---------------------------------------------------------------- here-documents

    /** Reads the bodies of all pending here-documents starting at {@link #pos} (just after a newline). */
    void readHereDocs() throws ParseException {
        List<Pending> todo = pending;
        pending = new ArrayList<>(2);
        for (Pending p : todo) {
            HereDocResult r = known != null ? known.get(p.opOffset()) : null;
            if (r == null) r = readHereDoc(p);
            found.put(p.opOffset(), r);
            pos = r.resume();
        }
    }

    private HereDocResult readHereDoc(Pending p) throws ParseException {
        int bodyStart = Math.min(pos, n);
        int q = bodyStart;
        int bodyEnd = n;
        int resume = n;
        String d = p.delimiter();
        boolean join = !p.quoted();
        StringBuilder line = new StringBuilder();
        while (q < n) {
            int lineEnd = join ? logicalLine(q, line) : physicalLine(q, line);
            if (isDelimiterLine(line, d, p.stripTabs())) {
                bodyEnd = q;
                resume = lineEnd < n ? lineEnd + 1 : lineEnd;
                break;
            }
            if (substitutionDepth > substitutionBase) {
                int rest = endsAtSubstitutionClose(q, line, d, p.stripTabs(), join);
                if (rest >= 0) {
                    bodyEnd = q;
                    resume = rest;
                    break;
                }
            }
            q = lineEnd < n ? lineEnd + 1 : lineEnd;
        }
        Word body = words.hereDocBody(bodyStart, bodyEnd, p.quoted(), p.stripTabs());
        HereDoc node = new HereDoc(span(bodyStart, bodyEnd, List.of(body)), d, p.quoted(), p.stripTabs(), body);
        return new HereDocResult(node, resume);
    }

    /**
     * Inside a command or process substitution, bash also ends a here-document at a line that starts with the
     * delimiter and holds a {@code )} anywhere after it, and reads the rest of that line, from just after the
     * delimiter, as input again (make_cmd.c make_here_document, "Backwards compatibility here": the line
     * {@code EOF)} closes both the body and the substitution, and {@code EOF c1 )} runs {@code c1}). Returns the
     * local offset where that rest starts, or -1 when the line is an ordinary body line.
     */
    private int endsAtSubstitutionClose(int q, CharSequence line, String d, boolean stripTabs, boolean join) {
        int skip = 0;
        if (stripTabs) while (skip < line.length() && line.charAt(skip) == '\t') skip++;
        if (line.length() - skip <= d.length()) return -1;
        if (!d.contentEquals(line.subSequence(skip, skip + d.length()))) return -1;
        if (line.toString().indexOf(')', skip + d.length()) < 0) return -1;
        // map the logical prefix (tabs and delimiter) back to the physical text: continuations are skipped
        int want = skip + d.length();
        int e = q;
        int k = 0;
        while (k < want && e < n) {
            if (join && s[e] == '\\' && e + 1 < n && s[e + 1] == '\n') {
                e += 2;
                continue;
            }
            if (join && s[e] == '\\' && e + 1 < n) {
                e += 2;
                k += 2;
                continue;
            }
            e++;
            k++;
        }
        return k == want ? e : -1;
    }

    /** Copies the physical line starting at {@code q} into {@code out}; returns the offset of its newline (or n). */
    private int physicalLine(int q, StringBuilder out) {
        out.setLength(0);
        int e = q;
        while (e < n && s[e] != '\n') e++;
        out.append(s, q, e - q);
        return e;
    }

    /**
     * Copies the logical line starting at {@code q} into {@code out} as bash reads a line of an unquoted
     * here-document (bash(1) "Here Documents"; parse.y read_a_line): a backslash quotes the next character, and
     * an unquoted backslash-newline is removed, joining the next physical line. Returns the offset of the newline
     * that ends the logical line (or n).
     */
    private int logicalLine(int q, StringBuilder out) {
        out.setLength(0);
        int e = q;
        while (e < n && s[e] != '\n') {
            if (s[e] == '\\' && e + 1 < n) {
                if (s[e + 1] != '\n') out.append(s[e]).append(s[e + 1]);
                e += 2;
            } else {
                out.append(s[e++]);
            }
        }
        return e;
    }

    /**
     * Whether a (logical) here-document line closes the body: it equals the delimiter, or, for {@code <<-}, it
     * does once its leading tabs are removed (bash compares the line before stripping too, so a delimiter that
     * starts with a tab still matches itself).
     */
    private static boolean isDelimiterLine(CharSequence line, String d, boolean stripTabs) {
        if (d.contentEquals(line)) return true;
        if (!stripTabs) return false;
        int c = 0;
        while (c < line.length() && line.charAt(c) == '\t') c++;
        return c > 0 && line.length() - c == d.length() && d.contentEquals(line.subSequence(c, line.length()));
    }

    /** Reads bodies still pending at the end of input: each runs to end of input (bash warns and accepts). */
    void finishHereDocs() throws ParseException {
        if (!pending.isEmpty()) {
            pos = n;
            readHereDocs();
        }
    }

    String text(int start, int end) {
        return new String(s, start, end - start);
    }
}
