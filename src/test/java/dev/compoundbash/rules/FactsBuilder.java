package dev.compoundbash.rules;

import dev.compoundbash.facts.Facts;
import dev.compoundbash.facts.FindAction;
import dev.compoundbash.facts.PermissionRule;
import dev.compoundbash.facts.Redirect;
import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.facts.Wrapper;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Builds facts by hand, so each DRL concern can be tested without the parser. */
final class FactsBuilder {
    final List<SubCommand> subCommands = new ArrayList<>();
    final List<Wrapper> wrappers = new ArrayList<>();
    final List<FindAction> findActions = new ArrayList<>();
    final List<Redirect> redirects = new ArrayList<>();
    final List<PermissionRule> rules = new ArrayList<>();
    final List<dev.compoundbash.facts.VariableWrite> writes = new ArrayList<>();
    int nextId = 1;

    int top(String line) {
        return add(line, true, "command", -1, false, false);
    }

    int nested(String line) {
        return add(line, false, "command", -1, false, false);
    }

    int dynamic(String line, boolean top) {
        return add(line, top, "command", -1, false, true);
    }

    int add(String line, boolean top, String role, int wrapperId, boolean appended, boolean dynamicName) {
        int id = nextId++;
        subCommands.add(new SubCommand(id, Arrays.asList(line.split(" ")), line, dynamicName, false, top,
                top ? List.of() : List.of("subshell"), role, wrapperId, appended, List.of()));
        return id;
    }

    /** A wrapper as written plus one payload; returns the payload id. */
    int wrapped(String wrapperLine, String payloadLine, String kind, boolean appends, boolean top) {
        int wid = add(wrapperLine, top, "wrapper", -1, false, false);
        int wrapperFact = nextId++;
        int pid = payloadLine == null ? -1 : add(payloadLine, top, "payload", wrapperFact, appends, false);
        wrappers.add(new Wrapper(wrapperFact, kind, wid, pid, appends, false, true));
        return pid;
    }

    void redirect(String target, boolean dynamic, boolean inside, String prot, boolean relative) {
        redirect(target, dynamic, inside, prot, relative, false);
    }

    void redirect(String target, boolean dynamic, boolean inside, String prot, boolean relative, boolean afterCd) {
        redirects.add(new Redirect(nextId++, -1, null, ">", target, true, dynamic, false, false, relative,
                dynamic ? null : "/x/" + target, inside, prot, false, afterCd));
    }

    FactsBuilder allow(String... patterns) {
        for (String p : patterns) rules.add(new PermissionRule("allow", p, "Bash(" + p + ")"));
        return this;
    }

    FactsBuilder ask(String... patterns) {
        for (String p : patterns) rules.add(new PermissionRule("ask", p, "Bash(" + p + ")"));
        return this;
    }

    FactsBuilder deny(String... patterns) {
        for (String p : patterns) rules.add(new PermissionRule("deny", p, "Bash(" + p + ")"));
        return this;
    }

    Facts facts() {
        return new Facts(subCommands, wrappers, findActions, redirects, writes, List.of(), List.of());
    }
}
