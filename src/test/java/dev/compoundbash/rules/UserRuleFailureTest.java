package dev.compoundbash.rules;

import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A user rule that fails at run time (throws, or never stops firing) must not drop the built-in deny rules nor
 * defer the call (issue 14): the built-in rules are evaluated alone and the call asks, naming the failure; a deny
 * rule still denies. Bounded in time: {@link RuleEngine#MAX_FIRINGS} firings.
 */
class UserRuleFailureTest {
    @TempDir
    Path dir;

    Decider.Verdict decide(RuleEngine engine, String command, List<String> deny) {
        return Decider.decide(new Decider.Call(command, dir.toString(), null,
                new PermissionSettings(List.of(), List.of(), deny, List.of(), List.of(), List.of()), null), engine);
    }

    RuleEngine engine(String drl) throws Exception {
        Path f = dir.resolve("mine.drl");
        Files.writeString(f, drl);
        RuleEngine e = RuleEngine.load(List.of(f));
        assertThat(e.compileErrors()).isEmpty();
        return e;
    }

    @Test
    void aRuleThatThrowsAsksAndKeepsDenyRules() throws Exception {
        RuleEngine e = engine("""
                package user.broken
                import dev.compoundbash.facts.SubCommand
                rule "throws"
                when
                    $s : SubCommand( )
                then
                    throw new IllegalStateException("boom in " + $s.getName());
                end
                """);
        Decider.Verdict ls = decide(e, "ls", List.of());
        assertThat(ls.outcome()).isEqualTo("ask");
        assertThat(ls.reason()).contains("a user rule failed").contains("boom in ls");
        assertThat(ls.rule()).isEqualTo("an ask finding asks");
        Decider.Verdict rm = decide(e, "rm -rf x", List.of("Bash(rm *)"));
        assertThat(rm.outcome()).isEqualTo("deny");
    }

    @Test
    void aRuleThatNeverStopsAsks() throws Exception {
        RuleEngine e = engine("""
                package user.loop
                import dev.compoundbash.facts.SubCommand
                declare Tick
                    n : int
                end
                rule "start"
                when
                    SubCommand( )
                then
                    insert(new Tick(0));
                end
                rule "forever"
                when
                    $t : Tick( n >= 0 )
                then
                    modify($t) { setN($t.getN() + 1) };
                end
                """);
        long t0 = System.nanoTime();
        Decider.Verdict v = decide(e, "ls", List.of());
        assertThat(v.outcome()).isEqualTo("ask");
        assertThat(v.reason()).contains("did not stop");
        assertThat((System.nanoTime() - t0) / 1_000_000).isLessThan(RuleEngine.MAX_EVALUATION_MILLIS * 4);
    }
}
