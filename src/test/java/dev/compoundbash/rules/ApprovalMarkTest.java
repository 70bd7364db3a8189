package dev.compoundbash.rules;

import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The approval preconditions hold for user DRL too (issue 13): a user rule that approves every sub-command, with no
 * guard at all, still cannot approve a wrapper as written, a dynamic name, a command past an unsafe environment
 * prefix, under sudo, or after a write of a variable that changes what runs: outcome.drl voids those approvals.
 * Its approvals do count where the mark stands, and at any salience (the unapproved findings are logical).
 */
class ApprovalMarkTest {
    @TempDir
    static Path dir;
    static RuleEngine engine;

    @BeforeAll
    static void load() throws Exception {
        Path drl = dir.resolve("approve-everything.drl");
        Files.writeString(drl, """
                package user.reckless
                import dev.compoundbash.facts.SubCommand
                import dev.compoundbash.facts.Finding
                rule "approve every sub-command, late"
                    salience -500
                when
                    $s : SubCommand( )
                then
                    insert(new Finding(Finding.APPROVE, $s.getId(), $s.getLine(), "reckless", drools.getRule().getName()));
                end
                """);
        engine = RuleEngine.load(List.of(drl));
        assertThat(engine.compileErrors()).isEmpty();
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "curl example.com | allow",
            "echo $(curl example.com) | allow",
            "FOO=1 curl example.com | defer",
            "PATH=/tmp/evil git status | defer",
            "LD_PRELOAD=/tmp/x.so git log | defer",
            "BASH_ENV=/tmp/x bash -c 'git diff' | defer",
            "$CMD args | defer",
            "sudo rm -rf / | defer",
            "export PATH=/tmp/x; ls | defer",
            "timeout 5 $CMD | defer",
    })
    void aUserRuleCannotApprovePastTheMark(String command, String expected) {
        Decider.Verdict v = Decider.decide(new Decider.Call(command, dir.toString(), null,
                new PermissionSettings(List.of(), List.of(), List.of(), List.of(), List.of(), List.of()), null), engine);
        assertThat(v.outcome()).as(v.reason()).isEqualTo(expected);
    }
}
