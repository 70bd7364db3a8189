package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;

/**
 * Every fact extracted from one command, in source order: what goes into the Drools session (with the
 * {@link PermissionRule}s from settings, the {@link NameList}s and the call's context).
 *
 * @param subCommands     every command bash could run
 * @param wrappers        links from wrappers to their payloads
 * @param findActions     find's acting primaries
 * @param redirects       every redirection, classified
 * @param variableWrites  every shell variable the command sets
 * @param evaluations     variables whose values bash evaluates as arithmetic or as names
 * @param runTimeCode     code evaluated at run time that cannot be read
 * @param pathOperands    the words commands open as files, resolved against the working directories
 * @param variableUses    the variables commands expand
 * @param joinedCommands  every pipeline and list, as the text a rule across control operators is matched against
 * @param unknownWords    the words commands' program schemas do not list
 */
public record Facts(List<SubCommand> subCommands, List<Wrapper> wrappers, List<FindAction> findActions,
                    List<Redirect> redirects, List<VariableWrite> variableWrites,
                    List<VariableEvaluation> evaluations, List<RunTimeCode> runTimeCode,
                    List<PathOperand> pathOperands, List<VariableUse> variableUses,
                    List<JoinedCommands> joinedCommands, List<UnknownWord> unknownWords) {

    /** Facts without unknown words. */
    public Facts(List<SubCommand> subCommands, List<Wrapper> wrappers, List<FindAction> findActions,
                 List<Redirect> redirects, List<VariableWrite> variableWrites, List<VariableEvaluation> evaluations,
                 List<RunTimeCode> runTimeCode, List<PathOperand> pathOperands, List<VariableUse> variableUses,
                 List<JoinedCommands> joinedCommands) {
        this(subCommands, wrappers, findActions, redirects, variableWrites, evaluations, runTimeCode, pathOperands,
                variableUses, joinedCommands, List.of());
    }

    /** Facts without joined commands. */
    public Facts(List<SubCommand> subCommands, List<Wrapper> wrappers, List<FindAction> findActions,
                 List<Redirect> redirects, List<VariableWrite> variableWrites, List<VariableEvaluation> evaluations,
                 List<RunTimeCode> runTimeCode, List<PathOperand> pathOperands, List<VariableUse> variableUses) {
        this(subCommands, wrappers, findActions, redirects, variableWrites, evaluations, runTimeCode, pathOperands,
                variableUses, List.of());
    }

    /** Facts of commands, wrappers, find actions and redirects only (tests that build facts by hand). */
    public Facts(List<SubCommand> subCommands, List<Wrapper> wrappers, List<FindAction> findActions,
                 List<Redirect> redirects) {
        this(subCommands, wrappers, findActions, redirects, List.of(), List.of(), List.of(), List.of(), List.of());
    }

    /** Facts without path operands. */
    public Facts(List<SubCommand> subCommands, List<Wrapper> wrappers, List<FindAction> findActions,
                 List<Redirect> redirects, List<VariableWrite> variableWrites, List<VariableEvaluation> evaluations,
                 List<RunTimeCode> runTimeCode) {
        this(subCommands, wrappers, findActions, redirects, variableWrites, evaluations, runTimeCode, List.of(),
                List.of());
    }

    /** No facts: a call whose command was not read. */
    public static Facts none() {
        return new Facts(List.of(), List.of(), List.of(), List.of());
    }

    /** All facts in one list, sub-commands first. */
    public List<Object> all() {
        List<Object> out = new ArrayList<>(subCommands);
        out.addAll(wrappers);
        out.addAll(findActions);
        out.addAll(redirects);
        out.addAll(variableWrites);
        out.addAll(evaluations);
        out.addAll(runTimeCode);
        out.addAll(pathOperands);
        out.addAll(variableUses);
        out.addAll(joinedCommands);
        out.addAll(unknownWords);
        return out;
    }

    /** The sub-command with {@code id}, or null. */
    public SubCommand subCommand(int id) {
        for (SubCommand s : subCommands) if (s.getId() == id) return s;
        return null;
    }
}
