package dev.compoundbash.fuzz;

import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.compoundbash.shell.ParseException;
import dev.compoundbash.shell.Parser;

import java.nio.charset.StandardCharsets;

/**
 * Coverage-guided fuzzing of the parser with Jazzer's JUnit integration ({@code com.code-intelligence:jazzer-junit}),
 * run only by {@code mvn -Pfuzz}, which sets {@code JAZZER_FUZZ=1}; the default build excludes this class, since
 * Jazzer's agent alone costs the build most of a minute. Invariant as in {@link dev.compoundbash.fuzz.FuzzTest}: only
 * {@link ParseException} escapes the parser (the whole evaluation is fuzzed there: Jazzer fuzzes one test per JVM).
 * Jazzer writes a crashing input under {@code src/test/resources/dev/compoundbash/fuzz/JazzerFuzzTestInputs/}, and
 * later runs replay it.
 */
class JazzerFuzzTest {
    @FuzzTest(maxExecutions = 1_000_000, maxDuration = "30m")
    void parse(byte[] data) {
        try {
            Parser.parse(new String(data, StandardCharsets.UTF_8));
        } catch (ParseException e) {
            // the documented failure
        }
    }
}
