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
                .contains("Claude Code runs " + plugin.resolve("bin/compound-bash") + " hook (the copy Claude Code installed)")
                .contains("the build failed")
                .contains("claude plugin disable compound-bash@compound-bash");
    }

    /** The records Claude Code writes for a plugin added from {@code checkout} (a local path) and installed. */
    void pluginFromALocalPath(Path checkout, Path cacheCopy) throws Exception {
        Path manifest = checkout.resolve(".claude-plugin/marketplace.json");
        if (!Files.exists(manifest)) { // never over this repository's own
            Files.createDirectories(manifest.getParent());
            Files.writeString(manifest, "{\"name\":\"compound-bash\","
                    + "\"plugins\":[{\"name\":\"compound-bash\",\"source\":\"./\",\"version\":\"0.1.0\"}]}");
        }
        Files.createDirectories(cacheCopy);
        Files.createDirectories(home.resolve(".claude/plugins"));
        // as measured with Claude Code 2.1.332: `claude plugin marketplace add /path` + `claude plugin install`
        Files.writeString(home.resolve(".claude/plugins/known_marketplaces.json"), "{\"compound-bash\":{\"source\":"
                + "{\"source\":\"directory\",\"path\":\"" + checkout + "\"},\"installLocation\":\"" + checkout + "\"}}");
        Files.writeString(home.resolve(".claude/plugins/installed_plugins.json"), "{\"version\":2,\"plugins\":"
                + "{\"compound-bash@compound-bash\":[{\"scope\":\"user\",\"installPath\":\"" + cacheCopy
                + "\",\"version\":\"0.1.0\"}]}}");
        settings("{\"extraKnownMarketplaces\":{\"compound-bash\":{\"source\":{\"source\":\"directory\",\"path\":\""
                + checkout + "\"}}},\"enabledPlugins\":{\"compound-bash@compound-bash\":true}}");
    }

    /**
     * Issue 20, finding 5: with the plugin added from a local path, Claude Code 2.1.332 runs the checkout itself,
     * not the copy it records in installed_plugins.json (measured: docs/CLAUDE-CODE.md "Plugins"); doctor inspects
     * what Claude Code runs and says when that is not the installation doctor was run from.
     */
    @Test
    void aPluginFromALocalPathRunsTheCheckout() throws Exception {
        Path checkout = tmp.resolve("elsewhere/compound-bash");
        Path copy = home.resolve(".claude/plugins/cache/compound-bash/compound-bash/0.1.0");
        pluginFromALocalPath(checkout, copy);
        Report r = doctor("--no-round-trip");
        assertThat(r.status("hook registration")).as(r.text("hook registration")).isEqualTo("warn");
        assertThat(r.text("hook registration"))
                .contains("by the plugin compound-bash@compound-bash, which runs " + checkout + ", not this installation")
                .contains("Claude Code runs " + checkout.resolve("bin/compound-bash")
                        + " hook (the checkout its marketplace was added from)")
                .contains(checkout.resolve("bin/compound-bash") + " doctor")
                .doesNotContain(copy.toString());
        // run from that very checkout, doctor checks it, and names no other
        Path self = Path.of("").toAbsolutePath();
        pluginFromALocalPath(self, copy);
        Report mine = doctor("--no-round-trip");
        assertThat(mine.text("hook registration")).contains("by the plugin compound-bash@compound-bash")
                .doesNotContain("not this installation").doesNotContain(copy.toString());
    }

    /** A marketplace from GitHub: Claude Code runs its installed copy (measured likewise). */
    @Test
    void aPluginFromGitHubRunsItsInstalledCopy() throws Exception {
        Path copy = home.resolve(".claude/plugins/cache/compound-bash/compound-bash/0.1.0");
        Files.createDirectories(copy);
        Files.writeString(home.resolve(".claude/plugins/known_marketplaces.json"), "{\"compound-bash\":{\"source\":"
                + "{\"source\":\"github\",\"repo\":\"example/compound-bash\"},\"installLocation\":\""
                + home.resolve(".claude/plugins/marketplaces/compound-bash") + "\"}}");
        Files.writeString(home.resolve(".claude/plugins/installed_plugins.json"), "{\"version\":2,\"plugins\":"
                + "{\"compound-bash@compound-bash\":[{\"scope\":\"user\",\"installPath\":\"" + copy
                + "\",\"version\":\"0.1.0\"}]}}");
        settings("{\"enabledPlugins\":{\"compound-bash@compound-bash\":true}}");
        Report r = doctor("--no-round-trip");
        assertThat(r.text("hook registration"))
                .contains("Claude Code runs " + copy.resolve("bin/compound-bash") + " hook (the copy Claude Code installed)")
                .contains("no jar yet").contains(copy.resolve("bin/compound-bash") + " doctor");
    }

    /**
     * Issue 20, finding 5: on the plugin route no advice of doctor's says "install" (install would add a second
     * entry); a class-data archive not trained yet is fixed with {@code warm --wait}, on either route.
     */
    @Test
    void pluginRouteAdviceNeverSendsTheUserToInstall() throws Exception {
        pluginFromALocalPath(Path.of("").toAbsolutePath(), home.resolve(".claude/plugins/cache/c/c/0.1.0"));
        env.remove("COMPOUND_BASH_CDS");
        env.put("COMPOUND_BASH_CDS_ARCHIVE", tmp.resolve("no-archive-yet.jsa").toString());
        Report r = doctor("--no-round-trip");
        assertThat(r.text("class-data archive")).contains("not trained yet").contains(launcher() + " warm --wait");
        for (JsonNode c : r.json().path("checks")) {
            assertThat(c.path("fix").asText()).as(c.toString()).doesNotContain("compound-bash install");
        }
    }

    /** The processes of this user whose command line mentions {@code text}. */
    static java.util.List<String> processesMentioning(String text) {
        return ProcessHandle.allProcesses().map(h -> h.info().commandLine().orElse(""))
                .filter(c -> c.contains(text)).toList();
    }

    /**
     * Issue 20, finding 5: doctor's round trip starts no process that outlives it, with a runtime directory under
     * HOME or XDG_RUNTIME_DIR, the warm path on: without a running evaluator both calls run cold.
     */
    @Test
    void doctorLeavesNoProcessBehind() throws Exception {
        settings(registered());
        env.remove("COMPOUND_BASH_WARM");
        for (boolean xdg : new boolean[]{false, true}) {
            if (!xdg) env.remove("XDG_RUNTIME_DIR");
            else env.put("XDG_RUNTIME_DIR", tmp.resolve("xdg").toString());
            Report r = doctor();
            assertThat(r.status("round trip")).as(r.text("round trip")).isEqualTo("ok");
            assertThat(r.text("round trip")).contains("no evaluator was running: both calls ran cold");
            Thread.sleep(3_000); // a background start would show by now
            assertThat(processesMentioning("compound-bash-doctor-")).isEmpty();
            assertThat(processesMentioning(tmp.toString()).stream().filter(c -> c.contains("daemon"))).isEmpty();
            assertThat(dev.compoundbash.daemon.Protocol.running(tmp.resolve("xdg/compound-bash"))).isEmpty();
        }
    }

    @Test
    void malformedSettingsFile() throws Exception {
        settings("{\"permissions\": {\"allow\": [\"Bash(ls *)\",]}");
        Report r = doctor("--no-round-trip");
        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.status("settings")).isEqualTo("fail");
        assertThat(r.text("settings")).contains(home.resolve(".claude/settings.json").toString()).contains("invalid JSON");
        // which file and where: line 1, column 41 (the stray ']')
        assertThat(r.text("settings")).contains(home.resolve(".claude/settings.json") + ":1:41: invalid JSON");
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
