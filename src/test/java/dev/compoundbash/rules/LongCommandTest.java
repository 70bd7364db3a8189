package dev.compoundbash.rules;

import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A command over {@link Decider#MAX_COMMAND_CHARS} characters (issue 18, a public report: a 10,000-character chain
 * ending in a denied command ran) is still read: its deny and ask rules deny and ask, within the hook's time limit;
 * nothing in it is approved (it defers, as before). Over {@link Decider#MAX_PARSED_CHARS} it is not read at all.
 */
class LongCommandTest {
    @TempDir
    static Path dir;
    static RuleEngine engine;

    @BeforeAll
    static void load() {
        engine = RuleEngine.load(List.of());
    }

    private static Decider.Verdict decide(String command, List<String> allow, List<String> ask, List<String> deny) {
        return Decider.decide(new Decider.Call(command, dir.toString(), null,
                new PermissionSettings(allow, ask, deny, List.of(), List.of(), List.of()), null), engine);
    }

    @Test
    void aDeniedCommandAtTheEndOfALongChainIsDeniedQuickly() {
        String command = "true && ".repeat(1500) + "rm -rf x";
        assertThat(command.length()).isGreaterThan(Decider.MAX_COMMAND_CHARS);
        decide("true", List.of(), List.of(), List.of("Bash(rm *)")); // warm up
        long t0 = System.nanoTime();
        Decider.Verdict v = decide(command, List.of(), List.of(), List.of("Bash(rm *)"));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(v.outcome()).as(v.reason()).isEqualTo("deny");
        assertThat(ms).as("milliseconds to judge %d characters", command.length()).isLessThan(5_000);
    }

    @Test
    void anAskRuleInALongCommandAsks() {
        Decider.Verdict v = decide("x=1; ".repeat(2500) + "git push origin main", List.of("Bash(git *)"),
                List.of("Bash(git push *)"), List.of());
        assertThat(v.outcome()).as(v.reason()).isEqualTo("ask");
    }

    @Test
    void aLongHarmlessChainStillDefers() {
        Decider.Verdict v = decide("true && ".repeat(1500) + "true", List.of("Bash(true)"), List.of(), List.of());
        assertThat(v.outcome()).as(v.reason()).isEqualTo("defer");
        assertThat(v.reason()).contains("over " + Decider.MAX_COMMAND_CHARS);
    }

    @Test
    void overTheReadingBoundTheCallDefersUnread() {
        Decider.Verdict v = decide("true && ".repeat(Decider.MAX_PARSED_CHARS / 8 + 1) + "rm -rf x", List.of(),
                List.of(), List.of("Bash(rm *)"));
        assertThat(v.outcome()).as(v.reason()).isEqualTo("defer");
        assertThat(v.judgement().facts().subCommands()).isEmpty();
    }
}
