package dev.compoundbash.shell;

import dev.compoundbash.facts.Environment;
import dev.compoundbash.facts.FactExtractor;
import dev.compoundbash.facts.SubCommand;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Backtracking from {@code $((} (arithmetic) to {@code $(} (command substitution), Bash Reference Manual §3.5.4 and
 * §3.5.5, with the memo of failed nested lists (issue 8 fuzzing found unbalanced nested {@code $((} quadratic; its
 * timing is in bench/RESULTS.md). These hold the parses the memo must not change.
 */
class NestedBacktrackTest {
    private static String nest(String open, String close, int n, int closed, String inner) {
        return open.repeat(n) + inner + close.repeat(closed);
    }

    private static List<List<String>> commands(String src) throws ParseException {
        Script s = Parser.parse(src);
        return FactExtractor.extract(s, Environment.of(Path.of("/tmp"), List.of(), null)).subCommands().stream()
                .map(SubCommand::getArgv).toList();
    }

    @Test
    void balancedNestedArithmeticParsesAndRunsNothing() throws ParseException {
        assertThat(commands("echo " + nest("$((", "))", 400, 400, "1"))).containsExactly(List.of("echo",
                nest("$((", "))", 400, 400, "1")));
    }

    @Test
    void unbalancedNestedArithmeticIsAParseError() {
        for (int n : new int[]{1, 2, 50, 300, 2_000}) {
            for (int closed : new int[]{0, n / 2}) {
                if (closed == n) continue;
                assertThatThrownBy(() -> Parser.parse(nest("$((", "))", n, closed, "ls")))
                        .as(n + "/" + closed).isInstanceOf(ParseException.class);
            }
        }
    }

    @Test
    void arithmeticThatDoesNotCloseIsACommandSubstitutionWithASubshell() throws ParseException {
        // bash -c 'echo $((echo hi) )' prints hi
        assertThat(commands("echo $((curl x) )")).contains(List.of("curl", "x"));
        assertThat(commands("echo $((curl x) ) $((ls) )")).contains(List.of("curl", "x"), List.of("ls"));
    }

    @Test
    void substitutionInsideArithmeticStillRuns() throws ParseException {
        assertThat(commands("echo $(( $(curl x) + 1 ))")).contains(List.of("curl", "x"));
        assertThat(commands("echo $(( $(( $(curl x) )) ))")).contains(List.of("curl", "x"));
    }

    @Test
    void aFailedInnerListIsStillFoundAfterAnOuterFallback() throws ParseException {
        // The inner $( (curl x) ) fails as arithmetic inside the outer attempt, then parses as a substitution.
        assertThat(commands("echo $(( $((curl x) ) ))")).contains(List.of("curl", "x"));
        assertThat(commands("echo $((echo $((curl x) )) )")).contains(List.of("curl", "x"));
    }
}
