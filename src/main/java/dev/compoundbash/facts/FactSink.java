package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The facts one extraction made so far, in the order the passes made them, and the ids they carry: one shared,
 * append-only store the passes write into ({@link WalkPass}, {@link FlowPass}, {@link UnwrapPass},
 * {@link PathPass}). Ids come from one counter, so a fact's id says when it was made. A pass appends its own facts
 * and reads no other pass's facts from here (it is handed what it reads); only {@link FlowPass} changes facts it
 * made itself (the variable reads of a loop whose later passes read other values).
 *
 * <p>Not thread-safe: one per extraction.
 */
final class FactSink {
    private int nextId = 1;
    final List<SubCommand> subCommands = new ArrayList<>();
    final List<Wrapper> wrappers = new ArrayList<>();
    final List<FindAction> findActions = new ArrayList<>();
    final List<Redirect> redirects = new ArrayList<>();
    final List<VariableWrite> variableWrites = new ArrayList<>();
    final List<RunTimeCode> runTimeCode = new ArrayList<>();
    final Set<VariableEvaluation> evaluations = new LinkedHashSet<>();
    final List<CallProblem> problems = new ArrayList<>();
    final List<PathOperand> pathOperands = new ArrayList<>();
    /** The words the commands' program schemas do not list. */
    final List<UnknownWord> unknownWords = new ArrayList<>();
    /** Every variable read, in walk order (a loop's may be marked not set in the command afterwards). */
    final List<VariableUse> variableUses = new ArrayList<>();
    /** The sub-command id each simple command became, as written (for {@link PipelinesAndLists}). */
    final java.util.Map<dev.compoundbash.shell.Command.Simple, Integer> asWritten = new java.util.IdentityHashMap<>();
    /** Every pipeline and list the walk met, in walk order (for {@link PipelinesAndLists}). */
    final List<PipelinesAndLists.Met> met = new ArrayList<>();

    /** The next fact id (ids start at 1 and only grow). */
    int id() {
        return nextId++;
    }

    /** Records a construct the extractor does not model: nothing in the command is approved (closed world). */
    void unmodelled(String what) {
        problems.add(new CallProblem(CallProblem.UNMODELLED, what));
    }

    /** Records a shell-state change the extractor does not follow ({@link CallProblem#SHELL_STATE}). */
    void shellState(String what) {
        for (CallProblem p : problems) if (p.getKind().equals(CallProblem.SHELL_STATE) && p.getMessage().equals(what)) return;
        problems.add(new CallProblem(CallProblem.SHELL_STATE, what));
    }

    /**
     * Text bash evaluates as code at run time whose commands cannot be read here ({@code ${x@P}}, a name built at
     * run time): a {@link RunTimeCode} fact.
     *
     * @param text    the text as written
     * @param context where it stands, outermost first, its last label saying how it is evaluated
     */
    void runTimeCode(String text, List<String> context) {
        runTimeCode.add(new RunTimeCode(id(), text, context));
    }

    /** True when the command evaluates a value as code: some {@link RunTimeCode} was made. */
    boolean evaluatesValues() {
        return !runTimeCode.isEmpty();
    }

    /**
     * The facts made, in order, with one {@link JoinedCommands} per pipeline and list met.
     *
     * @param functions the names of the functions the call defines
     */
    Facts facts(Set<String> functions) {
        java.util.Map<Integer, SubCommand> byId = new java.util.HashMap<>();
        for (SubCommand s : subCommands) byId.put(s.getId(), s);
        java.util.Map<dev.compoundbash.shell.Command.Simple, SubCommand> written = new java.util.IdentityHashMap<>();
        asWritten.forEach((c, id) -> {
            SubCommand s = byId.get(id);
            if (s != null) written.put(c, s);
        });
        List<JoinedCommands> joined = new PipelinesAndLists(written, subCommands, wrappers, functions)
                .facts(met, nextId);
        nextId += joined.size();
        return new Facts(List.copyOf(subCommands), List.copyOf(wrappers), List.copyOf(findActions),
                List.copyOf(redirects), List.copyOf(variableWrites), List.copyOf(evaluations),
                List.copyOf(runTimeCode), List.copyOf(pathOperands),
                List.copyOf(new LinkedHashSet<>(variableUses)), joined, List.copyOf(unknownWords));
    }
}
