package dev.compoundbash.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** ANSI-C quoting (§3.1.2.4). */
class AnsiCTest {
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("abc", "abc"),
                Arguments.of("\\x41", "A"),
                Arguments.of("\\x4", "\u0004"),
                Arguments.of("\\x", "\\x"),
                Arguments.of("\\101", "A"),
                Arguments.of("\\0101", "\b1"),
                Arguments.of("\\u263a", "\u263a"),
                Arguments.of("\\U0001F600", "\uD83D\uDE00"),
                // bash 5.2 (printf %s $'...' | od): u32toutf8 writes six bytes, none of them UTF-8 text
                Arguments.of("\\U7fffffff", "\uDCFD\uDCBF\uDCBF\uDCBF\uDCBF\uDCBF"),
                Arguments.of("\\UFFFFFFFFz", "z"),
                Arguments.of("\\uD800", "\uDCED\uDCA0\uDC80"),
                // octal and hex escapes are bytes: one that is no part of a UTF-8 character stays a byte
                Arguments.of("\\xbb", "\uDCBB"),
                Arguments.of("z\\xbbb", "z\uDCBBb"),
                Arguments.of("\\273", "\uDCBB"),
                Arguments.of("\\xc3\\xa9", "\u00e9"),
                Arguments.of("\\u00e9\\xc3", "\u00e9\uDCC3"),
                Arguments.of("\\xc0\\x80", "\uDCC0\uDC80"),
                Arguments.of("\\x{41}B", "AB"),
                Arguments.of("\\x{}z", ""),
                Arguments.of("\\x{1F600}", ""),
                Arguments.of("\\cz", "\u001a"),
                Arguments.of("a\\", "a\\"),
                Arguments.of("\\z", "\\z"),
                Arguments.of("a\\0b", "a"),
                Arguments.of("\\n\\t\\r\\a\\b\\e\\E\\f\\v", "\n\t\r\u0007\b\u001b\u001b\f\u000b"),
                Arguments.of("\\\\\\'\\\"\\?", "\\'\"?"));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void decodes(String raw, String expected) {
        assertThat(AnsiC.decode(raw)).isEqualTo(expected);
        // the stand-ins are the bytes: back to bytes and text again is the same value
        assertThat(AnsiC.text(AnsiC.bytes(AnsiC.decode(raw)))).isEqualTo(expected);
    }

    /** \\u and \\U above U+007F are the locale's bytes (bash 5.2: C locale \\u00E9, LC_ALL=C.UTF-8 c3 a9). */
    @org.junit.jupiter.api.Test
    void escapesAboveAsciiDependOnTheLocale() {
        assertThat(AnsiC.localeDependent("\\u00e9")).isTrue();
        assertThat(AnsiC.localeDependent("a\\U0001F600")).isTrue();
        assertThat(AnsiC.localeDependent("\\u0041\\U0000007f\\xe9\\351\\\\u00e9")).isFalse();
        assertThat(AnsiC.localeDependent("\\u")).isFalse();
    }

    /** bash joins the bytes of adjacent pieces: $'\xc3'$'\xa9' is é (printf %s ... | od: c3 a9). */
    @org.junit.jupiter.api.Test
    void piecesOfOneWordJoinTheirBytes() throws Exception {
        String src = "echo $'\\xc3'$'\\xa9' $'\\xc3'\"x\"\n";
        Command.Simple c = (Command.Simple) Parser.parse(src).body().items().get(0).command();
        assertThat(WordValue.of(c.words().get(1), src).value()).isEqualTo("\u00e9");
        assertThat(WordValue.of(c.words().get(2), src).value()).isEqualTo("\uDCC3x");
    }
}
