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
                Arguments.of("\\U7fffffff", "\uFFFD"),
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
    }
}
