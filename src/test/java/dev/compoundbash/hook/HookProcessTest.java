package dev.compoundbash.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * End to end: the hook as a separate JVM process, hook JSON on stdin, decision on stdout, with a temporary HOME
 * holding the settings. Checks the stdout contract: one JSON line or nothing, exit 0.
 */
class HookProcessTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    record Result(int exit, String stdout, String stderr) {
    }

    Result run(String stdin, String settingsJson, String... extraEnv) throws Exception {
        Path home = tmp.resolve("home");
        Files.createDirectories(home.resolve(".claude"));
        if (settingsJson != null) Files.writeString(home.resolve(".claude/settings.json"), settingsJson);
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-Xlog:all=warning:stderr",
                "-cp", cp, "dev.compoundbash.cli.Main", "hook"));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_"));
        env.put("HOME", home.toString());
        for (String kv : extraEnv) {
            int eq = kv.indexOf('=');
            env.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        Path out = tmp.resolve("out"), err = tmp.resolve("err");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    static String input(String command, String cwd) throws Exception {
        return JSON.writeValueAsString(Map.of("tool_name", "Bash", "hook_event_name", "PreToolUse",
                "session_id", "t", "cwd", cwd, "tool_input", Map.of("command", command)));
    }

    static String decision(Result r) throws Exception {
        assertThat(r.exit()).as(r.stderr()).isZero();
        if (r.stdout().isEmpty()) return "defer";
        assertThat(r.stdout()).endsWith("\n");
        assertThat(r.stdout().strip()).doesNotContain("\n");
        JsonNode n = JSON.readTree(r.stdout());
        if (n.has("systemMessage")) {
            assertThat(n.size()).as("a message and nothing else: still a defer").isEqualTo(1);
            return "defer";
        }
        assertThat(n.path("hookSpecificOutput").path("hookEventName").asText()).isEqualTo("PreToolUse");
        return n.path("hookSpecificOutput").path("permissionDecision").asText();
    }

    @Test
    void decisionsOverTheProtocol() throws Exception {
        String settings = "{\"permissions\":{\"allow\":[\"Bash(git *)\"],\"deny\":[\"Bash(git push *)\"]}}";
        String cwd = tmp.toString();
        assertThat(decision(run(input("git status && ls | wc -l", cwd), settings))).isEqualTo("allow");
        Result deny = run(input("git add . && git push origin main", cwd), settings);
        assertThat(decision(deny)).isEqualTo("deny");
        assertThat(deny.stdout()).contains("git push origin main").contains("Bash(git push *)");
        assertThat(decision(run(input("echo $(curl x)", cwd), settings))).isEqualTo("ask");
        assertThat(decision(run(input("git status && curl x", cwd), settings))).isEqualTo("defer");
    }

    @Test
    void everyFailureDefers() throws Exception {
        String cwd = tmp.toString();
        assertThat(decision(run("not json", null))).isEqualTo("defer");
        assertThat(decision(run("", null))).isEqualTo("defer");
        assertThat(decision(run("{\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"x\"}}", null))).isEqualTo("defer");
        assertThat(decision(run(input("", cwd), null))).isEqualTo("defer");
        assertThat(decision(run(input("echo \"unterminated", cwd), null))).isEqualTo("defer");
        assertThat(decision(run(input("echo " + "x".repeat(10_001), cwd), null))).isEqualTo("defer");
        // malformed settings may hold deny rules: nothing is approved on that partial view (issue 20, finding 1)
        assertThat(decision(run(input("ls", cwd), "{ malformed"))).isEqualTo("ask");
    }

    /** The one line Claude Code shows for a call the hook could not judge (null: it printed nothing). */
    static String message(Result r) throws Exception {
        assertThat(decision(r)).isEqualTo("defer");
        if (r.stdout().isEmpty()) return null;
        return JSON.readTree(r.stdout()).path("systemMessage").asText();
    }

    Result runBytes(byte[] stdin) throws Exception {
        Path in = tmp.resolve("stdin.bin");
        Files.write(in, stdin);
        Path home = tmp.resolve("home");
        Files.createDirectories(home.resolve(".claude"));
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-Xlog:all=warning:stderr", "-cp", cp,
                "dev.compoundbash.cli.Main", "hook");
        pb.environment().keySet().removeIf(k -> k.startsWith("CLAUDE_"));
        pb.environment().put("HOME", home.toString());
        Path out = tmp.resolve("out"), err = tmp.resolve("err");
        pb.redirectInput(in.toFile()).redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    /**
     * Issue 20, finding 11: input the hook cannot judge defers (Claude Code decides as if no hook answered, measured:
     * docs/CLAUDE-CODE.md "A hook that only speaks") and says why in one line Claude Code shows the user, naming the
     * log; another tool's call stays silent.
     */
    @Test
    void badInputDefersWithOneLineForTheUser() throws Exception {
        String cwd = tmp.toString();
        String log = tmp.resolve("home/.claude/logs/compound-bash.log").toString();
        String head = "compound-bash did not judge this Bash call: ";
        String tail = "; Claude Code decides it as usual (log: " + log + ")";
        assertThat(message(run("not json", null))).isEqualTo(head + "its input from Claude Code is not JSON" + tail);
        assertThat(message(run("", null))).isEqualTo(head + "its input from Claude Code is empty" + tail);
        assertThat(message(run("[1, 2]", null))).isEqualTo(head + "its input from Claude Code is not a JSON object" + tail);
        byte[] binary = new byte[4096];
        new java.util.Random(20).nextBytes(binary);
        assertThat(message(runBytes(binary))).isEqualTo(head + "its input from Claude Code is not JSON" + tail);
        assertThat(message(runBytes("x".repeat(200 * 1024).getBytes(StandardCharsets.UTF_8))))
                .isEqualTo(head + "its input from Claude Code is not JSON" + tail);
        assertThat(message(runBytes(new byte[2 * 1024 * 1024])))
                .isEqualTo(head + "its input from Claude Code is over 1024 KiB" + tail);
        assertThat(message(run(input("echo " + "x".repeat(200 * 1024), cwd), null)))
                .isEqualTo(head + "the command is 204805 characters long, over the 100000 it reads" + tail);
        assertThat(message(run("{\"tool_name\":\"Bash\",\"tool_input\":{\"command\":7}}", null)))
                .isEqualTo(head + "its input has no command string (tool_input.command)" + tail);
        assertThat(message(run("{\"tool_name\":\"Read\",\"tool_input\":{\"file_path\":\"x\"}}", null))).isNull();
        assertThat(message(run(input("echo \"unterminated", cwd), null))).isNull();
        assertThat(Files.readString(Path.of(log))).contains("DEFER: unreadable hook input");
    }

    @Test
    void logLinesAreWritten() throws Exception {
        Path log = tmp.resolve("hook.log");
        run(input("ls && curl x", tmp.toString()), null, "CLAUDE_COMPOUND_LOG=" + log);
        String text = Files.readString(log);
        assertThat(text).contains("] loaded 0 allow, 0 ask, 0 deny patterns from []")
                .contains("] evaluating: ls && curl x")
                .contains("] parsed 2 sub-command(s)")
                .contains("DEFER [curl]: not in allow list: \"curl x\"");
    }

    @Test
    void brokenUserRuleAsksWithFileAndLine() throws Exception {
        Path rules = tmp.resolve("home/.claude/compound-bash/rules");
        Files.createDirectories(rules);
        Files.writeString(rules.resolve("team.drl"), "package team\nrule \"x\"\nwhen\n  Nope( )\nthen\nend\n");
        Result r = run(input("ls", tmp.toString()), null);
        assertThat(decision(r)).isEqualTo("ask");
        assertThat(r.stdout()).contains("team.drl:");
    }

    static String input(String command, String cwd, String permissionMode) throws Exception {
        return JSON.writeValueAsString(Map.of("tool_name", "Bash", "hook_event_name", "PreToolUse",
                "session_id", "t", "cwd", cwd, "permission_mode", permissionMode,
                "tool_input", Map.of("command", command)));
    }

    @Test
    void permissionModeFromTheInputReachesTheRules() throws Exception {
        String settings = "{\"permissions\":{\"allow\":[\"Bash(git status)\"],\"deny\":[\"Bash(rm *)\"]}}";
        String cwd = tmp.toString();
        assertThat(decision(run(input("git status", cwd, "default"), settings))).isEqualTo("allow");
        assertThat(decision(run(input("git status", cwd, "plan"), settings))).isEqualTo("defer");
        assertThat(decision(run(input("ls | wc -l", cwd, "plan"), settings))).isEqualTo("allow");
        assertThat(decision(run(input("echo $(curl x)", cwd, "bypassPermissions"), settings))).isEqualTo("defer");
        assertThat(decision(run(input("echo $(rm -rf /)", cwd, "bypassPermissions"), settings))).isEqualTo("deny");
        Path log = tmp.resolve("mode.log");
        run(input("ls", cwd, "acceptEdits"), settings, "CLAUDE_COMPOUND_LOG=" + log);
        assertThat(Files.readString(log)).contains("] permission mode: acceptEdits");
    }

    @Test
    void settingsComeFromClaudeConfigDirWhenSet() throws Exception {
        Path config = tmp.resolve("config");
        Files.createDirectories(config);
        Files.writeString(config.resolve("settings.json"), "{\"permissions\":{\"deny\":[\"Bash(curl *)\"]}}");
        String home = "{\"permissions\":{\"allow\":[\"Bash(curl *)\"]}}";
        String cwd = tmp.toString();
        assertThat(decision(run(input("curl x", cwd), home))).isEqualTo("allow");
        assertThat(decision(run(input("curl x", cwd), home, "CLAUDE_CONFIG_DIR=" + config))).isEqualTo("deny");
    }
}
