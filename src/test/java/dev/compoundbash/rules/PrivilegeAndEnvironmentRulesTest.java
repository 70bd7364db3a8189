package dev.compoundbash.rules;

import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.facts.Wrapper;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The DRL for issue 6 driven with hand-built facts: sudo/doas approval (wrappers.drl), eval's own rule, command
 * names as paths and environment prefixes (patterns.drl, tiers.drl).
 */
class PrivilegeAndEnvironmentRulesTest {
    static RuleEngine engine;

    @BeforeAll
    static void load() {
        engine = RuleEngine.load(List.of());
    }

    static SubCommand command(int id, String line, String role, int wrapperId, List<String> prefix, int privilegeId,
                              List<String> unused) {
        List<String> names = prefix.stream().map(w -> w.substring(0, w.indexOf('='))).toList();
        return new SubCommand(id, Arrays.asList(line.split(" ")).stream().map(dev.compoundbash.facts.Arg::literal)
                .toList(), line, false, false, true, List.of(), role, wrapperId, false, names, prefix, privilegeId);
    }

    /** {@code sudo LINE}: the sudo wrapper (id 1), its Wrapper (id 2) and the payload (id 3). */
    static FactsBuilder sudo(String payload) {
        FactsBuilder b = new FactsBuilder();
        b.subCommands.add(command(1, "sudo " + payload, "wrapper", -1, List.of(), -1, List.of()));
        b.wrappers.add(new Wrapper(2, "sudo", 1, 3, false, false, true, true, false, false));
        b.subCommands.add(command(3, payload, "payload", 2, List.of(), 1, List.of()));
        b.nextId = 4;
        return b;
    }

    static String outcome(FactsBuilder b) {
        return engine.evaluate(b.facts(), b.rules).decision().getOutcome();
    }

    @Test
    void anAllowRuleForThePayloadNeverApprovesItUnderSudo() {
        assertThat(outcome(sudo("git status").allow("git status"))).isEqualTo("defer");
        assertThat(outcome(sudo("ls"))).isEqualTo("defer");
    }

    @Test
    void aRuleForSudoAsWrittenApprovesItAndWhatItRuns() {
        assertThat(outcome(sudo("git status").allow("sudo git *"))).isEqualTo("allow");
        assertThat(outcome(sudo("git push").allow("sudo git status"))).isEqualTo("defer");
    }

    @Test
    void denyAndAskReachUnderSudo() {
        assertThat(outcome(sudo("rm -rf /").allow("sudo *").deny("rm -rf *"))).isEqualTo("deny");
        assertThat(outcome(sudo("rm x").allow("sudo *").ask("rm *"))).isEqualTo("ask");
    }

    @Test
    void sudoWithAPayloadThatCannotBeReadIsNotApprovedAsWritten() {
        FactsBuilder b = new FactsBuilder();
        b.subCommands.add(command(1, "sudo --frob rm", "wrapper", -1, List.of(), -1, List.of()));
        b.wrappers.add(new Wrapper(2, "sudo", 1, -1, false, false, false, true, false, false));
        assertThat(outcome(b.allow("sudo *"))).isEqualTo("defer");
    }

    @Test
    void evalNeedsItsOwnRule() {
        FactsBuilder b = new FactsBuilder();
        b.subCommands.add(command(1, "eval ls", "wrapper", -1, List.of(), -1, List.of()));
        b.wrappers.add(new Wrapper(2, "eval", 1, 3, false, false, true, false, true, false));
        b.subCommands.add(command(3, "ls", "payload", 2, List.of(), -1, List.of()));
        assertThat(outcome(b)).isEqualTo("defer");
        assertThat(outcome(b.allow("eval *"))).isEqualTo("allow");
    }

    @Test
    void pathsReachDenyAndAskButNotAllow() {
        FactsBuilder b = new FactsBuilder();
        b.top("/bin/rm -rf x");
        assertThat(outcome(b.deny("rm -rf *"))).isEqualTo("deny");
        FactsBuilder a = new FactsBuilder();
        a.top("/usr/bin/git status");
        assertThat(outcome(a.allow("git status"))).isEqualTo("defer");
        assertThat(outcome(a.allow("/usr/bin/git status"))).isEqualTo("allow");
    }

    @Test
    void prefixesPastWhichAnAllowRuleApproves() {
        FactsBuilder safe = new FactsBuilder();
        safe.subCommands.add(command(1, "make test", "command", -1, List.of("LANG=C", "LC_ALL=C"), -1, List.of()));
        assertThat(outcome(safe.allow("make test"))).isEqualTo("allow");
        FactsBuilder unsafe = new FactsBuilder();
        unsafe.subCommands.add(command(1, "make test", "command", -1, List.of("PATH=/tmp"), -1, List.of()));
        assertThat(outcome(unsafe.allow("make test"))).isEqualTo("defer");
        assertThat(outcome(unsafe.allow("PATH=/tmp make test"))).isEqualTo("allow");
        FactsBuilder denied = new FactsBuilder();
        denied.subCommands.add(command(1, "rm -rf x", "command", -1, List.of("FOO=1"), -1, List.of()));
        assertThat(outcome(denied.deny("rm -rf *"))).isEqualTo("deny");
    }

    @Test
    void aStatementSettingPathKeepsLaterCommandsFromApproval() {
        FactsBuilder b = new FactsBuilder();
        b.subCommands.add(command(1, "ls", "command", -1, List.of(), -1, List.of()));
        b.writes.add(new dev.compoundbash.facts.VariableWrite(10, "x", 0, false, false, "assignment", -1));
        b.writes.add(new dev.compoundbash.facts.VariableWrite(11, "PATH", 0, false, false, "assignment", -1));
        assertThat(outcome(b)).isEqualTo("defer");
        FactsBuilder after = new FactsBuilder();
        after.subCommands.add(command(1, "ls", "command", -1, List.of(), -1, List.of()));
        after.writes.add(new dev.compoundbash.facts.VariableWrite(10, "PATH", 5, false, false, "assignment", -1));
        assertThat(outcome(after)).isEqualTo("allow");
        FactsBuilder unknown = new FactsBuilder();
        unknown.subCommands.add(command(1, "ls", "command", -1, List.of(), -1, List.of()));
        unknown.writes.add(new dev.compoundbash.facts.VariableWrite(10, null, 0, true, false, "arithmetic", -1));
        assertThat(outcome(unknown)).isEqualTo("defer");
        FactsBuilder ordinary = new FactsBuilder();
        ordinary.subCommands.add(command(1, "ls", "command", -1, List.of(), -1, List.of()));
        ordinary.writes.add(new dev.compoundbash.facts.VariableWrite(10, "x", 0, false, false, "assignment", -1));
        assertThat(outcome(ordinary)).isEqualTo("allow");
    }
}
