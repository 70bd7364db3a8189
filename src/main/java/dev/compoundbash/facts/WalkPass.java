package dev.compoundbash.facts;

import dev.compoundbash.shell.ArrayElement;
import dev.compoundbash.shell.Arithmetic;
import dev.compoundbash.shell.Assignment;
import dev.compoundbash.shell.BraceExpansion;
import dev.compoundbash.shell.CaseItem;
import dev.compoundbash.shell.Command;
import dev.compoundbash.shell.CommandList;
import dev.compoundbash.shell.IfClause;
import dev.compoundbash.shell.ListItem;
import dev.compoundbash.shell.Node;
import dev.compoundbash.shell.Redirection;
import dev.compoundbash.shell.Script;
import dev.compoundbash.shell.Span;
import dev.compoundbash.shell.TestExpr;
import dev.compoundbash.shell.Walker;
import dev.compoundbash.shell.Word;
import dev.compoundbash.shell.WordPart;
import dev.compoundbash.shell.WordValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Pass 1 of the extractor, the walk: every command bash would run, in the order it runs them, with its context. It
 * walks a parsed {@link Script} at any depth (command and process substitutions, backticks, subshells, groups,
 * loops, if, case, function bodies, unquoted here-document bodies, assignment values, array subscripts, arithmetic,
 * {@code [[ ]]}, redirection targets) and hands each simple command on as a {@link Reached} (its words as
 * {@link Arg}s after brace expansion, its nesting, the pipeline element before it, the environment prefix and the
 * redirections in force) to {@link Later}, and every point where bash's state may fork or join (a subshell, a
 * branch, a loop, a function definition) and every variable-related word part to {@link Flow}. It keeps no
 * variable state itself: the shell state is the next pass's ({@link FlowPass}).
 *
 * <p>It follows the Bash Reference Manual §3.2 "Shell Commands" (the grammar), §3.5 "Shell Expansions" (which word
 * parts run commands) and §3.6 "Redirections"; a compound command's redirections are performed before its body
 * (execute_cmd.c execute_command_internal: do_redirections, then the command). The pass plays the part of the
 * statement walk of mvdan/sh's {@code interp.Runner} ({@code stmt}, {@code cmd}), without running anything.
 *
 * <p>Not thread-safe: one per extraction.
 */
final class WalkPass {

    /**
     * What the walk tells the variable and shell-state flow: where bash's state forks and joins, and the word parts
     * that read or write variables. Implemented by {@link FlowPass}; each method is named for what bash does.
     */
    interface Flow {
        /** A script starts ({@code root} is its body, spans in {@link #source()}). */
        void scriptStarts(Node root);

        /** An asynchronous command ({@code cmd &}) starts; the returned action ends it (it ran in a subshell). */
        Runnable background();

        /** A subshell, substitution or coprocess starts; the returned action ends it (its changes end with it). */
        Runnable childShell();

        /** A coprocess body starts; the returned action ends it. */
        Runnable coprocess();

        /** A pipeline starts; the returned action ends one of its elements when it has several (each a subshell). */
        Runnable pipeline();

        /** An and-or list's first command ran ({@code a && b || c}). */
        AndOr andOr();

        /** An if command starts. */
        If ifCommand();

        /** A case command's subject was expanded. */
        Case caseCommand();

        /** A for or select loop: its words were expanded; {@code body} walks its body once. */
        void forLoop(Command.For loop, boolean bodyChangesDirectory, Runnable body);

        /** A while, until or arithmetic for loop: {@code pass} walks one pass and calls {@link #loopCondition}. */
        void conditionLoop(Runnable pass);

        /** Inside {@link #conditionLoop}: the condition ran; the loop may end here. */
        void loopCondition();

        /** A loop body that may run again after itself: {@code walk} walks it once. */
        void repeated(boolean changesDirectory, Runnable walk);

        /** A continue or break (or a command whose name is only known at run time) may leave the loops here. */
        void loopExit();

        /** A function definition's body is walked next; the returned action ends it. */
        Runnable functionDefinition(String name, boolean rootChangesDirectory);

        /** {@code coproc [NAME]} set NAME (COPROC when null) and NAME_PID. */
        void coprocessNamed(String name);

        /** An assignment word {@code NAME=VALUE} of a simple command, before its words are walked. */
        void assignmentStarts(Assignment a);

        /** True when assignments to {@code name} are evaluated arithmetically (declare -i anywhere). */
        boolean integer(String name);

        /** A statement of assignments only ({@code a=1 b=2}): they set shell variables. */
        void assignmentStatement(List<Assignment> assignments);

        /** A builtin or command with a static name ran: the variables it assigns by name. */
        void builtin(List<Arg> args, int commandId);

        /** A parameter expansion of the current command's words. */
        void parameterExpanded(WordPart.ParamExpansion pe);

        /** Static text of a word (literal, single-quoted, ANSI-C quoted): bash may evaluate it later. */
        void staticText(String text);

        /** The text of an arithmetic context, recorded once. */
        void arithmeticText(Span span);

        /** Static text of an arithmetic expression: the names it reads and (into {@code assigned}) assigns. */
        void arithmeticNames(String text, Set<String> assigned);

        /** An expansion inside an arithmetic expression: its value is evaluated arithmetically. */
        void arithmeticValue(WordPart p);

        /** An expansion glued to a name inside an arithmetic expression ({@code ${x}ECRET}). */
        void gluedName(WordPart p);

        /** An arithmetic expression ended: the names it assigned hold numbers from here on. */
        void arithmeticAssigned(Set<String> assigned);

        /** {@code [[ -v NAME ]]}, {@code test -v NAME}: NAME read, its subscript arithmetic. */
        void testedName(String text);

        /** {@code {NAME}>file}: bash assigns the descriptor number to NAME. */
        void descriptorNamed(String fd, int commandId);
    }

    /** The and-or list of {@link Flow#andOr()}: each further command, after && or ||. */
    interface AndOr {
        void next(boolean and);

        void ran(boolean and);

        void end();
    }

    /** The if command of {@link Flow#ifCommand()}: each clause, then the end (after any else body). */
    interface If {
        void conditionRan();

        void bodyRan();

        void end();
    }

    /** The case command of {@link Flow#caseCommand()}: each item, then the end. */
    interface Case {
        void item();

        void itemRan(String terminator);

        void end(boolean catchAll);
    }

    /** What the walk hands the later passes ({@link UnwrapPass}, {@link PathPass}), in order. */
    interface Later {
        /**
         * A simple command with words bash runs.
         *
         * @return the id of the {@link SubCommand} made for it
         */
        int simpleCommand(Reached command);

        /** Static text of a word, which may hold code bash evaluates later (stored code). */
        void staticText(String text);

        /** A redirection of {@code commandId} (-1: of a compound command) whose words were walked. */
        void redirection(Redirection r, int commandId, String source);

        /** A function definition named {@code name} (issue 19: it may shadow a command). */
        default void functionDefined(String name) {
        }

        /** An assignment of a statement of assignments, as {@code NAME=VALUE} text (null value: not static). */
        default void assignmentStatement(String name, String value) {
        }
    }

    /**
     * The script being walked comes from a wrapper: the environment prefix every command of it inherits
     * ({@code env A=1 sh -c '...'}) and the shell that runs it.
     *
     * @param inherited        {@code NAME=VALUE} words a wrapper put in the environment of the commands
     * @param shell            the shell running the inline script ({@code sh} in {@code sh -c '...'}), or null
     * @param noBraceExpansion that shell may do no brace expansion (POSIX sh: dash)
     */
    record Origin(List<String> inherited, String shell, boolean noBraceExpansion) {
        static final Origin TOP = new Origin(List.of(), null, false);
    }

    /**
     * What a pipeline element before a command writes, as xargs in it would read it.
     *
     * @param words      the words an xargs here reads, when the previous element writes static text; else null
     * @param unreadText the previous element is echo or printf whose text could not be read as xargs' words
     */
    record Pipe(List<String> words, boolean unreadText) {
        static final Pipe NONE = new Pipe(null, false);
    }

    /**
     * A simple command the walk reached: the product of this pass for one command.
     *
     * @param args         its words as bash expands them (after brace expansion)
     * @param pieces       the words brace expansion made, with the text their spans refer to
     * @param dynamicName  the name may run anything: an expansion, a glob or a brace in it, or a brace expansion
     *                     past the expander's bound or in a shell that may not brace-expand
     * @param raw          the command's source text
     * @param top          Claude Code's own splitter sees it (see {@link Context})
     * @param assignments  its environment prefix as {@code NAME=VALUE} words (inherited ones first)
     * @param redirections its redirections
     * @param context      its nesting, outermost first
     * @param pipe         what the pipeline element before it writes
     * @param source       the text the spans of its redirections refer to
     */
    record Reached(List<Arg> args, List<BraceExpansion.Piece> pieces, boolean dynamicName, String raw, boolean top,
                   List<String> assignments, List<Redirection> redirections, List<String> context, Pipe pipe,
                   String source) {
    }

    private final FactSink sink;
    private Flow flow;
    private Later later;
    private String source;
    /** The tree being walked, for directory changes anywhere in it (function bodies run after any of them). */
    private Node scriptRoot;
    private final List<String> context = new ArrayList<>();
    /** The innermost simple command whose words are being walked, or -1. */
    private int currentCommand = -1;
    private Origin origin = Origin.TOP;
    /** The words an xargs in this pipeline element reads, when the previous element writes static text; or null. */
    private List<String> xargsInput;
    /** The previous pipeline element is echo or printf whose text could not be read as xargs' words. */
    private boolean xargsUnreadText;
    /** The nesting depth of the pipeline element {@link #xargsInput} is for. */
    private int xargsInputDepth = -1;

    WalkPass(FactSink sink) {
        this.sink = sink;
    }

    /** Connects the passes this one hands its products to (set once, before the first walk). */
    void connect(Flow flow, Later later) {
        this.flow = flow;
        this.later = later;
    }

    /** The text the spans of the nodes being walked refer to. */
    String source() {
        return source;
    }

    /** The innermost simple command whose words are being walked, or -1. */
    int currentCommand() {
        return currentCommand;
    }

    /** Where the walk stands, outermost first, with {@code label} added: a copy. */
    List<String> contextWith(String label) {
        List<String> out = new ArrayList<>(context.size() + 1);
        out.addAll(context);
        out.add(label);
        return out;
    }

    /** Where the script being walked comes from. */
    Origin origin() {
        return origin;
    }

    /**
     * Walks a script: the top-level one ({@code label} null), or one a wrapper runs ({@code sh -c}, {@code eval},
     * a here-document given to a shell), whose commands stand under {@code label}. A script's top-level commands
     * stand where the wrapper stands (top-level when it is).
     *
     * @param script the parsed script
     * @param top    its top-level commands are top-level commands of the call
     * @param from   where it comes from
     * @param label  the context label of its commands, or null for the call's own script
     */
    void script(Script script, boolean top, Origin from, String label) {
        String savedSource = source;
        Node savedRoot = scriptRoot;
        Origin savedOrigin = origin;
        source = script.source();
        scriptRoot = script.body();
        origin = from;
        if (label != null) context.add(label);
        try {
            flow.scriptStarts(script.body());
            list(script.body(), top);
        } finally {
            if (label != null) context.remove(context.size() - 1);
            source = savedSource;
            scriptRoot = savedRoot;
            origin = savedOrigin;
        }
    }

    /**
     * Walks the command and process substitutions of static text parsed as code (stored code: text bash may
     * evaluate later), under {@link Context#STORED_CODE}.
     */
    void storedCode(Script script) {
        String savedSource = source;
        Node savedRoot = scriptRoot;
        source = script.source();
        scriptRoot = script.body();
        context.add(Context.STORED_CODE);
        try {
            Walker.walk(script, (node, ancestors) -> {
                if (node instanceof WordPart.CommandSubstitution cs) {
                    nested(cs.backquoted() ? Context.BACKTICKS : Context.COMMAND_SUBSTITUTION, cs.body());
                    return false;
                }
                if (node instanceof WordPart.ProcessSubstitution ps) {
                    nested(Context.PROCESS_SUBSTITUTION, ps.body());
                    return false;
                }
                return true;
            });
        } finally {
            context.remove(context.size() - 1);
            source = savedSource;
            scriptRoot = savedRoot;
        }
    }

    private void runTimeCode(String text, String label) {
        sink.runTimeCode(text, contextWith(label));
    }

    // ---- commands -------------------------------------------------------------------------------------------

    private void list(CommandList list, boolean top) {
        if (list.items().size() > 1) sink.met.add(new PipelinesAndLists.Met(list, source, top, List.copyOf(context)));
        for (ListItem item : list.items()) {
            // cmd &: an asynchronous command runs in a subshell (Bash Reference Manual §3.2.4): its assignments end
            // with it.
            Runnable end = item.background() ? flow.background() : null;
            command(item.command(), top);
            if (end != null) end.run();
        }
    }

    private void nested(String label, CommandList list) {
        // A subshell, a substitution and a coprocess run in a child shell: a cd there ends with it.
        boolean child = label.equals(Context.SUBSHELL) || label.equals(Context.COMMAND_SUBSTITUTION)
                || label.equals(Context.BACKTICKS) || label.equals(Context.PROCESS_SUBSTITUTION)
                || label.equals(Context.COPROCESS);
        Runnable end = child ? flow.childShell() : null;
        context.add(label);
        list(list, false);
        context.remove(context.size() - 1);
        if (end != null) end.run(); // (x=1); echo $x: the subshell's assignments end with it
    }

    private void nestedCommand(String label, Command c) {
        Runnable end = label.equals(Context.COPROCESS) ? flow.coprocess() : null;
        context.add(label);
        command(c, false);
        context.remove(context.size() - 1);
        if (end != null) end.run();
    }

    private void command(Command c, boolean top) {
        if (c instanceof Command.Simple s) {
            simple(s, top);
        } else if (c instanceof Command.Pipeline p) {
            if (p.commands().size() > 1) sink.met.add(new PipelinesAndLists.Met(p, source, top, List.copyOf(context)));
            // Each element of a pipeline of several runs in a subshell (bash(1) "Pipelines"): a cd there ends with it.
            Runnable elementEnds = flow.pipeline();
            List<String> savedInput = xargsInput;
            int savedDepth = xargsInputDepth;
            List<String> previousOutput = null;
            boolean savedUnread = xargsUnreadText;
            boolean previousPrinter = false;
            for (Command e : p.commands()) {
                // what the previous element writes, when it is static text: the words an xargs here reads
                xargsInput = previousOutput != null && plainXargs(e) ? previousOutput : null;
                // echo/printf before it: its own text, which the hook could not read as xargs' words (-d, -0,
                // escapes): the words are not "any input" Claude Code would pass on unchecked, but unknown
                xargsUnreadText = xargsInput == null && previousPrinter;
                // (a name only known at run time has no value: List.contains(null) would throw)
                String first = e instanceof Command.Simple ps && !ps.words().isEmpty()
                        ? WordValue.of(ps.words().get(0), source).value() : null;
                previousPrinter = "echo".equals(first) || "printf".equals(first);
                xargsInputDepth = context.size();
                previousOutput = staticOutput(e);
                command(e, top);
                if (p.commands().size() > 1) elementEnds.run(); // (lastpipe is off in bash -c)
            }
            xargsInput = savedInput;
            xargsInputDepth = savedDepth;
            xargsUnreadText = savedUnread;
        } else if (c instanceof Command.AndOrList a) {
            sink.met.add(new PipelinesAndLists.Met(a, source, top, List.copyOf(context)));
            // a && b || c: only the first always runs. && and || have equal precedence, left to right (Bash
            // Reference Manual §3.2.4).
            command(a.commands().get(0), top);
            AndOr branches = flow.andOr();
            for (int k = 1; k < a.commands().size(); k++) {
                boolean and = !"||".equals(a.operators().get(k - 1));
                branches.next(and);
                command(a.commands().get(k), top);
                branches.ran(and);
            }
            branches.end();
        } else if (c instanceof Command.Subshell s) {
            // bash performs a compound command's redirections before it runs the body (execute_cmd.c
            // execute_command_internal: do_redirections, then the command), so {NAME}>file assigns NAME, and a
            // substitution in a target runs, before the first command of the body.
            redirections(s.redirections(), -1);
            nested(Context.SUBSHELL, s.body());
        } else if (c instanceof Command.Group g) {
            redirections(g.redirections(), -1);
            nested(Context.GROUP, g.body());
        } else if (c instanceof Command.If i) {
            redirections(i.redirections(), -1);
            context.add(Context.IF);
            // Each condition runs after the ones before it failed; a body may run or not.
            If branches = flow.ifCommand();
            for (IfClause clause : i.clauses()) {
                list(clause.condition(), false);
                branches.conditionRan();
                list(clause.body(), false);
                branches.bodyRan();
            }
            // the else body, or (without one) nothing after the last condition failed
            if (i.elseBody() != null) list(i.elseBody(), false);
            branches.end();
            context.remove(context.size() - 1);
        } else if (c instanceof Command.For f) {
            redirections(f.redirections(), -1);
            context.add(Context.LOOP);
            if (f.items() != null) for (Word w : f.items()) word(w);
            flow.forLoop(f, changesDirectory(f.body()), () -> list(f.body(), false));
            context.remove(context.size() - 1);
        } else if (c instanceof Command.ArithFor f) {
            redirections(f.redirections(), -1);
            context.add(Context.LOOP);
            arithmetic(f.init());
            // for (( init; test; step )): test runs before every pass, step after it
            flow.conditionLoop(() -> {
                arithmetic(f.test());
                flow.loopCondition();
                flow.repeated(changesDirectory(f.body()), () -> list(f.body(), false));
                arithmetic(f.step());
            });
            context.remove(context.size() - 1);
        } else if (c instanceof Command.While w) {
            redirections(w.redirections(), -1);
            context.add(Context.LOOP);
            flow.conditionLoop(() -> flow.repeated(changesDirectory(w), () -> {
                list(w.condition(), false);
                flow.loopCondition();
                list(w.body(), false);
            }));
            context.remove(context.size() - 1);
        } else if (c instanceof Command.Case k) {
            redirections(k.redirections(), -1);
            context.add(Context.CASE);
            word(k.subject());
            // No item may match (unless one's pattern is a bare *); an item ended by ;& or ;;& goes on into the
            // next.
            Case branches = flow.caseCommand();
            boolean catchAll = false;
            for (CaseItem item : k.items()) {
                branches.item();
                for (Word p : item.patterns()) {
                    word(p);
                    catchAll |= p.span().text(source).equals("*");
                }
                list(item.body(), false);
                branches.itemRan(item.terminator());
            }
            branches.end(catchAll);
            context.remove(context.size() - 1);
        } else if (c instanceof Command.Conditional t) {
            redirections(t.redirections(), -1);
            context.add(Context.TEST_EXPRESSION);
            test(t.expression());
            context.remove(context.size() - 1);
        } else if (c instanceof Command.ArithmeticCommand a) {
            redirections(a.redirections(), -1);
            arithmetic(a.expression());
        } else if (c instanceof Command.FunctionDef f) {
            // A function body runs where it is called, after anything (any directory change of the call included).
            Runnable end = flow.functionDefinition(f.name(), changesDirectory(scriptRoot));
            try {
                if (f.body() instanceof Command.Group g) {
                    // The braces are the function body's own syntax, not a separate group; its redirections are
                    // performed at each call, before the body runs.
                    redirections(g.redirections(), -1);
                    nested(Context.FUNCTION_BODY, g.body());
                } else {
                    nestedCommand(Context.FUNCTION_BODY, f.body());
                }
            } finally {
                end.run();
            }
            later.functionDefined(f.name()); // after its body: the commands after the definition may call it
        } else if (c instanceof Command.Coproc k) {
            nestedCommand(Context.COPROCESS, k.body());
            // coproc [NAME]: bash sets NAME (COPROC) to the descriptors and NAME_PID to the process id
            flow.coprocessNamed(k.name());
        } else {
            sink.unmodelled("a " + c.getClass().getSimpleName() + " command");
        }
    }

    private void simple(Command.Simple s, boolean top) {
        List<String> assignmentWords = new ArrayList<>(origin.inherited());
        for (Assignment a : s.assignments()) {
            assignmentWords.add(a.span().text(source));
            assignment(a);
        }
        int id = -1;
        // Brace expansion (Bash Reference Manual 3.5.1) makes each word one or more argv entries; past the
        // expander's bound what runs is not known, so the name counts as dynamic.
        List<BraceExpansion.Piece> pieces = new ArrayList<>(s.words().size());
        Set<BraceExpansion.Piece> made = new java.util.HashSet<>();
        boolean unexpanded = false;
        for (Word w : s.words()) {
            BraceExpansion.Words ex = BraceExpansion.of(w, source);
            unexpanded |= ex.overflow();
            // sh may be dash, which does no brace expansion (POSIX has none): what runs is not known
            unexpanded |= ex.expanded() && origin.noBraceExpansion();
            pieces.addAll(ex.pieces());
            if (ex.expanded()) made.addAll(ex.pieces());
        }
        if (!pieces.isEmpty()) {
            List<Arg> args = new ArrayList<>(pieces.size());
            for (BraceExpansion.Piece piece : pieces) args.add(Arg.of(piece.word(), piece.source()));
            // A name with an expansion, a glob or a brace expansion may run anything.
            Arg name = args.get(0);
            boolean dynamicName = name.dynamic() || name.glob() || name.brace() || unexpanded;
            String raw = s.span().text(source);
            Pipe pipe = xargsInputDepth == context.size() ? new Pipe(xargsInput, xargsUnreadText) : Pipe.NONE;
            id = later.simpleCommand(new Reached(List.copyOf(args), pieces, dynamicName, raw, top,
                    assignmentWords, s.redirections(), List.copyOf(context), pipe, source));
            sink.asWritten.put(s, id);
            // Expansions inside the words run too, nested (once per word brace expansion makes); let's arguments
            // are arithmetic expressions.
            int savedCommand = currentCommand;
            currentCommand = id;
            boolean let = !dynamicName && name.text().equals("let");
            for (int k = 0; k < pieces.size(); k++) {
                BraceExpansion.Piece piece = pieces.get(k);
                if (let && k > 0) {
                    String saved = source;
                    source = piece.source();
                    try {
                        arithmeticWord(piece.word());
                    } finally {
                        source = saved;
                    }
                } else {
                    wordIn(piece.word(), piece.source());
                }
                // a word brace expansion made is text of its own: shaped like a subscript holding a substitution
                // (declare c[{1,2}=='$(cmd)']=1 makes c[1==$(cmd)]=1), it is code bash may evaluate (stored code)
                if (made.contains(piece)) {
                    WordValue v = WordValue.of(piece.word(), piece.source());
                    if (v.isStatic()) staticText(v.value());
                }
            }
            if (!dynamicName) flow.builtin(args, id);
            if (dynamicName || name.text().equals("continue") || name.text().equals("break")) flow.loopExit();
            redirections(s.redirections(), id);
            currentCommand = savedCommand;
        } else {
            // A statement of assignments only sets shell variables, seen by the commands after it.
            flow.assignmentStatement(s.assignments());
            for (Assignment a : s.assignments()) {
                WordValue v = a.value() == null ? null : WordValue.of(a.value(), source);
                later.assignmentStatement(a.name(), v != null && v.isStatic() ? v.value() : null);
            }
            redirections(s.redirections(), id);
        }
    }

    // ---- words, assignments, redirections ----------------------------------------------------------------------

    private void assignment(Assignment a) {
        flow.assignmentStarts(a);
        context.add(Context.ASSIGNMENT);
        if (a.index() != null) {
            // a[SUB]=v: the subscript of an indexed array is arithmetic (Bash Reference Manual §6.7 "Arrays")
            context.add(Context.ARRAY_SUBSCRIPT);
            arithmeticWord(a.index());
            context.remove(context.size() - 1);
        }
        if (a.value() != null) {
            // declare -i x; x=SECRET: the value of an integer variable is evaluated arithmetically
            if (flow.integer(a.name())) arithmeticWord(a.value());
            else word(a.value());
        }
        if (a.array() != null) for (ArrayElement e : a.array()) element(e);
        context.remove(context.size() - 1);
    }

    private void element(ArrayElement e) {
        if (e.index() != null) {
            // bash expands the index as a word, then evaluates its value as arithmetic (an indexed array), which
            // may assign (a=([PATH=0]=1)) and, for a value only known at run time, run any code in it
            // (x='$(cmd)'; a=([$x]=1) runs cmd; the parser adds the evaluation of a static value to the index)
            flow.arithmeticText(e.index().span());
            if (!WordValue.of(e.index(), source).isStatic()) {
                runTimeCode(e.index().span().text(source), Context.ARRAY_SUBSCRIPT);
            }
            context.add(Context.ARRAY_SUBSCRIPT);
            arithmeticWord(e.index());
            context.remove(context.size() - 1);
        }
        word(e.value());
    }

    private void word(Word w) {
        if (w != null) parts(w.parts());
    }

    /** {@link #word(Word)} for a word whose spans refer to {@code text} (a word brace expansion made). */
    private void wordIn(Word w, String text) {
        String saved = source;
        source = text;
        try {
            word(w);
        } finally {
            source = saved;
        }
    }

    private void parts(List<WordPart> parts) {
        for (WordPart p : parts) part(p);
    }

    /** Static text of a word: the flow keeps it (bash may evaluate it later), the unwrapping reads code in it. */
    private void staticText(String text) {
        flow.staticText(text);
        later.staticText(text);
    }

    private void part(WordPart p) {
        if (p instanceof WordPart.Literal lit) {
            staticText(lit.value());
        } else if (p instanceof WordPart.SingleQuoted sq) {
            staticText(sq.value());
        } else if (p instanceof WordPart.AnsiCQuoted ac) {
            staticText(ac.value());
        } else if (p instanceof WordPart.DoubleQuoted dq) {
            parts(dq.parts());
        } else if (p instanceof WordPart.CommandSubstitution cs) {
            nested(cs.backquoted() ? Context.BACKTICKS : Context.COMMAND_SUBSTITUTION, cs.body());
        } else if (p instanceof WordPart.ProcessSubstitution ps) {
            nested(Context.PROCESS_SUBSTITUTION, ps.body());
        } else if (p instanceof WordPart.ArithExpansion ae) {
            arithmetic(ae.expression());
        } else if (p instanceof WordPart.ParamExpansion pe) {
            flow.parameterExpanded(pe);
            if (pe.index() != null) {
                // ${a[SUB]}: arithmetic, but for @ and *
                context.add(Context.ARRAY_SUBSCRIPT);
                if (allElements(pe.index(), source)) word(pe.index());
                else arithmeticWord(pe.index());
                context.remove(context.size() - 1);
            }
            if (!pe.operands().isEmpty()) {
                // ${x:OFFSET:LENGTH}: both arithmetic
                context.add(Context.PARAMETER_EXPANSION);
                for (Word w : pe.operands()) {
                    if (":".equals(pe.operator())) arithmeticWord(w);
                    else word(w);
                }
                context.remove(context.size() - 1);
            }
        } else if (p instanceof WordPart.ExtGlob eg) {
            word(eg.pattern());
        } else if (p instanceof WordPart.ArrayLiteral al) {
            context.add(Context.ASSIGNMENT);
            for (ArrayElement e : al.elements()) element(e);
            context.remove(context.size() - 1);
        } else if (!(p instanceof WordPart.Tilde)) {
            sink.unmodelled("a word part " + p.getClass().getSimpleName());
        }
    }

    /** {@code ${!x}}, {@code ${!x@Q}}, {@code ${!x:-d}}: x's value names the variable expanded. */
    static boolean indirection(WordPart.ParamExpansion pe, String source) {
        if (!"!".equals(pe.prefix())) return false;
        // ${!P*} ${!P@} list names; ${!a[@]} ${!a[*]} list the subscripts of a
        if ("*".equals(pe.operator()) || "@".equals(pe.operator()) && pe.operands().isEmpty()) return false;
        return pe.index() == null || !allElements(pe.index(), source);
    }

    /** The subscript {@code @} or {@code *}: every element, not arithmetic. */
    static boolean allElements(Word index, String source) {
        WordValue v = WordValue.of(index, source);
        return v.isStatic() && (v.value().equals("@") || v.value().equals("*"));
    }

    /** A word bash evaluates arithmetically (a subscript, an offset, an operand of [[ -eq ]], let's argument). */
    private void arithmeticWord(Word w) {
        if (w != null) arithmeticParts(w.parts(), true);
    }

    /**
     * The parts of an arithmetic expression, in order: the static text between expansions (whose names the flow
     * reads as variables), and each expansion, whose value bash evaluates as part of the text. With {@code walk}
     * the expansions are walked as in any word (their own reads and nested commands); without, only the evaluation
     * of their values is recorded (they were walked already).
     */
    private void arithmeticParts(List<WordPart> parts, boolean walk) {
        List<Object> flat = new ArrayList<>();
        List<String> literal = new ArrayList<>();
        flatten(parts, flat, literal);
        StringBuilder text = new StringBuilder();
        Set<String> assigned = new java.util.LinkedHashSet<>();
        for (int i = 0; i < flat.size(); i++) {
            Object o = flat.get(i);
            if (o instanceof String t) {
                text.append(t);
                continue;
            }
            WordPart p = (WordPart) o;
            if (text.length() > 0) flow.arithmeticNames(text.toString(), assigned);
            boolean glued = text.length() > 0 && identifierChar(text.charAt(text.length() - 1))
                    || i + 1 < flat.size() && flat.get(i + 1) instanceof String next && !next.isEmpty()
                    && identifierChar(next.charAt(0));
            text.setLength(0);
            if (walk) part(p);
            flow.arithmeticValue(p);
            // ${x:-SECRET}: the operand's text may be the value evaluated
            if (p instanceof WordPart.ParamExpansion pe) for (Word w : pe.operands()) arithmeticParts(w.parts(), false);
            if (glued && (p instanceof WordPart.ParamExpansion || p instanceof WordPart.CommandSubstitution)) {
                flow.gluedName(p);
            }
        }
        if (text.length() > 0) flow.arithmeticNames(text.toString(), assigned);
        if (walk) for (String t : literal) staticText(t);
        // x = 1: the name holds a number from here on (its reads in the same text were counted before)
        flow.arithmeticAssigned(assigned);
    }

    /** The text of quoted and literal parts, in order, with the expansions between them as parts. */
    private static void flatten(List<WordPart> parts, List<Object> out, List<String> literal) {
        for (WordPart p : parts) {
            String t = p instanceof WordPart.Literal lit ? lit.value()
                    : p instanceof WordPart.SingleQuoted sq ? sq.value()
                    : p instanceof WordPart.AnsiCQuoted ac ? ac.value() : null;
            if (t != null) {
                out.add(t);
                literal.add(t);
            } else if (p instanceof WordPart.DoubleQuoted dq) {
                flatten(dq.parts(), out, literal);
            } else {
                out.add(p);
            }
        }
    }

    static boolean identifierChar(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }

    private void arithmetic(Arithmetic a) {
        if (a == null) return;
        flow.arithmeticText(a.span());
        context.add(Context.ARITHMETIC);
        arithmeticParts(a.parts(), true);
        context.remove(context.size() - 1);
    }

    private void test(TestExpr t) {
        if (t instanceof TestExpr.Operand o) {
            word(o.word());
        } else if (t instanceof TestExpr.Unary u) {
            // [[ -v NAME ]] evaluates a subscript in NAME: a NAME built at run time is code only known then.
            if (u.operator().equals("-v") && u.operand() instanceof TestExpr.Operand o
                    && !WordValue.of(o.word(), source).isStatic()) {
                runTimeCode(o.word().span().text(source), Context.EVALUATED_NAME);
            }
            // [[ -v NAME ]], [[ -R NAME ]]: whether it is set, and a subscript evaluated arithmetically
            if ((u.operator().equals("-v") || u.operator().equals("-R")) && u.operand() instanceof TestExpr.Operand o
                    && WordValue.of(o.word(), source).isStatic()) {
                flow.testedName(WordValue.of(o.word(), source).value());
            }
            test(u.operand());
        } else if (t instanceof TestExpr.Binary b) {
            if (TestExpr.ARITHMETIC_OPERATORS.contains(b.operator())) {
                // [[ A -eq B ]]: both operands are arithmetic expressions (the test builtin's are integers only)
                flow.arithmeticText(b.left().span());
                flow.arithmeticText(b.right().span());
                arithmeticTest(b.left());
                arithmeticTest(b.right());
                return;
            }
            test(b.left());
            test(b.right());
        } else if (t instanceof TestExpr.Not n) {
            test(n.operand());
        } else if (t instanceof TestExpr.Paren p) {
            test(p.inner());
        } else {
            sink.unmodelled("a test expression " + t.getClass().getSimpleName());
        }
    }

    /** An operand of an arithmetic {@code [[ ]]} operator: a word evaluated arithmetically. */
    private void arithmeticTest(TestExpr t) {
        if (t instanceof TestExpr.Operand o) arithmeticWord(o.word());
        else test(t);
    }

    private void redirections(List<Redirection> list, int commandId) {
        for (Redirection r : list) redirection(r, commandId);
    }

    private void redirection(Redirection r, int commandId) {
        // {NAME}>file, {NAME}<&-: bash assigns the descriptor number to NAME (bash(1) "REDIRECTION").
        if (r.fd() != null && r.fd().startsWith("{") && r.fd().endsWith("}")) flow.descriptorNamed(r.fd(), commandId);
        context.add(Context.REDIRECTION_TARGET);
        word(r.target());
        context.remove(context.size() - 1);
        if (r.hereDoc() != null && !r.hereDoc().quoted()) {
            context.add(Context.HEREDOC_BODY);
            int savedCommand = currentCommand;
            currentCommand = commandId;
            word(r.hereDoc().body());
            currentCommand = savedCommand;
            context.remove(context.size() - 1);
        }
        later.redirection(r, commandId, source);
    }

    // ---- what the pipeline element before a command writes ----------------------------------------------------

    /**
     * The words xargs would read from what a pipeline element writes, when that is static: {@code echo} with static
     * words and no option, split at blanks as xargs splits its input (a word with a quote or backslash, which xargs
     * reads specially, gives up); null otherwise.
     */
    private List<String> staticOutput(Command e) {
        if (!(e instanceof Command.Simple sc) || !sc.redirections().isEmpty() || !sc.assignments().isEmpty()) return null;
        if (sc.words().isEmpty()) return null;
        List<String> out = new ArrayList<>();
        boolean first = true;
        if (sc.words().size() == 2) {
            WordValue n = WordValue.of(sc.words().get(0), source);
            WordValue f = WordValue.of(sc.words().get(1), source);
            if (n.isStatic() && n.value().equals("printf") && f.isStatic() && !f.value().contains("%")) {
                // printf FORMAT with no conversion: the format, with \n and \t decoded (any other escape gives up)
                String t = f.value().replace("\\n", "\n").replace("\\t", "\t");
                if (t.contains("\\") || t.contains("'") || t.contains("\"") || t.startsWith("-")) return null;
                addBlankSplit(t, out);
                return out;
            }
        }
        for (Word w : sc.words()) {
            WordValue v = WordValue.of(w, source);
            if (!v.isStatic() || v.glob() || v.braceExpansion()) return null;
            String t = v.value();
            if (first) {
                if (!t.equals("echo")) return null;
                first = false;
                continue;
            }
            // echo's own options (bash's echo takes -n -e -E, clustered): what it prints is then not the words
            if (t.matches("-[neE]+") || t.contains("'") || t.contains("\"") || t.contains("\\")) return null;
            addBlankSplit(t, out); // a word starting with - is an option of the program xargs runs
        }
        return out;
    }

    /** Adds the words xargs makes of {@code text} by its default splitting at blanks and newlines. */
    private static void addBlankSplit(String text, List<String> out) {
        for (String x : text.trim().split("[ \t\n]+")) if (!x.isEmpty()) out.add(x);
    }

    /**
     * Whether a pipeline element is {@code xargs} itself, reading its input as {@link #staticOutput} splits it: only
     * options that leave the splitting alone ({@code -r -t -x -n N -P N -I R}, xargs(1)); {@code -d}, {@code -0},
     * {@code -E}, {@code -L}, {@code -a} and the rest read the input otherwise (or another file).
     */
    private boolean plainXargs(Command e) {
        if (!(e instanceof Command.Simple sc) || sc.words().isEmpty()) return false;
        List<String> w = new ArrayList<>();
        for (Word x : sc.words()) {
            WordValue v = WordValue.of(x, source);
            if (!v.isStatic()) return false;
            w.add(v.value());
        }
        if (!w.get(0).equals("xargs")) return false;
        for (int i = 1; i < w.size(); i++) {
            String t = w.get(i);
            if (!t.startsWith("-")) return true; // the command xargs runs
            if (t.matches("-r|--no-run-if-empty|-t|--verbose|-x|--exit")) continue;
            if (t.matches("-n[0-9]+|--max-args=[0-9]+|-P[0-9]+|--max-procs=[0-9]+|-I.+|-i.*|--replace(=.*)?")) continue;
            if (t.matches("-n|-P|-I") && i + 1 < w.size()) {
                i++;
                continue;
            }
            return false;
        }
        return true;
    }

    // ---- directory changes anywhere in a tree ------------------------------------------------------------------

    /** Directory changers whose operand moves every later relative path (bash(1) "cd", "pushd", "popd"). */
    static final Set<String> DIRECTORY_CHANGERS = Set.of("cd", "pushd", "popd", "chdir");

    /** True when some simple command under {@code node} has a directory changer as a static word. */
    private boolean changesDirectory(Node node) {
        if (node == null) return false;
        for (Command.Simple c : Walker.all(node, Command.Simple.class)) {
            for (Word w : c.words()) {
                WordValue v = WordValue.of(w, source);
                if (v.isStatic() && DIRECTORY_CHANGERS.contains(v.value())) return true;
            }
        }
        return false;
    }
}
