package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code compound-bash doctor} finds each broken set-up issue 15 names, each in its own temporary HOME: no hook
 * registered, the plugin and a settings entry both registered, a malformed settings file, a DRL file that does not
 * compile, an unwritable log directory, a missing jar with a failed build log, a hook entry whose launcher is gone,
 * hooks turned off; and a healthy set-up passes with a decision round trip through the real launcher.
 */
class DoctorCommandTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String OUR_ENTRY = "{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\",\"command\":\"%s hook\",\"timeout\":30}]}";

    @TempDir
    Path tmp;
    Path home;
    Path stand;
    Map<String, String> env;

    @BeforeEach
    void setUp() throws Exception {
        home = tmp.resolve("home");
        Files.createDirectories(home.resolve(".claude"));
        stand = tmp.resolve("stand-in.jar");
        Files.writeString(stand, "a jar");
        Path xdg = tmp.resolve("xdg");
        Files.createDirectories(xdg);
        env = new HashMap<>();
        env.put("HOME", home.toString());
        env.put("XDG_RUNTIME_DIR", xdg.toString());
        env.put("CLAUDE_PROJECT_DIR", tmp.resolve("project").toString());
        env.put("COMPOUND_BASH_HOME", Path.of("").toAbsolutePath().toString());
        env.put("COMPOUND_BASH_JAR", stand.toString());
        env.put("COMPOUND_BASH_CLASSPATH", System.getProperty("surefire.test.class.path", System.getProperty("java.class.path")));
        env.put("COMPOUND_BASH_WARM", "0");
        env.put("COMPOUND_BASH_CDS", "0");
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
    }

    String launcher() {
        return Path.of("bin/compound-bash").toAbsolutePath().toString();
    }

    void settings(String json) throws Exception {
        Files.writeString(home.resolve(".claude/settings.json"), json);
    }

    String registered() {
        return "{\"hooks\":{\"PreToolUse\":[" + String.format(OUR_ENTRY, launcher()) + "]}}";
    }

    record Report(int exit, JsonNode json, String stdout) {
        JsonNode check(String name) {
            for (JsonNode c : json.path("checks")) if (c.path("name").asText().equals(name)) return c;
            throw new AssertionError("no check " + name + " in " + json);
        }

        String status(String name) {
            return check(name).path("status").asText();
        }

        String text(String name) {
            JsonNode c = check(name);
            return c.path("summary").asText() + "\n" + c.path("details") + "\n" + c.path("fix").asText();
        }
    }

    Report doctor(String... extra) throws Exception {
        String[] args = new String[extra.length + 2];
        args[0] = "doctor";
        args[1] = "--json";
        System.arraycopy(extra, 0, args, 2, extra.length);
        Proc.Result r = Proc.run(tmp, env, null, args);
        assertThat(r.stdout()).as(r.stderr()).startsWith("{");
        return new Report(r.exit(), JSON.readTree(r.stdout()), r.stdout());
    }

    @Test
    void healthySetUpPassesWithARoundTripThroughTheLauncher() throws Exception {
        settings(registered());
        Report r = doctor();
        assertThat(r.exit()).as(r.stdout()).isZero();
        assertThat(r.json().path("ok").asBoolean()).isTrue();
        assertThat(r.status("java")).isEqualTo("ok");
        assertThat(r.status("jar")).isIn("ok", "warn"); // a stand-in jar may be older than the sources
        assertThat(r.status("hook registration")).isEqualTo("ok");
        assertThat(r.status("settings")).isEqualTo("ok");
        assertThat(r.status("rule files")).isEqualTo("ok");
        assertThat(r.status("logs")).isEqualTo("ok");
        assertThat(r.status("round trip")).as(r.text("round trip")).isEqualTo("ok");
        assertThat(r.text("round trip")).contains("ls  ->  allow").contains("->  ask");
    }

    @Test
    void plainWhenPipedAndExitOneWhenBroken() throws Exception {
        Proc.Result r = Proc.run(tmp, env, null, "doctor", "--no-round-trip");
        assertThat(r.exit()).isEqualTo(1); // nothing registered
        assertThat(r.stdout()).doesNotContain("\u001b[").contains("FAIL  hook registration").contains("fix: ");
    }

    @Test
    void noRegistration() throws Exception {
        Report r = doctor("--no-round-trip");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.status("hook registration")).isEqualTo("fail");
        assertThat(r.text("hook registration")).contains("not registered").contains("install");
    }

    @Test
    void pluginAndSettingsEntryBothRunTheHook() throws Exception {
        Path plugin = tmp.resolve("plugin-cache/compound-bash/0.1.0");
        Files.createDirectories(plugin.resolve("target"));
        Files.writeString(plugin.resolve("target/build.failed"), "exit=1\n");
        Files.createDirectories(home.resolve(".claude/plugins"));
        Files.writeString(home.resolve(".claude/plugins/installed_plugins.json"), "{\"version\":2,\"plugins\":"
                + "{\"compound-bash@compound-bash\":[{\"scope\":\"user\",\"installPath\":\"" + plugin
                + "\",\"version\":\"0.1.0\"}]}}");
        settings("{\"enabledPlugins\":{\"compound-bash@compound-bash\":true},\"hooks\":{\"PreToolUse\":["
                + String.format(OUR_ENTRY, launcher()) + "]}}");
        Report r = doctor("--no-round-trip");
        assertThat(r.status("hook registration")).isEqualTo("warn");
        assertThat(r.text("hook registration")).contains("twice").contains("enabledPlugins")
                .contains("installed in " + plugin).contains("the build failed");
    }

    @Test
    void malformedSettingsFile() throws Exception {
        settings("{\"permissions\": {\"allow\": [\"Bash(ls *)\",]}");
        Report r = doctor("--no-round-trip");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.status("settings")).isEqualTo("fail");
        assertThat(r.text("settings")).contains(home.resolve(".claude/settings.json").toString()).contains("invalid JSON");
    }

    @Test
    void settingsFilesWithTheirRuleCounts() throws Exception {
        settings("{\"permissions\":{\"allow\":[\"Bash(ls *)\",\"Read(./x)\"],\"deny\":[\"Bash(rm *)\"]},"
                + registered().substring(1));
        Report r = doctor("--no-round-trip");
        assertThat(r.status("settings")).isEqualTo("ok");
        assertThat(r.text("settings")).contains("allow 2 (1 Bash), ask 0 (0 Bash), deny 1 (1 Bash)");
    }

    @Test
    void ruleFileThatDoesNotCompile() throws Exception {
        settings(registered());
        Path rules = home.resolve(".claude/compound-bash/rules");
        Files.createDirectories(rules);
        Files.writeString(rules.resolve("broken.drl"), "package user.broken\nrule \"x\"\nwhen\n  This is not DRL(\nthen\nend\n");
        Report r = doctor("--no-round-trip");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.status("rule files")).isEqualTo("fail");
        assertThat(r.text("rule files")).contains("broken.drl:").contains("rules check");
    }

    @Test
    void unwritableLogDirectory() throws Exception {
        settings(registered());
        // A regular file where the log directory should be: nobody, root included, can create the log there.
        Files.writeString(home.resolve(".claude/logs"), "not a directory");
        Report r = doctor("--no-round-trip");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.status("logs")).isEqualTo("fail");
        assertThat(r.text("logs")).contains(home.resolve(".claude/logs") + " is not a directory");
    }

    @Test
    void missingJarWithAFailedBuildLog() throws Exception {
        settings(registered());
        Path root = tmp.resolve("checkout");
        Files.createDirectories(root.resolve("target"));
        Files.writeString(root.resolve("target/build.failed"), "exit=1 time=2026-12-01T10:00:00Z\n");
        Files.writeString(root.resolve("target/build.log"), "compound-bash: building\n[ERROR] Could not transfer "
                + "artifact org.junit:junit-bom:pom:5.14.1 from/to central: Network is unreachable\n"
                + "compound-bash: build failed (exit 1)\n");
        env.put("COMPOUND_BASH_HOME", root.toString());
        env.remove("COMPOUND_BASH_JAR");
        Report r = doctor("--no-round-trip");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.status("jar")).isEqualTo("fail");
        assertThat(r.text("jar")).contains("the build failed").contains("Network is unreachable")
                .contains(root.resolve("target/build.log").toString()).contains("--version");
    }

    @Test
    void hookEntryWhoseLauncherIsGone() throws Exception {
        settings("{\"hooks\":{\"PreToolUse\":[" + String.format(OUR_ENTRY, tmp.resolve("gone/bin/compound-bash")) + "]}}");
        Report r = doctor("--no-round-trip");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.status("hook registration")).isEqualTo("fail");
        assertThat(r.text("hook registration")).contains("missing or not executable");
    }

    @Test
    void hooksTurnedOff() throws Exception {
        settings("{\"disableAllHooks\":true," + registered().substring(1));
        Report r = doctor("--no-round-trip");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.text("hook registration")).contains("disableAllHooks");
    }

    @Test
    void evaluatorNotRunningIsNoProblem() throws Exception {
        settings(registered());
        Report r = doctor("--no-round-trip");
        assertThat(r.status("evaluator")).isEqualTo("ok");
        assertThat(r.text("evaluator")).contains("not running");
    }
}
