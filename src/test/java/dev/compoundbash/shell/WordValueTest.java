package dev.compoundbash.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Word values after quote removal (§3.5.9) and Literal raw/value as produced by the parser. */
class WordValueTest {

    /** The words of the first simple command of {@code src}. */
    static List<Word> words(String src) throws ParseException {
        Script s = Parser.parse(src);
        return Walker.all(s, Command.Simple.class).get(0).words();
    }

    static Stream<Arguments> staticWords() {
        return Stream.of(
                Arguments.of("echo abc", "abc"),
                Arguments.of("echo 'a b'", "a b"),
                Arguments.of("echo \"a b\"", "a b"),
                Arguments.of("echo a\\ b", "a b"),
                Arguments.of("echo \\$x", "$x"),
                Arguments.of("echo \"\\$x\"", "$x"),
                Arguments.of("echo \"a\\zb\"", "a\\zb"),
                Arguments.of("echo \"a\\\"b\"", "a\"b"),
                Arguments.of("echo \"a\\\\b\"", "a\\b"),
                Arguments.of("echo \"a\\`b\"", "a`b"),
                Arguments.of("echo \"a\\\nb\"", "ab"),
                Arguments.of("echo a\\\nb", "ab"),
                Arguments.of("echo 'a\\\nb'", "a\\\nb"),
                Arguments.of("echo a'b'\"c\"d", "abcd"),
                Arguments.of("echo $'a\\nb'", "a\nb"),
                Arguments.of("echo $'\\t\\r\\a\\b\\e\\E\\f\\v'", "\t\r\u0007\b\u001b\u001b\f\u000b"),
                Arguments.of("echo $'\\\\ \\' \\\" \\?'", "\\ ' \" ?"),
                Arguments.of("echo $'\\x41\\101\\u00e9\\U0001F600'", "AA\u00e9\uD83D\uDE00"),
                Arguments.of("echo $'\\cA\\ca\\c?'", "\u0001\u0001\u007f"),
                Arguments.of("echo $'a\\0b'", "a"),
                Arguments.of("echo $'\\q'", "\\q"),
                Arguments.of("echo $\"loc $\"", "loc $"),
                Arguments.of("echo {a,b}", "{a,b}"),
                Arguments.of("echo '*'", "*"),
                Arguments.of("echo a$", "a$"),
                Arguments.of("echo \"$\"", "$"),
                Arguments.of("echo ''", ""),
                Arguments.of("echo \"\"", ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("staticWords")
    void staticValue(String src, String expected) throws ParseException {
        Word w = words(src).get(1);
        WordValue v = WordValue.of(w, src);
        assertThat(v.isStatic()).isTrue();
        assertThat(v.value()).isEqualTo(expected);
        assertThat(v.raw()).isEqualTo(src.substring(5));
    }

    static Stream<Arguments> dynamicWords() {
        return Stream.of(
                Arguments.of("echo $x", WordPart.ParamExpansion.class),
                Arguments.of("echo \"a $x\"", WordPart.ParamExpansion.class),
                Arguments.of("echo $(ls)", WordPart.CommandSubstitution.class),
                Arguments.of("echo `ls`", WordPart.CommandSubstitution.class),
                Arguments.of("echo $((1+2))", WordPart.ArithExpansion.class),
                Arguments.of("echo $[1+2]", WordPart.ArithExpansion.class),
                Arguments.of("echo <(ls)", WordPart.ProcessSubstitution.class),
                Arguments.of("echo ~", WordPart.Tilde.class),
                Arguments.of("echo @(a|b)", WordPart.ExtGlob.class),
                Arguments.of("echo ${x:-$(id)}", WordPart.ParamExpansion.class));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dynamicWords")
    void dynamicValue(String src, Class<?> expansion) throws ParseException {
        WordValue v = WordValue.of(words(src).get(1), src);
        assertThat(v.isStatic()).isFalse();
        assertThat(v.expansions()).first().isInstanceOf(expansion);
        assertThat(v.text()).isEqualTo(src.substring(5));
    }

    @Test
    void literalKeepsRawAndValue() throws ParseException {
        String src = "echo a\\ b\\\nc";
        WordPart.Literal lit = (WordPart.Literal) words(src).get(1).parts().get(0);
        assertThat(lit.raw()).isEqualTo("a\\ b\\\nc");
        assertThat(lit.value()).isEqualTo("a bc");
        assertThat(lit.span().text(src)).isEqualTo(lit.raw());
    }

    @Test
    void globAndBraceFlags() throws ParseException {
        String src = "echo *.txt {a,b} '*' \\*";
        List<Word> ws = words(src);
        assertThat(WordValue.of(ws.get(1), src).glob()).isTrue();
        assertThat(WordValue.of(ws.get(2), src).braceExpansion()).isTrue();
        assertThat(WordValue.of(ws.get(3), src).glob()).isFalse();
        assertThat(WordValue.of(ws.get(4), src).glob()).isFalse();
    }

    @Test
    void commandSubstitutionInsideParameterOperandIsReached() throws ParseException {
        String src = "echo ${x:-$(rm -rf /)}";
        List<WordPart.CommandSubstitution> subs = Walker.all(Parser.parse(src), WordPart.CommandSubstitution.class);
        assertThat(subs).hasSize(1);
        Command.Simple inner = Walker.all(subs.get(0), Command.Simple.class).get(0);
        assertThat(WordValue.of(inner.words().get(0), src).value()).isEqualTo("rm");
    }

    @Test
    void backquotedBodyIsUnescapedAndParsed() throws ParseException {
        String src = "echo `echo \\`id\\` \\$HOME`";
        Script s = Parser.parse(src);
        List<WordPart.CommandSubstitution> subs = Walker.all(s, WordPart.CommandSubstitution.class);
        assertThat(subs).hasSize(2);
        assertThat(subs).allMatch(WordPart.CommandSubstitution::backquoted);
        WordPart.CommandSubstitution inner = subs.get(1);
        assertThat(subs.get(0).span().contains(inner.span())).isTrue();
        Command.Simple id = Walker.all(inner, Command.Simple.class).get(0);
        assertThat(((WordPart.Literal) id.words().get(0).parts().get(0)).value()).isEqualTo("id");
        assertThat(Walker.all(subs.get(0).body(), WordPart.ParamExpansion.class))
                .extracting(WordPart.ParamExpansion::name).containsExactly("HOME");
    }

    @Test
    void arithmeticPartsExposeExpansions() throws ParseException {
        String src = "echo $(( $(cmd) + ${x} + y + `z` ))";
        WordPart.ArithExpansion a = (WordPart.ArithExpansion) words(src).get(1).parts().get(0);
        assertThat(a.expression().raw()).isEqualTo(" $(cmd) + ${x} + y + `z` ");
        assertThat(a.expression().parts()).hasAtLeastOneElementOfType(WordPart.CommandSubstitution.class)
                .hasAtLeastOneElementOfType(WordPart.ParamExpansion.class)
                .hasAtLeastOneElementOfType(WordPart.Literal.class);
    }

    @Test
    void declarationCompoundValueIsArrayLiteral() throws ParseException {
        String src = "declare -A m=([k]=$(id) [j]=2)";
        Word w = words(src).get(2);
        assertThat(w.parts()).hasSize(2);
        assertThat(w.parts().get(1)).isInstanceOf(WordPart.ArrayLiteral.class);
        WordPart.ArrayLiteral arr = (WordPart.ArrayLiteral) w.parts().get(1);
        assertThat(arr.elements()).hasSize(2);
        assertThat(WordValue.of(w, src).isStatic()).isFalse();
        String src2 = "declare -a a=(x y)";
        assertThat(WordValue.of(words(src2).get(2), src2).value()).isEqualTo("a=(x y)");
    }

    @Test
    void assignmentValueTildes() throws ParseException {
        String src = "PATH=~/bin:~me/x:/usr";
        Assignment a = Walker.all(Parser.parse(src), Assignment.class).get(0);
        assertThat(a.value().parts()).filteredOn(p -> p instanceof WordPart.Tilde).hasSize(2);
    }

    @Test
    void parameterExpansionFields() throws ParseException {
        String src = "echo ${!a[@]} ${#x} ${x//p/$(r)} ${a[$(i)]:1:2}";
        List<WordPart.ParamExpansion> ps = Walker.all(Parser.parse(src), WordPart.ParamExpansion.class);
        assertThat(ps.get(0).prefix()).isEqualTo("!");
        assertThat(ps.get(0).index()).isNotNull();
        assertThat(ps.get(1).prefix()).isEqualTo("#");
        assertThat(ps.get(2).operator()).isEqualTo("//");
        assertThat(ps.get(2).operands()).hasSize(2);
        assertThat(ps.get(3).operator()).isEqualTo(":");
        assertThat(ps.get(3).operands()).hasSize(2);
        assertThat(Walker.all(ps.get(3), WordPart.CommandSubstitution.class)).hasSize(1);
    }
}
