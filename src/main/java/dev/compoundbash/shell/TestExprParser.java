package dev.compoundbash.shell;

import java.util.Set;

/**
 * Parses the expression of a {@code [[ ... ]]} conditional command (Bash Reference Manual §3.2.5.2 and §6.4
 * "Bash Conditional Expressions"): {@code ||} over {@code &&} over {@code !}, parentheses, unary tests such as
 * {@code -f file}, binary tests such as {@code == != =~ < > -eq -nt}, and lone words (an implicit {@code -n}).
 * The right side of {@code =~} is read as a regular expression word, in which parentheses and {@code |} need no
 * quoting.
 */
final class TestExprParser {
    private static final Set<String> UNARY = Set.of("-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p",
            "-r", "-s", "-t", "-u", "-w", "-x", "-G", "-L", "-N", "-O", "-S", "-z", "-n", "-o", "-v", "-R");
    private static final String[] BINARY = {"==", "=~", "!=", "=", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt",
            "-ot", "-ef"};

    private final Lexer lx;
    private final WordParser wp;

    TestExprParser(Lexer lx, WordParser wp) {
        this.lx = lx;
        this.wp = wp;
    }

    /** Parses the expression after {@code [[} and the closing {@code ]]}; {@code start} is where {@code [[} began. */
    TestExpr parse(int start) throws ParseException {
        TestExpr e = or(start);
        lx.skipBlanks();
        if (!"]]".equals(lx.peekReserved())) {
            if (lx.cur() == Lexer.EOF) throw lx.errAt(start, "unexpected end of file: expected `]]'");
            throw lx.err("syntax error in conditional expression: unexpected token " + lx.tokenDesc());
        }
        lx.consumeWord();
        return e;
    }

    private TestExpr or(int start) throws ParseException {
        lx.enter();
        TestExpr left = and(start);
        for (;;) {
            lx.skipBlanks();
            if (lx.cur() == '|' && lx.next() == '|') {
                lx.advance();
                lx.pos++;
                TestExpr right = and(start);
                left = new TestExpr.Binary(span(left, right), "||", left, right);
            } else {
                break;
            }
        }
        lx.leave();
        return left;
    }

    private TestExpr and(int start) throws ParseException {
        TestExpr left = not(start);
        for (;;) {
            lx.skipBlanks();
            if (lx.cur() == '&' && lx.next() == '&') {
                lx.advance();
                lx.pos++;
                TestExpr right = not(start);
                left = new TestExpr.Binary(span(left, right), "&&", left, right);
            } else {
                break;
            }
        }
        return left;
    }

    private Span span(TestExpr a, TestExpr b) {
        return Span.join(a.span(), b.span());
    }

    private TestExpr not(int start) throws ParseException {
        lx.enter();
        lx.skipNewlines();
        int s = lx.pos;
        TestExpr out;
        if ("!".equals(lx.peekReserved())) {
            int save = lx.pos;
            lx.consumeWord();
            lx.skipBlanks();
            if ("]]".equals(lx.peekReserved()) || lx.cur() == Lexer.EOF) {
                lx.pos = save;
                out = primary(start);
            } else {
                TestExpr inner = not(start);
                out = new TestExpr.Not(lx.spanOf(s, s + 1, inner), inner);
            }
        } else {
            out = primary(start);
        }
        lx.leave();
        return out;
    }

    private TestExpr primary(int start) throws ParseException {
        lx.skipNewlines();
        int s = lx.pos;
        int c = lx.cur();
        if (c == '(') {
            lx.pos++;
            TestExpr inner = or(start);
            lx.skipBlanks();
            if (lx.cur() != ')') throw unexpected(start);
            lx.pos++;
            return new TestExpr.Paren(lx.spanOf(s, lx.pos, inner), inner);
        }
        if (c == Lexer.EOF || (Lexer.isMeta(c) && !((c == '<' || c == '>') && lx.next() == '('))
                || "]]".equals(lx.peekReserved())) {
            throw unexpected(start);
        }
        Word w = wp.word(WordParser.NORMAL, false);
        if (w.parts().isEmpty()) throw unexpected(start);
        TestExpr.Operand left = new TestExpr.Operand(w.span(), w);
        String op = unaryOp(w);
        lx.skipBlanks();
        if (op != null) {
            if (!atOperand()) {
                throw lx.err("unexpected argument " + lx.tokenDesc() + " to conditional unary operator");
            }
            Word arg = wp.word(WordParser.NORMAL, false);
            TestExpr.Operand operand = new TestExpr.Operand(arg.span(), arg);
            return new TestExpr.Unary(Span.join(w.span(), arg.span()), op, operand);
        }
        String bin = binaryOp();
        if (bin == null) {
            int k = lx.cur();
            if (k == Lexer.EOF || k == ')' || (k == '&' && lx.next() == '&') || (k == '|' && lx.next() == '|')
                    || "]]".equals(lx.peekReserved())) {
                return left;
            }
            throw lx.err("conditional binary operator expected near " + lx.tokenDesc());
        }
        lx.skipBlanks();
        if (!atOperand() && !(bin.equals("=~") && lx.cur() == '(')) {
            throw lx.err("unexpected argument " + lx.tokenDesc() + " to conditional binary operator");
        }
        Word rw = wp.word(bin.equals("=~") ? WordParser.REGEX : WordParser.NORMAL, false);
        if (rw.parts().isEmpty()) throw unexpected(start);
        TestExpr.Operand right = new TestExpr.Operand(rw.span(), rw);
        return new TestExpr.Binary(Span.join(w.span(), rw.span()), bin, left, right);
    }

    private boolean atOperand() {
        int c = lx.cur();
        if (c == Lexer.EOF) return false;
        if (Lexer.isMeta(c)) return (c == '<' || c == '>') && lx.next() == '(';
        return !"]]".equals(lx.peekReserved());
    }

    private ParseException unexpected(int start) {
        if (lx.cur() == Lexer.EOF) return lx.errAt(start, "unexpected end of file: expected `]]'");
        return lx.err("syntax error in conditional expression: unexpected token " + lx.tokenDesc());
    }

    private static String unaryOp(Word w) {
        if (w.parts().size() != 1 || !(w.parts().get(0) instanceof WordPart.Literal l)) return null;
        return UNARY.contains(l.raw()) ? l.raw() : null;
    }

    /** Consumes and returns a binary operator at the current position, or returns null. */
    private String binaryOp() {
        int c = lx.cur();
        if (c == '<' || c == '>') {
            if (lx.next() == '(') return null;
            lx.pos++;
            return String.valueOf((char) c);
        }
        for (String op : BINARY) {
            if (lx.peekPlain(op)) {
                lx.consumeWord();
                return op;
            }
        }
        return null;
    }
}
