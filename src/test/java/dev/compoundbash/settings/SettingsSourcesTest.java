package dev.compoundbash.settings;

import dev.compoundbash.rules.Decider;
import static org.assertj.core.api.Assertions.assertThat;

import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The settings files Claude Code reads beyond the user and project ones: managed settings and their drop-in
 * directory, {@code CLAUDE_CONFIG_DIR}, the local settings at the git root, {@code allowManagedPermissionRulesOnly}.
 * Temporary directories stand in for {@code /etc/claude-code}, the config directory and the project.
 */
class SettingsSourcesTest {

    @TempDir
    Path tmp;

    static RuleEngine engine;

    @BeforeAll
    static void loadRules() {
        engine = RuleEngine.load(List.of());
    }

    private Path managed() {
        return tmp.resolve("etc-claude-code");
    }

    private Path home() {
        return tmp.resolve("home");
    }

    private static Path write(Path file, String json) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, json, StandardCharsets.UTF_8);
        return file;
    }

    private static String perms(String key, String... rules) {
        StringBuilder sb = new StringBuilder("{\"permissions\":{\"" + key + "\":[");
        for (int i = 0; i < rules.length; i++) {
            if (i > 0) sb.append(',');
            sb.append('"').append(rules[i]).append('"');
        }
        return sb.append("]}}").toString();
    }

    private SettingsSources sources(Map<String, String> env) {
        return SettingsSources.of(env, "Linux").withManagedDir(managed());
    }

    private Map<String, String> env(String... kv) {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home().toString());
        env.put("CLAUDE_CODE_SANDBOXED", "1"); // a trusted workspace: project allow rules count
        for (int i = 0; i < kv.length; i += 2) env.put(kv[i], kv[i + 1]);
        return env;
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
        "Linux, /etc/claude-code",
        "Mac OS X, /Library/Application Support/ClaudeCode",
        "Darwin, /Library/Application Support/ClaudeCode",
        "FreeBSD, /etc/claude-code",
        "NULL, /etc/claude-code",
        "Windows 11, NULL",
    })
    void managedDirectoryFollowsTheOs(String os, String expected) {
        Path dir = SettingsSources.managedDirFor(os);
        assertThat(dir == null ? null : dir.toString()).isEqualTo(expected);
        assertThat(SettingsSources.of(Map.of(), os).managedDir()).isEqualTo(dir);
    }

    @Test
    void configDirReplacesHomeDotClaude() {
        Path config = tmp.resolve("cfg");
        assertThat(SettingsSources.of(env("CLAUDE_CONFIG_DIR", config.toString()), "Linux").userDir())
                .isEqualTo(config);
        assertThat(SettingsSources.of(env("CLAUDE_CONFIG_DIR", ""), "Linux").userDir())
                .isEqualTo(home().resolve(".claude"));
        SettingsSources none = SettingsSources.of(Map.of(), "Linux");
        assertThat(none.userDir()).isNull();
        assertThat(none.warnings()).singleElement().asString().contains("HOME");
        assertThat(SettingsSources.of(Map.of("CLAUDE_CONFIG_DIR", config.toString()), "Linux").warnings()).isEmpty();
    }

    @Test
    void gitRootIsTheNearestAncestorWithDotGit() throws IOException {
        Path repo = tmp.resolve("repo");
        Path sub = repo.resolve("a/b");
        Files.createDirectories(sub);
        assertThat(SettingsSources.gitRoot(sub)).isNull();
        Files.createDirectories(repo.resolve(".git"));
        assertThat(SettingsSources.gitRoot(sub)).isEqualTo(repo);
        assertThat(SettingsSources.gitRoot(repo)).isEqualTo(repo);
        Path worktree = tmp.resolve("wt");
        Files.createDirectories(worktree.resolve("x"));
        Files.writeString(worktree.resolve(".git"), "gitdir: /elsewhere\n"); // a linked worktree's .git is a file
        assertThat(SettingsSources.gitRoot(worktree.resolve("x"))).isEqualTo(worktree);
        assertThat(SettingsSources.gitRoot(null)).isNull();
        assertThat(SettingsSources.of(env("CLAUDE_PROJECT_DIR", sub.toString()), "Linux").gitRoot()).isEqualTo(repo);
    }

    @Test
    void managedFileAndDropInsAreReadAfterTheOthersInAlphabeticalOrder() throws IOException {
        Path user = write(home().resolve(".claude/settings.json"), perms("allow", "Bash(ls *)"));
        Path base = write(managed().resolve("managed-settings.json"), perms("deny", "Bash(curl *)"));
        Path b = write(managed().resolve("managed-settings.d/20-b.json"), perms("deny", "Bash(wget *)"));
        Path a = write(managed().resolve("managed-settings.d/10-a.json"), perms("deny", "Bash(nc *)", "Bash(curl *)"));
        write(managed().resolve("managed-settings.d/.hidden.json"), perms("deny", "Bash(hidden *)"));
        write(managed().resolve("managed-settings.d/notes.txt"), perms("deny", "Bash(txt *)"));
        Files.createDirectories(managed().resolve("managed-settings.d/dir.json"));

        PermissionSettings s = SettingsLoader.loadFrom(sources(env()));

        assertThat(s.filesRead()).containsExactly(user, base, a, b);
        assertThat(s.deny()).containsExactly("Bash(curl *)", "Bash(nc *)", "Bash(wget *)");
        assertThat(s.allow()).containsExactly("Bash(ls *)");
        assertThat(s.managedRulesOnly()).isFalse();
        assertThat(s.warnings()).singleElement().asString().contains("dir.json").contains("not a regular file");
    }

    @Test
    void dropInsAreReadWithoutABaseFileAndABadOneIsSkipped() throws IOException {
        Path good = write(managed().resolve("managed-settings.d/a.json"), perms("ask", "Bash(git push *)"));
        write(managed().resolve("managed-settings.d/b.json"), "{not json");
        PermissionSettings s = SettingsLoader.loadFrom(sources(env()));
        assertThat(s.filesRead()).containsExactly(good);
        assertThat(s.ask()).containsExactly("Bash(git push *)");
        assertThat(s.warnings()).singleElement().asString().contains("b.json").contains("invalid JSON");
    }

    @Test
    void noManagedDirectoryReadsNoManagedFiles() throws IOException {
        write(managed().resolve("managed-settings.json"), perms("deny", "Bash(curl *)"));
        PermissionSettings s = SettingsLoader.loadFrom(SettingsSources.of(env(), "Linux").withManagedDir(null));
        assertThat(s.deny()).isEmpty();
        assertThat(s.filesRead()).isEmpty();
    }

    @Test
    void userSettingsComeFromTheConfigDirWhenItIsSet() throws IOException {
        write(home().resolve(".claude/settings.json"), perms("allow", "Bash(from-home)"));
        Path config = tmp.resolve("cfg");
        Path f = write(config.resolve("settings.json"), perms("allow", "Bash(from-config-dir)"));
        PermissionSettings s = SettingsLoader.loadFrom(sources(env("CLAUDE_CONFIG_DIR", config.toString())));
        assertThat(s.allow()).containsExactly("Bash(from-config-dir)");
        assertThat(s.filesRead()).containsExactly(f);
    }

    @Test
    void localSettingsAreReadAtTheGitRootAndInTheProjectDirectory() throws IOException {
        Path repo = tmp.resolve("repo");
        Path project = repo.resolve("service");
        Files.createDirectories(repo.resolve(".git"));
        Path rootLocal = write(repo.resolve(".claude/settings.local.json"), perms("deny", "Bash(root-local *)"));
        write(repo.resolve(".claude/settings.json"), perms("deny", "Bash(root-shared *)")); // not a local file
        Path shared = write(project.resolve(".claude/settings.json"), perms("allow", "Bash(shared *)"));
        Path local = write(project.resolve(".claude/settings.local.json"), perms("allow", "Bash(local *)"));

        PermissionSettings s = SettingsLoader.loadFrom(sources(env("CLAUDE_PROJECT_DIR", project.toString())));

        assertThat(s.filesRead()).containsExactly(shared, rootLocal, local);
        assertThat(s.deny()).containsExactly("Bash(root-local *)");
        assertThat(s.allow()).containsExactly("Bash(shared *)", "Bash(local *)");
    }

    @Test
    void localSettingsAtAGitRootThatIsTheProjectAreReadOnce() throws IOException {
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo.resolve(".git"));
        Path local = write(repo.resolve(".claude/settings.local.json"), perms("allow", "Bash(x)"));
        PermissionSettings s = SettingsLoader.loadFrom(sources(env("CLAUDE_PROJECT_DIR", repo + "/.")));
        assertThat(s.filesRead()).hasSize(1);
        assertThat(s.filesRead().get(0).normalize()).isEqualTo(local);
    }

    @Test
    void allowManagedPermissionRulesOnlyKeepsOnlyManagedRules() throws IOException {
        Path project = tmp.resolve("project");
        Path user = write(home().resolve(".claude/settings.json"),
                "{\"permissions\":{\"allow\":[\"Bash(curl *)\"],\"deny\":[\"Bash(user-deny *)\"],"
                        + "\"additionalDirectories\":[\"/data\"]}}");
        Path shared = write(project.resolve(".claude/settings.json"),
                "{\"allowManagedPermissionRulesOnly\":false,\"permissions\":{\"ask\":[\"Bash(x *)\"]}}");
        Path base = write(managed().resolve("managed-settings.json"),
                "{\"allowManagedPermissionRulesOnly\":true,\"permissions\":{\"allow\":[\"Bash(git status)\"],"
                        + "\"deny\":[\"Bash(rm *)\"]}}");

        PermissionSettings s = SettingsLoader.loadFrom(sources(env("CLAUDE_PROJECT_DIR", project.toString())));

        assertThat(s.managedRulesOnly()).isTrue();
        assertThat(s.allow()).containsExactly("Bash(git status)");
        assertThat(s.deny()).containsExactly("Bash(rm *)");
        assertThat(s.ask()).isEmpty();
        assertThat(s.additionalDirectories()).containsExactly("/data");
        assertThat(s.filesRead()).containsExactly(user, shared, base); // read, named, but their rules do not count
    }

    @Test
    void allowManagedPermissionRulesOnlyCountsOnlyInManagedFilesAndTheLastOneWins() throws IOException {
        write(home().resolve(".claude/settings.json"),
                "{\"allowManagedPermissionRulesOnly\":true,\"permissions\":{\"allow\":[\"Bash(ls *)\"]}}");
        PermissionSettings userOnly = SettingsLoader.loadFrom(sources(env()));
        assertThat(userOnly.managedRulesOnly()).isFalse();
        assertThat(userOnly.allow()).containsExactly("Bash(ls *)");

        write(managed().resolve("managed-settings.json"), "{\"allowManagedPermissionRulesOnly\":true}");
        write(managed().resolve("managed-settings.d/50-relax.json"), "{\"allowManagedPermissionRulesOnly\":false}");
        assertThat(SettingsLoader.loadFrom(sources(env())).managedRulesOnly()).isFalse();

        write(managed().resolve("managed-settings.d/90-strict.json"), "{\"allowManagedPermissionRulesOnly\":\"yes\"}");
        PermissionSettings bad = SettingsLoader.loadFrom(sources(env()));
        assertThat(bad.managedRulesOnly()).isFalse();
        assertThat(bad.warnings()).singleElement().asString().contains("not a boolean");
    }

    @Test
    void aDenyFromAnyScopeWinsOverAnAllowFromAnother() throws IOException {
        Path project = tmp.resolve("project");
        write(home().resolve(".claude/settings.json"), perms("allow", "Bash(git *)"));
        write(project.resolve(".claude/settings.local.json"), perms("deny", "Bash(git push *)"));
        write(managed().resolve("managed-settings.d/10-sec.json"), perms("deny", "Bash(curl *)"));
        write(project.resolve(".claude/settings.json"), perms("allow", "Bash(curl *)"));

        PermissionSettings s = SettingsLoader.loadFrom(sources(env("CLAUDE_PROJECT_DIR", project.toString())));
        HookLog quiet = HookLog.open(Map.of(), "test");

        assertThat(HookRunner.decide(new Decider.Call("git status", tmp.toString(), null, s, null), engine, quiet).outcome())
                .isEqualTo("allow");
        assertThat(HookRunner.decide(new Decider.Call("git push origin main", tmp.toString(), null, s, null), engine, quiet).outcome())
                .isEqualTo("deny");
        assertThat(HookRunner.decide(new Decider.Call("curl https://example.com", tmp.toString(), null, s, null), engine, quiet).outcome())
                .isEqualTo("deny");
    }

    @Test
    void theLogsLoadedLineNamesEveryFileRead() throws IOException {
        Path user = write(home().resolve(".claude/settings.json"), perms("allow", "Bash(ls *)"));
        Path base = write(managed().resolve("managed-settings.json"), "{\"allowManagedPermissionRulesOnly\":true}");
        Path drop = write(managed().resolve("managed-settings.d/10-a.json"), perms("deny", "Bash(rm *)"));
        PermissionSettings s = SettingsLoader.loadFrom(sources(env()));
        Path logFile = tmp.resolve("hook.log");
        HookLog log = HookLog.open(Map.of(HookLog.LOG_ENV, logFile.toString()), "test");
        try {
            HookRunner.decide(new Decider.Call("rm -rf x", tmp.toString(), null, s, null), engine, log);
        } finally {
            log.close();
        }
        String text = Files.readString(logFile);
        assertThat(text).contains("loaded 0 allow, 0 ask, 1 deny patterns from [" + user + ", " + base + ", " + drop
                + "]");
        assertThat(text).contains("allowManagedPermissionRulesOnly");
    }
}
