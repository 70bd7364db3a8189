package dev.compoundbash.shell;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link BraceExpansion} against bash 5.2: each expected list is what {@code printf '[%s]' WORD} printed under
 * {@code bash -c} (Bash Reference Manual §3.5.1, braces.c). The word oracle ({@code WordOracleTest}) checks generated
 * words the same way; these are the fixed cases, runnable without a sandbox.
 */
class BraceExpansionTest {

    static Stream<Arguments> words() {
        return Stream.of(
                Arguments.of("{a,b}", List.of("a", "b")),
                Arguments.of("'{a,b}'", List.of("{a,b}")),
                Arguments.of("\"{a,b}\"", List.of("{a,b}")),
                Arguments.of("\\{a,b}", List.of("{a,b}")),
                Arguments.of("{a\\,b}", List.of("{a,b}")),
                Arguments.of("{'a,b'}", List.of("{a,b}")),
                Arguments.of("{a,'b'}", List.of("a", "b")),
                Arguments.of("{a..c}", List.of("a", "b", "c")),
                Arguments.of("{c..a}", List.of("c", "b", "a")),
                Arguments.of("{01..3}", List.of("01", "02", "03")),
                Arguments.of("{1..10..3}", List.of("1", "4", "7", "10")),
                Arguments.of("{a..e..2}", List.of("a", "c", "e")),
                Arguments.of("{-3..3..2}", List.of("-3", "-1", "1", "3")),
                Arguments.of("{a}", List.of("{a}")),
                Arguments.of("{}", List.of("{}")),
                Arguments.of("{a,b}}", List.of("a}", "b}")),
                Arguments.of("{{a,b}", List.of("{a", "{b")),
                Arguments.of("x{,}y", List.of("xy", "xy")),
                Arguments.of("{1..3}{a,b}", List.of("1a", "1b", "2a", "2b", "3a", "3b")),
                Arguments.of("a{b,c{d,e}f}g", List.of("abg", "acdfg", "acefg")),
                Arguments.of("{-05..3}", List.of("-05", "-04", "-03", "-02", "-01", "000", "001", "002", "003")),
                Arguments.of("{1..-2}", List.of("1", "0", "-1", "-2")),
                Arguments.of("{3..3}", List.of("3")),
                Arguments.of("{'a,'..b}", List.of("a,..b")),
                Arguments.of("{1..3..0}", List.of("1", "2", "3")),
                Arguments.of("{1..3..-1}", List.of("1", "2", "3")),
                Arguments.of("{x..3}", List.of("{x..3}")),
                Arguments.of("{1..a}", List.of("{1..a}")),
                Arguments.of("{1..}", List.of("{1..}")),
                Arguments.of("{..3}", List.of("{..3}")),
                Arguments.of("{1...3}", List.of("{1...3}")),
                Arguments.of("{1..3..}", List.of("{1..3..}")),
                Arguments.of("{a,b}{}", List.of("a{}", "b{}")),
                Arguments.of("{a,b}\\}", List.of("a}", "b}")),
                Arguments.of("''{,}", List.of("", "")),
                Arguments.of("{$'a,b',c}", List.of("a,b", "c")),
                Arguments.of("{a,$'\\x2c'}", List.of("a", ",")),
                Arguments.of("{9223372036854775806..9223372036854775807}",
                        List.of("9223372036854775806", "9223372036854775807")),
                Arguments.of("{08..10}", List.of("08", "09", "10")),
                Arguments.of("{a,b}~", List.of("a~", "b~")),
                Arguments.of("{a..z..5}", List.of("a", "f", "k", "p", "u", "z")),
                Arguments.of("{0..010..5}", List.of("000", "005", "010")),
                Arguments.of("{a,b}{,c}", List.of("a", "ac", "b", "bc")),
                // a $ brace expansion puts before a quote is a plain $: the reader read $'...' before (bash: $x)
                Arguments.of("{$,}'x'", List.of("$x", "x")),
                Arguments.of("{$,}\"x\"", List.of("$x", "x")),
                // $'...' written before the braces keeps its escaped quote (bash: 'A$#% 'A#%)
                Arguments.of("$'\\'\\x41'{$,}''#%", List.of("'A$#%", "'A#%")),
                Arguments.of("{$,}$'x'", List.of("$x", "x")),
                Arguments.of("{$,}$\"x\"", List.of("$x", "x")),
                // a continuation is joined before brace expansion
                Arguments.of("{1.\\\n.3}", List.of("1", "2", "3")));
    }

    @ParameterizedTest
    @MethodSource("words")
    void expandsAsBash(String word, List<String> bash) throws Exception {
        String src = ": " + word;
        Command.Simple c = (Command.Simple) Parser.parse(src).body().items().get(0).command();
        BraceExpansion.Words ex = BraceExpansion.of(c.words().get(1), src);
        List<String> values = new ArrayList<>();
        for (BraceExpansion.Piece p : ex.pieces()) {
            WordValue v = WordValue.of(p.word(), p.source());
            assertThat(v.isStatic()).as(word + " -> " + p.source()).isTrue();
            values.add(v.value());
        }
        assertThat(values).as(word).isEqualTo(bash);
    }

    /**
     * A joined $ after an unescaped $ is that one's name (bash 5.2: {@code {$,}{$,}"y"} is PID y, $y, $y, y;
     * {@code {$,}{$,}{$,}"y"} begins PID$y; {@code {$,}\$"y"} is $$y).
     */
    @Test
    void aJoinedDollarAfterADollarIsTheProcessId() throws Exception {
        String[][] cases = {{"{$,}{$,}\"y\"", "D S S S"}, {"{$,}{$,}{$,}\"y\"", "D D D S D S S S"},
                {"{$,}\\$\"y\"", "S S"}, {"{$$,}{$,}\"y\"", "D D S S"}};
        for (String[] c : cases) {
            String src = ": " + c[0];
            Command.Simple cmd = (Command.Simple) Parser.parse(src).body().items().get(0).command();
            List<String> kinds = new ArrayList<>();
            for (BraceExpansion.Piece p : BraceExpansion.of(cmd.words().get(1), src).pieces()) {
                kinds.add(WordValue.of(p.word(), p.source()).isStatic() ? "S" : "D");
            }
            assertThat(String.join(" ", kinds)).as(c[0]).isEqualTo(c[1]);
        }
        assertThat(BraceExpansion.expand("{$,}{$,}\"y\"", 10)).containsExactly("$$\"y\"", "\\$\"y\"", "\\$\"y\"",
                "\"y\"");
    }

    @Test
    void wordsMadeOfLiteralTextCanHoldExpansions() throws Exception {
        // bash: {$,}{y,z} is $y $z y z, and {$,}{{a['$(c)']},} makes ${a['$(c)']}, whose subscript runs c
        String src = ": {$,}{{a['$(c)']},}";
        Command.Simple c = (Command.Simple) Parser.parse(src).body().items().get(0).command();
        assertThat(WordValue.of(c.words().get(1), src).isStatic()).isTrue();
        BraceExpansion.Words ex = BraceExpansion.of(c.words().get(1), src);
        assertThat(ex.pieces()).hasSize(3); // ${a[...]}, $, {a[...]}; the empty word goes
        BraceExpansion.Piece first = ex.pieces().get(0);
        assertThat(WordValue.of(first.word(), first.source()).isStatic()).isFalse();
        assertThat(Walker.all(first.word(), WordPart.CommandSubstitution.class)).hasSize(1);
    }

    @Test
    void boundsTheWordsAndKeepsCompoundValues() throws Exception {
        String src = ": {1..300} a=({x,y})";
        Command.Simple c = (Command.Simple) Parser.parse("declare " + src.substring(2)).body().items().get(0)
                .command();
        String s = "declare " + src.substring(2);
        assertThat(BraceExpansion.of(c.words().get(1), s).overflow()).isTrue();
        // declare a=( ... ): bash expands the elements later, not the word
        assertThat(BraceExpansion.of(c.words().get(2), s).expanded()).isFalse();
        assertThat(BraceExpansion.expand("{1..256}", 256)).hasSize(256);
        assertThat(BraceExpansion.expand("{1..257}", 256)).isNull();
        assertThat(BraceExpansion.expand("{a,b}{c,d}{e,f}", 7)).isNull();
    }
}
