package dev.compoundbash.facts;

import dev.compoundbash.shell.ArrayElement;
import dev.compoundbash.shell.Assignment;
import dev.compoundbash.shell.Command;
import dev.compoundbash.shell.Node;
import dev.compoundbash.shell.Parser;
import dev.compoundbash.shell.Span;
import dev.compoundbash.shell.Walker;
import dev.compoundbash.shell.Word;
import dev.compoundbash.shell.WordPart;
import dev.compoundbash.shell.WordValue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pass 2 of the extractor, the variable and shell-state flow: what running the commands the walk
 * ({@link WalkPass}) reaches does to the shell. It follows the walk's forks and joins ({@link WalkPass.Flow}) and
 * keeps
 * <ul>
 *   <li>the variables set on every path to a point to a value not from the environment (a must-set analysis: a
 *       branch that may not run, a subshell, a pipeline element, a loop body that may run no time keep none of
 *       their assignments for what follows), giving each {@link VariableUse} whether the command set it;</li>
 *   <li>every static value any assignment gives a variable, the constants and the static loop words in scope, the
 *       integer attribute, the functions defined and the variables their bodies write;</li>
 *   <li>the variables bash evaluates again (arithmetic, indirection), resolved after the walk
 *       ({@link VariableEvaluation}, {@link VariableUse});</li>
 *   <li>the working directory: the directories a relative path may be taken against after cd, pushd, popd.</li>
 * </ul>
 * Its product for the later passes is {@link #shellState()}: an immutable {@link ShellState} at the point of the
 * walk where it is asked; its facts are {@link VariableWrite}s, {@link VariableUse}s and {@link VariableEvaluation}s.
 * A new kind of shell state (aliases, options, traps) is a field here, a change at the {@link WalkPass.Flow} point
 * where bash changes it, and a component of {@link ShellState} when a later pass reads it.
 *
 * <p>Follows bash(1) "PARAMETERS", "SHELL BUILTIN COMMANDS", the Bash Reference Manual §3.2.4 (lists), §3.2.5
 * (compound commands), §3.7.3 (command execution environment: what a subshell keeps), §6.5 (shell arithmetic) and
 * §6.7 (arrays). It is the state half of mvdan/sh's {@code interp} (the Runner's variables and directory).
 *
 * <p>Not thread-safe: one per extraction.
 */
final class FlowPass implements WalkPass.Flow {
    private final FactSink sink;
    private final WalkPass walk;
    private final PathResolver paths;
    /**
     * The directories a relative path may be taken against at this point of the walk: the start directory, and
     * every directory an earlier cd/pushd may have moved to (kept, since a cd in a subshell or a failed cd leaves
     * the old one); null once a directory change went somewhere only known at run time.
     */
    private List<Path> bases;
    /** A cd, pushd or popd ran earlier in this shell. */
    private boolean directoryChanged;
    /**
     * Variables the command set to values not taken from the environment on every path to this point of the walk
     * (a must-set analysis: a branch that may not run, a subshell, a pipeline element, a loop body that may run no
     * time keep none of their assignments for what follows).
     */
    private Set<String> clean = new HashSet<>();
    /** Every static value any assignment of the call gives a variable (whatever the order), for evaluations. */
    private final Map<String, Set<String>> staticValues = new HashMap<>();
    /** Variables some assignment of the call gives a value not known here (or a number: see NUMBER). */
    private final Set<String> unknownValues = new HashSet<>();
    /** The value recorded for a variable an arithmetic assignment or a descriptor set: a number, named nothing. */
    private static final String NUMBER = "0";

    /** A variable read whose value bash evaluates again: arithmetically, or as a variable name. */
    private record Evaluation(int commandId, String name, boolean indirect, Set<String> cleanThen) {
    }

    private final List<Evaluation> pendingEvaluations = new ArrayList<>();
    /** Variables given the integer attribute anywhere in the call (declare -i): their assignments are arithmetic. */
    private final Set<String> integerNames = new HashSet<>();
    /** A declare -i whose names are only known at run time: every assignment may be arithmetic. */
    private boolean anyInteger;
    /** The loops being walked, innermost last: the states at their continue and break commands. */
    private final java.util.ArrayDeque<LoopFrame> loops = new java.util.ArrayDeque<>();

    /** A loop being walked: the clean sets where a continue or break may leave its body, the names it writes. */
    private static final class LoopFrame {
        final List<Set<String>> exits = new ArrayList<>();
        final Set<String> writes = new HashSet<>();
        /** The state after the condition of a while, until or arithmetic for loop (where it may end). */
        Set<String> condition;
    }

    /** Functions defined so far and the variables their bodies write (null: one only known at run time). */
    private final Map<String, Set<String>> functionWrites = new HashMap<>();

    /** The names of the functions the call defines (for {@link PipelinesAndLists}). */
    Set<String> functionNames() {
        return java.util.Collections.unmodifiableSet(functionWrites.keySet());
    }
    /** Names written by the innermost function body being walked, or null outside one. */
    private Set<String> writesOfFunction;
    /**
     * Variables the command assigned a static value, for deny and ask matching ({@code x=push; git $x}). Replaced,
     * never changed in place: {@link #shellState()} hands it out.
     */
    private Map<String, String> constants = Map.of();
    /** Values of the for-loop variables in scope whose words are all static. Replaced, never changed in place. */
    private Map<String, List<Arg>> loopValues = Map.of();
    /** Variables assigned a value only known at run time (an expansion, read, mapfile, a loop over expansions). */
    private final Set<String> runTimeValues = new HashSet<>();
    /** Source text of every arithmetic context: (( )), $(( )), for (( )), subscripts, [[ -eq ]] operands, let. */
    private final List<String> arithmeticTexts = new ArrayList<>();
    /** Names whose value is used as a variable name (${!name}). */
    private final Set<String> indirected = new HashSet<>();
    /** Every static text part, for values bash may later evaluate as arithmetic ({@code x='PATH=0'}). */
    private final List<String> staticTexts = new ArrayList<>();
    /** The source and span of the last arithmetic text recorded: a text inside it is already recorded. */
    private String lastArithmeticSource;
    private Span lastArithmeticSpan;

    /**
     * @param sink      where the facts go
     * @param walk      the walk whose position (source, command, context) the flow's facts refer to
     * @param paths     resolves a cd's operand
     * @param start     the working directory the call starts in
     */
    FlowPass(FactSink sink, WalkPass walk, PathResolver paths, Path start) {
        this.sink = sink;
        this.walk = walk;
        this.paths = paths;
        this.bases = List.of(start);
    }

    /** {@link #shellState()} as last made; null when a component changed since (every change clears it). */
    private ShellState snapshot;

    /** Sets the directory state (every change of it goes through here, so {@link #snapshot} stays right). */
    private void directories(List<Path> newBases, boolean changed) {
        bases = newBases;
        directoryChanged = changed;
        snapshot = null;
    }

    /** The shell state here: the product the later passes read. */
    ShellState shellState() {
        ShellState s = snapshot;
        if (s == null) snapshot = s = new ShellState(constants, loopValues, bases, directoryChanged);
        return s;
    }

    // ---- constants and loop values: replaced on change, so a ShellState handed out stays as it was -----------

    private void putConstant(String name, String value) {
        Map<String, String> m = new HashMap<>(constants);
        m.put(name, value);
        constants = Collections.unmodifiableMap(m);
        snapshot = null;
    }

    private void removeConstant(String name) {
        if (!constants.containsKey(name)) return;
        Map<String, String> m = new HashMap<>(constants);
        m.remove(name);
        constants = Collections.unmodifiableMap(m);
        snapshot = null;
    }

    private void putLoopValues(String name, List<Arg> words) {
        Map<String, List<Arg>> m = new HashMap<>(loopValues);
        m.put(name, words);
        loopValues = Collections.unmodifiableMap(m);
        snapshot = null;
    }

    private void removeLoopValues(String name) {
        if (!loopValues.containsKey(name)) return;
        Map<String, List<Arg>> m = new HashMap<>(loopValues);
        m.remove(name);
        loopValues = Collections.unmodifiableMap(m);
        snapshot = null;
    }

    private String source() {
        return walk.source();
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
            loopValues = Map.of();
            clean.clear();
            constants = Map.of();
            snapshot = null;
        } else {
            removeLoopValues(name);
            removeConstant(name);
            if (fromEnvironment) clean.remove(name);
            else clean.add(name);
        }
        int id = sink.id();
        sink.variableWrites.add(new VariableWrite(id, name, id, false, runTime, how, commandId));
        if (runTime && name != null) runTimeValues.add(name);
    }

    /** Records a write whose order is not tracked: it counts for every command of the call. */
    private void writeAnywhere(String name, String how) {
        for (VariableWrite w : sink.variableWrites) {
            if (w.isAnywhere() && java.util.Objects.equals(w.getName(), name) && w.getHow().equals(how)) return;
        }
        sink.variableWrites.add(new VariableWrite(sink.id(), name, 0, true, false, how, -1));
    }

    // ---- the must-set analysis of clean variables ------------------------------------------------------------

    /** The clean set, copied: a state of the analysis at one point. */
    private Set<String> state() {
        return new HashSet<>(clean);
    }

    /** A variable the command set itself, on every path here, to a value not from the environment. */
    private boolean isClean(String name) {
        return clean.contains(name);
    }

    private static Set<String> intersect(Set<String> a, Set<String> b) {
        Set<String> out = new HashSet<>(a);
        out.retainAll(b);
        return out;
    }

    @Override
    public void scriptStarts(Node root) {
        integerDeclarations(root);
    }

    @Override
    public Runnable background() {
        Set<String> saved = new HashSet<>(clean);
        return () -> clean = saved;
    }

    @Override
    public Runnable childShell() {
        List<Path> savedBases = bases;
        boolean savedChanged = directoryChanged;
        Set<String> savedClean = state();
        return () -> {
            directories(savedBases, savedChanged);
            clean = savedClean;
        };
    }

    @Override
    public Runnable coprocess() {
        Set<String> saved = state();
        return () -> clean = saved;
    }

    /** A script run by another process ({@code sh -c}): its assignments end with it (a cd's does not, as before). */
    Runnable newProcess() {
        Set<String> saved = state();
        return () -> clean = saved;
    }

    @Override
    public Runnable pipeline() {
        List<Path> savedBases = bases;
        boolean savedChanged = directoryChanged;
        Set<String> savedClean = state();
        return () -> {
            directories(savedBases, savedChanged);
            clean = new HashSet<>(savedClean); // (lastpipe is off in bash -c)
        };
    }

    @Override
    public WalkPass.AndOr andOr() {
        // a command after && starts from a state where the list so far succeeded, after || from one where it
        // failed; the states are kept for each status (what holds on every path).
        return new WalkPass.AndOr() {
            Set<String> succeeded = state();
            Set<String> failed = state();

            @Override
            public void next(boolean and) {
                clean = new HashSet<>(and ? succeeded : failed);
            }

            @Override
            public void ran(boolean and) {
                if (and) {
                    succeeded = state();
                    failed.retainAll(clean);
                } else {
                    failed = state();
                    succeeded.retainAll(clean);
                }
            }

            @Override
            public void end() {
                clean = intersect(succeeded, failed);
            }
        };
    }

    @Override
    public WalkPass.If ifCommand() {
        // What holds after the if is what holds at the end of every path (the last condition's, without an else).
        return new WalkPass.If() {
            Set<String> all;
            Set<String> afterCondition;

            @Override
            public void conditionRan() {
                afterCondition = state();
            }

            @Override
            public void bodyRan() {
                all = all == null ? state() : intersect(all, clean);
                clean = afterCondition;
            }

            @Override
            public void end() {
                clean = all == null ? clean : intersect(all, clean);
            }
        };
    }

    @Override
    public WalkPass.Case caseCommand() {
        // an item ended by ;& or ;;& goes on into the next, whose body then starts from either state
        Set<String> subject = state();
        return new WalkPass.Case() {
            Set<String> all;
            Set<String> previous;

            @Override
            public void item() {
                clean = previous == null ? new HashSet<>(subject) : intersect(subject, previous);
            }

            @Override
            public void itemRan(String terminator) {
                all = all == null ? state() : intersect(all, clean);
                previous = ";&".equals(terminator) || ";;&".equals(terminator) ? state() : null;
            }

            @Override
            public void end(boolean catchAll) {
                clean = all == null ? subject : catchAll ? all : intersect(all, subject);
            }
        };
    }

    @Override
    public void forLoop(Command.For f, boolean bodyChangesDirectory, Runnable body) {
        // for NAME in ...; select NAME in ...: the loop assigns NAME (and keeps the last value after it).
        WordValue var = WordValue.of(f.variable(), source());
        String name = var.isStatic() ? var.text() : null;
        boolean runTime = f.items() == null;
        if (f.items() != null) for (Word w : f.items()) runTime |= !WordValue.of(w, source()).isStatic();
        boolean env = f.items() == null;
        if (f.items() != null) for (Word w : f.items()) env |= fromEnvironment(w);
        Set<String> beforeLoop = state();
        write(name, f.select() ? "select loop" : "for loop", runTime || f.select(), -1, env);
        if (name != null) {
            if (f.items() == null) unknownValues.add(name);
            else for (Word w : f.items()) value(name, w);
        }
        boolean bound = name != null && !runTime && !f.select();
        if (bound) putLoopValues(name, Arg.of(f.items(), source()));
        Set<String> loopVariable = name == null ? Set.of() : Set.of(name);
        loop(beforeLoop, loopVariable, () -> {
            repeated(bodyChangesDirectory, body);
            return null;
        });
        if (bound) removeLoopValues(name);
    }

    @Override
    public void conditionLoop(Runnable pass) {
        loop(state(), Set.of(), () -> {
            pass.run();
            return loops.peekLast().condition;
        });
    }

    @Override
    public void loopCondition() {
        loops.peekLast().condition = state();
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
    private void loop(Set<String> before, Set<String> rewritten, java.util.function.Supplier<Set<String>> pass) {
        Set<String> entry = state();
        int usesMark = sink.variableUses.size();
        int evaluationsMark = pendingEvaluations.size();
        Map<String, Set<String>> functionsBefore = new HashMap<>();
        functionWrites.forEach((k, v) -> functionsBefore.put(k, new HashSet<>(v)));
        LoopFrame frame = new LoopFrame();
        loops.addLast(frame);
        Set<String> exitCondition;
        try {
            exitCondition = pass.get();
        } finally {
            loops.removeLast();
        }
        Set<String> end = state();
        for (Set<String> e : frame.exits) end.retainAll(e);
        Set<String> need = new HashSet<>(entry);
        need.removeAll(rewritten);
        boolean stable = end.containsAll(need) && functionWrites.equals(functionsBefore);
        Set<String> after = new HashSet<>(end);
        after.retainAll(exitCondition != null ? exitCondition : before);
        if (!stable) {
            Set<String> written = new HashSet<>(frame.writes);
            for (Map.Entry<String, Set<String>> f : functionWrites.entrySet()) {
                if (!f.getValue().equals(functionsBefore.get(f.getKey()))) written.addAll(f.getValue());
            }
            boolean any = written.contains(null);
            List<VariableUse> variableUses = sink.variableUses;
            for (int i = usesMark; i < variableUses.size(); i++) {
                VariableUse u = variableUses.get(i);
                if (u.isSetInCommand() && (any || written.contains(u.getName())) && !special(u.getName())) {
                    variableUses.set(i, new VariableUse(u.getCommandId(), u.getName(), u.isNameKnown(), false,
                            u.getHow(), u.getVia()));
                }
            }
            for (int i = evaluationsMark; i < pendingEvaluations.size(); i++) {
                Evaluation e = pendingEvaluations.get(i);
                Set<String> then = any ? new HashSet<>() : new HashSet<>(e.cleanThen());
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

    /**
     * Walks a loop's body: a later pass runs after any directory change in an earlier one, so when the body holds
     * one, relative paths in it are unknown and relative redirections count as after a change.
     */
    @Override
    public void repeated(boolean changesDirectory, Runnable walk) {
        if (!changesDirectory) {
            walk.run();
            return;
        }
        List<Path> savedBases = bases;
        boolean savedChanged = directoryChanged;
        directories(null, true);
        walk.run();
        if (savedBases == null || savedChanged) {
            directories(savedBases, savedChanged);
        }
    }

    /** A continue or break may leave the passes of every enclosing loop here. */
    @Override
    public void loopExit() {
        for (LoopFrame f : loops) f.exits.add(state());
    }

    @Override
    public Runnable functionDefinition(String name, boolean rootChangesDirectory) {
        // A function body runs where the function is called, after any directory change of the call.
        List<Path> savedBases = bases;
        boolean savedChanged = directoryChanged;
        if (rootChangesDirectory) {
            directories(null, true);
        }
        // The body runs where the function is called, after anything: it starts knowing no variable clean,
        // outside every loop, and its writes count at every later call (commandRuns).
        Set<String> savedClean = state();
        Set<String> savedWrites = writesOfFunction;
        List<LoopFrame> savedLoops = new ArrayList<>(loops);
        loops.clear();
        clean = new HashSet<>();
        writesOfFunction = new HashSet<>();
        Set<String> writes = writesOfFunction;
        return () -> {
            writesOfFunction = savedWrites;
            if (savedWrites != null) savedWrites.addAll(writes);
            loops.addAll(savedLoops);
            clean = savedClean;
            functionWrites.merge(name, writes, (a, b) -> {
                Set<String> u = new HashSet<>(a);
                u.addAll(b);
                return u;
            });
            directories(savedBases, savedChanged);
        };
    }

    /**
     * A command runs (one the walk reached, or a payload unwrapping found): at a call of a function defined
     * earlier (or of a name only known at run time), the function's writes happen here.
     */
    void commandRuns(String name, boolean dynamicName) {
        List<Set<String>> called = new ArrayList<>();
        if (dynamicName) called.addAll(functionWrites.values());
        else if (functionWrites.containsKey(name)) called.add(functionWrites.get(name));
        for (Set<String> writes : called) {
            for (String n : writes) {
                if (n == null) clean.clear();
                else clean.remove(n);
                for (LoopFrame f : loops) f.writes.add(n);
                if (writesOfFunction != null) writesOfFunction.add(n);
            }
        }
    }

    @Override
    public void coprocessNamed(String coprocName) {
        String name = coprocName != null ? coprocName : "COPROC";
        for (String n : List.of(name, name + "_PID")) {
            write(n, "coproc", false, -1);
            value(n, NUMBER);
        }
    }

    /** Records a value {@code w} may give {@code name}: its static text, or that it is not known here. */
    private void value(String name, Word w) {
        if (name == null) return;
        WordValue v = w == null ? null : WordValue.of(w, source());
        if (v != null && v.isStatic() && !v.glob() && !v.braceExpansion()) value(name, v.value());
        else unknownValues.add(name);
    }

    private void value(String name, String text) {
        if (name != null) staticValues.computeIfAbsent(name, k -> new HashSet<>()).add(text);
    }

    // ---- assignments ------------------------------------------------------------------------------------------

    @Override
    public void assignmentStarts(Assignment a) {
        if (runTimeAssignment(a)) runTimeValues.add(a.name());
        if (a.index() != null) arithmeticText(a.index().span());
    }

    @Override
    public void assignmentStatement(List<Assignment> assignments) {
        for (Assignment a : assignments) {
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
                WordValue v = WordValue.of(a.value(), source());
                if (v.isStatic() && !v.glob() && !v.braceExpansion()) putConstant(a.name(), v.value());
                else {
                    String e = WordExpansion.evaluate(a.value(), source(), constants);
                    if (e != null) putConstant(a.name(), e);
                }
            }
        }
    }

    /**
     * The variables a script gives the integer attribute anywhere ({@code declare -i x}), found before the walk: an
     * assignment to one is evaluated arithmetically wherever the attribute was given (a loop's later pass).
     */
    private void integerDeclarations(Node root) {
        for (Command.Simple c : Walker.all(root, Command.Simple.class)) {
            if (c.words().isEmpty()) continue;
            // the name first: most commands are no declaration, and their other words need not be read
            Arg name = Arg.of(c.words().get(0), source());
            if (name.dynamic() || !Parser.DECLARATION.contains(name.text())) continue;
            List<Arg> args = Arg.of(c.words(), source());
            if (!declaresInteger(args)) continue;
            for (VariableWrites.Operand o : VariableWrites.nameOperands(args)) {
                String n = VariableWrites.nameOf(o.text());
                if (n != null) integerNames.add(n);
                else anyInteger = true;
            }
        }
    }

    /** True when assignments to {@code name} are evaluated arithmetically (declare -i anywhere in the call). */
    @Override
    public boolean integer(String name) {
        return anyInteger || integerNames.contains(name);
    }

    /** True when an assignment's value is only known at run time. */
    private boolean runTimeAssignment(Assignment a) {
        boolean runTime = a.value() != null && !WordValue.of(a.value(), source()).isStatic();
        if (a.array() != null) for (ArrayElement e : a.array()) runTime |= !WordValue.of(e.value(), source()).isStatic();
        return runTime;
    }

    /**
     * The builtins {@link #builtin} reads: those that assign variables by name ({@link VariableWrites}), the
     * declaration builtins, {@code let}, and {@code test}/{@code [} (whose {@code -v} evaluates a name).
     */
    private static final Set<String> VARIABLE_BUILTINS = Set.of("read", "printf", "wait", "mapfile", "readarray",
            "getopts", "unset", "export", "declare", "typeset", "local", "readonly", "let", "test", "[");

    /** Builtins that read a value at run time into the variables they name (bash(1) SHELL BUILTIN COMMANDS). */
    private static final Set<String> VARIABLE_READERS = Set.of("read", "printf", "getopts", "mapfile", "readarray",
            "wait");

    /**
     * The variables a builtin assigns by name (read, printf -v, getopts, mapfile, wait -p, unset and the
     * declaration builtins; {@link VariableWrites}), as {@link VariableWrite}s in effect for later commands;
     * {@code let}'s arguments as arithmetic; and a name given at run time to a builtin that evaluates names
     * ({@code test -v "a[$x]"}, {@code printf -v "$n"}): bash evaluates a subscript in it, command substitutions
     * included, so it is code only known at run time.
     */
    @Override
    public void builtin(List<Arg> args, int commandId) {
        if (!VARIABLE_BUILTINS.contains(args.get(0).text())) return; // any other command assigns no variable
        List<String> argv = Arg.texts(args);
        String name = argv.get(0);
        List<VariableWrites.Operand> operands = VariableWrites.nameOperands(args);
        List<String> names = VariableWrites.byBuiltin(args, operands);
        boolean declaration = Parser.DECLARATION.contains(name);
        boolean reader = VARIABLE_READERS.contains(name);
        Set<String> runTimeNames = new HashSet<>();
        Set<String> envNames = new HashSet<>();
        if (name.equals("let")) {
            for (int i = 1; i < argv.size(); i++) arithmeticTexts.add(argv.get(i));
        }
        for (VariableWrites.Operand o : operands) {
            if (!args.get(o.index()).dynamic()) continue;
            String text = o.text();
            int eq = declaration ? assignmentEquals(text) : -1;
            String namePart = eq > 0 ? text.substring(0, eq) : text;
            if (namePart.indexOf('$') >= 0 || namePart.indexOf('`') >= 0 || !namePart.matches("[A-Za-z_].*")) {
                sink.runTimeCode(text, walk.contextWith(Context.EVALUATED_NAME));
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
        boolean integerDeclaration = declaration && declaresInteger(args);
        boolean keepsRest = (name.equals("mapfile") || name.equals("readarray"))
                && argv.stream().anyMatch(a -> a.matches("-[A-Za-z]*O.*"));
        for (VariableWrites.Operand o : operands) {
            String text = o.text();
            String n = VariableWrites.nameOf(text);
            if (n == null) {
                write(null, name, true, commandId);
                continue;
            }
            boolean dynamic = args.get(o.index()).dynamic();
            int eq = declaration ? assignmentEquals(text) : -1;
            String namePart = eq > 0 ? text.substring(0, eq) : text;
            if (!dynamic) subscriptOf(namePart); // read 'a[SUB]', printf -v 'a[SUB]', declare 'a[SUB]=1'
            boolean partial = namePart.indexOf('[') >= 0 || namePart.endsWith("+") || declaration && eq < 0
                    || keepsRest;
            boolean unset = name.equals("unset");
            if (integerDeclaration) integerNames.add(n);
            if (declaration && eq > 0) {
                String v = text.substring(eq + 1);
                if (dynamic) {
                    unknownValues.add(n);
                    if (integer(n)) {
                        sink.variableUses.add(new VariableUse(commandId, text, false, false, VariableUse.ARITHMETIC,
                                n));
                    }
                } else if (integer(n)) {
                    // declare -i x=SECRET: the value is evaluated arithmetically
                    arithmeticNames(v, commandId, null, null, null);
                    value(n, NUMBER);
                } else {
                    value(n, v);
                    if (namePart.indexOf('[') < 0 && !namePart.endsWith("+") && !v.startsWith("(")) {
                        putConstant(n, v);
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
                boolean dynamic = args.get(i).dynamic();
                if (dynamic && argv.get(i - 1).equals("-v")) {
                    sink.runTimeCode(argv.get(i), walk.contextWith(Context.EVALUATED_NAME));
                }
                if (!dynamic && (argv.get(i - 1).equals("-v") || argv.get(i - 1).equals("-R"))) {
                    testedName(argv.get(i));
                }
            }
        }
    }

    /**
     * A declaration builtin that gives the integer attribute ({@code declare -i}, {@code local -ri}, ...): an
     * option word before the operands holding {@code i}, or a word only known at run time that may be one.
     */
    private boolean declaresInteger(List<Arg> args) {
        for (int i = 1; i < args.size(); i++) {
            String a = args.get(i).text();
            if (args.get(i).dynamic()) {
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

    @Override
    public void descriptorNamed(String fd, int commandId) {
        String name = fd.substring(1, fd.length() - 1);
        write(name.matches("[A-Za-z_][A-Za-z0-9_]*") ? name : null, "redirection", false, commandId);
        value(name, NUMBER);
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
                        && !NameList.of("known-values").contains(pe.name())) return true;
                for (Word o : pe.operands()) if (fromEnvironment(o)) return true;
            } else if (p instanceof WordPart.DoubleQuoted dq) {
                if (fromEnvironment(dq.parts())) return true;
            }
        }
        return false;
    }

    // ---- the working directory --------------------------------------------------------------------------------

    /** Beyond this many possible directories, relative paths are unknown. */
    private static final int MAX_BASES = 16;

    /**
     * After a command's paths were resolved: for cd/pushd/popd, the directories later relative paths may be taken
     * against.
     *
     * @param sc             the command
     * @param reading        what its program does with its words (null when its name is only known at run time)
     * @param otherDirectory a wrapper runs it in another directory: it moves nothing known here
     */
    void directoryChange(SubCommand sc, ProgramKnowledge.Reading reading, boolean otherDirectory) {
        if (sc.isDynamicName()) return;
        String name = reading.baseName();
        if (!WalkPass.DIRECTORY_CHANGERS.contains(name)) return;
        if (!otherDirectory) directories(bases, true);
        if (otherDirectory || bases == null) return;
        List<ProgramTable.Operand> target = name.equals("popd") ? List.of()
                : reading.directoryOperand();
        if (target.isEmpty() || target.get(0).arg().dynamic() && target.get(0).arg().homeSuffix() == null) {
            directories(null, directoryChanged); // popd, cd -, cd "$d": somewhere only known at run time
            return;
        }
        List<Path> next = new ArrayList<>(bases);
        for (Path b : bases) {
            // every directory it may go to (cd "$d" in for d in a .git: a and .git), not only the worst
            for (PathResolver.Result r : paths.readings(target.get(0).arg(), List.of(b), loopValues)) {
                if (r.path() == null) {
                    directories(null, directoryChanged);
                    return;
                }
                Path d = Path.of(r.path());
                if (!next.contains(d)) next.add(d);
            }
        }
        directories(next.size() > MAX_BASES ? null : List.copyOf(next), directoryChanged);
    }

    // ---- word parts -------------------------------------------------------------------------------------------

    @Override
    public void parameterExpanded(WordPart.ParamExpansion pe) {
        // ${a[1]}: the environment holds scalars only (element 0), so a positive element is the command's own
        boolean ownElement = pe.index() != null && !"!".equals(pe.prefix())
                && WordValue.of(pe.index(), source()).isStatic()
                && WordValue.of(pe.index(), source()).value().matches("0*[1-9][0-9]*");
        sink.variableUses.add(new VariableUse(walk.currentCommand(), pe.name(),
                special(pe.name()) || isClean(pe.name()) || ownElement));
        paramEffects(pe);
        if (WalkPass.indirection(pe, source())) evaluation(pe.name(), true);
    }

    @Override
    public void staticText(String text) {
        staticTexts.add(text);
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
                && pe.operands().get(0).span().text(source()).contains("P")) {
            sink.runTimeCode(pe.span().text(source()), walk.contextWith(Context.PROMPT_EXPANSION));
        } else if (op.equals(":")) {
            for (Word w : pe.operands()) arithmeticText(w.span());
        }
    }

    // ---- variables read arithmetically or by indirection ------------------------------------------------------

    /**
     * A variable whose value bash evaluates again here: arithmetically (its value is an expression, which may name
     * further variables) or, when {@code indirect}, as a variable name. A variable the command set is resolved
     * after the walk against every value the call gives it; a special parameter or a bash variable whose value is
     * not a number may hold any name (set -- SECRET; $(( $1 ))), so it reads a variable only known at run time.
     */
    private void evaluation(String name, boolean indirect) {
        int currentCommand = walk.currentCommand();
        String how = indirect ? VariableUse.INDIRECTION : VariableUse.ARITHMETIC;
        if (special(name)) {
            // $# $? $$ $! are numbers (an indirection through them names a positional parameter)
            if (!"#?$!".contains(name) || name.isEmpty()) {
                sink.variableUses.add(new VariableUse(currentCommand, (indirect ? "${!" : "$((") + name
                        + (indirect ? "}" : "))"), false, false, how, name));
            }
            return;
        }
        if (isClean(name)) {
            pendingEvaluations.add(new Evaluation(currentCommand, name, indirect, state()));
        } else if (NameList.of("known-values").contains(name) && !NameList.of("numeric-values").contains(name)) {
            // OSTYPE=linux-gnu, BASH_REMATCH, REPLY, FUNCNAME: a value that may name other variables
            sink.variableUses.add(new VariableUse(currentCommand, name, false, false, how, name));
        }
        // a variable of the environment: its own read is a VariableUse already
    }

    @Override
    public void arithmeticNames(String text, Set<String> assigned) {
        arithmeticNames(text, walk.currentCommand(), null, null, assigned);
    }

    /**
     * An expansion inside an arithmetic expression: its value is evaluated as part of the text, so a parameter's
     * value is evaluated too, and a command substitution's output may name any variable (or hold a subscript whose
     * command substitutions run).
     */
    @Override
    public void arithmeticValue(WordPart p) {
        int currentCommand = walk.currentCommand();
        if (p instanceof WordPart.ParamExpansion pe) {
            if (!"#".equals(pe.prefix()) && !indirectionNames(pe)) {
                if (WalkPass.indirection(pe, source())) {
                    // ${!x} in arithmetic: the indirect value is evaluated: unknown here
                    sink.variableUses.add(new VariableUse(currentCommand, pe.span().text(source()), false,
                            false, VariableUse.ARITHMETIC, pe.name()));
                } else {
                    evaluation(pe.name(), false);
                }
            }
        } else if (p instanceof WordPart.CommandSubstitution || p instanceof WordPart.ProcessSubstitution) {
            sink.variableUses.add(new VariableUse(currentCommand, p.span().text(source()), false, false,
                    VariableUse.ARITHMETIC, null));
        }
    }

    /** A name glued to an expansion ({@code ${x}ECRET}) is only known at run time. */
    @Override
    public void gluedName(WordPart p) {
        sink.variableUses.add(new VariableUse(walk.currentCommand(), "name made with " + p.span().text(source()),
                false, false, VariableUse.ARITHMETIC, null));
    }

    @Override
    public void arithmeticAssigned(Set<String> assigned) {
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
        return "!".equals(pe.prefix()) && !WalkPass.indirection(pe, source());
    }

    /**
     * The names an arithmetic text of static characters reads, each a {@link VariableUse}: identifiers (Bash
     * Reference Manual §6.5: a variable "referenced by name" is evaluated), not the digits of a number
     * ({@code 0x1f}, {@code 16#ff}, {@code 64#_@}); {@code NAME = ...} assigns NAME without reading it (collected
     * into {@code assigned}, made clean after the text; null to ignore). A name the command set (in
     * {@code cleanThen}, or the current state when null) has its value evaluated in turn.
     */
    private void arithmeticNames(String t, int commandId, String via, Set<String> cleanThen, Set<String> assigned) {
        int n = t.length();
        int i = 0;
        while (i < n) {
            char c = t.charAt(i);
            if (c == '`' || c == '$' && i + 1 < n && t.charAt(i + 1) == '(') {
                // a value holding $(cmd) or `cmd`: bash runs it (stored code reads the commands) and evaluates its
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
                sink.variableUses.add(new VariableUse(commandId, "the output of " + t.substring(i, end), false, false,
                        VariableUse.ARITHMETIC, via));
                i = end;
                continue;
            }
            if (Character.isDigit(c)) {
                while (i < n && (WalkPass.identifierChar(t.charAt(i)) || t.charAt(i) == '#' || t.charAt(i) == '@')) i++;
                continue;
            }
            if (!(c == '_' || Character.isLetter(c)) || i > 0 && t.charAt(i - 1) == '$') {
                i++;
                continue;
            }
            int j = i;
            while (j < n && WalkPass.identifierChar(t.charAt(j))) j++;
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
    private void readArithmetically(String name, int commandId, String via, Set<String> cleanThen) {
        boolean set = cleanThen == null ? isClean(name) : cleanThen.contains(name);
        sink.variableUses.add(new VariableUse(commandId, name, true, set, VariableUse.ARITHMETIC, via));
        if (set) {
            pendingEvaluations.add(new Evaluation(commandId, name, false, cleanThen == null ? state() : cleanThen));
        } else if (NameList.of("known-values").contains(name) && !NameList.of("numeric-values").contains(name)) {
            sink.variableUses.add(new VariableUse(commandId, name, false, false, VariableUse.ARITHMETIC, name));
        }
    }

    /** [[ -v NAME ]], test -v NAME, a name operand of read/printf -v/declare: NAME read, its subscript arithmetic. */
    @Override
    public void testedName(String text) {
        int bracket = text.indexOf('[');
        String base = bracket < 0 ? text : text.substring(0, bracket);
        if (bracket < 0 && base.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            sink.variableUses.add(new VariableUse(walk.currentCommand(), base, true, isClean(base),
                    VariableUse.SET_TEST, null));
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
        arithmeticNames(sub, walk.currentCommand(), null, null, null);
    }

    /**
     * Records the text of an arithmetic context once: nested contexts ({@code $(( $((x)) ))}) lie inside the outer
     * one's text, so recording them again would make the total text quadratic in the nesting depth.
     */
    @Override
    public void arithmeticText(Span span) {
        String source = source();
        if (lastArithmeticSource == source && lastArithmeticSpan != null && span.start() >= lastArithmeticSpan.start()
                && span.end() <= lastArithmeticSpan.end()) {
            return;
        }
        lastArithmeticSource = source;
        lastArithmeticSpan = span;
        arithmeticTexts.add(span.text(source));
    }

    // ---- after the walk ---------------------------------------------------------------------------------------

    /**
     * After the walk: what bash evaluates later from values. Arithmetic assignments anywhere, and static text that
     * an arithmetic evaluation of a variable could run as an assignment ({@code x='PATH=0'; echo $((x))}), are
     * writes in effect for every sub-command; every variable an arithmetic text references or an indirection names
     * is a {@link VariableEvaluation} (the rules join it with a write of a value only known at run time: an array
     * subscript in such a value runs its command substitutions). (Where a value is evaluated as code, the commands
     * inside static text are the unwrapping's: {@link UnwrapPass#finish()}.)
     */
    void finish() {
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
                    if (runTimeValues.contains(n)) sink.evaluations.add(new VariableEvaluation(n, "arithmetic"));
                }
            }
            for (String n : indirected) {
                if (runTimeValues.contains(n)) sink.evaluations.add(new VariableEvaluation(n, "indirection"));
            }
        }
    }

    /**
     * After the walk: every variable whose value bash evaluates again, against every value the call gives it. A
     * value evaluated arithmetically names the variables in its text (read in turn, to a fixed point); a value used
     * as a name names one variable (and its subscript's); a value not known here may name any, a variable only
     * known at run time.
     */
    private void resolveEvaluations() {
        Set<String> done = new HashSet<>();
        for (int i = 0; i < pendingEvaluations.size(); i++) {
            Evaluation e = pendingEvaluations.get(i);
            if (!done.add(e.commandId() + " " + e.name() + " " + e.indirect() + " " + e.cleanThen())) continue;
            String how = e.indirect() ? VariableUse.INDIRECTION : VariableUse.ARITHMETIC;
            Set<String> values = unknownValues.contains(e.name()) ? null : staticValues.get(e.name());
            if (values == null) {
                sink.variableUses.add(new VariableUse(e.commandId(), (e.indirect() ? "${!" + e.name() + "}"
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
                sink.variableUses.add(new VariableUse(e.commandId(), target, true, e.cleanThen().contains(target),
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
}
