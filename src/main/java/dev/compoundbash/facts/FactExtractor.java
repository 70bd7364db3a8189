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
    /** Every variable read, in walk order (a loop's may be marked not set in the command afterwards). */
    private final List<VariableUse> variableUses = new ArrayList<>();
    /** The innermost simple command whose words are being walked, or -1. */
    private int currentCommand = -1;
    /**
     * Variables the command set to values not taken from the environment on every path to this point of the walk
     * (a must-set analysis: a branch that may not run, a subshell, a pipeline element, a loop body that may run no
     * time keep none of their assignments for what follows).
     */
    private java.util.Set<String> clean = new java.util.HashSet<>();
    /** Every static value any assignment of the call gives a variable (whatever the order), for evaluations. */
    private final java.util.Map<String, java.util.Set<String>> staticValues = new java.util.HashMap<>();
    /** Variables some assignment of the call gives a value not known here (or a number: see NUMBER). */
    private final java.util.Set<String> unknownValues = new java.util.HashSet<>();
    /** The value recorded for a variable an arithmetic assignment or a descriptor set: a number, named nothing. */
    private static final String NUMBER = "0";
    /** A variable read whose value bash evaluates again: arithmetically, or as a variable name. */
    private record Evaluation(int commandId, String name, boolean indirect, java.util.Set<String> cleanThen) {
    }
    private final List<Evaluation> pendingEvaluations = new ArrayList<>();
    /** Variables given the integer attribute anywhere in the call (declare -i): their assignments are arithmetic. */
    private final java.util.Set<String> integerNames = new java.util.HashSet<>();
    /** A declare -i whose names are only known at run time: every assignment may be arithmetic. */
    private boolean anyInteger;
    /** The loops being walked, innermost last: the states at their continue and break commands. */
    private final java.util.ArrayDeque<LoopFrame> loops = new java.util.ArrayDeque<>();
    /** A loop being walked: the clean sets where a continue or break may leave its body, the names it writes. */
    private static final class LoopFrame {
        final List<java.util.Set<String>> exits = new ArrayList<>();
        final java.util.Set<String> writes = new java.util.HashSet<>();
    }
    /** The sub-command each simple command became, as written (for {@link PipelinesAndLists}). */
    private final java.util.Map<Command.Simple, SubCommand> asWritten = new java.util.IdentityHashMap<>();
    /** Every pipeline and list the walk met, in walk order (for {@link PipelinesAndLists}). */
    private final List<PipelinesAndLists.Met> met = new ArrayList<>();
    /** Functions defined so far and the variables their bodies write (null: one only known at run time). */
    private final java.util.Map<String, java.util.Set<String>> functionWrites = new java.util.HashMap<>();
    /** Names written by the innermost function body being walked, or null outside one. */
    private java.util.Set<String> writesOfFunction;
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
        x.integerDeclarations(script.body());
        x.list(script.body(), true);
        x.valuesEvaluatedLater();
        return x.facts();
    }

    private Facts facts() {
        List<JoinedCommands> joined = new PipelinesAndLists(asWritten, subCommands, wrappers, functionWrites.keySet())
                .facts(met, nextId);
        nextId += joined.size();
        return new Facts(List.copyOf(subCommands), List.copyOf(wrappers), List.copyOf(findActions),
                List.copyOf(redirects), List.copyOf(variableWrites), List.copyOf(evaluations),
                List.copyOf(runTimeCode), List.copyOf(pathOperands),
                List.copyOf(new java.util.LinkedHashSet<>(variableUses)), joined);
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
        x.integerDeclarations(script.body());
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
        if (writesOfFunction != null) writesOfFunction.add(name);
        for (LoopFrame f : loops) f.writes.add(name);
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
        if (list.items().size() > 1) met.add(new PipelinesAndLists.Met(list, source, top, List.copyOf(context)));
        for (ListItem item : list.items()) {
            // cmd &: an asynchronous command runs in a subshell (Bash Reference Manual §3.2.4): its assignments end
            // with it.
            java.util.Set<String> saved = item.background() ? new java.util.HashSet<>(clean) : null;
            command(item.command(), top);
            if (saved != null) clean = saved;
        }
    }

    // ---- the must-set analysis of clean variables ------------------------------------------------------------

    /** The clean set, copied: a state of the analysis at one point. */
    private java.util.Set<String> state() {
        return new java.util.HashSet<>(clean);
    }

    /** A variable the command set itself, on every path here, to a value not from the environment. */
    private boolean isClean(String name) {
        return clean.contains(name);
    }

    private static java.util.Set<String> intersect(java.util.Set<String> a, java.util.Set<String> b) {
        java.util.Set<String> out = new java.util.HashSet<>(a);
        out.retainAll(b);
        return out;
    }

    /**
     * Walks a loop, whose body may run any number of times. {@code pass} walks one pass and returns the state where
     * the loop may end after its condition (while, until, for (( )): the condition runs at least once), or null (a
     * for or select loop may run no pass). The pass is walked once, starting from the state here: when the state
     * at the end of the pass (and at every continue or break in it) still holds every variable it started with,
     * the next pass starts at least as clean, so (the analysis being monotone) every later pass reads what the
     * first did. Otherwise ({@code x=1; for i in a b; do echo $x; x=$SECRET; done}) every read in the loop of a
     * variable the loop writes counts as not set in the command, and after the loop no such variable is clean.
     *
     * @param before    the state before the loop (a for loop's before it writes its variable)
     * @param rewritten variables every pass writes again first (a for loop's variable)
     */
    private void loop(java.util.Set<String> before, java.util.Set<String> rewritten,
                      java.util.function.Supplier<java.util.Set<String>> pass) {
        java.util.Set<String> entry = state();
        int usesMark = variableUses.size();
        int evaluationsMark = pendingEvaluations.size();
        java.util.Map<String, java.util.Set<String>> functionsBefore = new java.util.HashMap<>();
        functionWrites.forEach((k, v) -> functionsBefore.put(k, new java.util.HashSet<>(v)));
        LoopFrame frame = new LoopFrame();
        loops.addLast(frame);
        java.util.Set<String> exitCondition;
        try {
            exitCondition = pass.get();
        } finally {
            loops.removeLast();
        }
        java.util.Set<String> end = state();
        for (java.util.Set<String> e : frame.exits) end.retainAll(e);
        java.util.Set<String> need = new java.util.HashSet<>(entry);
        need.removeAll(rewritten);
        boolean stable = end.containsAll(need) && functionWrites.equals(functionsBefore);
        java.util.Set<String> after = new java.util.HashSet<>(end);
        after.retainAll(exitCondition != null ? exitCondition : before);
        if (!stable) {
            java.util.Set<String> written = new java.util.HashSet<>(frame.writes);
            for (java.util.Map.Entry<String, java.util.Set<String>> f : functionWrites.entrySet()) {
                if (!f.getValue().equals(functionsBefore.get(f.getKey()))) written.addAll(f.getValue());
            }
            boolean any = written.contains(null);
            for (int i = usesMark; i < variableUses.size(); i++) {
                VariableUse u = variableUses.get(i);
                if (u.isSetInCommand() && (any || written.contains(u.getName())) && !special(u.getName())) {
                    variableUses.set(i, new VariableUse(u.getCommandId(), u.getName(), u.isNameKnown(), false,
                            u.getHow(), u.getVia()));
                }
            }
            for (int i = evaluationsMark; i < pendingEvaluations.size(); i++) {
                Evaluation e = pendingEvaluations.get(i);
                java.util.Set<String> then = any ? new java.util.HashSet<>() : new java.util.HashSet<>(e.cleanThen());
                then.removeAll(written);
                pendingEvaluations.set(i, new Evaluation(e.commandId(), e.name(), e.indirect(), then));
            }
            if (any) after.clear();
            else after.removeAll(written);
        }
        // an enclosing loop's pass wrote whatever this one did
        if (!loops.isEmpty()) loops.peekLast().writes.addAll(frame.writes);
        clean = after;
    }

    /** A continue or break may leave the passes of every enclosing loop here. */
    private void loopExit() {
        for (LoopFrame f : loops) f.exits.add(state());
    }

    /** At a call of a function defined earlier (or of a name only known at run time): its writes happen here. */
    private void functionCalled(String name, boolean dynamicName) {
        List<java.util.Set<String>> called = new ArrayList<>();
        if (dynamicName) called.addAll(functionWrites.values());
        else if (functionWrites.containsKey(name)) called.add(functionWrites.get(name));
        for (java.util.Set<String> writes : called) {
            for (String n : writes) {
                if (n == null) clean.clear();
                else clean.remove(n);
                for (LoopFrame f : loops) f.writes.add(n);
                if (writesOfFunction != null) writesOfFunction.add(n);
            }
        }
    }

    /** Records a value {@code w} may give {@code name}: its static text, or that it is not known here. */
    private void value(String name, Word w) {
        if (name == null) return;
        WordValue v = w == null ? null : WordValue.of(w, source);
        if (v != null && v.isStatic() && !v.glob() && !v.braceExpansion()) value(name, v.value());
        else unknownValues.add(name);
    }

    private void value(String name, String text) {
        if (name != null) staticValues.computeIfAbsent(name, k -> new java.util.HashSet<>()).add(text);
    }

    private void nested(String label, CommandList list) {
        // A subshell, a substitution and a coprocess run in a child shell: a cd there ends with it.
        boolean child = label.equals(Context.SUBSHELL) || label.equals(Context.COMMAND_SUBSTITUTION)
                || label.equals(Context.BACKTICKS) || label.equals(Context.PROCESS_SUBSTITUTION)
                || label.equals(Context.COPROCESS);
        List<java.nio.file.Path> savedBases = bases;
        boolean savedChanged = directoryChanged;
        java.util.Set<String> savedClean = child ? state() : null;
        context.add(label);
        list(list, false);
        context.remove(context.size() - 1);
        if (child) {
            bases = savedBases;
            directoryChanged = savedChanged;
            clean = savedClean; // (x=1); echo $x: the subshell's assignments end with it
        }
    }

    private void nestedCommand(String label, Command c) {
        java.util.Set<String> saved = label.equals(Context.COPROCESS) ? state() : null;
        context.add(label);
        command(c, false);
        context.remove(context.size() - 1);
        if (saved != null) clean = saved;
    }

    private void command(Command c, boolean top) {
        if (c instanceof Command.Simple s) {
            simple(s, top);
        } else if (c instanceof Command.Pipeline p) {
            if (p.commands().size() > 1) met.add(new PipelinesAndLists.Met(p, source, top, List.copyOf(context)));
            // Each element of a pipeline of several runs in a subshell (bash(1) "Pipelines"): a cd there ends with it.
            List<java.nio.file.Path> savedBases = bases;
            boolean savedChanged = directoryChanged;
            java.util.Set<String> savedClean = state();
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
                if (p.commands().size() > 1) {
                    bases = savedBases;
                    directoryChanged = savedChanged;
                    clean = new java.util.HashSet<>(savedClean); // (lastpipe is off in bash -c)
                }
            }
            xargsInput = savedInput;
            xargsInputDepth = savedDepth;
            xargsUnreadText = savedUnread;
        } else if (c instanceof Command.AndOrList a) {
            met.add(new PipelinesAndLists.Met(a, source, top, List.copyOf(context)));
            // a && b || c: only the first always runs. && and || have equal precedence, left to right (Bash
            // Reference Manual §3.2.4): a command after && starts from a state where the list so far succeeded,
            // after || from one where it failed; the states are kept for each status (what holds on every path).
            command(a.commands().get(0), top);
            java.util.Set<String> succeeded = state();
            java.util.Set<String> failed = state();
            for (int k = 1; k < a.commands().size(); k++) {
                boolean and = !"||".equals(a.operators().get(k - 1));
                clean = new java.util.HashSet<>(and ? succeeded : failed);
                command(a.commands().get(k), top);
                if (and) {
                    succeeded = state();
                    failed.retainAll(clean);
                } else {
                    failed = state();
                    succeeded.retainAll(clean);
                }
            }
            clean = intersect(succeeded, failed);
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
            // Each condition runs after the ones before it failed; a body may run or not: what holds after the
            // if is what holds at the end of every path (the last condition's, without an else).
            java.util.Set<String> all = null;
            for (IfClause clause : i.clauses()) {
                list(clause.condition(), false);
                java.util.Set<String> afterCondition = state();
                list(clause.body(), false);
                all = all == null ? state() : intersect(all, clean);
                clean = afterCondition;
            }
            // the else body, or (without one) nothing after the last condition failed
            if (i.elseBody() != null) list(i.elseBody(), false);
            clean = all == null ? clean : intersect(all, clean);
            context.remove(context.size() - 1);
        } else if (c instanceof Command.For f) {
            redirections(f.redirections(), -1);
            context.add(Context.LOOP);
            if (f.items() != null) for (Word w : f.items()) word(w);
            // for NAME in ...; select NAME in ...: the loop assigns NAME (and keeps the last value after it).
            WordValue var = WordValue.of(f.variable(), source);
            String name = var.isStatic() ? var.text() : null;
            boolean runTime = f.items() == null;
            if (f.items() != null) for (Word w : f.items()) runTime |= !WordValue.of(w, source).isStatic();
            boolean env = f.items() == null;
            if (f.items() != null) for (Word w : f.items()) env |= fromEnvironment(w);
            java.util.Set<String> beforeLoop = state();
            write(name, f.select() ? "select loop" : "for loop", runTime || f.select(), -1, env);
            if (name != null) {
                if (f.items() == null) unknownValues.add(name);
                else for (Word w : f.items()) value(name, w);
            }
            boolean bound = name != null && !runTime && !f.select();
            if (bound) loopValues.put(name, Arg.of(f.items(), source));
            java.util.Set<String> loopVariable = name == null ? java.util.Set.of() : java.util.Set.of(name);
            loop(beforeLoop, loopVariable, () -> {
                repeated(f.body(), () -> list(f.body(), false));
                return null;
            });
            if (bound) loopValues.remove(name);
            context.remove(context.size() - 1);
        } else if (c instanceof Command.ArithFor f) {
            redirections(f.redirections(), -1);
            context.add(Context.LOOP);
            arithmetic(f.init());
            // for (( init; test; step )): test runs before every pass, step after it
            loop(state(), java.util.Set.of(), () -> {
                arithmetic(f.test());
                java.util.Set<String> afterTest = state();
                repeated(f.body(), () -> list(f.body(), false));
                arithmetic(f.step());
                return afterTest;
            });
            context.remove(context.size() - 1);
        } else if (c instanceof Command.While w) {
            redirections(w.redirections(), -1);
            context.add(Context.LOOP);
            loop(state(), java.util.Set.of(), () -> {
                java.util.Set<String>[] afterCondition = new java.util.Set[1];
                repeated(w, () -> {
                    list(w.condition(), false);
                    afterCondition[0] = state();
                    list(w.body(), false);
                });
                return afterCondition[0];
            });
            context.remove(context.size() - 1);
        } else if (c instanceof Command.Case k) {
            redirections(k.redirections(), -1);
            context.add(Context.CASE);
            word(k.subject());
            // No item may match (unless one's pattern is a bare *); an item ended by ;& or ;;& goes on into the
            // next, whose body then starts from either state.
            java.util.Set<String> subject = state();
            java.util.Set<String> all = null;
            java.util.Set<String> previous = null;
            boolean catchAll = false;
            for (CaseItem item : k.items()) {
                clean = previous == null ? new java.util.HashSet<>(subject) : intersect(subject, previous);
                for (Word p : item.patterns()) {
                    word(p);
                    catchAll |= p.span().text(source).equals("*");
                }
                list(item.body(), false);
                all = all == null ? state() : intersect(all, clean);
                previous = ";&".equals(item.terminator()) || ";;&".equals(item.terminator()) ? state() : null;
            }
            clean = all == null ? subject : catchAll ? all : intersect(all, subject);
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
            // A function body runs where it is called, after any directory change of the call.
            List<java.nio.file.Path> savedBases = bases;
            boolean savedChanged = directoryChanged;
            if (changesDirectory(scriptRoot)) {
                bases = null;
                directoryChanged = true;
            }
            // The body runs where the function is called, after anything: it starts knowing no variable clean,
            // outside every loop, and its writes count at every later call (functionCalled).
            java.util.Set<String> savedClean = state();
            java.util.Set<String> savedWrites = writesOfFunction;
            java.util.List<LoopFrame> savedLoops = new ArrayList<>(loops);
            loops.clear();
            clean = new java.util.HashSet<>();
            writesOfFunction = new java.util.HashSet<>();
            java.util.Set<String> writes = writesOfFunction;
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
                writesOfFunction = savedWrites;
                if (savedWrites != null) savedWrites.addAll(writes);
                loops.addAll(savedLoops);
                clean = savedClean;
            }
            functionWrites.merge(f.name(), writes, (a, b) -> {
                java.util.Set<String> u = new java.util.HashSet<>(a);
                u.addAll(b);
                return u;
            });
            bases = savedBases;
            directoryChanged = savedChanged;
        } else if (c instanceof Command.Coproc k) {
            nestedCommand(Context.COPROCESS, k.body());
            // coproc [NAME]: bash sets NAME (COPROC) to the descriptors and NAME_PID to the process id
            String name = k.name() != null ? k.name() : "COPROC";
            for (String n : List.of(name, name + "_PID")) {
                write(n, "coproc", false, -1);
                value(n, NUMBER);
            }
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
            // sh may be dash, which does no brace expansion (POSIX has none): what runs is not known
            unexpanded |= ex.expanded() && scriptShell != null && NO_BRACE_EXPANSION.contains(scriptShell);
            pieces.addAll(ex.pieces());
            if (ex.expanded()) made.addAll(ex.pieces());
        }
        if (!pieces.isEmpty()) {
            List<Arg> args = new ArrayList<>(pieces.size());
            evaluated.clear();
            for (BraceExpansion.Piece piece : pieces) {
                Arg arg = Arg.of(piece.word(), piece.source());
                args.add(arg);
                if (!arg.isStatic()) {
                    String savedSource = source;
                    source = piece.source();
                    String e = evaluate(piece.word());
                    source = savedSource;
                    if (e != null) evaluated.put(arg.text(), e);
                }
            }
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
            asWritten.put(s, sc);
            pathOperands(sc);
            // The words' own expansions run in this shell, outside any privilege or prefix the wrapper sets.
            if (!dyn[0] && sc.getBaseName().equals("find")) {
                for (WrapperGrammar.Action a : WrapperGrammar.findActions(args)) {
                    findActions.add(new FindAction(nextId++, sc.getId(), a.primary(), a.mutating(), a.argument()));
                }
            }
            if (u != null) unwrap(sc, u, args, dyn, top, s.redirections());
            if (stdin != null) stdinScriptPayload(sc, stdin, top, sc.getAssignments());
            else if (u == null && !dyn[0]) hiddenScript(sc, argv, dyn);
            // Expansions inside the words run too, nested (once per word brace expansion makes); let's arguments
            // are arithmetic expressions.
            int savedCommand = currentCommand;
            currentCommand = id;
            boolean let = !dyn[0] && argv.get(0).equals("let");
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
                // (declare c[{1,2}=='$(cmd)']=1 makes c[1==$(cmd)]=1), it is code bash may evaluate (storedCode)
                if (made.contains(piece)) {
                    WordValue v = WordValue.of(piece.word(), piece.source());
                    if (v.isStatic()) storedCode(v.value());
                }
            }
            if (!dyn[0]) builtinWrites(argv, dyn, id);
            if (dyn[0] || argv.get(0).equals("continue") || argv.get(0).equals("break")) loopExit();
            redirections(s.redirections(), id);
            currentCommand = savedCommand;
        } else {
            // A statement of assignments only sets shell variables, seen by the commands after it.
            for (Assignment a : s.assignments()) {
                // a[1]=x and a+=x keep the rest of the old value: clean only when it was
                boolean partial = a.index() != null || a.append();
                write(a.name(), "assignment", runTimeAssignment(a), -1,
                        fromEnvironment(a) || partial && !isClean(a.name()));
                if (integer(a.name()) || a.append()) {
                    if (integer(a.name())) value(a.name(), NUMBER);
                    else unknownValues.add(a.name());
                } else if (a.array() != null) {
                    for (ArrayElement e : a.array()) value(a.name(), e.value());
                } else {
                    value(a.name(), a.value());
                }
                if (a.value() != null && a.index() == null && a.array() == null && !a.append()) {
                    WordValue v = WordValue.of(a.value(), source);
                    if (v.isStatic() && !v.glob() && !v.braceExpansion()) constants.put(a.name(), v.value());
                    else {
                        String e = evaluate(a.value());
                        if (e != null) constants.put(a.name(), e);
                    }
                }
            }
            redirections(s.redirections(), id);
        }
    }

    /**
     * The variables a script gives the integer attribute anywhere ({@code declare -i x}), found before the walk: an
     * assignment to one is evaluated arithmetically wherever the attribute was given (a loop's later pass).
     */
    private void integerDeclarations(dev.compoundbash.shell.Node root) {
        for (Command.Simple c : dev.compoundbash.shell.Walker.all(root, Command.Simple.class)) {
            if (c.words().isEmpty()) continue;
            List<Arg> args = Arg.of(c.words(), source);
            if (args.get(0).dynamic() || !Parser.DECLARATION.contains(args.get(0).text())) continue;
            boolean[] dyn = dynamic(args);
            List<String> argv = texts(args);
            if (!declaresInteger(argv, dyn)) continue;
            for (VariableWrites.Operand o : VariableWrites.nameOperands(argv, dyn)) {
                String n = VariableWrites.nameOf(o.text());
                if (n != null) integerNames.add(n);
                else anyInteger = true;
            }
        }
    }

    /** True when assignments to {@code name} are evaluated arithmetically (declare -i anywhere in the call). */
    private boolean integer(String name) {
        return anyInteger || integerNames.contains(name);
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
        // What each name operand leaves in its variable: a whole new value (clean unless taken from the
        // environment), part of the old one (a[1]=x, x+=y, declare NAME, mapfile -O: clean only when it was), or,
        // for unset, whatever an outer scope holds (a function's unset local shows the caller's value).
        boolean integerDeclaration = declaration && declaresInteger(argv, dyn);
        boolean keepsRest = (name.equals("mapfile") || name.equals("readarray"))
                && argv.stream().anyMatch(a -> a.matches("-[A-Za-z]*O.*"));
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (VariableWrites.Operand o : operands) {
            String text = o.text();
            String n = VariableWrites.nameOf(text);
            if (n == null) {
                write(null, name, true, commandId);
                continue;
            }
            seen.add(n);
            int eq = declaration ? assignmentEquals(text) : -1;
            String namePart = eq > 0 ? text.substring(0, eq) : text;
            if (!dyn[o.index()]) subscriptOf(namePart); // read 'a[SUB]', printf -v 'a[SUB]', declare 'a[SUB]=1'
            boolean partial = namePart.indexOf('[') >= 0 || namePart.endsWith("+") || declaration && eq < 0
                    || keepsRest;
            boolean unset = name.equals("unset");
            if (integerDeclaration) integerNames.add(n);
            if (declaration && eq > 0) {
                String v = text.substring(eq + 1);
                if (dyn[o.index()]) {
                    unknownValues.add(n);
                    if (integer(n)) {
                        variableUses.add(new VariableUse(commandId, text, false, false, VariableUse.ARITHMETIC, n));
                    }
                } else if (integer(n)) {
                    // declare -i x=SECRET: the value is evaluated arithmetically
                    arithmeticNames(v, commandId, null, null, null);
                    value(n, NUMBER);
                } else {
                    value(n, v);
                    if (namePart.indexOf('[') < 0 && !namePart.endsWith("+") && !v.startsWith("(")) {
                        constants.put(n, v);
                    }
                }
            } else if (unset) {
                value(n, "");
            } else if (!declaration) {
                unknownValues.add(n);
            }
            write(n, name, reader || runTimeNames.contains(n), commandId,
                    envNames.contains(n) || unset || partial && !isClean(n));
        }
        for (String n : names) {
            if (n == null) write(null, name, true, commandId); // declare -n: a name reference
        }
        if (name.equals("test") || name.equals("[")) {
            for (int i = 2; i < argv.size(); i++) {
                if (dyn[i] && argv.get(i - 1).equals("-v")) runTimeCode(argv.get(i), Context.EVALUATED_NAME);
                if (!dyn[i] && (argv.get(i - 1).equals("-v") || argv.get(i - 1).equals("-R"))) {
                    testedName(argv.get(i));
                }
            }
        }
    }

    /**
     * A declaration builtin that gives the integer attribute ({@code declare -i}, {@code local -ri}, ...): an
     * option word before the operands holding {@code i}, or a word only known at run time that may be one.
     */
    private boolean declaresInteger(List<String> argv, boolean[] dyn) {
        for (int i = 1; i < argv.size(); i++) {
            String a = argv.get(i);
            if (dyn[i]) {
                if (a.matches("[\"']?[A-Za-z_][A-Za-z0-9_]*(\\[.*\\])?\\+?=.*")) continue;
                anyInteger = true;
                return true;
            }
            if (a.equals("--")) return false;
            if ((a.startsWith("-") || a.startsWith("+")) && a.length() > 1) {
                if (a.startsWith("-") && a.indexOf('i') > 0) return true;
                continue;
            }
            return false;
        }
        return false;
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
        resolveEvaluations();
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
        if (!args.isEmpty()) functionCalled(args.get(0).text(), dyn.length > 0 && dyn[0]);
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

    /** Values of the current command's words computed from constants ({@link #evaluate}), by source text. */
    private final java.util.Map<String, String> evaluated = new java.util.HashMap<>();

    /**
     * The value of a word that is one parameter expansion of a constant the command assigned (quoted or not), for
     * deny and ask rules, where bash's result is exact and cheap to compute (Bash Reference Manual 3.5.3, checked
     * under bash 5.2 by the adv-rt2-deny-const-* cases): {@code $x ${x}}, {@code ${x:OFF} ${x:OFF:LEN}} with
     * non-negative integer literals, case modification without a pattern ({@code ${x,,} ${x^^} ${x,} ${x^}},
     * {@code ${x@L} ${x@U} ${x@u}}), prefix and suffix removal and substitution with literal text (no glob
     * character, quote, backslash or {@code &}), {@code ${x[0]} ${x[@]} ${x[*]}} of a scalar, and {@code ${#x}};
     * else null.
     */
    private String evaluate(Word w) {
        List<WordPart> parts = w.parts();
        if (parts.size() == 1 && parts.get(0) instanceof WordPart.DoubleQuoted dq && !dq.localized()) parts = dq.parts();
        if (parts.size() != 1 || !(parts.get(0) instanceof WordPart.ParamExpansion pe)) return null;
        String v = constants.get(pe.name());
        if (v == null || !pe.name().matches("[A-Za-z_][A-Za-z0-9_]*")) return null;
        if (pe.index() != null) {
            String i = pe.index().span().text(source);
            if (!i.equals("0") && !i.equals("@") && !i.equals("*")) return null;
        }
        String prefix = pe.prefix() == null ? "" : pe.prefix();
        if (prefix.equals("#")) return pe.operator() == null ? String.valueOf(v.length()) : null;
        if (!prefix.isEmpty()) return null;
        String op = pe.operator();
        if (op == null || op.isEmpty()) return v;
        List<String> ops = new ArrayList<>();
        for (Word o : pe.operands()) {
            WordValue ov = WordValue.of(o, source);
            if (!ov.isStatic()) return null;
            String t = o.span().text(source);
            if (t.chars().anyMatch(c -> "*?[]'\"\\&$`{}!@+()|".indexOf(c) >= 0)) return null;
            ops.add(ov.value());
        }
        switch (op) {
            case ",,": return ops.isEmpty() ? v.toLowerCase(java.util.Locale.ROOT) : null;
            case "^^": return ops.isEmpty() ? v.toUpperCase(java.util.Locale.ROOT) : null;
            case ",": return ops.isEmpty() && !v.isEmpty() ? Character.toLowerCase(v.charAt(0)) + v.substring(1) : null;
            case "^": return ops.isEmpty() && !v.isEmpty() ? Character.toUpperCase(v.charAt(0)) + v.substring(1) : null;
            case "@":
                if (ops.size() != 1) return null;
                return switch (ops.get(0)) {
                    case "L" -> v.toLowerCase(java.util.Locale.ROOT);
                    case "U" -> v.toUpperCase(java.util.Locale.ROOT);
                    case "u" -> v.isEmpty() ? v : Character.toUpperCase(v.charAt(0)) + v.substring(1);
                    default -> null;
                };
            case ":": {
                if (ops.isEmpty() || ops.size() > 2) return null;
                for (String o : ops) if (!o.matches("[0-9]{1,6}")) return null;
                int off = Integer.parseInt(ops.get(0));
                if (off > v.length()) return "";
                String rest = v.substring(off);
                if (ops.size() == 1) return rest;
                int len = Integer.parseInt(ops.get(1));
                return rest.substring(0, Math.min(len, rest.length()));
            }
            case "#", "##":
                if (ops.isEmpty()) return v;
                return ops.size() == 1 && v.startsWith(ops.get(0)) ? v.substring(ops.get(0).length())
                        : ops.size() == 1 ? v : null;
            case "%", "%%":
                if (ops.isEmpty()) return v;
                return ops.size() == 1 && v.endsWith(ops.get(0)) ? v.substring(0, v.length() - ops.get(0).length())
                        : ops.size() == 1 ? v : null;
            case "/", "//": {
                if (ops.isEmpty() || ops.size() > 2 || ops.get(0).isEmpty()) return null;
                String rep = ops.size() == 2 ? ops.get(1) : "";
                return op.equals("/") ? v.replaceFirst(java.util.regex.Pattern.quote(ops.get(0)),
                        java.util.regex.Matcher.quoteReplacement(rep)) : v.replace(ops.get(0), rep);
            }
            default:
                return null;
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
            String computed = v == null ? evaluated.get(a.text()) : null;
            if (computed != null) {
                values.add(quoted ? List.of(computed) : java.util.Arrays.stream(computed.trim().split("[ \t\n]+"))
                        .filter(w -> !w.isEmpty()).toList());
            } else if (v != null && constants.containsKey(v)) {
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
            List<ProgramTable.Operand> operands = new ArrayList<>(ProgramTable.operands(p, sc.getArgs(),
                    this::mayBeOption));
            // Claude Code itself runs `xargs grep x` (and head, tail, wc, ...) without a rule and without checking
            // the words xargs appends (measured: `echo /etc/hosts | xargs grep x` runs natively; its read-only check
            // takes these xargs targets, rules/claude-code-read-only.json): for them the hook does what Claude Code
            // does. For any other program the appended words are paths only known at run time.
            boolean claudeCodeTarget = ClaudeCodeReadOnly.builtIn().xargsTargets().contains(name)
                    && ProgramTable.appendedAccess(p, sc.getArgs()).equals("read")
                    && !(xargsUnreadText && xargsInputDepth == context.size());
            if (sc.isArgumentsAppended() && xargsInput != null && xargsInputDepth == context.size()
                    && !p.getOperands().equals("none") && !p.getOperands().equals("cd")) {
                // echo .git/config | xargs cp evil.cfg: the words xargs reads are known; they are paths
                for (String w : xargsInput) {
                    if (w.startsWith("-")) {
                        // echo --files0-from=F | xargs wc: an option of the program, which may name any file
                        operands.add(new ProgramTable.Operand(Arg.unknown("(an option xargs appends: " + w + ")"),
                                ProgramTable.appendedAccess(p, sc.getArgs())));
                        continue;
                    }
                    operands.add(new ProgramTable.Operand(Arg.literal(w), ProgramTable.appendedAccess(p, sc.getArgs())));
                }
            } else if (sc.isArgumentsAppended() && !claudeCodeTarget && !p.getOperands().equals("none")
                    && !p.getOperands().equals("cd")) {
                // xargs appends words read from its input: paths only known at run time.
                operands.add(new ProgramTable.Operand(Arg.unknown("(the words xargs appends from its input)"),
                        ProgramTable.appendedAccess(p, sc.getArgs())));
            }
            for (ProgramTable.Operand o : operands) {
                // find's bare {} is a path find found under its start paths (checked as find's own operands); only
                // a read of it, when find follows no symbolic link and only matches files that are not links, is
                // known to stay inside them. Any other spliced word (a {} inside a longer word, xargs -I's
                // replacement) is a path only known at run time.
                if (o.arg().spliced() && findFoundPaths && o.access().equals("read") && o.arg().text().equals("{}")) {
                    continue;
                }
                Arg oa = o.arg();
                if (oa.spliced() && xargsReplace != null && xargsInput != null && xargsInputDepth == context.size()) {
                    // echo .git/config | xargs -I{} cp a {}: the one line xargs reads is known, so is the word
                    oa = Arg.literal(oa.text().replace(xargsReplace, String.join(" ", xargsInput)));
                }
                PathResolver.Result r = paths.resolve(oa, here, loopValues);
                if (o.arg().spliced() && r.protectedComponent() == null) {
                    // {}/.git/hooks/x: whatever the wrapper splices in, the literal text puts the path in .git
                    String lit = "/" + o.arg().text().replace(o.arg().text().contains("{}") ? "{}" : "\u0000", "x") + "/";
                    String prot = lit.contains("/.git/") ? ".git" : lit.contains("/.claude/") ? ".claude" : null;
                    if (prot != null) r = new PathResolver.Result(r.status(), r.path(), r.why(), prot, r.exists());
                }
                if (o.followsInto() && r.status().equals(PathOperand.INSIDE) && r.path() != null
                        && java.nio.file.Files.isDirectory(java.nio.file.Path.of(r.path()))) {
                    // a directory the program reads following the symbolic links inside it: they may lead anywhere
                    r = new PathResolver.Result(PathOperand.UNKNOWN, r.path(),
                            "it reads the directory following the symbolic links in it", r.protectedComponent(),
                            r.exists());
                }
                pathOperands.add(new PathOperand(nextId++, sc.getId(), name, o.arg().text(), o.access(), r.status(),
                        r.path(), r.why(), r.protectedComponent(), r.exists(),
                        PathResolver.AFTER_UNKNOWN_DIRECTORY.equals(r.why())));
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

    /**
     * Whether a word may become an option: as {@link Arg#mayBeOption()}, except that a word of static text and loop
     * variables whose every substitution is known ({@link PathResolver#substituted}) may only if one starts with
     * {@code -}.
     */
    private boolean mayBeOption(Arg a) {
        if (!a.mayBeOption()) return false;
        List<Arg.Piece> pieces = a.pieces();
        if (pieces == null || a.spliced()) return true;
        List<java.nio.file.Path> here = otherDirectory ? null : bases;
        List<String> texts = PathResolver.substituted(pieces, loopValues, v -> paths.globWords(v, here));
        return texts == null || texts.stream().anyMatch(t -> t.startsWith("-"));
    }

    /** True while the payloads of a find whose {} paths stay inside its start paths are read (see below). */
    private boolean findFoundPaths;

    /**
     * Whether the paths find puts in a payload's bare {@code {}} stay inside find's start paths when the payload
     * opens them: find follows no symbolic link ({@code -L}, {@code -follow}: findutils find(1) "-L", "-follow";
     * {@code -H} only follows the start paths, which are resolved as find's own operands), and the expression
     * before the action is a chain of and-ed primaries holding {@code -type} with types that exclude {@code l}
     * (without it a found path may be a link, which the payload follows when it opens it: {@code find d -exec cat
     * {} \;} reads the target of {@code d/link}; {@code -xtype} tests the target, so it is no guard). Any
     * {@code -o}, {@code ,}, {@code !}, {@code -not} or parenthesis, or a word only known at run time, gives up.
     *
     * @param args the find command's words, the name first
     * @param from the index of the payload's first word (the action's name is before it)
     */
    static boolean findPathsStayInside(List<Arg> args, int from) {
        for (Arg a : args) {
            if (!a.isStatic()) return false;
            if (a.text().equals("-L") || a.text().equals("-follow")) return false;
        }
        int i = 1;
        while (i < from && !args.get(i).text().startsWith("-") && !args.get(i).text().equals("(")
                && !args.get(i).text().equals("!")) i++;
        boolean typed = false;
        for (; i < from - 1; i++) {
            String t = args.get(i).text();
            if (List.of("-o", "-or", ",", "(", ")", "!", "-not").contains(t)) return false;
            if (t.equals("-type") && i + 1 < from - 1) {
                String v = args.get(++i).text();
                if (v.matches("[bcdpfsD](,[bcdpfsD])*")) typed = true;
            }
        }
        return typed;
    }

    /** The words an xargs in this pipeline element reads, when the previous element writes static text; or null. */
    private List<String> xargsInput;
    /** The previous pipeline element is echo or printf whose text could not be read as xargs' words. */
    private boolean xargsUnreadText;
    /** The replacement string of the xargs -I whose payload is being read, or null. */
    private String xargsReplace;
    /** The nesting depth of the pipeline element {@link #xargsInput} is for. */
    private int xargsInputDepth = -1;

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

    /** The most directory entries {@link #noLinkLeavesStartPaths} looks at before it gives up. */
    static final int MAX_TREE_SCAN = 20_000;

    /**
     * Whether no path find may hand its payload leads outside the working directories through a symbolic link:
     * find follows no link ({@code -L}, {@code -follow}), its start paths are static, and a walk of each (not
     * following links, at most {@link #MAX_TREE_SCAN} entries) finds no symbolic link whose target resolves
     * outside them or cannot be resolved. A found link that stays inside is harmless: the payload reads inside.
     * This is the check the hook already makes for every path operand (symlinks resolved when it decides), applied
     * to the tree find walks.
     *
     * @param args the find command's words, the name first
     * @param from the index of the payload's first word
     */
    private boolean noLinkLeavesStartPaths(List<Arg> args, int from) {
        if (otherDirectory || bases == null || bases.size() != 1) return false;
        List<String> starts = new ArrayList<>();
        for (int i = 1; i < from; i++) {
            Arg a = args.get(i);
            if (!a.isStatic() || a.glob() || a.brace()) return false;
            String t = a.text();
            if (t.equals("-L") || t.equals("-follow")) return false;
        }
        for (int i = 1; i < from; i++) {
            String t = args.get(i).text();
            if (t.equals("-H") || t.equals("-P")) continue;
            if (t.startsWith("-") || t.equals("(") || t.equals("!")) break;
            starts.add(t);
        }
        if (starts.isEmpty()) starts.add(".");
        // -name/-iname tests and-ed before the action: a link whose name fails one is never handed to the payload
        List<java.nio.file.PathMatcher> names = new ArrayList<>();
        boolean filters = true;
        for (int i = 1; i < from - 1; i++) {
            String t = args.get(i).text();
            if (List.of("-o", "-or", ",", "(", ")", "!", "-not").contains(t)) filters = false;
            if ((t.equals("-name") || t.equals("-iname")) && i + 1 < from - 1) {
                String pat = args.get(++i).text();
                // fnmatch's bracket expressions ([^a], [[:lower:]], [[.l.]]) are not Java's: such a name filters
                // nothing
                if (pat.indexOf('[') >= 0) filters = false;
                try {
                    names.add(java.nio.file.FileSystems.getDefault().getPathMatcher("glob:"
                            + (t.equals("-iname") ? caseless(pat) : pat)));
                } catch (RuntimeException e) {
                    filters = false;
                }
            }
        }
        if (!filters) names.clear();
        int[] seen = {0};
        for (String st : starts) {
            java.nio.file.Path start;
            try {
                start = bases.get(0).resolve(st).normalize();
            } catch (java.nio.file.InvalidPathException e) {
                return false;
            }
            if (!java.nio.file.Files.isDirectory(start, java.nio.file.LinkOption.NOFOLLOW_LINKS)) continue;
            boolean[] ok = {true};
            try {
                java.nio.file.Files.walkFileTree(start, new java.nio.file.SimpleFileVisitor<>() {
                    @Override
                    public java.nio.file.FileVisitResult visitFile(java.nio.file.Path f,
                            java.nio.file.attribute.BasicFileAttributes attrs) {
                        if (++seen[0] > MAX_TREE_SCAN) {
                            ok[0] = false;
                            return java.nio.file.FileVisitResult.TERMINATE;
                        }
                        boolean named = true;
                        for (java.nio.file.PathMatcher m : names) named &= m.matches(f.getFileName());
                        if (attrs.isSymbolicLink() && named) {
                            PathResolver.Result r = paths.resolve(Arg.literal(f.toString()), bases, java.util.Map.of());
                            if (!r.status().equals(PathOperand.INSIDE)) {
                                ok[0] = false;
                                return java.nio.file.FileVisitResult.TERMINATE;
                            }
                        }
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult preVisitDirectory(java.nio.file.Path d,
                            java.nio.file.attribute.BasicFileAttributes attrs) {
                        if (++seen[0] > MAX_TREE_SCAN) {
                            ok[0] = false;
                            return java.nio.file.FileVisitResult.TERMINATE;
                        }
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult visitFileFailed(java.nio.file.Path f, java.io.IOException e) {
                        ok[0] = false; // a directory find may read and the hook cannot
                        return java.nio.file.FileVisitResult.TERMINATE;
                    }
                });
            } catch (java.io.IOException | RuntimeException e) {
                return false;
            }
            if (!ok[0]) return false;
        }
        return true;
    }

    /** A glob that matches {@code pattern} regardless of case, as find's {@code -iname} does (ASCII letters). */
    private static String caseless(String pattern) {
        StringBuilder b = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            if (Character.isLetter(c) && c < 128) {
                b.append('[').append(Character.toLowerCase(c)).append(Character.toUpperCase(c)).append(']');
            } else {
                b.append(c);
            }
        }
        return b.toString();
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
            String rs = u.replaceString();
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
                if (rs != null && !rs.isEmpty()) {
                    for (int k = 0; k < pargs.size(); k++) {
                        if (pargs.get(k).isStatic() && pargs.get(k).text().contains(rs)) {
                            pargs.set(k, pargs.get(k).splicedAt(rs, u.kind().equals("find")));
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
                    inner != null || stdin != null ? "wrapper" : "payload", wid,
                    // the words xargs appends pass through the wrappers it runs (xargs timeout 5 cat) to the end
                    u.appendsArguments() || sc.isArgumentsAppended(), env);
            subCommands.add(payload);
            boolean savedFound = findFoundPaths;
            String savedReplace = xargsReplace;
            xargsReplace = u.kind().equals("xargs") && rs != null && !rs.isEmpty() ? rs : null;
            if (u.kind().equals("find")) {
                findFoundPaths = !p.candidate() && (findPathsStayInside(args, p.from())
                        || noLinkLeavesStartPaths(args, p.from()));
            } else if (rs != null && !rs.isEmpty()) {
                findFoundPaths = false;
            }
            pathOperands(payload);
            boolean savedCandidate = inCandidate;
            inCandidate |= p.candidate();
            try {
                if (inner != null) unwrap(payload, inner, pargs, pdyn, top, redirections);
                if (stdin != null) stdinScriptPayload(payload, stdin, top, env);
            } finally {
                inCandidate = savedCandidate;
                findFoundPaths = savedFound;
                xargsReplace = savedReplace;
            }
        }
    }

    /** Builtins that run a script in the shell itself (bash(1) "eval", "source", "."). */
    private static final java.util.Set<String> SAME_SHELL = java.util.Set.of("eval", "source", ".");

    /** Names of standard input as a file: a shell or {@code source} given one reads its script from stdin. */
    private static final java.util.Set<String> STDIN_FILES = java.util.Set.of("/dev/stdin", "/dev/fd/0",
            "/proc/self/fd/0");

    /** Shells that read a script from standard input when given no script operand. */
    private static final java.util.Set<String> SHELLS = java.util.Set.of("bash", "sh", "zsh", "dash", "ksh");
    /** Shells that may not brace-expand: POSIX sh has no brace expansion, and sh is dash on Debian and Ubuntu. */
    private static final java.util.Set<String> NO_BRACE_EXPANSION = java.util.Set.of("sh", "dash");
    /**
     * Syntax bash reads and a POSIX shell (dash) reads otherwise or not at all: arithmetic and conditional commands,
     * {@code $[ ]}, {@code {NAME}>} redirections, here-strings, {@code &>}, {@code |&}, ANSI-C and locale quoting,
     * process substitution, {@code ;&}/{@code ;;&}, arrays, {@code function}, {@code coproc}, {@code select},
     * {@code ${!x}} and the pattern, case and substring operators of {@code ${...}} (Bash Reference Manual, Appendix B
     * "Major Differences From The Bourne Shell"; dash(1)). Matched on the script's text, quoted or not: a false
     * match only leaves a script unapproved.
     */
    private static final java.util.regex.Pattern BASH_ONLY = java.util.regex.Pattern.compile(
            "\\(\\(|\\[\\[|\\$\\[|\\{[A-Za-z_][A-Za-z0-9_]*}[<>]|<<<|&>|\\|&|\\$'|\\$\"|[<>]\\(|;;?&|=\\(|"
                    + "\\bfunction\\b|\\bcoproc\\b|\\bselect\\b|\\$\\{!|\\$\\{[A-Za-z_0-9]*(:[^-=?+]|[/^,@\\[])");
    /** The shell running the inline script being walked ({@code sh} in {@code sh -c '...'}), null outside one. */
    private String scriptShell;

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

    /**
     * A shell that reads its script from standard input that is no static here-document or here-string (a pipe, a
     * file, the terminal: {@code echo 'rm -rf y' | bash}), or {@code source}/{@code .} of a file named only at run
     * time ({@code . <(echo cmd)}, {@code source "$f"}, {@code . /dev/stdin} from a pipe): code the hook cannot read
     * runs. It gets an unreadable {@link Wrapper} (wrappers.drl asks while deny or ask rules are in force); the
     * command keeps its role, so an allow rule for it judges it as before.
     */
    private void hiddenScript(SubCommand sc, List<String> argv, boolean[] dyn) {
        String base = sc.getBaseName();
        String kind = null;
        if (base.equals("source") || base.equals(".")) {
            int i = 1;
            if (i < argv.size() && argv.get(i).equals("--")) i++;
            if (i < argv.size() && (dyn[i] || STDIN_FILES.contains(argv.get(i)))) kind = base + " " + argv.get(i);
        } else if (SHELLS.contains(base)) {
            kind = base + " <stdin";
            for (int i = 1; i < argv.size(); i++) {
                String a = argv.get(i);
                if (a.equals("-s")) break;
                if (!dyn[i] && STDIN_FILES.contains(a)) break;
                if (dyn[i] || a.startsWith("/dev/fd/") || a.startsWith("/proc/")) {
                    // a script file named only at run time: bash <(curl ...), sh "$f"
                    kind = base + " " + a;
                    break;
                }
                if (!(a.startsWith("-") || a.startsWith("+"))) {
                    kind = null; // a script file operand, or -c (a wrapper)
                    break;
                }
                if (a.startsWith("-") && !a.startsWith("--") && a.indexOf('c') > 0) {
                    kind = null;
                    break;
                }
            }
        }
        if (kind == null) return;
        wrappers.add(new Wrapper(nextId++, kind, sc.getId(), -1, false, false, false));
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
        boolean posix = NO_BRACE_EXPANSION.contains(shell.getBaseName());
        if (posix && BASH_ONLY.matcher(text).find()) {
            // sh is dash on Debian and Ubuntu: it reads (( )), [[ ]], {NAME}>, <<<, &>, $'...', <( ) and the other
            // bash-only syntax as something else ("((echo x))" runs echo in two subshells), so what this script
            // runs is not known. The commands the bash reading finds still meet the deny and ask rules.
            wrappers.add(wrapper(nextId++, u, shell.getId(), -1, false));
        }
        String savedSource = source;
        InlineLink savedInline = inline;
        List<String> savedInherited = inherited;
        dev.compoundbash.shell.Node savedRoot = scriptRoot;
        boolean savedCandidate = inCandidate;
        inCandidate = false; // a script is new text: its wrappers' candidates are its own
        InlineLink link = new InlineLink(u, shell.getId());
        String savedShell = scriptShell;
        // eval, source and the like run the script in the current shell; sh -c, dash -c in a shell of their own
        if (SHELLS.contains(shell.getBaseName())) scriptShell = shell.getBaseName();
        source = script.source();
        scriptRoot = script.body();
        inherited = env;
        inline = link;
        context.add(Context.INLINE_SCRIPT);
        // eval and source run the script in this shell; any other runs a new process, whose assignments end with it
        boolean child = !SAME_SHELL.contains(shell.getBaseName());
        java.util.Set<String> savedClean = child ? state() : null;
        try {
            integerDeclarations(script.body());
            list(script.body(), top);
        } finally {
            if (child) clean = savedClean;
            context.remove(context.size() - 1);
            source = savedSource;
            inline = savedInline;
            inherited = savedInherited;
            scriptRoot = savedRoot;
            inCandidate = savedCandidate;
            scriptShell = savedShell;
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
            // a[SUB]=v: the subscript of an indexed array is arithmetic (Bash Reference Manual §6.7 "Arrays")
            context.add(Context.ARRAY_SUBSCRIPT);
            arithmeticWord(a.index());
            context.remove(context.size() - 1);
        }
        if (a.value() != null) {
            // declare -i x; x=SECRET: the value of an integer variable is evaluated arithmetically
            if (integer(a.name())) arithmeticWord(a.value());
            else word(a.value());
        }
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
            // ${a[1]}: the environment holds scalars only (element 0), so a positive element is the command's own
            boolean ownElement = pe.index() != null && !"!".equals(pe.prefix())
                    && WordValue.of(pe.index(), source).isStatic()
                    && WordValue.of(pe.index(), source).value().matches("0*[1-9][0-9]*");
            variableUses.add(new VariableUse(currentCommand, pe.name(),
                    special(pe.name()) || isClean(pe.name()) || ownElement));
            paramEffects(pe);
            if (indirection(pe)) evaluation(pe.name(), true);
            if (pe.index() != null) {
                // ${a[SUB]}: arithmetic, but for @ and *
                context.add(Context.ARRAY_SUBSCRIPT);
                if (allElements(pe.index())) word(pe.index());
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

    // ---- variables read arithmetically or by indirection ------------------------------------------------------

    /** {@code ${!x}}, {@code ${!x@Q}}, {@code ${!x:-d}}: x's value names the variable expanded. */
    private boolean indirection(WordPart.ParamExpansion pe) {
        if (!"!".equals(pe.prefix())) return false;
        // ${!P*} ${!P@} list names; ${!a[@]} ${!a[*]} list the subscripts of a
        if ("*".equals(pe.operator()) || "@".equals(pe.operator()) && pe.operands().isEmpty()) return false;
        return pe.index() == null || !allElements(pe.index());
    }

    /** The subscript {@code @} or {@code *}: every element, not arithmetic. */
    private boolean allElements(Word index) {
        WordValue v = WordValue.of(index, source);
        return v.isStatic() && (v.value().equals("@") || v.value().equals("*"));
    }

    /**
     * A variable whose value bash evaluates again here: arithmetically (its value is an expression, which may name
     * further variables) or, when {@code indirect}, as a variable name. A variable the command set is resolved
     * after the walk against every value the call gives it; a special parameter or a bash variable whose value is
     * not a number may hold any name (set -- SECRET; $(( $1 ))), so it reads a variable only known at run time.
     */
    private void evaluation(String name, boolean indirect) {
        String how = indirect ? VariableUse.INDIRECTION : VariableUse.ARITHMETIC;
        if (special(name)) {
            // $# $? $$ $! are numbers (an indirection through them names a positional parameter)
            if (!"#?$!".contains(name) || name.isEmpty()) {
                variableUses.add(new VariableUse(currentCommand, (indirect ? "${!" : "$((") + name
                        + (indirect ? "}" : "))"), false, false, how, name));
            }
            return;
        }
        if (isClean(name)) {
            pendingEvaluations.add(new Evaluation(currentCommand, name, indirect, state()));
        } else if (NameList.of("known-values").contains(name) && !NameList.of("numeric-values").contains(name)) {
            // OSTYPE=linux-gnu, BASH_REMATCH, REPLY, FUNCNAME: a value that may name other variables
            variableUses.add(new VariableUse(currentCommand, name, false, false, how, name));
        }
        // a variable of the environment: its own read is a VariableUse already
    }

    /** A word bash evaluates arithmetically (a subscript, an offset, an operand of [[ -eq ]], let's argument). */
    private void arithmeticWord(Word w) {
        if (w != null) arithmeticParts(w.parts(), true);
    }

    /**
     * The parts of an arithmetic expression: the names in its text are variables read arithmetically (bash
     * evaluates each one's value as an expression in turn); an expansion's value is evaluated as part of the
     * text, so a parameter's value is evaluated too, and a command substitution's output may name any variable
     * (or hold a subscript whose command substitutions run); a name glued to an expansion ({@code ${x}ECRET}) is
     * only known at run time. With {@code walk} the expansions are walked as in any word (their own reads and
     * nested commands); without, only the evaluation of their values is recorded (they were walked already).
     */
    private void arithmeticParts(List<WordPart> parts, boolean walk) {
        List<Object> flat = new ArrayList<>();
        List<String> literal = new ArrayList<>();
        flatten(parts, flat, literal);
        StringBuilder text = new StringBuilder();
        java.util.Set<String> assigned = new java.util.LinkedHashSet<>();
        for (int i = 0; i < flat.size(); i++) {
            Object o = flat.get(i);
            if (o instanceof String t) {
                text.append(t);
                continue;
            }
            WordPart p = (WordPart) o;
            if (text.length() > 0) {
                arithmeticNames(text.toString(), currentCommand, null, null, assigned);
            }
            boolean glued = text.length() > 0 && identifierChar(text.charAt(text.length() - 1))
                    || i + 1 < flat.size() && flat.get(i + 1) instanceof String next && !next.isEmpty()
                    && identifierChar(next.charAt(0));
            text.setLength(0);
            if (walk) part(p);
            if (p instanceof WordPart.ParamExpansion pe) {
                if (!"#".equals(pe.prefix()) && !indirectionNames(pe)) {
                    if (indirection(pe)) {
                        // ${!x} in arithmetic: the indirect value is evaluated: unknown here
                        variableUses.add(new VariableUse(currentCommand, pe.span().text(source), false,
                                false, VariableUse.ARITHMETIC, pe.name()));
                    } else {
                        evaluation(pe.name(), false);
                    }
                }
                // ${x:-SECRET}: the operand's text may be the value evaluated
                for (Word w : pe.operands()) arithmeticParts(w.parts(), false);
            } else if (p instanceof WordPart.CommandSubstitution || p instanceof WordPart.ProcessSubstitution) {
                variableUses.add(new VariableUse(currentCommand, p.span().text(source), false, false,
                        VariableUse.ARITHMETIC, null));
            }
            if (glued && (p instanceof WordPart.ParamExpansion || p instanceof WordPart.CommandSubstitution)) {
                variableUses.add(new VariableUse(currentCommand, "name made with " + p.span().text(source), false,
                        false, VariableUse.ARITHMETIC, null));
            }
        }
        if (text.length() > 0) arithmeticNames(text.toString(), currentCommand, null, null, assigned);
        if (walk) for (String t : literal) storedCode(t);
        // x = 1: the name holds a number from here on (its reads in the same text were counted before)
        for (String n : assigned) {
            clean.add(n);
            value(n, NUMBER);
            if (writesOfFunction != null) writesOfFunction.add(n);
            for (LoopFrame f : loops) f.writes.add(n);
        }
    }

    /** ${!P*}, ${!P@}, ${!a[@]}: names or subscripts, numbers or names that are not evaluated as values. */
    private boolean indirectionNames(WordPart.ParamExpansion pe) {
        return "!".equals(pe.prefix()) && !indirection(pe);
    }

    /** The text of quoted and literal parts, in order, with the expansions between them as parts. */
    private void flatten(List<WordPart> parts, List<Object> out, List<String> literal) {
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

    private static boolean identifierChar(char c) {
        return c == '_' || Character.isLetterOrDigit(c);
    }

    /**
     * The names an arithmetic text of static characters reads, each a {@link VariableUse}: identifiers (Bash
     * Reference Manual §6.5: a variable "referenced by name" is evaluated), not the digits of a number
     * ({@code 0x1f}, {@code 16#ff}, {@code 64#_@}); {@code NAME = ...} assigns NAME without reading it (collected
     * into {@code assigned}, made clean after the text; null to ignore). A name the command set (in
     * {@code cleanThen}, or the current state when null) has its value evaluated in turn.
     */
    private void arithmeticNames(String t, int commandId, String via, java.util.Set<String> cleanThen,
                                 java.util.Set<String> assigned) {
        int n = t.length();
        int i = 0;
        while (i < n) {
            char c = t.charAt(i);
            if (c == '`' || c == '$' && i + 1 < n && t.charAt(i + 1) == '(') {
                // a value holding $(cmd) or `cmd`: bash runs it (storedCode reads the commands) and evaluates its
                // output, which may name any variable
                int end;
                if (c == '`') {
                    end = t.indexOf('`', i + 1);
                } else {
                    int depth = 0;
                    end = -1;
                    for (int k = i + 1; k < n; k++) {
                        if (t.charAt(k) == '(') depth++;
                        else if (t.charAt(k) == ')' && --depth == 0) {
                            end = k;
                            break;
                        }
                    }
                }
                end = end < 0 ? n : end + 1;
                variableUses.add(new VariableUse(commandId, "the output of " + t.substring(i, end), false, false,
                        VariableUse.ARITHMETIC, via));
                i = end;
                continue;
            }
            if (Character.isDigit(c)) {
                while (i < n && (identifierChar(t.charAt(i)) || t.charAt(i) == '#' || t.charAt(i) == '@')) i++;
                continue;
            }
            if (!(c == '_' || Character.isLetter(c)) || i > 0 && t.charAt(i - 1) == '$') {
                i++;
                continue;
            }
            int j = i;
            while (j < n && identifierChar(t.charAt(j))) j++;
            String name = t.substring(i, j);
            int k = j;
            while (k < n && Character.isWhitespace(t.charAt(k))) k++;
            boolean subscripted = k < n && t.charAt(k) == '[';
            boolean plainAssignment = !subscripted && k < n && t.charAt(k) == '='
                    && (k + 1 >= n || t.charAt(k + 1) != '=');
            if (plainAssignment && assigned != null) {
                assigned.add(name);
            } else {
                readArithmetically(name, commandId, via, cleanThen);
            }
            i = j;
        }
    }

    /** One name read arithmetically: a {@link VariableUse}, and its own value evaluated when the command set it. */
    private void readArithmetically(String name, int commandId, String via, java.util.Set<String> cleanThen) {
        boolean set = cleanThen == null ? isClean(name) : cleanThen.contains(name);
        variableUses.add(new VariableUse(commandId, name, true, set, VariableUse.ARITHMETIC, via));
        if (set) {
            pendingEvaluations.add(new Evaluation(commandId, name, false,
                    cleanThen == null ? state() : cleanThen));
        } else if (NameList.of("known-values").contains(name) && !NameList.of("numeric-values").contains(name)) {
            variableUses.add(new VariableUse(commandId, name, false, false, VariableUse.ARITHMETIC, name));
        }
    }

    /** [[ -v NAME ]], test -v NAME, a name operand of read/printf -v/declare: NAME read, its subscript arithmetic. */
    private void testedName(String text) {
        int bracket = text.indexOf('[');
        String base = bracket < 0 ? text : text.substring(0, bracket);
        if (bracket < 0 && base.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            variableUses.add(new VariableUse(currentCommand, base, true, isClean(base), VariableUse.SET_TEST, null));
        }
        subscriptOf(text);
    }

    /** The subscript of a static name operand {@code NAME[SUB]}, evaluated arithmetically (§6.7 "Arrays"). */
    private void subscriptOf(String text) {
        int bracket = text.indexOf('[');
        int close = text.lastIndexOf(']');
        if (bracket < 0 || close <= bracket) return;
        String sub = text.substring(bracket + 1, close);
        if (sub.equals("@") || sub.equals("*")) return;
        arithmeticNames(sub, currentCommand, null, null, null);
    }

    /**
     * After the walk: every variable whose value bash evaluates again, against every value the call gives it. A
     * value evaluated arithmetically names the variables in its text (read in turn, to a fixed point); a value used
     * as a name names one variable (and its subscript's); a value not known here may name any, a variable only
     * known at run time.
     */
    private void resolveEvaluations() {
        java.util.Set<String> done = new java.util.HashSet<>();
        for (int i = 0; i < pendingEvaluations.size(); i++) {
            Evaluation e = pendingEvaluations.get(i);
            if (!done.add(e.commandId() + " " + e.name() + " " + e.indirect() + " " + e.cleanThen())) continue;
            String how = e.indirect() ? VariableUse.INDIRECTION : VariableUse.ARITHMETIC;
            java.util.Set<String> values = unknownValues.contains(e.name()) ? null : staticValues.get(e.name());
            if (values == null) {
                variableUses.add(new VariableUse(e.commandId(), (e.indirect() ? "${!" + e.name() + "}"
                        : "the value of " + e.name()), false, false, how, e.name()));
                continue;
            }
            for (String v : values) {
                if (!e.indirect()) {
                    // readArithmetically adds the evaluations of the clean names it finds: the list grows
                    arithmeticNames(v, e.commandId(), e.name(), e.cleanThen(), null);
                    continue;
                }
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("([A-Za-z_][A-Za-z0-9_]*)(\\[.*\\])?")
                        .matcher(v);
                if (!m.matches()) continue; // a number names a positional parameter; anything else is an error
                String target = m.group(1);
                variableUses.add(new VariableUse(e.commandId(), target, true, e.cleanThen().contains(target),
                        how, e.name()));
                if (m.group(2) != null) {
                    String sub = m.group(2).substring(1, m.group(2).length() - 1);
                    if (!sub.equals("@") && !sub.equals("*")) {
                        arithmeticNames(sub, e.commandId(), e.name(), e.cleanThen(), null);
                    }
                }
            }
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
                testedName(WordValue.of(o.word(), source).value());
            }
            test(u.operand());
        } else if (t instanceof TestExpr.Binary b) {
            if (TestExpr.ARITHMETIC_OPERATORS.contains(b.operator())) {
                // [[ A -eq B ]]: both operands are arithmetic expressions (the test builtin's are integers only)
                arithmeticText(b.left().span());
                arithmeticText(b.right().span());
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
            unmodelled("a test expression " + t.getClass().getSimpleName());
        }
    }

    private void redirections(List<Redirection> list, int commandId) {
        for (Redirection r : list) redirection(r, commandId);
    }

    /** An operand of an arithmetic {@code [[ ]]} operator: a word evaluated arithmetically. */
    private void arithmeticTest(TestExpr t) {
        if (t instanceof TestExpr.Operand o) arithmeticWord(o.word());
        else test(t);
    }

    private void redirection(Redirection r, int commandId) {
        // {NAME}>file, {NAME}<&-: bash assigns the descriptor number to NAME (bash(1) "REDIRECTION").
        if (r.fd() != null && r.fd().startsWith("{") && r.fd().endsWith("}")) {
            String name = r.fd().substring(1, r.fd().length() - 1);
            write(name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : null, "redirection", false, commandId);
            value(name, NUMBER);
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
