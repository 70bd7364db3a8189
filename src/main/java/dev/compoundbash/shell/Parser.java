package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Recursive-descent parser for bash (Bash Reference Manual chapter 3 "Basic Shell Features"): lists, pipelines,
 * simple and compound commands, function definitions, coprocesses and redirections. Words are parsed by
 * {@link WordParser}, {@code [[ ]]} expressions by {@link TestExprParser}; character-level scanning and
 * here-document collection live in {@link Lexer}.
 *
 * <p>Shape of the tree: a {@link ListItem} holds the bare command when it is not joined to others; a
 * {@link Command.Pipeline} appears only with {@code |}, {@code |&}, {@code !} or {@code time}, and a
 * {@link Command.AndOrList} only with {@code &&} or {@code ||}.
 *
 * <p>Here-documents: their bodies start after the newline that ends the line holding the operator. Since a
 * {@link Redirection} is immutable and its body comes later, a script containing here-documents is parsed twice:
 * the first pass collects the bodies, the second attaches them. A node's span is widened to cover its children,
 * so spans of commands with here-documents reach to the end of the body.
 */
public final class Parser {
    /**
     * Deepest nesting accepted, in the parser's recursion steps (lists, pipelines, words, expansions, test
     * expressions); deeper input is rejected with a {@link ParseException}. One level of {@code "$(...)"} takes six
     * steps, of {@code $(...)} five, of {@code ( ... )} or {@code { ...; }} two, so 1,500 accepts 250 nested
     * {@code "$(...)"}, which the launcher's 4 MB thread stack (-Xss4m) parses and evaluates. A stack that runs out
     * first is reported as the same ParseException ("nests too deeply"), never as an error.
     */
    public static final int MAX_DEPTH = 1_500;

    private static final Set<String> CLOSERS = Set.of("then", "elif", "else", "fi", "do", "done", "esac", "}");
    /** The declaration builtins, whose {@code NAME=VALUE} operands are assignments (bash(1) "SIMPLE COMMAND EXPANSION"). */
    public static final Set<String> DECLARATION = Set.of("declare", "local", "export", "readonly", "typeset");

    private final Lexer lx;
    private final WordParser wp;
    private final TestExprParser tp;

    private Parser(Lexer.Root root, char[] text, int[] map, int[] endMap, int depth,
                   Map<Integer, Lexer.HereDocResult> known) {
        this.lx = new Lexer(root, text, map, endMap, depth, known);
        this.wp = new WordParser(lx, this);
        this.lx.words = wp;
        this.tp = new TestExprParser(lx, wp);
    }

    /**
     * Parses a bash script.
     *
     * @param source the script text (any string)
     * @return the syntax tree; its spans are offsets into {@code source}
     * @throws ParseException when {@code source} is not a complete, syntactically valid bash script (as
     *                        {@code bash -n} would judge it), or nests deeper than {@link #MAX_DEPTH}; no other
     *                        exception escapes
     */
    public static Script parse(String source) throws ParseException {
        return parse(source, false);
    }

    /**
     * Parses a script as bash, or as zsh reads it: with {@code zsh}, zsh's own grammar is read too (zsh manual 6
     * "Shell Grammar": {@code repeat}, {@code foreach ... end}, {@code for x (words)}, the short forms of
     * {@code for}/{@code if}/{@code while}/{@code repeat}, brace bodies, anonymous functions {@code () { } args}
     * and {@code function { } args}, a function body that is a simple command, several function names,
     * {@code { } always { }}, {@code &|} and {@code &!}, the case terminator {@code ;|}, {@code =(list)}, and a
     * sole {@code }} ending a command), each into the nearest bash node that runs the same commands, and listed
     * in {@link Script#zshForms()}: the reading is for finding the commands it runs, not for approving it.
     *
     * @param source the script text (any string)
     * @param zsh    read zsh's grammar too
     * @return the syntax tree
     * @throws ParseException as {@link #parse(String)}
     */
    public static Script parse(String source, boolean zsh) throws ParseException {
        if (source == null) throw new ParseException("no input", 1, 1);
        try {
            Lexer.Root root = new Lexer.Root(source, zsh);
            CommandList body = parseNested(root, source.toCharArray(), null, null, 0);
            return new Script(new Span(0, source.length(), 1, 1), body, source, List.copyOf(root.zshForms));
        } catch (StackOverflowError e) {
            throw new ParseException("input nests too deeply", 1, 1);
        } catch (RuntimeException e) {
            throw new ParseException("internal parser error: " + e, 1, 1);
        }
    }

    /** Parses a whole text (the script, or the un-escaped body of a backquoted substitution) in one or two passes. */
    static CommandList parseNested(Lexer.Root root, char[] text, int[] map, int[] endMap, int depth)
            throws ParseException {
        Parser p = new Parser(root, text, map, endMap, depth, null);
        CommandList list = p.program();
        if (p.lx.found.isEmpty()) return list;
        Parser p2 = new Parser(root, text, map, endMap, depth, p.lx.found);
        return p2.program();
    }

    /**
     * Parses the joined body of an unquoted here-document (bash(1) "Here Documents") in one or two passes (two
     * when a substitution in it holds here-documents of its own, whose bodies lie inside this text).
     *
     * @param text   the body with its line continuations removed; {@code map}/{@code endMap} give source offsets
     * @param strip  whether the operator was {@code <<-} (leading tabs of each line are removed)
     * @return the parts of the body word
     */
    static List<WordPart> parseHereDocBody(Lexer.Root root, char[] text, int[] map, int[] endMap, int depth,
                                           boolean strip) throws ParseException {
        Parser p = new Parser(root, text, map, endMap, depth, null);
        p.lx.substitutionBase = 1;
        List<WordPart> parts = p.wp.hereDocParts(strip);
        if (p.lx.found.isEmpty()) return parts;
        Parser p2 = new Parser(root, text, map, endMap, depth, p.lx.found);
        p2.lx.substitutionBase = 1;
        return p2.wp.hereDocParts(strip);
    }

    /**
     * Parses a text that bash expands as a whole, which is not the source as written (decoded {@code $'...'}
     * text, a double-quoted parameter expansion with its {@code $'...'} strings decoded, the value of a subscript
     * evaluated again), as the parts of a word in a word-parser mode; one or two passes, as for a here-document.
     *
     * @param map    root offset of each character's span start; {@code endMap} of its span end
     * @param mode   a {@link WordParser} mode that runs to the end of the text
     * @param q      the quoting context ({@link WordParser#Q_HD} and the like)
     * @return the parts; the whole text must be consumed
     * @throws ParseException when the text does not parse as a whole
     */
    static List<WordPart> parseNestedParts(Lexer.Root root, char[] text, int[] map, int[] endMap, int depth,
                                           int mode, int q) throws ParseException {
        Parser p = new Parser(root, text, map, endMap, depth, null);
        p.lx.substitutionBase = 1;
        List<WordPart> parts = p.wp.wholeText(mode, q);
        if (p.lx.found.isEmpty()) return parts;
        Parser p2 = new Parser(root, text, map, endMap, depth, p.lx.found);
        p2.lx.substitutionBase = 1;
        return p2.wp.wholeText(mode, q);
    }

    /**
     * Parses {@code text} as one whole word, as bash expands a word that brace expansion made (Bash Reference
     * Manual §3.5.1): such a word is no longer an assignment word, so a tilde after its {@code =} stays.
     *
     * @param text the word's text; its spans refer to it
     * @return the word
     * @throws ParseException when the text is not exactly one word
     */
    static Word parseWord(String text) throws ParseException {
        try {
            Lexer.Root root = new Lexer.Root(text);
            char[] s = text.toCharArray();
            Parser p = new Parser(root, s, null, null, 0, null);
            Word w = p.wp.wholeWord();
            if (p.lx.found.isEmpty()) return w;
            Parser p2 = new Parser(root, s, null, null, 0, p.lx.found);
            return p2.wp.wholeWord();
        } catch (StackOverflowError e) {
            throw new ParseException("input nests too deeply", 1, 1);
        } catch (RuntimeException e) {
            throw new ParseException("internal parser error: " + e, 1, 1);
        }
    }

    /**
     * The end (exclusive) of the command or process substitution ({@code $(...)}, {@code $((...))},
     * {@code <(...)}, {@code >(...)}) whose first character is at {@code start} in {@code text}, found by parsing
     * it; -1 when it does not parse.
     */
    static int substitutionEnd(String text, int start) {
        try {
            Parser p = new Parser(new Lexer.Root(text), text.toCharArray(), null, null, 0, null);
            return p.wp.substitutionEnd(start);
        } catch (ParseException | RuntimeException | StackOverflowError e) {
            return -1;
        }
    }

    private CommandList program() throws ParseException {
        CommandList list = parseList(true);
        lx.skipNewlines();
        if (lx.cur() != Lexer.EOF) throw lx.unexpected();
        lx.finishHereDocs();
        return list;
    }

    /** Parses the list inside {@code $( )}, {@code <( )} or {@code >( )}; position just after the {@code (}. */
    CommandList nestedList(String opener) throws ParseException {
        int open = lx.pos;
        boolean memo = lx.pending.isEmpty();
        Lexer.Failure before = memo ? lx.nestedFailed.get(open) : null;
        if (before != null && lx.depth >= before.depth()) throw before.error();
        int depth = lx.depth;
        List<int[]> splice = wp.spliceRegions;
        boolean tildes = wp.assignmentTildes;
        wp.spliceRegions = null;
        wp.assignmentTildes = true;
        lx.substitutionDepth++;
        try {
            lx.enter();
            CommandList body = parseList(true);
            lx.skipNewlines();
            if (lx.cur() != ')') {
                if (lx.cur() == Lexer.EOF) {
                    throw lx.errAt(open, "unexpected end of file while looking for matching `)' of " + opener);
                }
                throw lx.unexpected();
            }
            lx.pos++;
            lx.leave();
            return body;
        } catch (ParseException e) {
            if (memo) lx.nestedFailed.merge(open, new Lexer.Failure(e, depth),
                    (a, b) -> a.depth() <= b.depth() ? a : b);
            throw e;
        } finally {
            lx.substitutionDepth--;
            wp.spliceRegions = splice;
            wp.assignmentTildes = tildes;
        }
    }

    // ---------------------------------------------------------------- lists

    private boolean atListEnd() {
        int c = lx.cur();
        if (c == Lexer.EOF || c == ')') return true;
        if (c == ';') {
            int nx = lx.next();
            return nx == ';' || nx == '&' || zsh() && nx == '|';
        }
        String kw = lx.peekReserved();
        return kw != null && (CLOSERS.contains(kw) || zsh() && kw.equals("end"));
    }

    private boolean zsh() {
        return lx.root.zsh;
    }

    /** Records a zsh-only form the parser read. */
    private void zshForm(String description) {
        lx.root.zshForms.add(description);
    }

    /**
     * Parses a list (§3.2.4) up to a closing token it does not own: end of input, {@code )}, a case terminator
     * or a closing reserved word in command position.
     */
    CommandList parseList(boolean allowEmpty) throws ParseException {
        lx.enter();
        List<ListItem> items = new ArrayList<>(2);
        lx.skipNewlines();
        int listStart = lx.pos;
        for (;;) {
            lx.skipNewlines();
            if (atListEnd()) break;
            int cs = lx.pos;
            Command cmd = parseAndOr();
            lx.skipBlanks();
            int c = lx.cur();
            String sep;
            int sepEnd;
            if (c == ';' && lx.next() != ';' && lx.next() != '&' && !(zsh() && lx.next() == '|')) {
                sep = ";";
                lx.pos++;
                sepEnd = lx.pos;
            } else if (c == '&' && lx.next() != '&' && lx.next() != '>') {
                sep = "&";
                lx.pos++;
                if (zsh() && (lx.cur() == '|' || lx.cur() == '!')) {
                    // &| and &!: run in the background and disown (zsh manual 6.1 "Simple Commands")
                    zshForm("&" + (char) lx.cur() + ", zsh's background-and-disown");
                    lx.pos++;
                }
                sepEnd = lx.pos;
            } else if (c == '\n') {
                sep = "\n";
                sepEnd = lx.pos + 1;
            } else {
                sep = "";
                sepEnd = cs;
            }
            items.add(new ListItem(lx.spanOf(cs, sepEnd, cmd), cmd, sep));
            if (c == '\n') lx.consumeNewline();
            if (sep.isEmpty()) break;
        }
        if (items.isEmpty() && !allowEmpty) throw lx.unexpected();
        lx.leave();
        if (items.isEmpty()) return new CommandList(lx.span(listStart, listStart), List.of());
        return new CommandList(lx.span(listStart, listStart, items), items);
    }

    private Command parseAndOr() throws ParseException {
        int start = lx.pos;
        Command first = parsePipeline();
        List<Command> cmds = null;
        List<String> ops = null;
        for (;;) {
            lx.skipBlanks();
            int c = lx.cur();
            String op;
            if (c == '&' && lx.next() == '&') op = "&&";
            else if (c == '|' && lx.next() == '|') op = "||";
            else break;
            lx.advance();
            lx.pos++;
            lx.skipNewlines();
            if (cmds == null) {
                cmds = new ArrayList<>(3);
                ops = new ArrayList<>(2);
                cmds.add(first);
            }
            ops.add(op);
            cmds.add(parsePipeline());
        }
        if (cmds == null) return first;
        return new Command.AndOrList(lx.span(start, start, cmds), cmds, ops);
    }

    private Command parsePipeline() throws ParseException {
        lx.skipBlanks();
        int start = lx.pos;
        boolean negated = false;
        boolean timed = false;
        boolean posix = false;
        boolean prefixed = false;
        for (;;) {
            String kw = lx.peekReserved();
            if ("!".equals(kw)) {
                lx.consumeWord();
                negated = !negated;
                prefixed = true;
            } else if ("time".equals(kw)) {
                lx.consumeWord();
                timed = true;
                prefixed = true;
                lx.skipBlanks();
                if (lx.peekPlain("-p")) {
                    lx.consumeWord();
                    posix = true;
                    lx.skipBlanks();
                }
                // parse.y: "--" after time or time -p is TIMEIGN, part of the keyword (bash 5.2 special cases)
                if (lx.peekPlain("--")) lx.consumeWord();
            } else {
                break;
            }
            lx.skipBlanks();
        }
        int prefixEnd = lx.pos;
        if (prefixed) {
            int c = lx.cur();
            if (c == Lexer.EOF || c == '\n' || c == ';' && lx.next() != ';' && lx.next() != '&'
                    || (c == '&' && lx.next() != '&' && lx.next() != '>')) {
                // `time` or `!` alone before a list terminator is accepted by bash
                return new Command.Pipeline(lx.span(start, prefixEnd), List.of(), List.of(), negated, timed, posix);
            }
        }
        Command first = parseCommand();
        List<Command> cmds = null;
        List<String> ops = null;
        for (;;) {
            lx.skipBlanks();
            int c = lx.cur();
            if (c != '|' || lx.next() == '|') break;
            lx.advance();
            String op = "|";
            if (lx.cur() == '&') {
                lx.pos++;
                op = "|&";
            }
            lx.skipNewlines();
            if (cmds == null) {
                cmds = new ArrayList<>(3);
                ops = new ArrayList<>(2);
                cmds.add(first);
            }
            ops.add(op);
            cmds.add(parseCommand());
        }
        if (cmds == null) {
            if (!prefixed) return first;
            cmds = List.of(first);
            ops = List.of();
        }
        return new Command.Pipeline(lx.span(start, start, cmds), cmds, ops, negated, timed, posix);
    }

    // ---------------------------------------------------------------- commands

    /** Parses one command in command position: compound, function definition, coprocess or simple. */
    private Command parseCommand() throws ParseException {
        lx.enter();
        lx.skipBlanks();
        int start = lx.pos;
        String kw = lx.peekReserved();
        Command c;
        if (kw != null) {
            c = switch (kw) {
                case "if" -> parseIf(start);
                case "for", "select" -> parseFor(start, kw.equals("select"));
                case "while", "until" -> parseWhile(start, kw.equals("until"));
                case "case" -> parseCase(start);
                case "{" -> parseGroup(start);
                case "[[" -> parseConditional(start);
                case "function" -> parseFunctionKeyword(start);
                case "coproc" -> parseCoproc(start);
                case "repeat" -> parseRepeat(start);
                case "foreach" -> parseForeach(start);
                case "then", "elif", "else", "fi", "do", "done", "esac", "}", "!", "]]", "in", "end" ->
                        throw lx.err("syntax error near unexpected token `" + kw + "'");
                default -> parseSimpleOrFunction(start);
            };
        } else if (lx.cur() == '(' && zsh() && emptyParensAhead()) {
            c = parseAnonymousFunction(start);
        } else if (lx.cur() == '(') {
            c = lx.next() == '(' ? parseArithOrSubshell(start) : parseSubshell(start);
        } else {
            c = parseSimpleOrFunction(start);
        }
        lx.leave();
        return c;
    }

    private boolean atCompoundStart() {
        if (lx.cur() == '(') return true;
        String kw = lx.peekReserved();
        return kw != null && switch (kw) {
            case "if", "for", "select", "while", "until", "case", "{", "[[" -> true;
            default -> false;
        };
    }

    private void expectReserved(String kw, int openedAt, String opener) throws ParseException {
        lx.skipNewlines();
        if (kw.equals(lx.peekReserved())) {
            lx.consumeWord();
            return;
        }
        if (lx.cur() == Lexer.EOF) {
            throw lx.errAt(openedAt, "syntax error: unexpected end of file (expected `" + kw + "' for `"
                    + opener + "')");
        }
        throw lx.unexpected();
    }

    /** Parses redirections written after a compound command (§3.6). */
    private List<Redirection> trailingRedirections() throws ParseException {
        List<Redirection> out = null;
        for (;;) {
            lx.skipBlanks();
            if (!isRedirectionStart()) break;
            if (out == null) out = new ArrayList<>(2);
            out.add(parseRedirection());
        }
        return out == null ? List.of() : out;
    }

    private Command parseSubshell(int start) throws ParseException {
        lx.pos++;
        CommandList body = parseList(false);
        lx.skipNewlines();
        if (lx.cur() != ')') {
            if (lx.cur() == Lexer.EOF) throw lx.errAt(start, "unexpected end of file while looking for matching `)'");
            throw lx.unexpected();
        }
        lx.pos++;
        int end = lx.pos;
        List<Redirection> r = trailingRedirections();
        return new Command.Subshell(lx.span(start, end, kids(body, r)), body, r);
    }

    private static List<Node> kids(Node first, List<? extends Node> rest) {
        List<Node> out = new ArrayList<>(rest.size() + 1);
        if (first != null) out.add(first);
        out.addAll(rest);
        return out;
    }

    private Command parseArithOrSubshell(int start) throws ParseException {
        if (!lx.arithFailed.contains(start)) {
            List<Lexer.Pending> savedPending = new ArrayList<>(lx.pending);
            int savedDepth = lx.depth;
            try {
                lx.advance();
                lx.advance();
                Arithmetic a = wp.arith(')', false);
                if (lx.cur() == ')' && lx.next() == ')') {
                    lx.advance();
                    lx.pos++;
                    int end = lx.pos;
                    List<Redirection> r = trailingRedirections();
                    return new Command.ArithmeticCommand(lx.span(start, end, kids(a, r)), a, r);
                }
            } catch (ParseException e) {
                // fall back to a subshell (unless bash took it as arithmetic)
                if (e.isInExpansion()) throw e;
            }
            lx.pending = savedPending;
            lx.depth = savedDepth;
            lx.arithFailed.add(start);
            lx.pos = start;
        }
        return parseSubshell(start);
    }

    private Command parseGroup(int start) throws ParseException {
        lx.consumeWord();
        CommandList body = parseList(false);
        expectReserved("}", start, "{");
        if (zsh()) {
            lx.skipBlanks();
            if (lx.peekPlain("always")) {
                // { try-list } always { always-list }: both run (zsh manual 6.3 "Complex Commands")
                zshForm("{ ... } always { ... }");
                lx.consumeWord();
                lx.skipNewlines();
                if (!"{".equals(lx.peekReserved())) throw lx.unexpected();
                int second = lx.pos;
                lx.consumeWord();
                CommandList always = parseList(false);
                expectReserved("}", second, "{");
                List<ListItem> items = new ArrayList<>(body.items());
                items.addAll(always.items());
                body = new CommandList(lx.span(start, start, items), items);
            }
        }
        int end = lx.pos;
        List<Redirection> r = trailingRedirections();
        return new Command.Group(lx.span(start, end, kids(body, r)), body, r);
    }

    private Command parseIf(int start) throws ParseException {
        lx.consumeWord();
        List<IfClause> clauses = new ArrayList<>(2);
        int clauseStart = start;
        CommandList elseBody = null;
        for (;;) {
            CommandList cond = parseList(false);
            CommandList body;
            // zsh's if list { list } [ elif list { list } ] ... [ else { list } ] (zsh manual 6.9), clause by clause
            boolean braces = false;
            if (zsh()) {
                lx.skipNewlines();
                String how = lx.peekReserved();
                if ("{".equals(how)) {
                    zshForm("if ... { ... }");
                    braces = true;
                } else if (!"then".equals(how)) {
                    // if list sublist: the short form (zsh manual 6.9, SHORT_LOOPS)
                    zshForm("the short form of if");
                    body = sublist();
                    clauses.add(new IfClause(lx.span(clauseStart, clauseStart, List.of(cond, body)), cond, body));
                    break;
                }
            }
            if (braces) {
                body = braceBody();
            } else {
                expectReserved("then", start, "if");
                body = parseList(false);
            }
            clauses.add(new IfClause(lx.span(clauseStart, clauseStart, List.of(cond, body)), cond, body));
            lx.skipNewlines();
            String kw = lx.peekReserved();
            if ("elif".equals(kw)) {
                clauseStart = lx.pos;
                lx.consumeWord();
                continue;
            }
            if ("else".equals(kw)) {
                lx.consumeWord();
                if (braces) {
                    lx.skipNewlines();
                    if (!"{".equals(lx.peekReserved())) throw lx.unexpected();
                    elseBody = braceBody();
                } else {
                    elseBody = parseList(false);
                }
            }
            if (!braces) expectReserved("fi", start, "if");
            break;
        }
        int end = lx.pos;
        List<Redirection> r = trailingRedirections();
        List<Node> k = new ArrayList<>(clauses);
        if (elseBody != null) k.add(elseBody);
        k.addAll(r);
        return new Command.If(lx.span(start, end, k), clauses, elseBody, r);
    }

    private Command parseWhile(int start, boolean until) throws ParseException {
        lx.consumeWord();
        CommandList cond = parseList(false);
        CommandList body;
        if (zsh()) {
            // while list { list } (zsh manual 6.9)
            body = loopBody(start, until ? "until" : "while");
        } else {
            expectReserved("do", start, until ? "until" : "while");
            body = parseList(false);
            expectReserved("done", start, "do");
        }
        int end = lx.pos;
        List<Redirection> r = trailingRedirections();
        List<Node> k = new ArrayList<>(List.of(cond, body));
        k.addAll(r);
        return new Command.While(lx.span(start, end, k), until, cond, body, r);
    }

    /** {@code do list done}, or the brace group bash also accepts as a loop body. */
    private CommandList loopBody(int start, String opener) throws ParseException {
        lx.skipNewlines();
        if (zsh() && !"{".equals(lx.peekReserved()) && !"do".equals(lx.peekReserved())) {
            // for ... sublist, repeat word sublist: the short forms (zsh manual 6.9, SHORT_LOOPS)
            zshForm("the short form of " + opener);
            return sublist();
        }
        if ("{".equals(lx.peekReserved())) {
            if (zsh() && !opener.equals("for") && !opener.equals("select")) zshForm(opener + " ... { ... }");
            lx.consumeWord();
            CommandList body = parseList(false);
            expectReserved("}", start, "{");
            return body;
        }
        expectReserved("do", start, opener);
        CommandList body = parseList(false);
        expectReserved("done", start, "do");
        return body;
    }

    private Command parseFor(int start, boolean select) throws ParseException {
        lx.consumeWord();
        lx.skipBlanks();
        if (!select && lx.cur() == '(' && lx.next() == '(') return parseArithFor(start);
        if (lx.cur() == Lexer.EOF || Lexer.isMeta(lx.cur())) throw lx.unexpected();
        Word var = wp.requireWord();
        List<Word> items = null;
        lx.skipBlanks();
        if (zsh()) {
            // for name ... : several names take the words in turn (zsh manual 6.3)
            while (lx.cur() != Lexer.EOF && !Lexer.isMeta(lx.cur()) && lx.peekReserved() == null) {
                zshForm("a loop over several names");
                wp.requireWord();
                lx.skipBlanks();
            }
        }
        if (zsh() && lx.cur() == '(') {
            // for name ... ( word ... ) body (zsh manual 6.3)
            zshForm("for name ( word ... )");
            items = parenWords();
            lx.skipBlanks();
            if (lx.cur() == ';') lx.pos++;
        } else if (lx.cur() == ';') {
            lx.pos++;
        } else {
            lx.skipNewlines();
            if ("in".equals(lx.peekReserved())) {
                lx.consumeWord();
                items = new ArrayList<>();
                for (;;) {
                    lx.skipBlanks();
                    int c = lx.cur();
                    if (c == ';') {
                        lx.pos++;
                        break;
                    }
                    if (c == '\n' || c == Lexer.EOF) break;
                    if (Lexer.isMeta(c)) throw lx.unexpected();
                    items.add(wp.requireWord());
                }
            }
        }
        CommandList body = loopBody(start, select ? "select" : "for");
        int end = lx.pos;
        List<Redirection> r = trailingRedirections();
        List<Node> k = new ArrayList<>();
        k.add(var);
        if (items != null) k.addAll(items);
        k.add(body);
        k.addAll(r);
        return new Command.For(lx.span(start, end, k), select, var, items, body, r);
    }

    private Command parseArithFor(int start) throws ParseException {
        lx.advance();
        lx.advance();
        Arithmetic[] parts = new Arithmetic[3];
        for (int i = 0; i < 3; i++) {
            Arithmetic a = wp.arith(')', i < 2);
            if (!a.raw().isBlank()) parts[i] = a;
            if (i < 2) {
                if (lx.cur() != ';') throw lx.errAt(start, "syntax error: `;' expected in arithmetic for");
                lx.pos++;
            }
        }
        if (lx.cur() != ')' || lx.next() != ')') throw lx.errAt(start, "syntax error: `))' expected");
        lx.advance();
        lx.pos++;
        lx.skipBlanks();
        if (lx.cur() == ';') lx.pos++;
        CommandList body = loopBody(start, "for");
        int end = lx.pos;
        List<Redirection> r = trailingRedirections();
        List<Node> k = new ArrayList<>();
        for (Arithmetic a : parts) if (a != null) k.add(a);
        k.add(body);
        k.addAll(r);
        return new Command.ArithFor(lx.span(start, end, k), parts[0], parts[1], parts[2], body, r);
    }

    private Command parseCase(int start) throws ParseException {
        lx.consumeWord();
        lx.skipBlanks();
        if (lx.cur() == Lexer.EOF || Lexer.isMeta(lx.cur())) throw lx.unexpected();
        Word subject = wp.requireWord();
        lx.skipNewlines();
        if (!"in".equals(lx.peekReserved())) {
            if (lx.cur() == Lexer.EOF) throw lx.errAt(start, "syntax error: unexpected end of file (expected `in')");
            throw lx.unexpected();
        }
        lx.consumeWord();
        List<CaseItem> items = new ArrayList<>();
        for (;;) {
            lx.skipNewlines();
            if ("esac".equals(lx.peekReserved())) {
                lx.consumeWord();
                break;
            }
            if (lx.cur() == Lexer.EOF) throw lx.errAt(start, "syntax error: unexpected end of file (expected `esac')");
            int itemStart = lx.pos;
            if (lx.cur() == '(') {
                lx.pos++;
                lx.skipBlanks();
            }
            List<Word> patterns = new ArrayList<>(2);
            for (;;) {
                lx.skipBlanks();
                if (lx.cur() == Lexer.EOF || Lexer.isMeta(lx.cur())) throw lx.unexpected();
                patterns.add(wp.requireWord());
                lx.skipBlanks();
                if (lx.cur() == '|') {
                    lx.pos++;
                    continue;
                }
                break;
            }
            if (lx.cur() != ')') throw lx.unexpected();
            lx.pos++;
            CommandList body = parseList(true);
            lx.skipNewlines();
            String term;
            if (lx.cur() == ';' && lx.next() == ';') {
                lx.advance();
                lx.pos++;
                term = ";;";
                if (lx.cur() == '&') {
                    lx.pos++;
                    term = ";;&";
                }
            } else if (lx.cur() == ';' && lx.next() == '&') {
                lx.advance();
                lx.pos++;
                term = ";&";
            } else if (zsh() && lx.cur() == ';' && lx.next() == '|') {
                // ;| goes on to test the next patterns (zsh manual 6.3 "Complex Commands")
                zshForm("the case terminator ;|");
                lx.advance();
                lx.pos++;
                term = ";;&";
            } else if ("esac".equals(lx.peekReserved())) {
                term = "";
            } else if (lx.cur() == Lexer.EOF) {
                throw lx.errAt(start, "syntax error: unexpected end of file (expected `esac')");
            } else {
                throw lx.unexpected();
            }
            List<Node> k = new ArrayList<>(patterns);
            k.add(body);
            items.add(new CaseItem(lx.span(itemStart, lx.pos, k), patterns, body, term));
        }
        int end = lx.pos;
        List<Redirection> r = trailingRedirections();
        List<Node> k = new ArrayList<>();
        k.add(subject);
        k.addAll(items);
        k.addAll(r);
        return new Command.Case(lx.span(start, end, k), subject, items, r);
    }

    private Command parseConditional(int start) throws ParseException {
        lx.consumeWord();
        TestExpr e = tp.parse(start);
        int end = lx.pos;
        List<Redirection> r = trailingRedirections();
        return new Command.Conditional(lx.span(start, end, kids(e, r)), e, r);
    }

    private Command parseFunctionKeyword(int start) throws ParseException {
        lx.consumeWord();
        lx.skipBlanks();
        if (zsh()) return zshFunctionKeyword(start);
        if (lx.cur() == Lexer.EOF || Lexer.isMeta(lx.cur())) throw lx.unexpected();
        Word nameWord = wp.requireWord();
        String name = literalText(nameWord);
        lx.skipBlanks();
        if (lx.cur() == '(') {
            lx.pos++;
            lx.skipBlanks();
            if (lx.cur() != ')') throw lx.unexpected();
            lx.pos++;
        }
        lx.skipNewlines();
        if (!atCompoundStart()) throw lx.unexpected();
        Command body = parseCommand();
        return new Command.FunctionDef(lx.spanOf(start, lx.pos, body), name, nameWord.span(), true, body);
    }

    private static String literalText(Word w) {
        StringBuilder sb = new StringBuilder();
        for (WordPart p : w.parts()) {
            if (p instanceof WordPart.Literal l) sb.append(l.value());
            else if (p instanceof WordPart.SingleQuoted q) sb.append(q.value());
            else sb.append('?');
        }
        return sb.toString();
    }

    private Command parseCoproc(int start) throws ParseException {
        lx.consumeWord();
        lx.skipBlanks();
        String name = null;
        if (!atCompoundStart() && Lexer.isNameStart(lx.cur())) {
            int save = lx.pos;
            StringBuilder sb = new StringBuilder();
            while (Lexer.isNameChar(lx.cur())) {
                sb.append((char) lx.cur());
                lx.pos++;
            }
            if (Lexer.isBlank(lx.cur())) {
                lx.skipBlanks();
                if (atCompoundStart()) name = sb.toString(); else lx.pos = save;
            } else {
                lx.pos = save;
            }
        }
        if (lx.cur() == Lexer.EOF) throw lx.unexpected();
        Command body = parseCommand();
        return new Command.Coproc(lx.spanOf(start, lx.pos, body), name, body);
    }

    // ---------------------------------------------------------------- simple commands

    /** True when the text at the current position is {@code NAME ( )} starting a function definition. */
    private boolean functionDefAhead() {
        char[] s = lx.s;
        int p = lx.norm(lx.pos);
        int q = p;
        while (q < lx.n) {
            char c = s[q];
            if (Lexer.isMeta(c) || c == '\'' || c == '"' || c == '$' || c == '`' || c == '\\' || c == '=') break;
            q++;
        }
        if (q == p || q >= lx.n) return false;
        if (s[q] == '(' && "@!+*?".indexOf(s[q - 1]) >= 0) return false;
        int r = q;
        while (r < lx.n && Lexer.isBlank(s[r])) r = lx.norm(r + 1);
        if (r >= lx.n || s[r] != '(') return false;
        r = lx.norm(r + 1);
        while (r < lx.n && Lexer.isBlank(s[r])) r = lx.norm(r + 1);
        return r < lx.n && s[r] == ')';
    }

    private Command parseSimpleOrFunction(int start) throws ParseException {
        if (functionDefAhead()) {
            int p = lx.pos;
            while (!Lexer.isMeta(lx.s[lx.pos])) lx.pos++;
            String name = lx.text(p, lx.pos);
            Span nameSpan = lx.span(p, lx.pos);
            lx.skipBlanks();
            lx.pos++; // (
            lx.skipBlanks();
            lx.pos++; // )
            lx.skipNewlines();
            if (!atCompoundStart()) {
                // name () command: zsh takes any command as the body (zsh manual 6.3 "Complex Commands")
                if (!zsh()) throw lx.unexpected();
                zshForm("a function body that is not a compound command");
            }
            Command body = parseCommand();
            return new Command.FunctionDef(lx.spanOf(start, lx.pos, body), name, nameSpan, false, body);
        }
        return parseSimple(start);
    }

    private boolean isRedirectionStart() {
        int c = lx.cur();
        if (c == '<' || c == '>') return lx.next() != '(';
        if (c == '&') return lx.next() == '>';
        char[] s = lx.s;
        if (Lexer.isDigit(c)) {
            int p = lx.pos;
            while (p < lx.n && Lexer.isDigit(s[p])) p++;
            return p < lx.n && (s[p] == '<' || s[p] == '>') && !(p + 1 < lx.n && s[p + 1] == '(');
        }
        if (c == '{') {
            int p = lx.pos + 1;
            if (p >= lx.n || !Lexer.isNameStart(s[p])) return false;
            while (p < lx.n && Lexer.isNameChar(s[p])) p++;
            return p + 1 < lx.n && s[p] == '}' && (s[p + 1] == '<' || s[p + 1] == '>')
                    && !(p + 2 < lx.n && s[p + 2] == '(');
        }
        return false;
    }

    /** Parses a redirection (§3.6) at the current position; registers here-documents. */
    private Redirection parseRedirection() throws ParseException {
        lx.cur();
        int start = lx.pos;
        char[] s = lx.s;
        String fd = null;
        if (Lexer.isDigit(s[lx.pos])) {
            while (Lexer.isDigit(s[lx.pos])) lx.pos++;
            fd = lx.text(start, lx.pos);
        } else if (s[lx.pos] == '{') {
            while (s[lx.pos] != '}') lx.pos++;
            lx.pos++;
            fd = lx.text(start, lx.pos);
        }
        int opStart = lx.pos;
        int c = lx.cur();
        int nx = lx.next();
        String op;
        if (c == '<') {
            if (nx == '<') {
                int n2 = lx.next2();
                op = n2 == '<' ? "<<<" : n2 == '-' ? "<<-" : "<<";
            } else if (nx == '>') op = "<>";
            else if (nx == '&') op = "<&";
            else op = "<";
        } else if (c == '>') {
            if (nx == '>') op = ">>";
            else if (nx == '|') op = ">|";
            else if (nx == '&') op = ">&";
            else op = ">";
        } else {
            op = lx.next2() == '>' ? "&>>" : "&>";
        }
        lx.advance(op.length());
        lx.skipBlanks();
        if (lx.cur() == Lexer.EOF || Lexer.isMeta(lx.cur()) && !((lx.cur() == '<' || lx.cur() == '>')
                && lx.next() == '(')) {
            throw lx.unexpected();
        }
        int targetStart = lx.pos;
        // a here-string is expanded as an assignment's value (redir.c write_here_string:
        // expand_assignment_string_to_string): tilde prefixes also after each unquoted ':' (<<< a:~ is a:$HOME)
        Word target = wp.word(op.equals("<<<") ? WordParser.ASSIGN : WordParser.NORMAL, false);
        if (target.parts().isEmpty()) throw lx.unexpected();
        HereDoc hd = null;
        if (op.equals("<<") || op.equals("<<-")) {
            String raw = lx.text(targetStart, lx.pos);
            if (Walker.all(target, WordPart.CommandSubstitution.class).stream().anyMatch(cs -> !cs.backquoted())
                    || !Walker.all(target, WordPart.ProcessSubstitution.class).isEmpty()) {
                // bash's reader re-prints a $( ) from its parsed command (parse_comsub), and the delimiter is that
                // text: <<$(echo  a) ends at the line $(echo a) (measured), which the hook cannot reproduce
                throw lx.errAt(targetStart, "here-document delimiter holding a command substitution");
            }
            for (WordPart.AnsiCQuoted ac : Walker.all(target, WordPart.AnsiCQuoted.class)) {
                // the delimiter's bytes would depend on the locale (AnsiC.localeDependent): where the body ends too
                if (AnsiC.localeDependent(ac.raw())) {
                    throw lx.errAt(targetStart, "here-document delimiter whose value depends on the locale");
                }
            }
            boolean quoted = delimiterQuoted(target);
            String delim = quoted ? quotedControls(delimiter(raw)) : raw.replace("\\\n", "");
            lx.pending.add(new Lexer.Pending(opStart, delim, quoted, op.equals("<<-")));
            if (lx.known != null) {
                Lexer.HereDocResult r = lx.known.get(opStart);
                if (r != null) hd = r.node();
            }
        }
        return new Redirection(lx.spanOf(start, lx.pos, target, hd), fd, op, target, hd);
    }

    /**
     * Whether a here-document delimiter word, as written, is quoted (bash(1) "Here Documents": "If any part of
     * word is quoted ... the lines in the here-document are not expanded"). A backslash-newline in the word is a
     * line continuation, not quoting: {@code <<EO\<newline>F} has the unquoted delimiter {@code EOF}.
     *
     * A quote inside an expansion ({@code `c 'q'`}, {@code ${x:-'a'}}) does not quote the word: bash's reader
     * marks a word quoted only for its own quotes and backslashes (parse.y {@code read_token_word}).
     *
     * @param target the delimiter word
     * @return true when its own parts hold a quoted string or a backslash that does not start a line continuation
     */
    /**
     * A quoted delimiter as bash compares it: its reader keeps each \001 (CTLESC) and \177 (CTLNUL) of quoted text
     * escaped by a \001 (parse.y {@code parse_matched_pair}; measured: {@code <<$'A\cAB'} waits for the line
     * A\001\001B), so a line holding the character once does not end the body.
     */
    static String quotedControls(String d) {
        if (d.indexOf('\001') < 0 && d.indexOf('\177') < 0) return d;
        StringBuilder sb = new StringBuilder(d.length() + 2);
        for (int i = 0; i < d.length(); i++) {
            char c = d.charAt(i);
            if (c == '\001' || c == '\177') sb.append('\001');
            sb.append(c);
        }
        return sb.toString();
    }

    static boolean delimiterQuoted(Word target) {
        for (WordPart p : target.parts()) {
            if (p instanceof WordPart.SingleQuoted || p instanceof WordPart.DoubleQuoted
                    || p instanceof WordPart.AnsiCQuoted) {
                return true;
            }
            if (p instanceof WordPart.Literal lit) {
                String raw = lit.raw();
                for (int i = 0; i < raw.length(); i++) {
                    if (raw.charAt(i) != '\\') continue;
                    if (i + 1 < raw.length() && raw.charAt(i + 1) == '\n') i++;
                    else return true;
                }
            }
        }
        return false;
    }

    /**
     * The delimiter of a here-document from its word as written (§3.6.6; make_cmd.c {@code make_here_document}):
     * no expansion, and when the word is quoted, quote removal of the word as the parser hands it on, in which
     * {@code $'...'} is already its decoded text and {@code $"..."} its text in double quotes (parse.y
     * {@code read_token_word}). Line continuations are removed, outside quotes and inside double quotes; single
     * quotes keep them. Inside double quotes a backslash is removed only before {@code $ ` " \}.
     */
    static String delimiter(String raw) {
        StringBuilder sb = new StringBuilder(raw.length());
        int n = raw.length();
        for (int i = 0; i < n; i++) {
            char c = raw.charAt(i);
            if (c == '\\' && i + 1 < n) {
                if (raw.charAt(i + 1) != '\n') sb.append(raw.charAt(i + 1));
                i++;
            } else if (c == '\'') {
                int j = raw.indexOf('\'', i + 1);
                if (j < 0) j = n;
                sb.append(raw, i + 1, j);
                i = j;
            } else if (c == '"') {
                int j = i + 1;
                while (j < n && raw.charAt(j) != '"') {
                    if (raw.charAt(j) == '\\' && j + 1 < n && raw.charAt(j + 1) == '\n') {
                        j += 2;
                        continue;
                    }
                    if (raw.charAt(j) == '\\' && j + 1 < n && "$`\"\\".indexOf(raw.charAt(j + 1)) >= 0) j++;
                    sb.append(raw.charAt(j));
                    j++;
                }
                i = j;
            } else if (c == '$' && i + 1 < n && raw.charAt(i + 1) == '\'') {
                int j = i + 2;
                while (j < n && raw.charAt(j) != '\'') {
                    if (raw.charAt(j) == '\\' && j + 1 < n) j++;
                    j++;
                }
                sb.append(AnsiC.decode(raw.substring(i + 2, Math.min(j, n))));
                i = j;
            } else if (c == '$' && i + 1 < n && raw.charAt(i + 1) == '"') {
                continue;
            } else {
                sb.append(c);
            }
        }
        return AnsiC.joined(sb.toString());
    }

    private Command parseSimple(int start) throws ParseException {
        List<Assignment> assigns = null;
        List<Word> words = null;
        List<Redirection> redirs = null;
        boolean declaration = false;
        for (;;) {
            lx.skipBlanks();
            int c = lx.cur();
            if (c == Lexer.EOF) break;
            if (isRedirectionStart()) {
                if (redirs == null) redirs = new ArrayList<>(2);
                redirs.add(parseRedirection());
                continue;
            }
            if (zsh() && words != null && lx.peekPlain("}")) break; // a sole } closes (IGNORE_CLOSE_BRACES unset)
            if (c == '(' && zsh() && words != null && assigns == null && redirs == null && emptyParensAhead()) {
                return severalNames(start, words);
            }
            if (c == '(' && (words != null || assigns != null || redirs != null)) throw lx.unexpected();
            if (Lexer.isMeta(c) && !((c == '<' || c == '>') && lx.next() == '(')) break;
            if (words == null) {
                Node n = wp.wordOrAssignment(false);
                if (n instanceof Assignment a) {
                    if (assigns == null) assigns = new ArrayList<>(2);
                    assigns.add(a);
                } else {
                    Word w = (Word) n;
                    if (w.parts().isEmpty()) throw lx.unexpected();
                    words = new ArrayList<>(4);
                    words.add(w);
                    declaration = w.parts().size() == 1 && w.parts().get(0) instanceof WordPart.Literal l
                            && DECLARATION.contains(l.value());
                }
            } else if (declaration) {
                Word w = (Word) wp.wordOrAssignment(true);
                if (w.parts().isEmpty()) throw lx.unexpected();
                words.add(w);
            } else {
                words.add(wp.requireWord());
            }
        }
        if (assigns == null && words == null && redirs == null) throw lx.unexpected();
        List<Assignment> a = assigns == null ? List.of() : assigns;
        List<Word> w = words == null ? List.of() : words;
        List<Redirection> r = redirs == null ? List.of() : redirs;
        List<Node> k = new ArrayList<>(a.size() + w.size() + r.size());
        k.addAll(a);
        k.addAll(w);
        k.addAll(r);
        return new Command.Simple(lx.span(start, start, k), a, w, r);
    }
    // ---------------------------------------------------------------- zsh's own grammar (zsh manual 6)

    /** True at {@code (} followed by blanks and {@code )}. */
    private boolean emptyParensAhead() {
        int r = lx.norm(lx.pos);
        if (r >= lx.n || lx.s[r] != '(') return false;
        r = lx.norm(r + 1);
        while (r < lx.n && Lexer.isBlank(lx.s[r])) r = lx.norm(r + 1);
        return r < lx.n && lx.s[r] == ')';
    }

    /** Moves past {@code ( )}. */
    private void consumeEmptyParens() {
        lx.pos = lx.norm(lx.pos) + 1;
        lx.skipBlanks();
        lx.pos++;
    }

    /** One sublist (commands joined by {@code &&} and {@code ||}), as the body of a short form. */
    private CommandList sublist() throws ParseException {
        lx.skipBlanks();
        int cs = lx.pos;
        if (atListEnd() || lx.cur() == ';' || lx.cur() == '&' || lx.cur() == '\n') throw lx.unexpected();
        Command cmd = parseAndOr();
        List<ListItem> items = List.of(new ListItem(lx.spanOf(cs, cs, cmd), cmd, ""));
        return new CommandList(lx.span(cs, cs, items), items);
    }

    /** {@code { list }}, at the {@code {}. */
    private CommandList braceBody() throws ParseException {
        int open = lx.pos;
        lx.consumeWord();
        CommandList body = parseList(false);
        expectReserved("}", open, "{");
        return body;
    }

    /** {@code ( word ... )}, at the {@code (}: the words of zsh's for and foreach. */
    private List<Word> parenWords() throws ParseException {
        lx.pos++;
        List<Word> items = new ArrayList<>();
        for (;;) {
            lx.skipNewlines();
            lx.skipBlanks();
            if (lx.cur() == ')') {
                lx.pos++;
                return items;
            }
            if (lx.cur() == Lexer.EOF || Lexer.isMeta(lx.cur())) throw lx.unexpected();
            items.add(wp.requireWord());
        }
    }

    /** A word standing for a variable the zsh form sets, at {@code at}: it has no text of its own in the source. */
    private Word syntheticName(int at, String name) {
        Span sp = lx.span(at, at);
        return new Word(sp, List.of(new WordPart.Literal(sp, name, name)));
    }

    /** {@code repeat word body}: the body runs word times, word read as arithmetic (zsh manual 6.3). */
    private Command parseRepeat(int start) throws ParseException {
        zshForm("repeat");
        lx.consumeWord();
        lx.skipBlanks();
        if (lx.cur() == Lexer.EOF || Lexer.isMeta(lx.cur())) throw lx.unexpected();
        Word count = wp.requireWord();
        lx.skipBlanks();
        if (lx.cur() == ';') lx.pos++;
        CommandList body = loopBody(start, "repeat");
        int end = lx.pos;
        List<Redirection> r = trailingRedirections();
        List<Node> k = new ArrayList<>(List.of(count, body));
        k.addAll(r);
        return new Command.For(lx.span(start, end, k), false, syntheticName(start, "_zsh_repeat"), List.of(count),
                body, r);
    }

    /** {@code foreach name ... ( word ... ) list end} (zsh manual 6.9). */
    private Command parseForeach(int start) throws ParseException {
        zshForm("foreach ... end");
        lx.consumeWord();
        lx.skipBlanks();
        if (lx.cur() == Lexer.EOF || Lexer.isMeta(lx.cur())) throw lx.unexpected();
        Word var = wp.requireWord();
        lx.skipBlanks();
        while (lx.cur() != Lexer.EOF && !Lexer.isMeta(lx.cur())) {
            wp.requireWord();
            lx.skipBlanks();
        }
        if (lx.cur() != '(') throw lx.unexpected();
        List<Word> items = parenWords();
        lx.skipBlanks();
        if (lx.cur() == ';') lx.pos++;
        CommandList body = parseList(false);
        expectReserved("end", start, "foreach");
        int end = lx.pos;
        List<Redirection> r = trailingRedirections();
        List<Node> k = new ArrayList<>();
        k.add(var);
        k.addAll(items);
        k.add(body);
        k.addAll(r);
        return new Command.For(lx.span(start, end, k), false, var, items, body, r);
    }

    /**
     * {@code () body [ word ... ]} and {@code function body [ word ... ]}: an anonymous function, run at once with
     * the words as its arguments (zsh manual 9.4 "Anonymous Functions"); read as a loop over those words, so the
     * words are expanded and the body runs.
     */
    private Command anonymousFunction(int start, String form) throws ParseException {
        zshForm("the anonymous function " + form);
        lx.skipNewlines();
        Command bodyCommand = parseCommand();
        List<ListItem> items = List.of(new ListItem(bodyCommand.span(), bodyCommand, ""));
        CommandList body = new CommandList(bodyCommand.span(), items);
        List<Word> args = new ArrayList<>();
        for (;;) {
            lx.skipBlanks();
            int c = lx.cur();
            if (c == Lexer.EOF || isRedirectionStart() || Lexer.isMeta(c) && !(c == '<' || c == '>')) break;
            if (lx.peekPlain("}")) break;
            args.add(wp.requireWord());
        }
        List<Redirection> r = trailingRedirections();
        int end = lx.pos;
        List<Node> k = new ArrayList<>(args);
        k.add(body);
        k.addAll(r);
        return new Command.For(lx.span(start, end, k), false, syntheticName(start, "argv"), args, body, r);
    }

    private Command parseAnonymousFunction(int start) throws ParseException {
        consumeEmptyParens();
        return anonymousFunction(start, "() ...");
    }

    /** zsh's {@code function [ name ... ] [ () ] body}: no name is an anonymous function (zsh manual 6.3, 9.4). */
    private Command zshFunctionKeyword(int start) throws ParseException {
        if ("{".equals(lx.peekReserved()) || emptyParensAhead()) {
            if (emptyParensAhead()) consumeEmptyParens();
            return anonymousFunction(start, "function ...");
        }
        if (lx.cur() == Lexer.EOF || Lexer.isMeta(lx.cur())) throw lx.unexpected();
        List<Word> names = new ArrayList<>();
        while (lx.cur() != Lexer.EOF && !Lexer.isMeta(lx.cur()) && !"{".equals(lx.peekReserved())) {
            names.add(wp.requireWord());
            lx.skipBlanks();
        }
        if (names.isEmpty()) throw lx.unexpected();
        if (emptyParensAhead()) consumeEmptyParens();
        lx.skipBlanks();
        if (lx.cur() == ';') lx.pos++; // function word ... [ () ] [ term ] sublist
        lx.skipNewlines();
        if (!atCompoundStart()) zshForm("a function body that is not a compound command");
        Command body = parseCommand();
        return definitions(start, names, true, body);
    }

    /** {@code name name ... () body}: zsh defines every name (zsh manual 6.3). */
    private Command severalNames(int start, List<Word> names) throws ParseException {
        consumeEmptyParens();
        lx.skipNewlines();
        if (!atCompoundStart()) zshForm("a function body that is not a compound command");
        Command body = parseCommand();
        return definitions(start, names, false, body);
    }

    private Command definitions(int start, List<Word> names, boolean keyword, Command body) {
        if (names.size() == 1) {
            return new Command.FunctionDef(lx.spanOf(start, lx.pos, body), literalText(names.get(0)),
                    names.get(0).span(), keyword, body);
        }
        zshForm("one function of several names");
        List<ListItem> items = new ArrayList<>();
        for (Word n : names) {
            Command.FunctionDef f = new Command.FunctionDef(lx.spanOf(start, lx.pos, body), literalText(n), n.span(),
                    keyword, body);
            items.add(new ListItem(f.span(), f, ""));
        }
        CommandList list = new CommandList(lx.spanOf(start, lx.pos, body), items);
        return new Command.Group(lx.spanOf(start, lx.pos, body), list, List.of());
    }
}
