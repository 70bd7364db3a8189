package dev.compoundbash.facts;

import dev.compoundbash.shell.ArrayElement;
import dev.compoundbash.shell.BraceExpansion;
import dev.compoundbash.shell.Arithmetic;
import dev.compoundbash.shell.Span;
import dev.compoundbash.shell.Assignment;
import dev.compoundbash.shell.CaseItem;
import dev.compoundbash.shell.Command;
import dev.compoundbash.shell.CommandList;
import dev.compoundbash.shell.IfClause;
import dev.compoundbash.shell.ListItem;
import dev.compoundbash.shell.ParseException;
import dev.compoundbash.shell.Parser;
import dev.compoundbash.shell.Redirection;
import dev.compoundbash.shell.Script;
import dev.compoundbash.shell.TestExpr;
import dev.compoundbash.shell.Word;
import dev.compoundbash.shell.WordPart;
import dev.compoundbash.shell.WordValue;

import java.util.ArrayList;
import java.util.List;

/**
 * Walks a parsed {@link Script} into {@link Facts}: one {@link SubCommand} per simple command bash could run, at
 * any depth (command and process substitutions, backticks, subshells, groups, loops, if, case, function bodies,
 * unquoted here-document bodies, assignment values, array subscripts, arithmetic, {@code [[ ]]}, redirection
 * targets); wrappers unwrapped into {@link Wrapper} facts and payload sub-commands; find's acting primaries as
 * {@link FindAction}s; every redirection as a classified {@link Redirect}. A shell's {@code -c SCRIPT}, {@code eval}'s
 * arguments and the like are parsed with {@link Parser} and walked the same way (context
 * {@link Context#INLINE_SCRIPT}); a file a wrapper writes ({@code time -o FILE}) becomes a {@link Redirect}.
 *
 * <p>Not thread-safe: use one instance per extraction.
 */
public final class FactExtractor {
    private String source;
    private final RedirectTargets targets;
    private final List<SubCommand> subCommands = new ArrayList<>();
    private final List<Wrapper> wrappers = new ArrayList<>();
    private final List<FindAction> findActions = new ArrayList<>();
    private final List<Redirect> redirects = new ArrayList<>();
    private final List<String> context = new ArrayList<>();
    private int nextId = 1;
    /** Id of the innermost sudo/doas whose payload is being extracted, or -1. */
    private int privilegeId = -1;
    /** {@code NAME=VALUE} words a wrapper put in the environment of the commands being extracted. */
    private List<String> inherited = List.of();
    /** Wrappers and inline scripts deeper than this are not read: their payloads are never approved. */
    static final int MAX_WRAPPER_DEPTH = 64;
    private int wrapperDepth;
    /** Names set by assignment statements and declaration builtins met so far, in order. */
    private final List<String> shellVariables = new ArrayList<>();
    /**
     * Names set anywhere in the command in ways whose order is not tracked (arithmetic assignments,
     * {@code ${NAME:=...}}, values evaluated as arithmetic): every sub-command is judged as if set before it.
     */
    private final java.util.Set<String> setAnywhere = new java.util.LinkedHashSet<>();
    /** Variables assigned a value only known at run time (an expansion, read, mapfile, a loop over expansions). */
    private final java.util.Set<String> runTimeValues = new java.util.HashSet<>();
    /** Source text of every arithmetic context: (( )), $(( )), for (( )), subscripts, [[ -eq ]] operands, let. */
    private final List<String> arithmeticTexts = new ArrayList<>();
    /** Names whose value is used as a variable name (${!name}). */
    private final java.util.Set<String> indirected = new java.util.HashSet<>();
    /** Static text holding a command-substitution opener that {@link #storedCode} did not already extract. */
    private final List<String> codeLikeTexts = new ArrayList<>();
    /** Every static text part, for values bash may later evaluate as arithmetic ({@code x='PATH=0'}). */
    private final List<String> staticTexts = new ArrayList<>();
    /** True when the command evaluates a value as code: ${x@P}, or a run-time name given to a name-taking builtin. */
    private boolean evaluatesValues;

    private FactExtractor(String source, Environment env) {
        this.source = source;
        this.targets = new RedirectTargets(env);
    }

    /**
     * Extracts the facts of {@code script}.
     *
     * @param script a tree from {@code Parser.parse}
     * @param env    the working directory and allowed directories used to classify redirect targets
     * @return the facts, in source order
     */
    public static Facts extract(Script script, Environment env) {
        FactExtractor x = new FactExtractor(script.source(), env);
        x.list(script.body(), true);
        x.valuesEvaluatedLater();
        return new Facts(List.copyOf(x.subCommands), List.copyOf(x.wrappers), List.copyOf(x.findActions),
                List.copyOf(x.redirects));
    }

    // ---- commands -------------------------------------------------------------------------------------------

    private void list(CommandList list, boolean top) {
        for (ListItem item : list.items()) command(item.command(), top);
    }

    private void nested(String label, CommandList list) {
        context.add(label);
        list(list, false);
        context.remove(context.size() - 1);
    }

    private void nestedCommand(String label, Command c) {
        context.add(label);
        command(c, false);
        context.remove(context.size() - 1);
    }

    private void command(Command c, boolean top) {
        if (c instanceof Command.Simple s) {
            simple(s, top);
        } else if (c instanceof Command.Pipeline p) {
            for (Command e : p.commands()) command(e, top);
        } else if (c instanceof Command.AndOrList a) {
            for (Command e : a.commands()) command(e, top);
        } else if (c instanceof Command.Subshell s) {
            nested(Context.SUBSHELL, s.body());
            redirections(s.redirections(), -1);
        } else if (c instanceof Command.Group g) {
            nested(Context.GROUP, g.body());
            redirections(g.redirections(), -1);
        } else if (c instanceof Command.If i) {
            context.add(Context.IF);
            for (IfClause clause : i.clauses()) {
                list(clause.condition(), false);
                list(clause.body(), false);
            }
            if (i.elseBody() != null) list(i.elseBody(), false);
            context.remove(context.size() - 1);
            redirections(i.redirections(), -1);
        } else if (c instanceof Command.For f) {
            context.add(Context.LOOP);
            if (f.items() != null) for (Word w : f.items()) word(w);
            // for NAME in ...; select NAME in ...: the loop assigns NAME (and keeps the last value after it).
            WordValue var = WordValue.of(f.variable(), source);
            String name = var.isStatic() ? var.text() : VariableWrites.RUN_TIME_NAME;
            shellVariables.add(name);
            boolean runTime = f.items() == null;
            if (f.items() != null) for (Word w : f.items()) runTime |= !WordValue.of(w, source).isStatic();
            if (runTime || f.select()) runTimeValues.add(name);
            list(f.body(), false);
            context.remove(context.size() - 1);
            redirections(f.redirections(), -1);
        } else if (c instanceof Command.ArithFor f) {
            context.add(Context.LOOP);
            arithmetic(f.init());
            arithmetic(f.test());
            arithmetic(f.step());
            list(f.body(), false);
            context.remove(context.size() - 1);
            redirections(f.redirections(), -1);
        } else if (c instanceof Command.While w) {
            context.add(Context.LOOP);
            list(w.condition(), false);
            list(w.body(), false);
            context.remove(context.size() - 1);
            redirections(w.redirections(), -1);
        } else if (c instanceof Command.Case k) {
            context.add(Context.CASE);
            word(k.subject());
            for (CaseItem item : k.items()) {
                for (Word p : item.patterns()) word(p);
                list(item.body(), false);
            }
            context.remove(context.size() - 1);
            redirections(k.redirections(), -1);
        } else if (c instanceof Command.Conditional t) {
            context.add(Context.TEST_EXPRESSION);
            test(t.expression());
            context.remove(context.size() - 1);
            redirections(t.redirections(), -1);
        } else if (c instanceof Command.ArithmeticCommand a) {
            arithmetic(a.expression());
            redirections(a.redirections(), -1);
        } else if (c instanceof Command.FunctionDef f) {
            if (f.body() instanceof Command.Group g) {
                // The braces are the function body's own syntax, not a separate group.
                nested(Context.FUNCTION_BODY, g.body());
                redirections(g.redirections(), -1);
            } else {
                nestedCommand(Context.FUNCTION_BODY, f.body());
            }
        } else if (c instanceof Command.Coproc k) {
            nestedCommand(Context.COPROCESS, k.body());
        }
    }

    private void simple(Command.Simple s, boolean top) {
        List<String> assignmentWords = new ArrayList<>(inherited);
        for (Assignment a : s.assignments()) {
            assignmentWords.add(a.span().text(source));
            assignment(a);
        }
        int id = -1;
        // Brace expansion (Bash Reference Manual 3.5.1) makes each word one or more argv entries; past the
        // expander's bound what runs is not known, so the name counts as dynamic.
        List<BraceExpansion.Piece> pieces = new ArrayList<>(s.words().size());
        boolean unexpanded = false;
        for (Word w : s.words()) {
            BraceExpansion.Words ex = BraceExpansion.of(w, source);
            unexpanded |= ex.overflow();
            pieces.addAll(ex.pieces());
        }
        if (!pieces.isEmpty()) {
            List<String> argv = new ArrayList<>(pieces.size());
            boolean[] dyn = new boolean[pieces.size()];
            for (int i = 0; i < dyn.length; i++) {
                WordValue v = WordValue.of(pieces.get(i).word(), pieces.get(i).source());
                argv.add(v.text());
                // A name with an expansion, a glob or a brace expansion may run anything.
                dyn[i] = !v.isStatic() || (i == 0 && (v.glob() || v.braceExpansion()));
            }
            dyn[0] |= unexpanded;
            id = nextId++;
            String raw = s.span().text(source);
            SubCommand sc = commandFact(id, argv, dyn, raw, top, "command", -1, false, assignmentWords);
            subCommands.add(sc);
            // The words' own expansions run in this shell, outside any privilege or prefix the wrapper sets.
            unwrap(sc, argv, dyn, top);
            stdinScript(sc, argv, dyn, s.redirections(), top);
            // Expansions inside the words run too, nested (once per word brace expansion makes).
            for (BraceExpansion.Piece p : pieces) wordIn(p.word(), p.source());
            if (!dyn[0]) builtinWrites(argv, dyn);
        } else {
            // A statement of assignments only sets shell variables, seen by the commands after it.
            for (Assignment a : s.assignments()) shellVariables.add(a.name());
        }
        redirections(s.redirections(), id);
    }

    /** Builtins that read a value at run time into the variables they name (bash(1) SHELL BUILTIN COMMANDS). */
    private static final java.util.Set<String> VARIABLE_READERS = java.util.Set.of("read", "printf", "getopts",
            "mapfile", "readarray", "wait");

    /**
     * The variables a builtin {@code sc} assigns by name (read, printf -v, getopts, mapfile, wait -p, unset and the
     * declaration builtins; {@link VariableWrites}), which later commands are judged against; {@code let}'s
     * arguments as arithmetic; and a name given at run time to a builtin that evaluates names ({@code test -v
     * "a[$x]"}, {@code printf -v "$n"}): bash evaluates a subscript in it, command substitutions included, so it is
     * code only known at run time.
     */
    private void builtinWrites(List<String> argv, boolean[] dyn) {
        String name = argv.get(0);
        List<VariableWrites.Operand> operands = VariableWrites.nameOperands(argv, dyn);
        List<String> names = VariableWrites.byBuiltin(argv, dyn, operands);
        shellVariables.addAll(names);
        if (VARIABLE_READERS.contains(name)) runTimeValues.addAll(names);
        if (name.equals("let")) {
            for (int i = 1; i < argv.size(); i++) arithmeticTexts.add(argv.get(i));
        }
        boolean declaration = dev.compoundbash.shell.Parser.DECLARATION.contains(name);
        for (VariableWrites.Operand o : operands) {
            if (!dyn[o.index()]) continue;
            String text = o.text();
            int eq = declaration ? assignmentEquals(text) : -1;
            String namePart = eq > 0 ? text.substring(0, eq) : text;
            if (namePart.indexOf('$') >= 0 || namePart.indexOf('`') >= 0 || !namePart.matches("[A-Za-z_].*")) {
                runTimeCode(text, Context.EVALUATED_NAME);
            } else if (eq > 0) {
                // NAME=$(...): a value only known at run time
                runTimeValues.add(VariableWrites.nameOf(text));
            }
        }
        if (name.equals("test") || name.equals("[")) {
            for (int i = 2; i < argv.size(); i++) {
                if (dyn[i] && argv.get(i - 1).equals("-v")) runTimeCode(argv.get(i), Context.EVALUATED_NAME);
            }
        }
    }

    /**
     * The index of the {@code =} that ends the name of {@code NAME=...} or {@code NAME[SUB]=...} (the first one after
     * the subscript: {@code a[x==1]=v} is a[x==1]), or -1.
     */
    private static int assignmentEquals(String text) {
        int depth = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '[') depth++;
            else if (c == ']' && depth > 0) depth--;
            else if (c == '=' && depth == 0) return i;
        }
        return text.indexOf('=');
    }

    /**
     * Text bash evaluates as code at run time whose commands cannot be read here ({@code ${x@P}}, a name built at
     * run time): one nested sub-command with a dynamic name, which no rule approves.
     */
    private void runTimeCode(String text, String label) {
        evaluatesValues = true;
        context.add(label);
        int id = nextId++;
        subCommands.add(commandFact(id, List.of(text), new boolean[]{true}, text, false, "command", -1, false,
                List.of()));
        context.remove(context.size() - 1);
    }

    /**
     * After the walk: what bash evaluates later from values. Arithmetic assignments anywhere, and static text that
     * an arithmetic evaluation of a variable could run as an assignment ({@code x='PATH=0'; echo $((x))}), set
     * variables for every sub-command; a value only known at run time that is evaluated as arithmetic or used as
     * a name ({@code n=$(cat f); echo $((n))}, {@code ${!n}}) may run the command substitution of an array
     * subscript in it, so no sub-command is approved; and where a value is evaluated as code ({@code ${x@P}}), the
     * commands inside any static text are extracted as stored code.
     */
    private void valuesEvaluatedLater() {
        for (String t : arithmeticTexts) setAnywhere.addAll(VariableWrites.inArithmetic(t));
        if (!arithmeticTexts.isEmpty() || !indirected.isEmpty()) {
            for (String t : staticTexts) setAnywhere.addAll(VariableWrites.inArithmetic(t));
            boolean runTime = false;
            for (String t : arithmeticTexts) {
                for (String n : VariableWrites.referencedInArithmetic(t)) runTime |= runTimeValues.contains(n);
            }
            for (String n : indirected) runTime |= runTimeValues.contains(n);
            if (runTime) setAnywhere.add(VariableWrites.RUN_TIME_VALUE);
        }
        if (evaluatesValues) {
            // Extracting stored code walks its words, which may find more code-like text inside (always shorter):
            // the list grows while it is read.
            for (int i = 0; i < codeLikeTexts.size(); i++) storedCode(codeLikeTexts.get(i), true);
        }
        if (setAnywhere.isEmpty()) return;
        for (int i = 0; i < subCommands.size(); i++) {
            subCommands.set(i, subCommands.get(i).withShellVariablesAdded(List.copyOf(setAnywhere)));
        }
    }

    private SubCommand commandFact(int id, List<String> argv, boolean[] dyn, String raw, boolean top, String role,
                                   int wrapperId, boolean appended, List<String> assignmentWords) {
        boolean dynamicArgs = false;
        for (int i = 1; i < dyn.length; i++) dynamicArgs |= dyn[i];
        List<String> names = new ArrayList<>(assignmentWords.size());
        for (String w : assignmentWords) {
            int eq = w.indexOf('=');
            String name = eq < 0 ? w : w.substring(0, eq);
            if (name.endsWith("+")) name = name.substring(0, name.length() - 1);
            int bracket = name.indexOf('[');
            names.add(bracket < 0 ? name : name.substring(0, bracket));
        }
        return new SubCommand(id, argv, raw, dyn.length > 0 && dyn[0], dynamicArgs, top, context, role, wrapperId,
                appended, names, assignmentWords, privilegeId, List.copyOf(shellVariables));
    }

    /**
     * When {@code sc} is a wrapper, re-files it with role {@code wrapper} and adds its payloads (recursively:
     * a payload may itself be a wrapper, or a script), its {@link Wrapper} facts, for find its {@link FindAction}s,
     * and the files it writes as {@link Redirect}s. A payload inherits the wrapper's environment prefix plus the
     * assignments the wrapper adds ({@code env NAME=VALUE}), and under sudo/doas the privilege.
     */
    private void unwrap(SubCommand sc, List<String> argv, boolean[] dyn, boolean top) {
        if (sc.isDynamicName()) return;
        String base = sc.getBaseName();
        if (base.equals("find")) {
            for (WrapperGrammar.Action a : WrapperGrammar.findActions(argv)) {
                findActions.add(new FindAction(nextId++, sc.getId(), a.primary(), a.mutating(), a.argument()));
            }
        }
        WrapperGrammar.Unwrapped u = WrapperGrammar.unwrap(argv);
        if (u == null) return;
        // The wrapper as written is judged through its payloads.
        subCommands.set(subCommands.indexOf(sc), sc.withRole("wrapper", sc.getWrapperId()));
        for (WrapperGrammar.Output o : u.outputs()) {
            outputTarget(sc.getId(), null, o.option(), o.path(argv), dyn[o.index()]);
        }
        if (wrapperDepth >= MAX_WRAPPER_DEPTH) {
            wrappers.add(wrapper(nextId++, u, sc.getId(), -1, false));
            return;
        }
        int savedPrivilege = privilegeId;
        List<String> savedInherited = inherited;
        if (u.privileged()) privilegeId = sc.getId();
        wrapperDepth++;
        try {
            unwrapPayloads(sc, u, argv, dyn, top);
        } finally {
            wrapperDepth--;
            privilegeId = savedPrivilege;
            inherited = savedInherited;
        }
    }

    private void unwrapPayloads(SubCommand sc, WrapperGrammar.Unwrapped u, List<String> argv, boolean[] dyn,
                                boolean top) {
        List<WrapperGrammar.Payload> payloads = new ArrayList<>(u.payloads());
        if (payloads.isEmpty() && !u.implicitPayload().isEmpty()) {
            int wid = nextId++;
            int pid = nextId++;
            wrappers.add(wrapper(wid, u, sc.getId(), pid, true));
            subCommands.add(commandFact(pid, u.implicitPayload(), new boolean[u.implicitPayload().size()],
                    String.join(" ", u.implicitPayload()), top, "payload", wid, u.appendsArguments(),
                    sc.getAssignments()));
            return;
        }
        if (payloads.isEmpty()) {
            wrappers.add(wrapper(nextId++, u, sc.getId(), -1, true));
            return;
        }
        for (WrapperGrammar.Payload p : payloads) {
            if (!p.readable() || p.from() >= p.to()) {
                wrappers.add(wrapper(nextId++, u, sc.getId(), -1, false));
                continue;
            }
            List<String> env = new ArrayList<>(sc.getAssignments());
            env.addAll(p.assignments());
            boolean[] pdyn = java.util.Arrays.copyOfRange(dyn, p.from(), p.to());
            boolean anyDynamic = false;
            for (boolean d : pdyn) anyDynamic |= d;
            if (p.form().equals(WrapperGrammar.SCRIPT)) {
                if (anyDynamic) {
                    // Text only known at run time is never read, so never approved.
                    wrappers.add(wrapper(nextId++, u, sc.getId(), -1, false));
                } else {
                    inlineScript(sc, u, p.words().get(0), top, env);
                }
                continue;
            }
            List<String> pargv = p.words() != null ? List.copyOf(p.words()) : List.copyOf(argv.subList(p.from(), p.to()));
            if (p.words() != null) {
                // Split words (env -S) come from one argv word: they are dynamic when it is.
                boolean[] spread = new boolean[pargv.size()];
                java.util.Arrays.fill(spread, anyDynamic);
                pdyn = spread;
            }
            int wid = nextId++;
            int pid = nextId++;
            wrappers.add(wrapper(wid, u, sc.getId(), pid, true));
            inherited = env;
            SubCommand payload = commandFact(pid, pargv, pdyn, String.join(" ", pargv), top, "payload", wid,
                    u.appendsArguments(), env);
            subCommands.add(payload);
            unwrap(payload, pargv, pdyn, top);
        }
    }

    /** Shells that read a script from standard input when given no script operand. */
    private static final java.util.Set<String> SHELLS = java.util.Set.of("bash", "sh", "zsh", "dash", "ksh");

    /**
     * {@code bash <<EOF ... EOF}, {@code sh <<< 'cmd'}: a shell given no {@code -c} and no script file (or
     * {@code -s}) reads its script from standard input (bash(1) "Invocation"); when that input is a here-document or
     * here-string, its text is the script, parsed like {@code sh -c}. Text only known at run time (an unquoted body
     * with expansions) is never approved.
     */
    private void stdinScript(SubCommand sc, List<String> argv, boolean[] dyn, List<Redirection> redirections,
                             boolean top) {
        if (sc.isDynamicName() || !SHELLS.contains(sc.getBaseName())) return;
        int idx = subCommands.indexOf(sc);
        if (idx < 0 || !subCommands.get(idx).getRole().equals("command")) return; // -c was handled as a wrapper
        boolean stdin = true;
        for (int i = 1; i < argv.size(); i++) {
            String a = argv.get(i);
            if (a.equals("-s")) break;
            if (dyn[i] || !(a.startsWith("-") || a.startsWith("+"))) {
                stdin = false; // a script file operand (or one only known at run time)
                break;
            }
        }
        if (!stdin) return;
        Redirection input = null;
        for (Redirection r : redirections) {
            boolean toStdin = r.fd() == null || r.fd().equals("0");
            if (toStdin && (r.operator().equals("<<") || r.operator().equals("<<-") || r.operator().equals("<<<"))) {
                input = r; // the last redirection of stdin wins
            }
        }
        if (input == null) return;
        WrapperGrammar.Unwrapped u = new WrapperGrammar.Unwrapped(sc.getBaseName() + " <<", List.of(), false,
                false, List.of(), List.of());
        subCommands.set(idx, sc.withRole("wrapper", sc.getWrapperId()));
        WordValue v = input.hereDoc() != null ? WordValue.of(input.hereDoc().body(), source)
                : WordValue.of(input.target(), source);
        if (!v.isStatic()) {
            wrappers.add(wrapper(nextId++, u, sc.getId(), -1, false));
            return;
        }
        inlineScript(sc, u, v.value(), top, sc.getAssignments());
    }

    private Wrapper wrapper(int id, WrapperGrammar.Unwrapped u, int commandId, int payloadId, boolean readable) {
        return new Wrapper(id, u.kind(), commandId, payloadId, u.appendsArguments(), u.replaceMode(), readable,
                u.privileged(), u.ownRuleRequired(), u.changesDirectory());
    }

    /**
     * Parses {@code text} as a script run by the wrapper {@code shell} ({@code sh -c}, {@code eval}, ...) and
     * extracts its commands under {@link Context#INLINE_SCRIPT}: a script's top-level commands stand where the
     * wrapper stands (top-level when it is), everything inside them is nested as usual. Every command of the
     * script not already reached through a wrapper inside it gets a {@link Wrapper} linking it to {@code shell},
     * so the shell is approved only when all of them are. A script that does not parse gets an unreadable
     * Wrapper, never approved.
     */
    private void inlineScript(SubCommand shell, WrapperGrammar.Unwrapped u, String text, boolean top,
                              List<String> env) {
        Script script;
        try {
            script = Parser.parse(text);
        } catch (ParseException | RuntimeException e) {
            // Unreadable, so never approved; deny rules still reach the rest of the call.
            wrappers.add(wrapper(nextId++, u, shell.getId(), -1, false));
            return;
        }
        String savedSource = source;
        int before = subCommands.size();
        source = script.source();
        inherited = env;
        context.add(Context.INLINE_SCRIPT);
        try {
            list(script.body(), top);
        } finally {
            context.remove(context.size() - 1);
            source = savedSource;
        }
        boolean linked = false;
        for (int k = before; k < subCommands.size(); k++) {
            SubCommand c = subCommands.get(k);
            if (c.getWrapperId() != -1) continue;
            int wid = nextId++;
            wrappers.add(wrapper(wid, u, shell.getId(), c.getId(), true));
            subCommands.set(k, c.withRole(c.getRole().equals("wrapper") ? "wrapper" : "payload", wid));
            linked = true;
        }
        // An empty script runs nothing: a readable Wrapper with no payload.
        if (!linked) wrappers.add(wrapper(nextId++, u, shell.getId(), -1, true));
    }

    // ---- words, assignments, redirections ----------------------------------------------------------------------

    private void assignment(Assignment a) {
        boolean runTime = a.value() != null && !WordValue.of(a.value(), source).isStatic();
        if (a.array() != null) for (ArrayElement e : a.array()) runTime |= !WordValue.of(e.value(), source).isStatic();
        if (runTime) runTimeValues.add(a.name());
        if (a.index() != null) arithmeticText(a.index().span());
        context.add(Context.ASSIGNMENT);
        if (a.index() != null) {
            context.add(Context.ARRAY_SUBSCRIPT);
            word(a.index());
            context.remove(context.size() - 1);
        }
        if (a.value() != null) word(a.value());
        if (a.array() != null) for (ArrayElement e : a.array()) element(e);
        context.remove(context.size() - 1);
    }

    /**
     * Static text shaped like an array subscript holding a substitution ({@code 'a[$(curl x)]'}) is inert where it
     * is written, but bash evaluates a subscript, substitutions included, wherever such text is later used as a
     * variable name or arithmetically: a variable's value in {@code $((x))}, {@code (( x ))}, {@code [[ x -eq 1 ]]}
     * (Bash Reference Manual §6.5 "Shell Arithmetic": "the value of a variable is evaluated as an arithmetic
     * expression"), and a name argument of {@code test -v}, {@code printf -v}, {@code read}, {@code unset},
     * {@code declare} (§6.7 "Arrays"). So the commands inside such text, in any quoted or literal part of any word,
     * are extracted as nested sub-commands under {@link Context#STORED_CODE}: an unapproved one asks, a denied one
     * denies. Text without a subscript ({@code 'use $(pwd)'}) is never evaluated this way and is left alone.
     */
    private void storedCode(String text) {
        staticTexts.add(text);
        if (!hasCodeOpener(text)) return;
        int bracket = text.indexOf('[');
        if (bracket < 0 || !hasCodeOpener(text.substring(bracket))) {
            codeLikeTexts.add(text);
            return;
        }
        storedCode(text, false);
    }

    private static boolean hasCodeOpener(String t) {
        return t.contains("$(") || t.indexOf('`') >= 0 || t.contains("<(") || t.contains(">(");
    }

    /**
     * Extracts the commands of static text as stored code; when {@code evaluated} (the command evaluates values as
     * code) and the text does not parse on its own (a piece of code assembled at run time), it is code only known
     * at run time.
     */
    private void storedCode(String text, boolean evaluated) {
        Script script;
        try {
            script = Parser.parse(text);
        } catch (ParseException | RuntimeException e) {
            if (evaluated) runTimeCode(text, Context.STORED_CODE);
            return; // bash could not evaluate it alone either
        }
        String savedSource = source;
        source = script.source();
        context.add(Context.STORED_CODE);
        try {
            dev.compoundbash.shell.Walker.walk(script, (node, ancestors) -> {
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
        }
    }

    private void element(ArrayElement e) {
        if (e.index() != null) {
            // bash expands the index as a word, then evaluates its value as arithmetic (an indexed array), which
            // may assign (a=([PATH=0]=1)) and, for a value only known at run time, run any code in it
            // (x='$(cmd)'; a=([$x]=1) runs cmd; the parser adds the evaluation of a static value to the index)
            arithmeticText(e.index().span());
            if (!WordValue.of(e.index(), source).isStatic()) {
                runTimeCode(e.index().span().text(source), Context.ARRAY_SUBSCRIPT);
            }
            context.add(Context.ARRAY_SUBSCRIPT);
            word(e.index());
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

    private void part(WordPart p) {
        if (p instanceof WordPart.Literal lit) {
            storedCode(lit.value());
        } else if (p instanceof WordPart.SingleQuoted sq) {
            storedCode(sq.value());
        } else if (p instanceof WordPart.AnsiCQuoted ac) {
            storedCode(ac.value());
        } else if (p instanceof WordPart.DoubleQuoted dq) {
            parts(dq.parts());
        } else if (p instanceof WordPart.CommandSubstitution cs) {
            nested(cs.backquoted() ? Context.BACKTICKS : Context.COMMAND_SUBSTITUTION, cs.body());
        } else if (p instanceof WordPart.ProcessSubstitution ps) {
            nested(Context.PROCESS_SUBSTITUTION, ps.body());
        } else if (p instanceof WordPart.ArithExpansion ae) {
            arithmetic(ae.expression());
        } else if (p instanceof WordPart.ParamExpansion pe) {
            paramEffects(pe);
            if (pe.index() != null) {
                context.add(Context.ARRAY_SUBSCRIPT);
                word(pe.index());
                context.remove(context.size() - 1);
            }
            if (!pe.operands().isEmpty()) {
                context.add(Context.PARAMETER_EXPANSION);
                for (Word w : pe.operands()) word(w);
                context.remove(context.size() - 1);
            }
        } else if (p instanceof WordPart.ExtGlob eg) {
            word(eg.pattern());
        } else if (p instanceof WordPart.ArrayLiteral al) {
            context.add(Context.ASSIGNMENT);
            for (ArrayElement e : al.elements()) element(e);
            context.remove(context.size() - 1);
        }
    }

    /**
     * What a parameter expansion does besides expanding (bash(1) "Parameter Expansion"): {@code ${NAME:=w}} and
     * {@code ${NAME=w}} assign NAME; {@code ${x@P}} expands x's value as a prompt string, which runs command
     * substitutions in it; {@code ${!x}} uses x's value as a variable name (whose subscript bash evaluates);
     * subscripts and {@code ${x:offset:length}} are arithmetic.
     */
    private void paramEffects(WordPart.ParamExpansion pe) {
        String op = pe.operator();
        if (pe.index() != null) arithmeticText(pe.index().span());
        if ("!".equals(pe.prefix())) indirected.add(pe.name());
        if (op == null) return;
        if (op.equals(":=") || op.equals("=")) {
            setAnywhere.add("!".equals(pe.prefix()) ? VariableWrites.RUN_TIME_NAME : pe.name());
        } else if (op.equals("@") && !pe.operands().isEmpty()
                && pe.operands().get(0).span().text(source).contains("P")) {
            runTimeCode(pe.span().text(source), Context.PROMPT_EXPANSION);
        } else if (op.equals(":")) {
            for (Word w : pe.operands()) arithmeticText(w.span());
        }
    }

    /** The source and span of the last arithmetic text recorded: a text inside it is already recorded. */
    private String lastArithmeticSource;
    private Span lastArithmeticSpan;

    /**
     * Records the text of an arithmetic context once: nested contexts ({@code $(( $((x)) ))}) lie inside the outer
     * one's text, so recording them again would make the total text quadratic in the nesting depth.
     */
    private void arithmeticText(Span span) {
        if (lastArithmeticSource == source && lastArithmeticSpan != null && span.start() >= lastArithmeticSpan.start()
                && span.end() <= lastArithmeticSpan.end()) {
            return;
        }
        lastArithmeticSource = source;
        lastArithmeticSpan = span;
        arithmeticTexts.add(span.text(source));
    }

    private void arithmetic(Arithmetic a) {
        if (a == null) return;
        arithmeticText(a.span());
        context.add(Context.ARITHMETIC);
        parts(a.parts());
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
            test(u.operand());
        } else if (t instanceof TestExpr.Binary b) {
            if (TestExpr.ARITHMETIC_OPERATORS.contains(b.operator())) {
                arithmeticText(b.left().span());
                arithmeticText(b.right().span());
            }
            test(b.left());
            test(b.right());
        } else if (t instanceof TestExpr.Not n) {
            test(n.operand());
        } else if (t instanceof TestExpr.Paren p) {
            test(p.inner());
        }
    }

    private void redirections(List<Redirection> list, int commandId) {
        for (Redirection r : list) redirection(r, commandId);
    }

    private void redirection(Redirection r, int commandId) {
        context.add(Context.REDIRECTION_TARGET);
        word(r.target());
        context.remove(context.size() - 1);
        if (r.hereDoc() != null) {
            if (!r.hereDoc().quoted()) {
                context.add(Context.HEREDOC_BODY);
                word(r.hereDoc().body());
                context.remove(context.size() - 1);
            }
            redirects.add(new Redirect(nextId++, commandId, r.fd(), r.operator(), r.hereDoc().delimiter(), false,
                    false, false, false, false, null, false, null, false));
            return;
        }
        WordValue v = WordValue.of(r.target(), source);
        String op = r.operator();
        boolean dynamic = !v.isStatic() || v.glob() || v.braceExpansion();
        String text = v.text();
        boolean dup = false;
        boolean output = r.isOutput() && !op.equals("<<<");
        if (op.equals(">&") || op.equals("<&")) {
            if (!dynamic && (text.equals("-") || text.matches("[0-9]+-?"))) dup = true;
            if (op.equals("<&")) output = false;
        }
        if (!output || dup) {
            redirects.add(new Redirect(nextId++, commandId, r.fd(), op, text, false, dynamic, dup, false, false, null,
                    false, null, false));
            return;
        }
        outputTarget(commandId, r.fd(), op, text, dynamic);
    }

    /** Adds a {@link Redirect} for a file opened for writing, classified against the allowed directories. */
    private void outputTarget(int commandId, String fd, String op, String text, boolean dynamic) {
        if (dynamic) {
            redirects.add(new Redirect(nextId++, commandId, fd, op, text, true, true, false, false, false, null,
                    false, null, targets.configurationError()));
            return;
        }
        boolean safeDevice = RedirectTargets.SAFE_DEVICES.contains(text);
        boolean relative = !text.startsWith("/");
        RedirectTargets.Classified c = safeDevice ? new RedirectTargets.Classified(text, false, null)
                : targets.classify(text);
        redirects.add(new Redirect(nextId++, commandId, fd, op, text, true, c.resolvedPath() == null, false,
                safeDevice, relative, c.resolvedPath(), c.inside(), c.protectedComponent(),
                targets.configurationError()));
    }
}
