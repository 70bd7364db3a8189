package dev.compoundbash.audit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20, finding 8: a decision-case file is validated line by line (each field's type and allowed values) and
 * every problem is one line pointing at {@code file:line}, never an exception's trace.
 */
class CaseFileValidationTest {
    @TempDir
    Path tmp;

    DecisionCases.CaseFile check(String... lines) throws Exception {
        Path f = tmp.resolve("cases.jsonl");
        Files.writeString(f, String.join("\n", lines) + "\n");
        return DecisionCases.check(f);
    }

    /** Each bad line (field, value) and the words its message must hold. */
    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"command\":\"ls\",\"expected\":\"maybe\"}|\"expected\" is \"maybe\": it must be allow, ask, deny or defer",
            "{\"command\":\"ls\",\"expected\":[\"allow\",\"perhaps\"]}|\"expected\" holds \"perhaps\"",
            "{\"command\":\"ls\",\"expected\":[]}|\"expected\" is an empty list",
            "{\"command\":\"ls\",\"expected\":1}|\"expected\" must be allow, ask, deny or defer or a list of them, not a number (1)",
            "{\"command\":\"ls\",\"allow\":\"Bash(ls)\"}|\"allow\" must be a list of strings, not a string",
            "{\"command\":\"ls\",\"deny\":[\"Bash(rm *)\",3]}|\"deny\" must hold only strings, not a number (3)",
            "{\"command\":\"ls\",\"additionalDirectories\":{}}|\"additionalDirectories\" must be a list of strings, not an object",
            "{\"command\":[\"ls\"]}|\"command\" must be a string, not a list",
            "{\"id\":\"x\"}|no \"command\"",
            "{\"command\":\"ls\",\"id\":7}|\"id\" must be a string, not a number (7)",
            "{\"command\":\"ls\",\"cwd\":true}|\"cwd\" must be a string, not true",
            "{\"command\":\"ls\",\"permission_mode\":3}|\"permission_mode\" must be a string, not a number (3)",
            "{\"command\":\"ls\",\"expect\":\"allow\"}|unknown field \"expect\"",
            "{\"command\":\"ls\",\"files\":[\"a\"]}|\"files\" must be an object",
            "{\"command\":\"ls\",\"files\":{\"a\":1}}|the content of \"a\" must be a string",
            "{\"command\":\"ls\",\"files\":{\"../../x\":\"\"}}|must be a relative path inside",
            "[\"ls\"]|a case is a JSON object, not a list",
            "{\"command\": \"ls\"|not JSON (column",
            "not json at all|not JSON",
    })
    void eachBadLineIsOneProblemAtItsLine(String line, String message) throws Exception {
        DecisionCases.CaseFile f = check("# a comment", "{\"id\":\"good\",\"command\":\"ls\",\"expected\":\"allow\"}", line);
        assertThat(f.problems()).hasSize(1);
        DecisionCases.Problem p = f.problems().get(0);
        assertThat(p.line()).isEqualTo(3);
        assertThat(p.toString()).startsWith(tmp.resolve("cases.jsonl") + ":3: ").contains(message)
                .doesNotContain("\n").doesNotContain("Exception").doesNotContain("at [Source");
        assertThat(f.cases()).extracting(DecisionCases.Case::id).containsExactly("good");
    }

    @Test
    void aModeClaudeCodeDoesNotHaveIsAWarningTheCaseStillRuns() throws Exception {
        DecisionCases.CaseFile f = check("{\"command\":\"ls\",\"permission_mode\":\"yolo\"}",
                "{\"command\":\"ls\",\"permission_mode\":\"manual\"}");
        assertThat(f.problems()).isEmpty();
        assertThat(f.cases()).hasSize(2);
        assertThat(f.warnings()).singleElement().hasToString(tmp.resolve("cases.jsonl") + ":1: \"permission_mode\" is "
                + "\"yolo\", no mode of Claude Code's (acceptEdits, auto, bypassPermissions, default, dontAsk, manual, "
                + "plan): the hook reads it as default");
    }

    @Test
    void goodCasesWithTheE2eToolsFieldsAreRead() throws Exception {
        DecisionCases.CaseFile f = check(
                "{\"id\":\"a\",\"command\":\"ls\",\"allow\":[],\"ask\":[],\"deny\":[],\"additionalDirectories\":[],"
                        + "\"cwd\":null,\"expected\":[\"allow\",\"defer\"],\"why\":\"w\",\"permission_mode\":\"plan\","
                        + "\"files\":{\"work/a\":\"x\",\"work/l\":\"-> ../outside\"}}",
                "{\"id\":\"b\",\"command\":\"ls\",\"native\":\"ran\",\"with_hook\":[\"ran\"],\"prompt_removed\":true,"
                        + "\"setup\":\"touch x\",\"hook_start\":\"warm\"}");
        assertThat(f.problems()).isEmpty();
        assertThat(f.cases()).hasSize(2);
        assertThat(f.cases().get(0).expected()).containsExactly("allow", "defer");
        assertThat(f.cases().get(1).expected()).isEmpty();
    }

    @Test
    void everyProblemOfAFileIsReportedAndAMissingOrBinaryFileIsOneProblem() throws Exception {
        DecisionCases.CaseFile f = check("{\"command\":\"ls\",\"expected\":\"maybe\"}", "", "{", "{\"command\":1}");
        assertThat(f.problems()).extracting(DecisionCases.Problem::line).containsExactly(1, 3, 4);
        DecisionCases.CaseFile missing = DecisionCases.check(tmp.resolve("none.jsonl"));
        assertThat(missing.problems()).singleElement().hasToString(tmp.resolve("none.jsonl") + ": no such file");
        Path bin = tmp.resolve("bin.jsonl");
        Files.write(bin, new byte[]{(byte) 0xff, (byte) 0xfe, 0, 1, '\n'});
        assertThat(DecisionCases.check(bin).problems()).singleElement().hasToString(bin + ": not UTF-8 text");
        Files.writeString(bin, "{\"command\":\"ls\"}\n", StandardCharsets.UTF_8);
        assertThat(DecisionCases.check(bin).problems()).isEmpty();
    }
}
