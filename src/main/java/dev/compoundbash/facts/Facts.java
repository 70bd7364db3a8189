package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;

/**
 * Every fact extracted from one command, in source order: what goes into the Drools session (with the
 * {@link PermissionRule}s from settings).
 */
public record Facts(List<SubCommand> subCommands, List<Wrapper> wrappers, List<FindAction> findActions,
                    List<Redirect> redirects) {

    /** All facts in one list, sub-commands first. */
    public List<Object> all() {
        List<Object> out = new ArrayList<>(subCommands);
        out.addAll(wrappers);
        out.addAll(findActions);
        out.addAll(redirects);
        return out;
    }

    /** The sub-command with {@code id}, or null. */
    public SubCommand subCommand(int id) {
        for (SubCommand s : subCommands) if (s.getId() == id) return s;
        return null;
    }
}
