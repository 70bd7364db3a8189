package dev.compoundbash.facts;

import dev.compoundbash.shell.Parser;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The flow hands the later passes the shell state as it is where each command runs ({@link ShellState}): a value
 * handed out for one command keeps what held there, and a change the walk meets later shows in the next command's
 * state only (docs/EXTRACTOR.md). The values follow bash 5.2: an assignment holds for the commands after it, a for
 * loop's variable holds its words inside the loop, a cd in a subshell ends with it.
 */
class ShellStateTest {
    private static final Path CWD = Path.of("/tmp");

    private static Facts facts(String command) throws Exception {
        return FactExtractor.extract(Parser.parse(command), new Environment(CWD, List.of(), "Linux", null));
    }

    private static SubCommand command(Facts f, int index) {
        return f.subCommands().get(index);
    }

    @Test
    void eachCommandReadsTheConstantsThatHoldWhereItRuns() throws Exception {
        Facts f = facts("x=push; git $x origin; x=pull; git $x origin; unset x; git $x origin");
        assertThat(command(f, 0).getMatchLines()).contains("git push origin").doesNotContain("git pull origin");
        assertThat(command(f, 1).getMatchLines()).contains("git pull origin").doesNotContain("git push origin");
        assertThat(command(f, 3).getMatchLines()).doesNotContain("git push origin", "git pull origin");
    }

    @Test
    void loopWordsHoldInsideTheLoopOnly() throws Exception {
        Facts f = facts("for x in push pull; do git $x; done; git $x");
        assertThat(command(f, 0).getMatchLines()).contains("git push", "git pull");
        assertThat(command(f, 1).getMatchLines()).doesNotContain("git push", "git pull");
    }

    @Test
    void aDirectoryChangeInASubshellEndsWithIt() throws Exception {
        Facts f = facts("(cd /etc) && echo a > out.txt; cd /etc; echo b > out.txt");
        List<Redirect> writes = f.redirects().stream().filter(Redirect::isOutput).toList();
        assertThat(writes).hasSize(2);
        assertThat(writes.get(0).isAfterDirectoryChange()).isFalse();
        assertThat(writes.get(1).isAfterDirectoryChange()).isTrue();
    }

    @Test
    void aPayloadReadsTheStateWhereItsWrapperRuns() throws Exception {
        Facts f = facts("x=push; timeout 5 git $x; x=pull; timeout 5 git $x");
        List<SubCommand> payloads = f.subCommands().stream().filter(s -> s.getWrapperId() != -1).toList();
        assertThat(payloads).hasSize(2);
        assertThat(payloads.get(0).getMatchLines()).contains("git push").doesNotContain("git pull");
        assertThat(payloads.get(1).getMatchLines()).contains("git pull").doesNotContain("git push");
    }
}
