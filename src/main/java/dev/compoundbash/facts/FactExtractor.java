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
    /** True while the payloads of a candidate payload ({@link WrapperGrammar.Payload#candidate()}) are extracted. */
    private boolean inCandidate;
    private final List<VariableWrite> variableWrites = new ArrayList<>();
    private final List<RunTimeCode> runTimeCode = new ArrayList<>();
    private final java.util.Set<VariableEvaluation> evaluations = new java.util.LinkedHashSet<>();
    private final List<CallProblem> problems = new ArrayList<>();
    private final List<PathOperand> pathOperands = new ArrayList<>();
    private final PathResolver paths;
    /**
     * The directories a relative path may be taken against at this point of the walk: the start directory, and
     * every directory an earlier cd/pushd may have moved to (kept, since a cd in a subshell or a failed cd leaves
     * the old one); null once a directory change went somewhere only known at run time.
     */
    private List<java.nio.file.Path> bases;
    /** A wrapper that runs its payload in another directory is being unwrapped: relative paths are unknown. */
    private boolean otherDirectory;
    /** A cd, pushd or popd ran earlier in this shell. */
    private boolean directoryChanged;
    private final java.util.Set<VariableUse> variableUses = new java.util.LinkedHashSet<>();
    /** The innermost simple command whose words are being walked, or -1. */
    private int currentCommand = -1;
    /** Variables the command set so far to values not taken from the environment. */
    private final java.util.Set<String> clean = new java.util.HashSet<>();
    /** Variables the command assigned a static value, for deny and ask matching ({@code x=push; git $x}). */
    private final java.util.Map<String, String> constants = new java.util.HashMap<>();
    /** Values of the for-loop variables in scope whose words are all static. */
    private final java.util.Map<String, List<Arg>> loopValues = new java.util.HashMap<>();
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
    /**
     * While an inline script's commands are extracted: the shell that runs it. Every command made then that no
     * wrapper inside the script reaches is linked to it by a {@link Wrapper}, so the shell is approved only when
     * all of them are.
     */
    private InlineLink inline;

    /** The shell running an inline script, and whether any command was linked to it yet. */
    private static final class InlineLink {
        final WrapperGrammar.Unwrapped unwrapped;
        final int shellId;
        boolean linked;

        InlineLink(WrapperGrammar.Unwrapped unwrapped, int shellId) {
            this.unwrapped = unwrapped;
            this.shellId = shellId;
        }
    }

    private FactExtractor(String source, Environment env) {
        this.source = source;
        this.targets = new RedirectTargets(env);
        this.paths = new PathResolver(targets, env.home());
        this.bases = List.of(targets.roots().get(0));
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
        x.scriptRoot = script.body();
        x.list(script.body(), true);
        x.valuesEvaluatedLater();
        return x.facts();
    }

    private Facts facts() {
        return new Facts(List.copyOf(subCommands), List.copyOf(wrappers), List.copyOf(findActions),
                List.copyOf(redirects), List.copyOf(variableWrites), List.copyOf(evaluations),
                List.copyOf(runTimeCode), List.copyOf(pathOperands), List.copyOf(variableUses));
    }

    /**
     * Problems the closed-world guard found while extracting: a construct the model does not cover. Empty for every
     * command the extractor reads whole; see {@link CallProblem#UNMODELLED}.
     *
     * @param script a tree from {@code Parser.parse}
     * @param env    as for {@link #extract}
     * @return the facts and the problems
     */
    public static Extraction extractAll(Script script, Environment env) {
        FactExtractor x = new FactExtractor(script.source(), env);
        x.scriptRoot = script.body();
        x.list(script.body(), true);
        x.valuesEvaluatedLater();
        return new Extraction(x.facts(), List.copyOf(x.problems));
    }

    /** The facts of a command and the problems found reading it. */
    public record Extraction(Facts facts, List<CallProblem> problems) {
    }

    /** Records a construct the extractor does not model: nothing in the command is approved (closed world). */
    private void unmodelled(String what) {
        problems.add(new CallProblem(CallProblem.UNMODELLED, what));
    }

    /** Records a write of {@code name} (null: only known at run time) in effect for the commands after this point. */
    private void write(String name, String how, boolean runTime, int commandId) {
        write(name, how, runTime, commandId, false);
    }

    /** {@link #write}, noting whether the value comes from the environment (then its later uses reveal it). */
    private void write(String name, String how, boolean runTime, int commandId, boolean fromEnvironment) {
        if (name == null) {
            loopValues.clear();
            clean.clear();
            constants.clear();
        } else {
            loopValues.remove(name);
            constants.remove(name);
            if (fromEnvironment) clean.remove(name);
            else clean.add(name);
        }
        variableWrites.add(new VariableWrite(nextId++, name, nextId - 1, false, runTime, how, commandId));
        if (runTime && name != null) runTimeValues.add(name);
    }

    /** Records a write whose order is not tracked: it counts for every command of the call. */
    private void writeAnywhere(String name, String how) {
        for (VariableWrite w : variableWrites) {
            if (w.isAnywhere() && java.util.Objects.equals(w.getName(), name) && w.getHow().equals(how)) return;
        }
        variableWrites.add(new VariableWrite(nextId++, name, 0, true, false, how, -1));
    }

    // ---- commands -------------------------------------------------------------------------------------------

    private void list(CommandList list, boolean top) {
        for (ListItem item : list.items()) command(item.command(), top);
    }

    private void nested(String label, CommandList list) {
        // A subshell, a substitution and a coprocess run in a child shell: a cd there ends with it.
        boolean child = label.equals(Context.SUBSHELL) || label.equals(Context.COMMAND_SUBSTITUTION)
                || label.equals(Context.BACKTICKS) || label.equals(Context.PROCESS_SUBSTITUTION)
                || label.equals(Context.COPROCESS);
        List<java.nio.file.Path> savedBases = bases;
        boolean savedChanged = directoryChanged;
        context.add(label);
        list(list, false);
        context.remove(context.size() - 1);
        if (child) {
            bases = savedBases;
            directoryChanged = savedChanged;
        }
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
            // Each element of a pipeline of several runs in a subshell (bash(1) "Pipelines"): a cd there ends with it.
            List<java.nio.file.Path> savedBases = bases;
            boolean savedChanged = directoryChanged;
            for (Command e : p.commands()) {
                command(e, top);
                if (p.commands().size() > 1) {
                    bases = savedBases;
                    directoryChanged = savedChanged;
                }
            }
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
            String name = var.isStatic() ? var.text() : null;
            boolean runTime = f.items() == null;
            if (f.items() != null) for (Word w : f.items()) runTime |= !WordValue.of(w, source).isStatic();
            boolean env = f.items() == null;
            if (f.items() != null) for (Word w : f.items()) env |= fromEnvironment(w);
            write(name, f.select() ? "select loop" : "for loop", runTime || f.select(), -1, env);
            boolean bound = name != null && !runTime && !f.select();
            if (bound) loopValues.put(name, Arg.of(f.items(), source));
            repeated(f.body(), () -> list(f.body(), false));
            if (bound) loopValues.remove(name);
            context.remove(context.size() - 1);
            redirections(f.redirections(), -1);
        } else if (c instanceof Command.ArithFor f) {
            context.add(Context.LOOP);
            arithmetic(f.init());
            arithmetic(f.test());
            arithmetic(f.step());
            repeated(f.body(), () -> list(f.body(), false));
            context.remove(context.size() - 1);
            redirections(f.redirections(), -1);
        } else if (c instanceof Command.While w) {
            context.add(Context.LOOP);
            repeated(w, () -> {
                list(w.condition(), false);
                list(w.body(), false);
            });
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
            // A function body runs where it is called, after any directory change of the call.
            List<java.nio.file.Path> savedBases = bases;
            boolean savedChanged = directoryChanged;
            if (changesDirectory(scriptRoot)) {
                bases = null;
                directoryChanged = true;
            }
            if (f.body() instanceof Command.Group g) {
                // The braces are the function body's own syntax, not a separate group.
                nested(Context.FUNCTION_BODY, g.body());
                redirections(g.redirections(), -1);
            } else {
                nestedCommand(Context.FUNCTION_BODY, f.body());
            }
            bases = savedBases;
            directoryChanged = savedChanged;
        } else if (c instanceof Command.Coproc k) {
            nestedCommand(Context.COPROCESS, k.body());
        } else {
            unmodelled("a " + c.getClass().getSimpleName() + " command");
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
        java.util.Set<BraceExpansion.Piece> made = new java.util.HashSet<>();
        boolean unexpanded = false;
        for (Word w : s.words()) {
            BraceExpansion.Words ex = BraceExpansion.of(w, source);
            unexpanded |= ex.overflow();
            pieces.addAll(ex.pieces());
            if (ex.expanded()) made.addAll(ex.pieces());
        }
        if (!pieces.isEmpty()) {
            List<Arg> args = new ArrayList<>(pieces.size());
            for (BraceExpansion.Piece piece : pieces) args.add(Arg.of(piece.word(), piece.source()));
            boolean[] dyn = dynamic(args);
            dyn[0] |= unexpanded;
            List<String> argv = texts(args);
            id = nextId++;
            String raw = s.span().text(source);
            WrapperGrammar.Unwrapped u = dyn[0] ? null : WrapperGrammar.unwrap(args, assignmentWords);
            Redirection stdin = (u == null || u.readsStandardInput()) && !dyn[0]
                    ? stdinScript(argv, dyn, s.redirections()) : null;
            String role = u != null || stdin != null ? "wrapper" : "command";
            SubCommand sc = commandFact(id, args, dyn, raw, top, role, -1, false, assignmentWords);
            subCommands.add(sc);
            pathOperands(sc);
            // The words' own expansions run in this shell, outside any privilege or prefix the wrapper sets.
            if (!dyn[0] && sc.getBaseName().equals("find")) {
                for (WrapperGrammar.Action a : WrapperGrammar.findActions(args)) {
                    findActions.add(new FindAction(nextId++, sc.getId(), a.primary(), a.mutating(), a.argument()));
                }
            }
            if (u != null) unwrap(sc, u, args, dyn, top, s.redirections());
            if (stdin != null) stdinScriptPayload(sc, stdin, top, sc.getAssignments());
            // Expansions inside the words run too, nested (once per word brace expansion makes).
            int savedCommand = currentCommand;
            currentCommand = id;
            for (BraceExpansion.Piece piece : pieces) {
                wordIn(piece.word(), piece.source());
                // a word brace expansion made is text of its own: shaped like a subscript holding a substitution
                // (declare c[{1,2}=='$(cmd)']=1 makes c[1==$(cmd)]=1), it is code bash may evaluate (storedCode)
                if (made.contains(piece)) {
                    WordValue v = WordValue.of(piece.word(), piece.source());
                    if (v.isStatic()) storedCode(v.value());
                }
            }
            currentCommand = savedCommand;
            if (!dyn[0]) builtinWrites(argv, dyn, id);
        } else {
            // A statement of assignments only sets shell variables, seen by the commands after it.
            for (Assignment a : s.assignments()) {
                write(a.name(), "assignment", runTimeAssignment(a), -1, fromEnvironment(a));
                if (a.value() != null && a.index() == null && a.array() == null && !a.append()) {
                    WordValue v = WordValue.of(a.value(), source);
                    if (v.isStatic() && !v.glob() && !v.braceExpansion()) constants.put(a.name(), v.value());
                }
            }
        }
        redirections(s.redirections(), id);
    }

    /** Which words may run anything when they are the name: an expansion, or (for the name) a glob or brace. */
    private static boolean[] dynamic(List<Arg> args) {
        boolean[] dyn = new boolean[args.size()];
        for (int i = 0; i < dyn.length; i++) {
            Arg a = args.get(i);
            // A name with an expansion, a glob or a brace expansion may run anything.
            dyn[i] = a.dynamic() || (i == 0 && (a.glob() || a.brace()));
        }
        return dyn;
    }

    private static List<String> texts(List<Arg> args) {
        List<String> out = new ArrayList<>(args.size());
        for (Arg a : args) out.add(a.text());
        return out;
    }

    /** True when an assignment's value is only known at run time. */
    private boolean runTimeAssignment(Assignment a) {
        boolean runTime = a.value() != null && !WordValue.of(a.value(), source).isStatic();
        if (a.array() != null) for (ArrayElement e : a.array()) runTime |= !WordValue.of(e.value(), source).isStatic();
        return runTime;
    }

    /** Builtins that read a value at run time into the variables they name (bash(1) SHELL BUILTIN COMMANDS). */
    private static final java.util.Set<String> VARIABLE_READERS = java.util.Set.of("read", "printf", "getopts",
            "mapfile", "readarray", "wait");

    /**
     * The variables a builtin assigns by name (read, printf -v, getopts, mapfile, wait -p, unset and the
     * declaration builtins; {@link VariableWrites}), as {@link VariableWrite}s in effect for later commands;
     * {@code let}'s arguments as arithmetic; and a name given at run time to a builtin that evaluates names
     * ({@code test -v "a[$x]"}, {@code printf -v "$n"}): bash evaluates a subscript in it, command substitutions
     * included, so it is code only known at run time.
     */
    private void builtinWrites(List<String> argv, boolean[] dyn, int commandId) {
        String name = argv.get(0);
        List<VariableWrites.Operand> operands = VariableWrites.nameOperands(argv, dyn);
        List<String> names = VariableWrites.byBuiltin(argv, dyn, operands);
        boolean declaration = dev.compoundbash.shell.Parser.DECLARATION.contains(name);
        boolean reader = VARIABLE_READERS.contains(name);
        java.util.Set<String> runTimeNames = new java.util.HashSet<>();
        java.util.Set<String> envNames = new java.util.HashSet<>();
        if (name.equals("let")) {
            for (int i = 1; i < argv.size(); i++) arithmeticTexts.add(argv.get(i));
        }
        for (VariableWrites.Operand o : operands) {
            if (!dyn[o.index()]) continue;
            String text = o.text();
            int eq = declaration ? assignmentEquals(text) : -1;
            String namePart = eq > 0 ? text.substring(0, eq) : text;
            if (namePart.indexOf('$') >= 0 || namePart.indexOf('`') >= 0 || !namePart.matches("[A-Za-z_].*")) {
                runTimeCode(text, Context.EVALUATED_NAME);
            } else if (eq > 0) {
                // NAME=$(...): a value only known at run time; NAME=$VAR: one taken from the environment
                runTimeNames.add(VariableWrites.nameOf(text));
                String value = text.substring(eq + 1).replace("$(", "");
                if (value.indexOf('$') >= 0) envNames.add(VariableWrites.nameOf(text));
            }
        }
        for (String n : names) write(n, name, reader || runTimeNames.contains(n), commandId, envNames.contains(n));
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
     * run time): a {@link RunTimeCode} fact.
     */
    private void runTimeCode(String text, String label) {
        evaluatesValues = true;
        context.add(label);
        runTimeCode.add(new RunTimeCode(nextId++, text, context));
        context.remove(context.size() - 1);
    }

    /**
     * After the walk: what bash evaluates later from values. Arithmetic assignments anywhere, and static text that
     * an arithmetic evaluation of a variable could run as an assignment ({@code x='PATH=0'; echo $((x))}), are
     * writes in effect for every sub-command; every variable an arithmetic text references or an indirection names
     * is a {@link VariableEvaluation} (the rules join it with a write of a value only known at run time: an array
     * subscript in such a value runs its command substitutions); and where a value is evaluated as code
     * ({@code ${x@P}}), the commands inside any static text are extracted as stored code.
     */
    private void valuesEvaluatedLater() {
        for (String t : arithmeticTexts) {
            for (String n : VariableWrites.inArithmetic(t)) writeAnywhere(n, "arithmetic");
        }
        if (!arithmeticTexts.isEmpty() || !indirected.isEmpty()) {
            for (String t : staticTexts) {
                for (String n : VariableWrites.inArithmetic(t)) writeAnywhere(n, "arithmetic evaluation of a value");
            }
            for (String t : arithmeticTexts) {
                for (String n : VariableWrites.referencedInArithmetic(t)) {
                    if (runTimeValues.contains(n)) evaluations.add(new VariableEvaluation(n, "arithmetic"));
                }
            }
            for (String n : indirected) {
                if (runTimeValues.contains(n)) evaluations.add(new VariableEvaluation(n, "indirection"));
            }
        }
        if (evaluatesValues) {
            // Extracting stored code walks its words, which may find more code-like text inside (always shorter):
            // the list grows while it is read.
            for (int i = 0; i < codeLikeTexts.size(); i++) storedCode(codeLikeTexts.get(i), true);
        }
    }

    /**
     * Makes a sub-command fact, final as made: while an inline script's commands are extracted, a command no
     * wrapper inside the script reaches is linked to the script's shell here, by a {@link Wrapper} of its own.
     */
    private SubCommand commandFact(int id, List<Arg> args, boolean[] dyn, String raw, boolean top, String role,
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
        if (inline != null && wrapperId == -1) {
            int wid = nextId++;
            wrappers.add(wrapper(wid, inline.unwrapped, inline.shellId, id, true));
            inline.linked = true;
            wrapperId = wid;
            if (!role.equals("wrapper")) role = "payload";
        }
        return new SubCommand(id, args, raw, dyn.length > 0 && dyn[0], dynamicArgs, top, context, role, wrapperId,
                appended, names, assignmentWords, privilegeId, alternatives(args));
    }

    /**
     * Adds the payloads of the wrapper {@code sc} (recursively: a payload may itself be a wrapper, or a script), its
     * {@link Wrapper} facts, and the files it writes as {@link Redirect}s. A payload inherits the wrapper's
     * environment prefix plus the assignments the wrapper adds ({@code env NAME=VALUE}), and under sudo/doas the
     * privilege; a payload that is a shell reading its script from standard input reads the command's
     * here-document or here-string ({@code env bash <<'EOF'}).
     */
    private void unwrap(SubCommand sc, WrapperGrammar.Unwrapped u, List<Arg> args, boolean[] dyn, boolean top,
                        List<Redirection> redirections) {
        List<String> argv = sc.getArgv();
        for (WrapperGrammar.Output o : u.outputs()) {
            outputTarget(sc.getId(), null, o.option(), o.path(argv), dyn[o.index()]);
        }
        if (wrapperDepth >= MAX_WRAPPER_DEPTH) {
            wrappers.add(wrapper(nextId++, u, sc.getId(), -1, false));
            return;
        }
        int savedPrivilege = privilegeId;
        List<String> savedInherited = inherited;
        InlineLink savedInline = inline;
        boolean savedOther = otherDirectory;
        if (u.privileged()) privilegeId = sc.getId();
        if (u.changesDirectory()) otherDirectory = true;
        // Payloads are reached through this wrapper, not linked to an enclosing inline script's shell.
        inline = null;
        wrapperDepth++;
        try {
            unwrapPayloads(sc, u, args, dyn, top, redirections);
        } finally {
            wrapperDepth--;
            privilegeId = savedPrivilege;
            inherited = savedInherited;
            inline = savedInline;
            otherDirectory = savedOther;
        }
    }

    /** At most this many other readings of one command are made for deny and ask rules. */
    private static final int MAX_ALTERNATIVES = 16;

    /**
     * The argument vectors {@code args} may run as once the constants and static loop words the command assigned
     * are substituted for the variables that make up whole words ({@code x=push; git $x origin}), for deny and ask
     * rules; empty when no word is such a variable.
     */
    private List<List<String>> alternatives(List<Arg> args) {
        List<List<String>> out = new ArrayList<>();
        out.add(new ArrayList<>());
        boolean any = false;
        for (Arg a : args) {
            List<List<String>> values = new ArrayList<>();
            String v = a.variable();
            boolean quoted = a.text().startsWith("\"");
            if (v != null && constants.containsKey(v)) {
                String value = constants.get(v);
                values.add(quoted ? List.of(value) : java.util.Arrays.stream(value.trim().split("[ \t\n]+"))
                        .filter(w -> !w.isEmpty()).toList());
            } else if (v != null && loopValues.containsKey(v)) {
                for (Arg item : loopValues.get(v)) {
                    if (!item.known()) {
                        values.clear();
                        break;
                    }
                    values.add(List.of(item.prefix()));
                }
            }
            if (values.isEmpty()) {
                for (List<String> o : out) o.add(a.text());
                continue;
            }
            any = true;
            List<List<String>> next = new ArrayList<>();
            for (List<String> o : out) {
                for (List<String> value : values) {
                    if (next.size() >= MAX_ALTERNATIVES) break;
                    List<String> n = new ArrayList<>(o);
                    n.addAll(value);
                    next.add(n);
                }
            }
            out = next;
        }
        if (!any) return List.of();
        out.removeIf(List::isEmpty);
        return out;
    }

    /** The tree being walked, for directory changes anywhere in it (function bodies run after any of them). */
    private dev.compoundbash.shell.Node scriptRoot;

    /**
     * Walks a loop's body: a later pass runs after any directory change in an earlier one, so when the body holds
     * one, relative paths in it are unknown and relative redirections count as after a change.
     */
    private void repeated(dev.compoundbash.shell.Node body, Runnable walk) {
        if (!changesDirectory(body)) {
            walk.run();
            return;
        }
        List<java.nio.file.Path> savedBases = bases;
        boolean savedChanged = directoryChanged;
        bases = null;
        directoryChanged = true;
        walk.run();
        if (savedBases == null || savedChanged) {
            bases = savedBases;
            directoryChanged = savedChanged;
        }
    }

    /** True when some simple command under {@code node} has a directory changer as a static word. */
    private boolean changesDirectory(dev.compoundbash.shell.Node node) {
        if (node == null) return false;
        for (Command.Simple c : dev.compoundbash.shell.Walker.all(node, Command.Simple.class)) {
            for (Word w : c.words()) {
                WordValue v = WordValue.of(w, source);
                if (v.isStatic() && DIRECTORY_CHANGERS.contains(v.value())) return true;
            }
        }
        return false;
    }

    /** Special and positional parameters (bash(1) "Special Parameters"): set by the shell, not the environment. */
    private static boolean special(String name) {
        return name.isEmpty() || !Character.isLetter(name.charAt(0)) && name.charAt(0) != '_';
    }

    /** True when the assignment's value expands a variable the command did not set (outside $( )). */
    private boolean fromEnvironment(Assignment a) {
        if (a.value() != null && fromEnvironment(a.value())) return true;
        if (a.array() != null) for (ArrayElement e : a.array()) if (fromEnvironment(e.value())) return true;
        return false;
    }

    private boolean fromEnvironment(Word w) {
        return w != null && fromEnvironment(w.parts());
    }

    private boolean fromEnvironment(List<WordPart> parts) {
        for (WordPart p : parts) {
            if (p instanceof WordPart.ParamExpansion pe) {
                if (!special(pe.name()) && !clean.contains(pe.name())
                        && !dev.compoundbash.facts.NameList.of("known-values").contains(pe.name())) return true;
                for (Word o : pe.operands()) if (fromEnvironment(o)) return true;
            } else if (p instanceof WordPart.DoubleQuoted dq) {
                if (fromEnvironment(dq.parts())) return true;
            }
        }
        return false;
    }

    /** Directory changers whose operand moves every later relative path (bash(1) "cd", "pushd", "popd"). */
    private static final java.util.Set<String> DIRECTORY_CHANGERS = java.util.Set.of("cd", "pushd", "popd",
            "chdir");

    /** Beyond this many possible directories, relative paths are unknown. */
    private static final int MAX_BASES = 16;

    /**
     * The {@link PathOperand}s of {@code sc} when its program is in {@link ProgramTable}, each resolved by
     * {@link PathResolver} against the directories it may run in; then, for cd/pushd/popd, the directories later
     * relative paths may be taken against.
     */
    private void pathOperands(SubCommand sc) {
        if (sc.isDynamicName()) return;
        String name = sc.getBaseName();
        PathCheckedProgram p = ProgramTable.programs().get(name);
        List<java.nio.file.Path> here = otherDirectory ? null : bases;
        if (p != null) {
            for (ProgramTable.Operand o : ProgramTable.operands(p, sc.getArgs())) {
                if (o.arg().spliced()) continue; // find's {} and xargs -I: paths the wrapper found, see README
                PathResolver.Result r = paths.resolve(o.arg(), here, loopValues);
                pathOperands.add(new PathOperand(nextId++, sc.getId(), name, o.arg().text(), o.access(), r.status(),
                        r.path(), r.why(), r.protectedComponent(), r.exists()));
            }
        }
        if (!DIRECTORY_CHANGERS.contains(name)) return;
        if (!otherDirectory) directoryChanged = true;
        if (otherDirectory || bases == null) return;
        List<ProgramTable.Operand> target = name.equals("popd") ? List.of()
                : ProgramTable.operands(ProgramTable.programs().get("cd"), sc.getArgs());
        if (target.isEmpty() || target.get(0).arg().dynamic() && target.get(0).arg().homeSuffix() == null) {
            bases = null; // popd, cd -, cd "$d": somewhere only known at run time
            return;
        }
        List<java.nio.file.Path> next = new ArrayList<>(bases);
        for (java.nio.file.Path b : bases) {
            PathResolver.Result r = paths.resolve(target.get(0).arg(), List.of(b), loopValues);
            if (r.path() == null) {
                bases = null;
                return;
            }
            java.nio.file.Path d = java.nio.file.Path.of(r.path());
            if (!next.contains(d)) next.add(d);
        }
        bases = next.size() > MAX_BASES ? null : List.copyOf(next);
    }

    private void unwrapPayloads(SubCommand sc, WrapperGrammar.Unwrapped u, List<Arg> args, boolean[] dyn,
                                boolean top, List<Redirection> redirections) {
        List<String> argv = sc.getArgv();
        List<WrapperGrammar.Payload> payloads = new ArrayList<>(u.payloads());
        if (payloads.isEmpty() && !u.implicitPayload().isEmpty()) {
            int wid = nextId++;
            int pid = nextId++;
            wrappers.add(wrapper(wid, u, sc.getId(), pid, true));
            List<Arg> implicit = u.implicitPayload().stream().map(Arg::literal).toList();
            subCommands.add(commandFact(pid, implicit, new boolean[implicit.size()],
                    String.join(" ", u.implicitPayload()), top, "payload", wid, u.appendsArguments(),
                    sc.getAssignments()));
            return;
        }
        if (payloads.isEmpty()) {
            wrappers.add(wrapper(nextId++, u, sc.getId(), -1, true));
            return;
        }
        for (WrapperGrammar.Payload p : payloads) {
            // A candidate's own candidates are among its wrapper's: read once.
            if (p.candidate() && inCandidate) continue;
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
                boolean spliced = false;
                for (int k = p.from(); k < p.to(); k++) spliced |= args.get(k).spliced();
                if (anyDynamic) {
                    // Text only known at run time is never read, so never approved. A script a wrapper splices
                    // run-time text into (find -exec sh -c '... {} ...') is read for its deny and ask rules only.
                    wrappers.add(wrapper(nextId++, u, sc.getId(), -1, false));
                    if (spliced) inlineScript(sc, u, p.words().get(0), top, env);
                } else {
                    inlineScript(sc, u, p.words().get(0), top, env);
                }
                continue;
            }
            List<Arg> pargs;
            if (p.words() != null) {
                // Split words (env -S) come from one argv word: they are dynamic when it is.
                final boolean unknown = anyDynamic;
                pargs = p.words().stream().map(w -> unknown ? Arg.unknown(w) : Arg.literal(w)).toList();
                pdyn = new boolean[pargs.size()];
                java.util.Arrays.fill(pdyn, anyDynamic);
            } else {
                pargs = new ArrayList<>(args.subList(p.from(), p.to()));
                // xargs -I R, find -exec ... {}: the wrapper splices run-time text into every word holding the
                // replacement string, so that word (a script's text included) is only known at run time.
                String rs = u.replaceString();
                if (rs != null && !rs.isEmpty()) {
                    for (int k = 0; k < pargs.size(); k++) {
                        if (pargs.get(k).isStatic() && pargs.get(k).text().contains(rs)) {
                            pargs.set(k, pargs.get(k).splicedAt(rs));
                            pdyn[k] = true;
                        } else if (pargs.get(k).text().contains(rs)) {
                            pdyn[k] = true;
                        }
                    }
                }
            }
            List<String> pargv = texts(pargs);
            int wid = nextId++;
            int pid = nextId++;
            wrappers.add(wrapper(wid, u, sc.getId(), pid, true));
            inherited = env;
            WrapperGrammar.Unwrapped inner = pdyn[0] ? null : WrapperGrammar.unwrap(pargs, env);
            Redirection stdin = (inner == null || inner.readsStandardInput()) && !pdyn[0]
                    ? stdinScript(pargv, pdyn, redirections) : null;
            SubCommand payload = commandFact(pid, pargs, pdyn, String.join(" ", pargv), top,
                    inner != null || stdin != null ? "wrapper" : "payload", wid, u.appendsArguments(), env);
            subCommands.add(payload);
            pathOperands(payload);
            boolean savedCandidate = inCandidate;
            inCandidate |= p.candidate();
            try {
                if (inner != null) unwrap(payload, inner, pargs, pdyn, top, redirections);
                if (stdin != null) stdinScriptPayload(payload, stdin, top, env);
            } finally {
                inCandidate = savedCandidate;
            }
        }
    }

    /** Names of standard input as a file: a shell or {@code source} given one reads its script from stdin. */
    private static final java.util.Set<String> STDIN_FILES = java.util.Set.of("/dev/stdin", "/dev/fd/0",
            "/proc/self/fd/0");

    /** Shells that read a script from standard input when given no script operand. */
    private static final java.util.Set<String> SHELLS = java.util.Set.of("bash", "sh", "zsh", "dash", "ksh");

    /**
     * {@code bash <<EOF ... EOF}, {@code sh <<< 'cmd'}: a shell given no {@code -c} and no script file (or
     * {@code -s}) reads its script from standard input (bash(1) "Invocation"). When the last redirection of standard
     * input is a here-document or here-string (bash(1) "REDIRECTION": redirections are processed left to right, so
     * a later one of the same descriptor wins: {@code bash <<< 'ls' < file} reads the file), that text is the
     * script.
     *
     * @return the here-document or here-string redirection, or null when the shell reads no such script
     */
    private static Redirection stdinScript(List<String> argv, boolean[] dyn, List<Redirection> redirections) {
        String base = WrapperGrammar.baseName(argv.get(0));
        // source /dev/stdin <<< 'cmd' and . /dev/stdin run standard input as a script in this shell
        boolean source = (base.equals("source") || base.equals(".")) && argv.size() >= 2 && !dyn[1]
                && STDIN_FILES.contains(argv.get(1));
        if (!SHELLS.contains(base) && !source) return null;
        if (source) return lastStdin(redirections);
        for (int i = 1; i < argv.size(); i++) {
            String a = argv.get(i);
            if (a.equals("-s")) break;
            // bash /dev/stdin <<< 'cmd' reads its script from standard input too
            if (!dyn[i] && STDIN_FILES.contains(a)) break;
            if (dyn[i] || !(a.startsWith("-") || a.startsWith("+"))) {
                return null; // a script file operand (or one only known at run time)
            }
        }
        return lastStdin(redirections);
    }

    /** The here-document or here-string that is standard input at the end of {@code redirections}, or null. */
    private static Redirection lastStdin(List<Redirection> redirections) {
        Redirection input = null;
        for (Redirection r : redirections) {
            String op = r.operator();
            // Standard input is fd 0: written as 0, or implied by an input operator (< << <<- <<< <& <>).
            if (r.fd() == null ? op.startsWith("<") : r.fd().equals("0")) {
                input = r; // the last redirection of standard input wins
            }
        }
        if (input == null) return null;
        String op = input.operator();
        return op.equals("<<") || op.equals("<<-") || op.equals("<<<") ? input : null;
    }

    /** The shell {@code sc} runs the here-document or here-string {@code input} as its script. */
    private void stdinScriptPayload(SubCommand sc, Redirection input, boolean top, List<String> env) {
        WrapperGrammar.Unwrapped u = new WrapperGrammar.Unwrapped(sc.getBaseName() + " <<", List.of(), false,
                false, List.of(), List.of());
        WordValue v = input.hereDoc() != null ? WordValue.of(input.hereDoc().body(), source)
                : WordValue.of(input.target(), source);
        if (!v.isStatic()) {
            wrappers.add(wrapper(nextId++, u, sc.getId(), -1, false));
            return;
        }
        InlineLink saved = inline;
        inline = null;
        try {
            inlineScript(sc, u, v.value(), top, env);
        } finally {
            inline = saved;
        }
    }

    private Wrapper wrapper(int id, WrapperGrammar.Unwrapped u, int commandId, int payloadId, boolean readable) {
        return new Wrapper(id, u.kind(), commandId, payloadId, u.appendsArguments(), u.replaceMode(), readable,
                u.privileged(), u.ownRuleRequired(), u.changesDirectory());
    }

    /**
     * Parses {@code text} as a script run by the wrapper {@code shell} ({@code sh -c}, {@code eval}, ...) and
     * extracts its commands under {@link Context#INLINE_SCRIPT}: a script's top-level commands stand where the
     * wrapper stands (top-level when it is), everything inside them is nested as usual. Every command of the
     * script not already reached through a wrapper inside it gets a {@link Wrapper} linking it to {@code shell}
     * as it is made ({@link #commandFact}), so the shell is approved only when all of them are. A script that does
     * not parse gets an unreadable Wrapper, never approved.
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
        InlineLink savedInline = inline;
        List<String> savedInherited = inherited;
        dev.compoundbash.shell.Node savedRoot = scriptRoot;
        boolean savedCandidate = inCandidate;
        inCandidate = false; // a script is new text: its wrappers' candidates are its own
        InlineLink link = new InlineLink(u, shell.getId());
        source = script.source();
        scriptRoot = script.body();
        inherited = env;
        inline = link;
        context.add(Context.INLINE_SCRIPT);
        try {
            list(script.body(), top);
        } finally {
            context.remove(context.size() - 1);
            source = savedSource;
            inline = savedInline;
            inherited = savedInherited;
            scriptRoot = savedRoot;
            inCandidate = savedCandidate;
        }
        // An empty script runs nothing: a readable Wrapper with no payload.
        if (!link.linked) wrappers.add(wrapper(nextId++, u, shell.getId(), -1, true));
    }

    // ---- words, assignments, redirections ----------------------------------------------------------------------

    private void assignment(Assignment a) {
        if (runTimeAssignment(a)) runTimeValues.add(a.name());
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
            // Text past the parser's nesting limit is code the hook cannot read, not text bash cannot run.
            boolean tooDeep = e instanceof ParseException && String.valueOf(e.getMessage()).contains("nests too deeply");
            if (evaluated || tooDeep) runTimeCode(text, Context.STORED_CODE);
            return; // otherwise bash could not evaluate it alone either
        }
        String savedSource = source;
        dev.compoundbash.shell.Node savedRoot = scriptRoot;
        source = script.source();
        scriptRoot = script.body();
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
            scriptRoot = savedRoot;
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
            if (currentCommand != -1) {
                variableUses.add(new VariableUse(currentCommand, pe.name(), special(pe.name()) || clean.contains(pe.name())));
            }
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
        } else if (!(p instanceof WordPart.Tilde)) {
            unmodelled("a word part " + p.getClass().getSimpleName());
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
            writeAnywhere("!".equals(pe.prefix()) ? null : pe.name(), "parameter expansion");
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
        } else {
            unmodelled("a test expression " + t.getClass().getSimpleName());
        }
    }

    private void redirections(List<Redirection> list, int commandId) {
        for (Redirection r : list) redirection(r, commandId);
    }

    private void redirection(Redirection r, int commandId) {
        // {NAME}>file, {NAME}<&-: bash assigns the descriptor number to NAME (bash(1) "REDIRECTION").
        if (r.fd() != null && r.fd().startsWith("{") && r.fd().endsWith("}")) {
            String name = r.fd().substring(1, r.fd().length() - 1);
            write(name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : null, "redirection", false, commandId);
        }
        context.add(Context.REDIRECTION_TARGET);
        word(r.target());
        context.remove(context.size() - 1);
        if (r.hereDoc() != null) {
            if (!r.hereDoc().quoted()) {
                context.add(Context.HEREDOC_BODY);
                int savedCommand = currentCommand;
                currentCommand = commandId;
                word(r.hereDoc().body());
                currentCommand = savedCommand;
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
        if (!output && !dup && (op.equals("<") || op.equals("<>"))) {
            // A file opened for reading: classified like an output target, for the working-directory boundary.
            fileTarget(commandId, r.fd(), op, text, dynamic, false);
            return;
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
        fileTarget(commandId, fd, op, text, dynamic, true);
    }

    /** Adds a {@link Redirect} for a file opened for writing or reading, classified against the allowed directories. */
    private void fileTarget(int commandId, String fd, String op, String text, boolean dynamic, boolean output) {
        // /dev/stdout, /dev/fd/N, /proc/self/...: whatever the descriptor names in the process that opens it
        if (!dynamic && PathResolver.processRelative(text)) dynamic = true;
        if (dynamic) {
            redirects.add(new Redirect(nextId++, commandId, fd, op, text, output, true, false, false, false, null,
                    false, null, targets.configurationError(), directoryChanged));
            return;
        }
        boolean safeDevice = RedirectTargets.SAFE_DEVICES.contains(text);
        boolean relative = !text.startsWith("/");
        RedirectTargets.Classified c = safeDevice ? new RedirectTargets.Classified(text, false, null)
                : targets.classify(text);
        redirects.add(new Redirect(nextId++, commandId, fd, op, text, output, c.resolvedPath() == null, false,
                safeDevice, relative, c.resolvedPath(), c.inside(), c.protectedComponent(),
                targets.configurationError(), directoryChanged));
    }
}
