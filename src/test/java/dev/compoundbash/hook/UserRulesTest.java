package dev.compoundbash.hook;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class UserRulesTest {
    @TempDir
    Path tmp;

    Path home, project;

    void layout(String trusted) throws Exception {
        home = tmp.resolve("home");
        project = tmp.resolve("proj");
        Files.createDirectories(home.resolve(".claude/compound-bash/rules"));
        Files.writeString(home.resolve(".claude/compound-bash/rules/b.drl"), "");
        Files.writeString(home.resolve(".claude/compound-bash/rules/a.drl"), "");
        Files.writeString(home.resolve(".claude/compound-bash/rules/notes.txt"), "");
        Files.createDirectories(project.resolve(".claude/compound-bash/rules"));
        Files.writeString(project.resolve(".claude/compound-bash/rules/p.drl"), "");
        if (trusted != null) {
            Files.writeString(home.resolve(".claude/settings.json"),
                    "{\"compoundBash\": {\"trustedProjectDirs\": [" + trusted + "]}}");
        }
    }

    @Test
    void projectRulesLoadOnlyWhenTrusted() throws Exception {
        layout(null);
        Map<String, String> env = Map.of("HOME", home.toString(), "CLAUDE_PROJECT_DIR", project.toString());
        assertThat(UserRules.files(env)).extracting(p -> p.getFileName().toString()).containsExactly("a.drl", "b.drl");
        assertThat(UserRules.notes(env)).singleElement().asString().contains("not loaded").contains(UserRules.TRUST_KEY);
    }

    @Test
    void trustedProjectRulesLoadAfterTheUsers() throws Exception {
        layout("\"/elsewhere\", \"" + tmp.resolve("proj/.") + "\"");
        Map<String, String> env = Map.of("HOME", home.toString(), "CLAUDE_PROJECT_DIR", project.toString());
        assertThat(UserRules.projectTrusted(env)).isTrue();
        assertThat(UserRules.files(env)).extracting(p -> p.getFileName().toString()).containsExactly("a.drl", "b.drl", "p.drl");
        assertThat(UserRules.notes(env)).isEmpty();
    }

    @Test
    void tildeMeansHomeAndProjectSettingsCannotTrustThemselves() throws Exception {
        layout(null);
        Files.move(project, home.resolve("proj"));
        Path proj = home.resolve("proj");
        Files.writeString(proj.resolve(".claude/settings.json"),
                "{\"compoundBash\": {\"trustedProjectDirs\": [\"" + proj + "\"]}}");
        Map<String, String> env = Map.of("HOME", home.toString(), "CLAUDE_PROJECT_DIR", proj.toString());
        assertThat(UserRules.projectTrusted(env)).isFalse();
        Files.writeString(home.resolve(".claude/settings.json"), "{\"compoundBash\": {\"trustedProjectDirs\": [\"~/proj\"]}}");
        assertThat(UserRules.projectTrusted(env)).isTrue();
    }

    @Test
    void configDirReplacesHomeDotClaude() throws Exception {
        layout(null);
        Path config = tmp.resolve("cfg");
        Files.createDirectories(config.resolve("compound-bash/rules"));
        Files.writeString(config.resolve("compound-bash/rules/c.drl"), "");
        Map<String, String> env = Map.of("HOME", home.toString(), "CLAUDE_CONFIG_DIR", config.toString());
        assertThat(UserRules.files(env)).extracting(p -> p.getFileName().toString()).containsExactly("c.drl");
        Files.writeString(config.resolve("settings.json"), "{\"compoundBash\": {\"trustedProjectDirs\": [\"" + project + "\"]}}");
        Map<String, String> env2 = Map.of("HOME", home.toString(), "CLAUDE_CONFIG_DIR", config.toString(),
                "CLAUDE_PROJECT_DIR", project.toString());
        assertThat(UserRules.files(env2)).extracting(p -> p.getFileName().toString()).containsExactly("c.drl", "p.drl");
    }

    @Test
    void malformedUserSettingsTrustNothing() throws Exception {
        layout(null);
        Files.writeString(home.resolve(".claude/settings.json"), "{not json");
        Map<String, String> env = Map.of("HOME", home.toString(), "CLAUDE_PROJECT_DIR", project.toString());
        assertThat(UserRules.projectTrusted(env)).isFalse();
    }
    /** Issue 20, finding 1: a rules directory that cannot be listed is not an empty one. */
    @Test
    void aRulesDirectoryThatCannotBeListedStandsInForItsFiles() throws Exception {
        home = tmp.resolve("home");
        Path dir = home.resolve(".claude/compound-bash/rules");
        Files.createDirectories(dir.getParent());
        Map<String, String> env = Map.of("HOME", home.toString());
        assertThat(UserRules.files(env)).isEmpty();                       // absent: no rules
        Files.createSymbolicLink(dir, tmp.resolve("gone"));                // a link to nothing
        assertThat(UserRules.files(env)).containsExactly(dir);
        Files.delete(dir);
        Files.writeString(dir, "not a directory");                          // a file in its place
        assertThat(UserRules.files(env)).containsExactly(dir);
        Files.delete(dir);
        Files.createDirectories(dir);
        Files.writeString(dir.resolve("a.drl"), "");
        assertThat(UserRules.files(env)).containsExactly(dir.resolve("a.drl"));
        Map<String, String> fileHome = Map.of("HOME", Files.writeString(tmp.resolve("plain"), "x").toString());
        assertThat(UserRules.files(fileHome)).isEmpty();                  // under a file: surely absent
        if (!"root".equals(System.getProperty("user.name"))) {             // root reads through chmod 000
            try {
                Files.setPosixFilePermissions(dir, java.util.Set.of());
                assertThat(UserRules.files(env)).containsExactly(dir);
                Files.setPosixFilePermissions(dir.getParent(), java.util.Set.of());
                assertThat(UserRules.files(env)).containsExactly(dir);
            } finally {
                Files.setPosixFilePermissions(dir.getParent(),
                        java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
                Files.setPosixFilePermissions(dir, java.nio.file.attribute.PosixFilePermissions.fromString("rwx------"));
            }
        }
    }
}
