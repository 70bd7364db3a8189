package dev.compoundbash.facts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.compoundbash.shell.Parser;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link Arg#shape()} and {@link SubCommand#getShapeLines()}: what a command may run as when words are only known at
 * run time ({@code \0} any text). The values these stand for were checked under bash 5.2 (the adv-rt2-deny-* corpus
 * cases): each shape must cover every value bash gives the word.
 */
class ArgShapeTest {

    private static SubCommand first(String command) throws Exception {
        Facts f = FactExtractor.extract(Parser.parse(command), new Environment(Path.of("/tmp"), List.of(), "Linux", null));
        return f.subCommands().get(0);
    }

    @ParameterizedTest(name = "[{index}] {0} -> {1}")
    @CsvSource(delimiter = '|', value = {
            "git p$x origin|git p@ origin",
            "git pu\"$@\"sh origin|git pu@sh origin",
            "git $x origin|git@ origin",
            "git \"$x\" origin|git@ origin",
            "git 'a*' b*c|git a* b@c",
            "git pu[s]h|git pu@",
            "git $(echo push) origin|git@ origin",
            "git ~/x|git @/x",
            "\"${a[@]}\" -rf y|@ -rf y",
    })
    void shapes(String command, String expected) throws Exception {
        SubCommand s = first(command);
        assertThat(s.getShapeLines().get(0).replace(Arg.UNKNOWN, '@')).isEqualTo(expected);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @CsvSource(delimiter = '|', value = {
            "git log -1",
            "echo push",
    })
    void knownWordsHaveNoShape(String command) throws Exception {
        assertThat(first(command).getShapeLines()).isEmpty();
    }
}
