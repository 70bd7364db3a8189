package dev.compoundbash.hook;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HookInputTest {

    private static HookInput read(String json) throws IOException {
        return HookInput.read(new ByteArrayInputStream(json.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void readsADocumentedPreToolUseInput() throws IOException {
        HookInput in = read("""
                {
                  "session_id": "abc123",
                  "transcript_path": "/home/u/.claude/projects/x/00893aaf.jsonl",
                  "cwd": "/home/u/project",
                  "permission_mode": "default",
                  "hook_event_name": "PreToolUse",
                  "tool_name": "Bash",
                  "tool_input": {
                    "command": "ls -la && echo \\"caf\u00e9\\"\\nwc -l",
                    "description": "List files",
                    "timeout": 120000
                  },
                  "tool_use_id": "toolu_01ABC"
                }
                """);
        assertThat(in).isEqualTo(new HookInput("Bash", "ls -la && echo \"caf\u00e9\"\nwc -l", "/home/u/project",
                "PreToolUse", "abc123", "default"));
        assertThat(in.isBash()).isTrue();
    }

    @Test
    void unknownFieldsAreIgnoredAndMissingOnesAreNull() throws IOException {
        HookInput in = read("{\"tool_name\":\"Bash\",\"future\":{\"x\":[1,2]},\"n\":1}");
        assertThat(in).isEqualTo(new HookInput("Bash", null, null, null, null, null));
        assertThat(in.isBash()).isFalse();
        assertThat(read("{}")).isEqualTo(new HookInput(null, null, null, null, null, null));
    }

    @Test
    void missingOrOddToolInput() throws IOException {
        assertThat(read("{\"tool_name\":\"Bash\",\"tool_input\":null}").command()).isNull();
        assertThat(read("{\"tool_name\":\"Bash\",\"tool_input\":\"ls\"}").command()).isNull();
        assertThat(read("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":42}}").command()).isNull();
        assertThat(read("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":[\"ls\"]}}").command()).isNull();
        assertThat(read("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"\"}}").command()).isEmpty();
        assertThat(read("{\"tool_name\":7,\"cwd\":true}")).isEqualTo(new HookInput(null, null, null, null, null, null));
    }

    @Test
    void nonBashTool() throws IOException {
        HookInput in = read("{\"tool_name\":\"Read\",\"hook_event_name\":\"PreToolUse\","
                + "\"tool_input\":{\"file_path\":\"/etc/passwd\"}}");
        assertThat(in.toolName()).isEqualTo("Read");
        assertThat(in.command()).isNull();
        assertThat(in.isBash()).isFalse();
        // a command field on another tool does not make it a Bash call
        assertThat(read("{\"tool_name\":\"mcp__x__run\",\"tool_input\":{\"command\":\"ls\"}}").isBash()).isFalse();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   \n", "[]", "\"Bash\"", "42", "null", "{\"tool_name\":", "{} {}", "{\"a\":1} x"})
    void invalidInputThrowsIOException(String json) {
        assertThatThrownBy(() -> read(json)).isInstanceOf(IOException.class);
    }

    @Test
    void inputIsBounded() throws IOException {
        String head = "{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":\"";
        String tail = "\"}}";
        int room = HookInput.MAX_INPUT_BYTES - head.length() - tail.length();
        HookInput ok = read(head + "x".repeat(room) + tail);
        assertThat(ok.command()).hasSize(room);
        assertThatThrownBy(() -> read(head + "x".repeat(room + 1) + tail))
                .isInstanceOf(IOException.class).hasMessageContaining("larger than");
    }

    @Test
    void doesNotReadPastTheCapOnAnEndlessStream() {
        InputStream endless = new InputStream() {
            @Override
            public int read() {
                return ' ';
            }
        };
        assertThatThrownBy(() -> HookInput.read(endless)).isInstanceOf(IOException.class);
    }
}
