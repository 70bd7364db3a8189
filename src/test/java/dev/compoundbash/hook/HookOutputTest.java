package dev.compoundbash.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HookOutputTest {

    private static final ObjectMapper M = new ObjectMapper();

    @Test
    void exactShape() {
        assertThat(HookOutput.json("allow", "all 2 sub-command(s) matched")).isEqualTo(
                "{\"hookSpecificOutput\":{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"allow\","
                        + "\"permissionDecisionReason\":\"all 2 sub-command(s) matched\"}}");
        assertThat(HookOutput.json(HookOutput.DENY, "x")).contains("\"permissionDecision\":\"deny\"");
        assertThat(HookOutput.json(HookOutput.ASK, "x")).contains("\"permissionDecision\":\"ask\"");
    }

    @Test
    void reasonIsEscaped() throws Exception {
        String reason = "rm \"-rf\" \\ /\nline2\ttab\r\u0001 caf\u00e9 \u2028 \uD83D\uDE00 </script>";
        String json = HookOutput.json("deny", reason);
        assertThat(json).doesNotContain("\n").doesNotContain("\r");
        assertThat(json).contains("rm \\\"-rf\\\" \\\\ /\\nline2\\ttab\\r\\u0001 caf\\u00E9");
        assertThat(json.chars()).allMatch(c -> c >= 0x20 && c < 0x7f); // pure printable ASCII
        JsonNode back = M.readTree(json.getBytes(StandardCharsets.UTF_8));
        assertThat(back.size()).isEqualTo(1);
        JsonNode out = back.get("hookSpecificOutput");
        assertThat(out.size()).isEqualTo(3);
        assertThat(out.get("hookEventName").textValue()).isEqualTo("PreToolUse");
        assertThat(out.get("permissionDecision").textValue()).isEqualTo("deny");
        assertThat(out.get("permissionDecisionReason").textValue()).isEqualTo(reason);
    }

    @Test
    void nullReasonIsEmpty() {
        assertThat(HookOutput.json("ask", null)).endsWith("\"permissionDecisionReason\":\"\"}}");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "Allow", "defer", "approve", "block"})
    void otherDecisionsAreRejected(String decision) {
        assertThatThrownBy(() -> HookOutput.json(decision, "r")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void nullDecisionIsRejected() {
        assertThatThrownBy(() -> HookOutput.json(null, "r")).isInstanceOf(IllegalArgumentException.class);
    }

    /** A message that still defers: one key, printable ASCII on one line, cut to its maximum length. */
    @Test
    void messageIsOneKeyOnOneLine() throws Exception {
        String json = HookOutput.message("compound-bash did not judge\nthis \u0007 call: caf\u00e9");
        assertThat(json.chars()).allMatch(c -> c >= 0x20 && c < 0x7f);
        JsonNode back = M.readTree(json);
        assertThat(back.size()).isEqualTo(1);
        assertThat(back.get("systemMessage").textValue()).isEqualTo("compound-bash did not judge this   call: caf\u00e9");
        String cut = M.readTree(HookOutput.message("x".repeat(1000))).get("systemMessage").textValue();
        assertThat(cut).hasSize(HookOutput.MAX_MESSAGE_CHARS).endsWith("...");
    }
}
