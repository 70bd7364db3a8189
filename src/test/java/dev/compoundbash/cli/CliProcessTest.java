package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.hook.HookRunner;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** End to end: each subcommand run as its own JVM process against a temporary home. */
class CliProcessTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final Path EXAMPLES = Path.of("examples/rules").toAbsolutePath();

    @TempDir
    Path tmp;
    Path home, work;
    Map<String, String> env;

    @BeforeEach
    void home() throws Exception {
        home = tmp.resolve("home");
        work = tmp.resolve("work");
        Files.createDirectories(home.resolve(".claude"));
        Files.createDirectories(work);
        Files.writeString(home.resolve(".claude/settings.json"), """
                {"permissions": {"allow": ["Bash(git status)", "Bash(git push *)"], "deny": []},
                 "hooks": {"PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]}]},
                 "model": "opus"}
                """);
        env = new HashMap<>(Map.of("HOME", home.toString()));
    }

    Proc.Result cli(String... args) throws Exception {
        return Proc.run(work, env, null, args);
    }

    Path userRules() throws Exception {
        Path d = home.resolve(".claude/compound-bash/rules");
        Files.createDirectories(d);
        return d;
    }

    @Test
    void versionHelpAndCompletion() throws Exception {
        Proc.Result v = cli("--version");
        assertThat(v.exit()).isZero();
        assertThat(v.stdout()).startsWith("compound-bash ");
        Proc.Result h = cli("--help");
        assertThat(h.exit()).isZero();
        assertThat(h.stdout()).contains("hook", "explain", "replay", "rules", "install", "uninstall", "generate-completion");
        Proc.Result c = cli("generate-completion");
        assertThat(c.exit()).isZero();
        assertThat(c.stdout()).contains("complete -F").contains("replay").contains("uninstall");
        Proc.Result rh = cli("rules", "test", "--help");
        assertThat(rh.stdout()).contains("--rules").contains("end with 'N");
    }

    @Test
    void explainJson() throws Exception {
        Proc.Result r = cli("explain", "--json", "--cwd", work.toString(), "git status && echo $(curl x) > out.txt");
        assertThat(r.exit()).isZero();
        JsonNode o = JSON.readTree(r.stdout());
        assertThat(o.at("/decision/outcome").asText()).isEqualTo("ask");
        assertThat(o.get("subCommands")).hasSize(3);
        assertThat(o.get("redirects")).hasSize(1);
        assertThat(o.get("firedRules").findValuesAsText("file")).contains("rules/outcome.drl");
        Proc.Result human = cli("explain", "--cwd", work.toString(), "git status");
        assertThat(human.stdout()).contains("decision: ALLOW").doesNotContain("\u001b[");
    }

    @Test
    void explainRefusesAnUnknownPermissionMode() throws Exception {
        // Found by the fresh-user trial: a typo was judged as default mode without a word.
        Proc.Result r = cli("explain", "--permission-mode", "bogus", "git status");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stderr()).contains("unknown --permission-mode 'bogus'").contains("bypassPermissions");
        assertThat(r.stdout()).isEmpty();
        Proc.Result plan = cli("explain", "--json", "--permission-mode", "plan", "git status");
        assertThat(plan.exit()).isZero();
        assertThat(JSON.readTree(plan.stdout()).get("permissionMode").asText()).isEqualTo("plan");
    }

    @Test
    void rulesListCheckAndTest() throws Exception {
        Path d = userRules();
        Files.copy(EXAMPLES.resolve("git-readonly.drl"), d.resolve("git-readonly.drl"));
        Proc.Result list = cli("rules", "list");
        assertThat(list.exit()).isZero();
        assertThat(list.stdout()).contains("rules/tiers.drl:" + lineOf("src/main/resources/rules/tiers.drl",
                "rule \"always-safe command is approved\"") + "  always-safe command is approved")
                .containsPattern(Pattern.quote(d.resolve("git-readonly.drl").toString()) + ":\\d+  read-only git subcommand is approved");
        assertThat(cli("rules", "check").stdout()).contains("1 file(s) compile");

        Proc.Result t = cli("rules", "test", "--rules", EXAMPLES.toString());
        assertThat(t.stdout()).endsWith("46 passed, 0 failed\n");
        assertThat(t.exit()).isZero();
        Path bad = tmp.resolve("bad.jsonl");
        Files.writeString(bad, "{\"id\":\"x\",\"command\":\"git push -f origin main\",\"allow\":[\"Bash(git push *)\"],\"expected\":\"allow\"}\n"
                + "{\"id\":\"y\",\"command\":\"git status\",\"expected\":\"allow\"}\n");
        Proc.Result f = cli("rules", "test", "--rules", EXAMPLES.toString(), bad.toString());
        assertThat(f.exit()).isEqualTo(1);
        assertThat(f.stdout()).contains("FAIL " + bad + ":1 x: expected allow, got deny").endsWith("1 passed, 1 failed\n");

        // issue 20, finding 8: a bad case file is exit 2 with one line per problem at file:line, no trace, no case run
        Path invalid = tmp.resolve("invalid.jsonl");
        Files.writeString(invalid, "{\"id\":\"ok\",\"command\":\"git status\",\"expected\":\"allow\"}\n"
                + "{\"id\":\"m\",\"command\":\"ls\",\"expected\":\"maybe\"}\n"
                + "{\"id\":\"l\",\"command\":\"ls\",\"allow\":\"Bash(ls)\"}\n"
                + "{\"id\":\"j\",\"command\":\"ls\"\n");
        Proc.Result v = cli("rules", "test", "--rules", EXAMPLES.toString(), invalid.toString(), tmp.resolve("gone.jsonl").toString());
        assertThat(v.exit()).as(v.stderr()).isEqualTo(2);
        assertThat(v.stdout()).doesNotContain("passed");
        assertThat(v.stderr().lines().toList()).containsExactly(
                invalid + ":2: \"expected\" is \"maybe\": it must be allow, ask, deny or defer (or a list of them)",
                invalid + ":3: \"allow\" must be a list of strings, not a string",
                invalid + ":4: not JSON (column 25): Unexpected end-of-input: expected close marker for Object",
                tmp.resolve("gone.jsonl") + ": no such file",
                "compound-bash rules test: 4 problem(s) in the case file(s); no case was run");

        Path broken = d.resolve("zz-broken.drl");
        Files.writeString(broken, "package x\nimport dev.compoundbash.facts.SubCommand\nrule \"broken\"\nwhen\n  $s : SubCommand( name == \"x\" \nthen\nend\n");
        Proc.Result check = cli("rules", "check");
        assertThat(check.exit()).isEqualTo(1);
        assertThat(check.stdout()).containsPattern(Pattern.quote(broken.toString()) + ":6:\\d+: ");
        Proc.Result checkOne = cli("rules", "check", EXAMPLES.resolve("no-force-push-main.drl").toString());
        assertThat(checkOne.exit()).isZero();
    }

    @Test
    void brokenUserRuleMakesTheHookAskNamingFileAndLine() throws Exception {
        Path broken = userRules().resolve("mine.drl");
        Files.writeString(broken, "package x\nrule \"broken\"\nwhen\n  eval( \nthen\nend\n");
        Proc.Result r = Proc.run(work, env, Proc.hookInput("ls", work.toString(), "s1"), "hook");
        assertThat(r.exit()).isZero();
        JsonNode o = JSON.readTree(r.stdout());
        assertThat(o.at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("ask");
        assertThat(o.at("/hookSpecificOutput/permissionDecisionReason").asText()).containsPattern(Pattern.quote(broken.toString()) + ":\\d+");
        assertThat(Files.readString(home.resolve(".claude/logs/compound-bash.log"))).contains("rules: user rules do not compile: " + broken + ":")
                .contains("(rule \"a user rule file that does not compile asks\")");
        JsonNode entry = JSON.readTree(Files.readAllLines(home.resolve(".claude/logs/compound-bash.jsonl")).get(0));
        assertThat(entry.get("decision").asText()).isEqualTo("ask");
        assertThat(entry.get("reason").asText()).contains(broken.toString());
    }

    @Test
    void projectRulesApplyOnlyWhenTheUserTrustsTheProject() throws Exception {
        Path project = tmp.resolve("project");
        Path rules = project.resolve(".claude/compound-bash/rules");
        Files.createDirectories(rules);
        Files.copy(EXAMPLES.resolve("no-force-push-main.drl"), rules.resolve("no-force-push-main.drl"));
        env.put("CLAUDE_PROJECT_DIR", project.toString());
        String in = Proc.hookInput("git push --force origin main", project.toString(), "s");
        Proc.Result untrusted = Proc.run(project, env, in, "hook");
        assertThat(JSON.readTree(untrusted.stdout()).at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("allow");
        assertThat(Files.readString(home.resolve(".claude/logs/compound-bash.log"))).contains("are not loaded");
        // A project cannot trust itself from its own settings.
        Files.writeString(project.resolve(".claude/settings.json"), "{\"compoundBash\": {\"trustedProjectDirs\": [\"" + project + "\"]}}");
        assertThat(JSON.readTree(Proc.run(project, env, in, "hook").stdout()).at("/hookSpecificOutput/permissionDecision").asText())
                .isEqualTo("allow");
        JsonNode settings = JSON.readTree(home.resolve(".claude/settings.json").toFile());
        ((com.fasterxml.jackson.databind.node.ObjectNode) settings).putObject("compoundBash").putArray("trustedProjectDirs").add(project.toString());
        Files.writeString(home.resolve(".claude/settings.json"), settings.toString());
        Proc.Result trusted = Proc.run(project, env, in, "hook");
        assertThat(JSON.readTree(trusted.stdout()).at("/hookSpecificOutput/permissionDecision").asText()).isEqualTo("deny");
    }

    @Test
    void installDryRunInstallAgainAndUninstall() throws Exception {
        Path settings = home.resolve(".claude/settings.json");
        String original = Files.readString(settings);
        Proc.Result dry = cli("install", "--dry-run", "--command", "/opt/cb/bin/compound-bash hook");
        assertThat(dry.exit()).isZero();
        assertThat(dry.stdout()).contains("+++ ").contains("+            \"command\": \"/opt/cb/bin/compound-bash hook\",");
        assertThat(Files.readString(settings)).isEqualTo(original);

        Proc.Result inst = cli("install", "--user", "--command", "/opt/cb/bin/compound-bash hook");
        assertThat(inst.exit()).isZero();
        assertThat(inst.stdout()).contains("install done (backup: ");
        String installed = Files.readString(settings);
        JsonNode o = JSON.readTree(installed);
        assertThat(o.at("/hooks/PreToolUse/0/hooks/0/command").asText()).isEqualTo("/opt/cb/bin/compound-bash hook");
        assertThat(o.at("/hooks/PostToolUse")).isEqualTo(JSON.readTree(original).at("/hooks/PostToolUse"));
        assertThat(o.get("permissions")).isEqualTo(JSON.readTree(original).get("permissions"));
        try (var s = Files.list(settings.getParent())) {
            Path backup = s.filter(p -> p.getFileName().toString().endsWith(".bak")).findFirst().orElseThrow();
            assertThat(Files.readString(backup)).isEqualTo(original);
        }

        Proc.Result again = cli("install");
        assertThat(again.stdout()).contains("nothing changed");
        assertThat(Files.readString(settings)).isEqualTo(installed);

        Proc.Result un = cli("uninstall");
        assertThat(un.exit()).isZero();
        // the user's own text back, byte for byte (install's backup holds the same settings)
        assertThat(Files.readString(settings)).isEqualTo(original);

        env.put("CLAUDE_PROJECT_DIR", work.toString());
        assertThat(cli("install", "--project", "--command", "/y/compound-bash hook").exit()).isZero();
        assertThat(cli("install", "--project", "--command", "/x/compound-bash hook").exit()).isZero();
        JsonNode p = JSON.readTree(work.resolve(".claude/settings.json").toFile());
        assertThat(p.at("/hooks/PreToolUse")).hasSize(1);
    }

    /**
     * Issue 20 (a new user's trial): a settings file that is not JSON is named with its line and column: install
     * refuses to edit its own target (exit 2, the file unchanged), warns of another one Claude Code reads here, and
     * uninstall removes a settings file that install created and that holds nothing else.
     */
    @Test
    void installNamesTheLineAndColumnOfASettingsFileThatIsNotJson() throws Exception {
        Path settings = home.resolve(".claude/settings.json");
        String broken = "{\n  \"permissions\": {\"deny\": [\"Bash(rm *)\",]}\n}\n";
        Files.writeString(settings, broken);
        Proc.Result refused = cli("install", "--command", "/opt/cb/bin/compound-bash hook");
        assertThat(refused.exit()).isEqualTo(2);
        assertThat(refused.stderr()).contains(settings + ":2:41: not valid JSON, left unchanged: Unexpected character");
        assertThat(Files.readString(settings)).isEqualTo(broken);

        // the target is fine (it is created), the project's local settings are not: install warns, naming the place
        Files.delete(settings);
        env.put("CLAUDE_PROJECT_DIR", work.toString());
        Path local = work.resolve(".claude/settings.local.json");
        Files.createDirectories(local.getParent());
        Files.writeString(local, "{\"permissions\": {\"allow\": [\"Bash(ls)\"]\n");
        Proc.Result warned = cli("install", "--command", "/opt/cb/bin/compound-bash hook");
        assertThat(warned.exit()).as(warned.stderr()).isZero();
        assertThat(warned.stderr()).contains("warning: " + local + ":2:1: invalid JSON")
                .contains("the hook asks before every Bash call");
        assertThat(settings).exists();
        Proc.Result un = cli("uninstall");
        assertThat(un.exit()).isZero();
        assertThat(un.stdout()).contains("removed (install had created it)");
        assertThat(settings).doesNotExist();
    }

    /**
     * Issue 20, finding 5: with the plugin enabled, install refuses (a settings entry would run the hook twice),
     * says why and how to switch routes, and changes nothing, also with --dry-run.
     */
    @Test
    void installRefusesWhileThePluginRunsTheHook() throws Exception {
        Path settings = home.resolve(".claude/settings.json");
        Files.writeString(settings, "{\"enabledPlugins\": {\"compound-bash@compound-bash\": true}}\n");
        String before = Files.readString(settings);
        for (String[] args : List.of(new String[]{"install", "--command", "/opt/cb/bin/compound-bash hook"},
                new String[]{"install", "--dry-run", "--command", "/opt/cb/bin/compound-bash hook"},
                new String[]{"install", "--project", "--command", "/opt/cb/bin/compound-bash hook"})) {
            Proc.Result r = cli(args);
            assertThat(r.exit()).as(r.stderr()).isEqualTo(1);
            assertThat(r.stdout()).isEmpty();
            assertThat(r.stderr()).contains("the plugin compound-bash@compound-bash is enabled (" + settings + ")")
                    .contains("would run it a second time. Nothing changed.")
                    .contains("claude plugin disable compound-bash@compound-bash").contains("warm --wait");
        }
        assertThat(Files.readString(settings)).isEqualTo(before);
        assertThat(Files.exists(work.resolve(".claude/settings.json"))).isFalse();
    }

    /**
     * Issue 20, finding 9: uninstall stops the evaluator; --purge removes the cache, the runtime directory and the
     * logs, and keeps (and names) the user's rules and the settings backups; uninstall names a plugin still enabled.
     */
    @Test
    void uninstallStopsTheEvaluatorAndPurgeRemovesWhatItKeeps() throws Exception {
        Path xdg = tmp.resolve("xdg");
        Files.createDirectories(xdg);
        env.put("XDG_RUNTIME_DIR", xdg.toString());
        Path runtime = xdg.resolve("compound-bash");
        assertThat(cli("install", "--command", "/opt/cb/bin/compound-bash hook").exit()).isZero();
        Path cache = home.resolve(".claude/compound-bash/cache");
        Files.createDirectories(cache);
        Files.writeString(cache.resolve("cds-123.jsa"), "archive");
        Files.writeString(cache.resolve("user-abc.kpkg"), "compiled");
        Path rules = userRules();
        Files.writeString(rules.resolve("mine.drl"), "package mine\n");
        hook("ls");
        Path logs = home.resolve(".claude/logs");
        assertThat(logs.resolve("compound-bash.log")).exists();
        assertThat(logs.resolve("compound-bash.jsonl")).exists();
        Files.writeString(logs.resolve("compound-bash.jsonl.1"), "{}\n");
        Files.writeString(logs.resolve("other-tool.log"), "not ours\n");

        // an evaluator, as the launcher starts it
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-Xlog:disable", "-cp", cp, "dev.compoundbash.cli.Main", "daemon", "run",
                "--dir", runtime.toString()).redirectErrorStream(true).redirectOutput(tmp.resolve("daemon.out").toFile());
        pb.environment().putAll(env);
        Process daemon = pb.start();
        try {
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (dev.compoundbash.daemon.Protocol.running(runtime).isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(100);
            }
            assertThat(dev.compoundbash.daemon.Protocol.running(runtime)).isPresent();

            Proc.Result dry = cli("uninstall", "--purge", "--dry-run");
            assertThat(dry.exit()).isZero();
            assertThat(dry.stdout()).contains("would stop the evaluator (" + runtime + ")")
                    .contains("would remove " + cache).contains("would remove " + logs.resolve("compound-bash.log"));
            assertThat(daemon.isAlive()).isTrue();
            assertThat(cache).exists();

            Files.writeString(home.resolve(".claude/settings.json"), Files.readString(home.resolve(".claude/settings.json"))
                    .replaceFirst("\\{", "{\"enabledPlugins\": {\"compound-bash@compound-bash\": true},"));
            Proc.Result un = cli("uninstall", "--purge");
            assertThat(un.exit()).as(un.stderr()).isZero();
            assertThat(daemon.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("the evaluator stopped").isTrue();
            assertThat(un.stdout()).contains("uninstall done").contains("stopped the evaluator (" + runtime + ")")
                    .contains("removed " + cache).contains("removed " + runtime)
                    .contains("removed " + logs.resolve("compound-bash.log"))
                    .contains("removed " + logs.resolve("compound-bash.jsonl"))
                    .contains("removed " + logs.resolve("compound-bash.jsonl.1"))
                    .contains("kept your rules: " + rules + " (1 file(s))")
                    .contains("kept 2 backup(s) of " + home.resolve(".claude/settings.json")) // install's and uninstall's
                    .contains("note: the plugin compound-bash@compound-bash is still enabled")
                    .contains("claude plugin uninstall compound-bash@compound-bash");
            assertThat(cache).doesNotExist();
            assertThat(runtime).doesNotExist();
            assertThat(logs.resolve("compound-bash.log")).doesNotExist();
            assertThat(logs.resolve("other-tool.log")).exists();
            assertThat(rules.resolve("mine.drl")).exists();
            JsonNode after = JSON.readTree(home.resolve(".claude/settings.json").toFile());
            assertThat(after.at("/hooks/PreToolUse").isMissingNode()).isTrue();
            assertThat(after.at("/hooks/SessionStart").isMissingNode()).isTrue();
        } finally {
            daemon.destroyForcibly();
        }
    }

    /** Runs the hook in process, as the process would, writing both logs under the temp home. */
    void hook(String command) {
        hook(command, null);
    }

    /** {@link #hook(String)} with the input's {@code permission_mode} (null: none). */
    void hook(String command, String permissionMode) {
        String in;
        try {
            in = Proc.hookInput(command, work.toString(), "replay-test");
            if (permissionMode != null) {
                com.fasterxml.jackson.databind.node.ObjectNode o =
                        (com.fasterxml.jackson.databind.node.ObjectNode) JSON.readTree(in);
                o.put("permission_mode", permissionMode);
                in = o.toString();
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
        new HookRunner(env, "test").run(new ByteArrayInputStream(in.getBytes(StandardCharsets.UTF_8)),
                new PrintStream(new ByteArrayOutputStream()));
    }

    @Test
    void replayReportsExactlyTheDecisionsAChangedRuleSetChanges() throws Exception {
        List<String> commands = List.of(
                "git status",                      // allow -> allow (settings)
                "git log --oneline -3",            // defer -> allow (git-readonly)
                "echo $(git diff --stat)",         // defer -> allow (git-readonly, nested; Claude Code's read-only check accepts it)
                "git push -f origin main",         // allow -> deny (no-force-push-main)
                "git push origin feature",         // allow -> allow
                "curl example.com",                // defer -> defer
                "ls > /etc/x");                    // ask -> ask
        for (String c : commands) hook(c);
        Path jsonl = home.resolve(".claude/logs/compound-bash.jsonl");
        Path text = home.resolve(".claude/logs/compound-bash.log");
        assertThat(Files.readAllLines(jsonl)).hasSize(commands.size());

        Proc.Result same = cli("replay", jsonl.toString());
        assertThat(same.exit()).isZero();
        assertThat(same.stdout()).contains("7 decision(s) replayed, 0 changed").contains("throughput: 7 decision(s)");

        for (Path log : List.of(jsonl, text)) {
            Proc.Result r = cli("replay", "--rules", EXAMPLES.toString(), log.toString());
            assertThat(r.exit()).as(r.stdout() + r.stderr()).isEqualTo(1);
            String out = r.stdout();
            assertThat(out).contains("defer -> allow          2  changed",
                    "allow -> deny           1  changed", "allow -> allow          2", "defer -> defer          1",
                    "ask -> ask              1", "7 decision(s) replayed, 3 changed");
            String changed = out.substring(out.indexOf("changed decisions:"));
            assertThat(changed.lines().filter(l -> l.startsWith("    command: ")).toList()).containsExactly(
                    "    command: git log --oneline -3", "    command: echo $(git diff --stat)",
                    "    command: git push -f origin main");
            assertThat(changed).contains("    old: allow  ").contains("    new: deny   ".trim())
                    .contains("force-pushes to main/master");
        }
        Proc.Result since = cli("replay", "--since", "2000-01-01", "--rules", EXAMPLES.toString(), jsonl.toString());
        assertThat(since.stdout()).contains("7 decision(s) replayed");
        Proc.Result future = cli("replay", "--since", "2999-01-01", jsonl.toString());
        assertThat(future.exit()).isZero();
        assertThat(future.stdout()).contains("0 decision(s) replayed");
        assertThat(cli("replay", "--since", "soon", jsonl.toString()).exit()).isEqualTo(2);
    }

    @Test
    void replayJudgesEachEntryInThePermissionModeItWasDecidedIn() throws Exception {
        // Before, replay judged every entry in default mode: plan-mode defers of rule-approved commands and
        // bypass-mode defers of hook prompts all showed as changed although nothing had changed.
        hook("git status", "plan");                 // approved by an allow rule: plan mode defers
        hook("echo $(curl x)", "bypassPermissions"); // the hook's own nested-command prompt: bypass defers
        hook("git status", null);                   // default: allow
        Path jsonl = home.resolve(".claude/logs/compound-bash.jsonl");
        Path text = home.resolve(".claude/logs/compound-bash.log");
        List<String> lines = Files.readAllLines(jsonl);
        assertThat(lines).hasSize(3);
        assertThat(JSON.readTree(lines.get(0)).path("permission_mode").asText()).isEqualTo("plan");
        assertThat(JSON.readTree(lines.get(0)).path("decision").asText()).isEqualTo("defer");
        assertThat(JSON.readTree(lines.get(1)).path("decision").asText()).isEqualTo("defer");
        assertThat(JSON.readTree(lines.get(2)).has("permission_mode")).isFalse();
        for (Path log : List.of(jsonl, text)) {
            Proc.Result r = cli("replay", log.toString());
            assertThat(r.exit()).as(log + ": " + r.stdout() + r.stderr()).isZero();
            assertThat(r.stdout()).contains("3 decision(s) replayed, 0 changed", "defer -> defer          2",
                    "allow -> allow          1");
        }
    }

    @Test
    void parallelHookProcessesNeverCorruptTheDecisionLog() throws Exception {
        int n = 4;
        ExecutorService pool = Executors.newFixedThreadPool(n);
        List<Future<Proc.Result>> results = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String in = Proc.hookInput("git status && echo " + "x".repeat(5000) + i, work.toString(), "p" + i);
            results.add(pool.submit(() -> Proc.run(work, env, in, "hook")));
        }
        for (Future<Proc.Result> f : results) assertThat(f.get().exit()).isZero();
        pool.shutdown();
        List<String> lines = Files.readAllLines(home.resolve(".claude/logs/compound-bash.jsonl"));
        assertThat(lines).hasSize(n);
        List<String> sessions = new ArrayList<>();
        for (String l : lines) {
            JsonNode o = JSON.readTree(l);
            assertThat(o.get("decision").asText()).isEqualTo("allow");
            assertThat(o.get("duration_us").asLong()).isPositive();
            sessions.add(o.get("session_id").asText());
        }
        assertThat(sessions).containsExactlyInAnyOrder("p0", "p1", "p2", "p3");
    }

    /** The 1-based line of {@code file} that starts with {@code prefix}. */
    static int lineOf(String file, String prefix) throws java.io.IOException {
        List<String> lines = java.nio.file.Files.readAllLines(java.nio.file.Path.of(file));
        for (int i = 0; i < lines.size(); i++) if (lines.get(i).startsWith(prefix)) return i + 1;
        throw new AssertionError(prefix + " not in " + file);
    }
}
