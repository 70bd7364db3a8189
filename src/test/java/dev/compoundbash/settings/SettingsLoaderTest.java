package dev.compoundbash.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsLoaderTest {

    @TempDir
    Path tmp;

    private Path home() {
        return tmp.resolve("home");
    }

    private Path project() {
        return tmp.resolve("project");
    }

    private Path write(Path dir, String name, String json) throws IOException {
        return writeBytes(dir, name, json.getBytes(StandardCharsets.UTF_8));
    }

    private Path writeBytes(Path dir, String name, byte[] bytes) throws IOException {
        Path f = dir.resolve(".claude").resolve(name);
        Files.createDirectories(f.getParent());
        Files.write(f, bytes);
        return f;
    }

    private Map<String, String> env(boolean withProject) throws IOException {
        Map<String, String> env = new HashMap<>();
        env.put("HOME", home().toString());
        if (withProject) {
            env.put("CLAUDE_PROJECT_DIR", project().toString());
            trust(project());
        }
        return env;
    }

    /** Records Claude Code's trust in a workspace, as accepting its trust dialog does. */
    private void trust(Path dir) throws IOException {
        Files.createDirectories(home());
        Files.writeString(home().resolve(".claude.json"), "{\"projects\":{\"" + dir + "\":{\"hasTrustDialogAccepted\":true}}}");
    }

    @Test
    void anUntrustedWorkspaceGivesAskAndDenyRulesOnly() throws IOException {
        write(project(), "settings.json", "{\"permissions\":{\"allow\":[\"Bash(npm test)\"],\"deny\":[\"Bash(rm *)\"],"
                + "\"additionalDirectories\":[\"/opt\"]}}");
        Map<String, String> env = Map.of("HOME", home().toString(), "CLAUDE_PROJECT_DIR", project().toString());
        PermissionSettings s = SettingsLoader.load(env);
        assertThat(s.allow()).isEmpty();
        assertThat(s.additionalDirectories()).isEmpty();
        assertThat(s.deny()).containsExactly("Bash(rm *)");
        assertThat(s.notes()).singleElement().asString().contains("the workspace is not trusted");
        // Trust of a directory above the project counts, as in Claude Code.
        trust(tmp);
        assertThat(SettingsLoader.load(env).allow()).containsExactly("Bash(npm test)");
        assertThat(SettingsLoader.load(Map.of("HOME", home().toString(), "CLAUDE_PROJECT_DIR", project().toString(),
                "CLAUDE_CODE_SANDBOXED", "1")).allow()).containsExactly("Bash(npm test)");
    }

    @Test
    void mergesInOrderAndDeduplicatesKeepingFirst() throws IOException {
        Path u = write(home(), "settings.json",
                "{\"permissions\":{\"allow\":[\"Bash(ls *)\",\"Bash(git status)\"],\"deny\":[\"Bash(rm *)\"],"
                        + "\"additionalDirectories\":[\"../docs\"]},\"model\":\"x\"}");
        Path ul = write(home(), "settings.local.json",
                "{\"permissions\":{\"allow\":[\"Bash(cat *)\",\"Bash(ls *)\"],\"ask\":[\"Bash(git push *)\"]}}");
        Path p = write(project(), "settings.json",
                "{\"permissions\":{\"allow\":[\"Bash(npm run build)\",\"Bash(git status)\"],\"deny\":[\"Read(./.env)\"]}}");
        Path pl = write(project(), "settings.local.json",
                "{\"permissions\":{\"allow\":[\"Bash(jq)\"],\"ask\":[\"Bash(git push *)\"],"
                        + "\"additionalDirectories\":[\"/opt/x\",\"../docs\"],\"defaultMode\":\"default\"}}");

        PermissionSettings s = SettingsLoader.load(env(true));

        // ~/.claude/settings.local.json is not read by Claude Code (measured, 2.1.328): its allow rule does not count,
        // its ask rule does.
        assertThat(s.allow()).containsExactly("Bash(ls *)", "Bash(git status)", "Bash(npm run build)", "Bash(jq)");
        assertThat(s.ask()).containsExactly("Bash(git push *)");
        assertThat(s.deny()).containsExactly("Bash(rm *)", "Read(./.env)");
        assertThat(s.additionalDirectories()).containsExactly("../docs", "/opt/x");
        assertThat(s.filesRead()).containsExactly(u, ul, p, pl);
        assertThat(s.warnings()).isEmpty();
        assertThat(s.notes()).singleElement().asString().startsWith(ul + ": 2 allow rule(s)")
                .contains("Claude Code does not read this file");
    }

    @Test
    void theUserLocalFileCountsOnlyForAskAndDeny() throws IOException {
        write(home(), "settings.local.json", "{\"permissions\":{\"allow\":[\"Bash(touch *)\"],"
                + "\"ask\":[\"Bash(git push *)\"],\"deny\":[\"Bash(rm *)\"],\"additionalDirectories\":[\"/tmp\"]}}");
        PermissionSettings s = SettingsLoader.load(env(false));
        assertThat(s.allow()).isEmpty();
        assertThat(s.additionalDirectories()).isEmpty();
        assertThat(s.ask()).containsExactly("Bash(git push *)");
        assertThat(s.deny()).containsExactly("Bash(rm *)");
        assertThat(s.notes()).hasSize(1);
    }

    @Test
    void theDefaultModeWriteOptInIsReadFromTheUsersOwnSettingsOnly() throws IOException {
        assertThat(SettingsLoader.load(env(true)).writesInDefaultMode()).isFalse();
        write(project(), "settings.json", "{\"compoundBash\":{\"approveWritesInDefaultMode\":true}}");
        write(project(), "settings.local.json", "{\"compoundBash\":{\"approveWritesInDefaultMode\":true}}");
        write(home(), "settings.local.json", "{\"compoundBash\":{\"approveWritesInDefaultMode\":true}}");
        assertThat(SettingsLoader.load(env(true)).writesInDefaultMode()).as("a project cannot opt in").isFalse();
        write(home(), "settings.json", "{\"compoundBash\":{\"approveWritesInDefaultMode\":true}}");
        assertThat(SettingsLoader.load(env(true)).writesInDefaultMode()).isTrue();
        write(home(), "settings.json", "{\"compoundBash\":{\"approveWritesInDefaultMode\":\"yes\"}}");
        PermissionSettings bad = SettingsLoader.load(env(true));
        assertThat(bad.writesInDefaultMode()).isFalse();
        assertThat(bad.warnings()).anyMatch(w -> w.contains("approveWritesInDefaultMode"));
    }

    @Test
    void theReadBlockOfAnyFileCounts() throws IOException {
        assertThat(SettingsLoader.load(env(true)).blockReadsOutside()).isFalse();
        write(project(), "settings.json", "{\"permissions\":{\"blockReadsOutsideWorkingDirectories\":true}}");
        assertThat(SettingsLoader.load(env(true)).blockReadsOutside()).as("the stricter setting wins").isTrue();
        write(project(), "settings.json", "{\"permissions\":{\"blockReadsOutsideWorkingDirectories\":\"on\"}}");
        PermissionSettings bad = SettingsLoader.load(env(true));
        assertThat(bad.blockReadsOutside()).isFalse();
        assertThat(bad.warnings()).anyMatch(w -> w.contains("blockReadsOutsideWorkingDirectories"));
    }

    @Test
    void missingFilesAreSkippedSilently() throws IOException {
        Path pl = write(project(), "settings.local.json", "{\"permissions\":{\"allow\":[\"Bash(jq)\"]}}");
        PermissionSettings s = SettingsLoader.load(env(true));
        assertThat(s.allow()).containsExactly("Bash(jq)");
        assertThat(s.filesRead()).containsExactly(pl);
        assertThat(s.warnings()).isEmpty();

        PermissionSettings none = SettingsLoader.load(Map.of("HOME", tmp.resolve("nowhere").toString()));
        assertThat(none.allow()).isEmpty();
        assertThat(none.filesRead()).isEmpty();
        assertThat(none.warnings()).isEmpty();
    }

    @Test
    void projectFilesSkippedWhenProjectDirUnsetOrEmpty() throws IOException {
        Path u = write(home(), "settings.json", "{\"permissions\":{\"allow\":[\"Bash(ls *)\"]}}");
        write(project(), "settings.json", "{\"permissions\":{\"allow\":[\"Bash(rm *)\"]}}");

        PermissionSettings unset = SettingsLoader.load(env(false));
        assertThat(unset.allow()).containsExactly("Bash(ls *)");
        assertThat(unset.filesRead()).containsExactly(u);

        Map<String, String> empty = env(false);
        empty.put("CLAUDE_PROJECT_DIR", "");
        PermissionSettings e = SettingsLoader.load(empty);
        assertThat(e.allow()).containsExactly("Bash(ls *)");
        assertThat(e.warnings()).isEmpty();
    }

    @Test
    void homeComesFromTheMapNotFromUserHome() throws IOException {
        write(home(), "settings.json", "{\"permissions\":{\"allow\":[\"Bash(from-map)\"]}}");
        String saved = System.getProperty("user.home");
        try {
            System.setProperty("user.home", tmp.resolve("elsewhere").toString());
            write(tmp.resolve("elsewhere"), "settings.json", "{\"permissions\":{\"allow\":[\"Bash(from-user-home)\"]}}");
            assertThat(SettingsLoader.load(env(false)).allow()).containsExactly("Bash(from-map)");
        } finally {
            System.setProperty("user.home", saved);
        }
        // HOME unset: no user settings at all, a warning, no exception
        PermissionSettings s = SettingsLoader.load(Map.of("CLAUDE_PROJECT_DIR", project().toString()));
        assertThat(s.allow()).isEmpty();
        assertThat(s.warnings()).singleElement().asString().contains("HOME");
        assertThat(SettingsLoader.load(null).allow()).isEmpty();
    }

    @Test
    void malformedJsonIsWarnedAndSkipped() throws IOException {
        Path broken = write(home(), "settings.json", "{\"permissions\":{\"allow\":[\"Bash(ls *)\",]}");
        write(home(), "settings.local.json", "{\"permissions\":{\"allow\":[\"Bash(cat *)\"]}} trailing");
        Path p = write(project(), "settings.json", "{\"permissions\":{\"allow\":[\"Bash(jq)\"]}}");
        write(project(), "settings.local.json", "");

        PermissionSettings s = SettingsLoader.load(env(true));
        assertThat(s.allow()).containsExactly("Bash(jq)");
        assertThat(s.filesRead()).containsExactly(p);
        assertThat(s.warnings()).hasSize(3);
        assertThat(s.warnings().get(0)).contains("settings.json").contains("invalid JSON");
        assertThat(s.warnings().get(1)).contains("settings.local.json").contains("invalid JSON");
        assertThat(s.warnings().get(2)).contains("empty");
        // the place to fix, as FILE:LINE:COLUMN (jackson's location): the stray ']' of line 1, column 39
        assertThat(s.warnings().get(0)).startsWith(broken + ":1:39: invalid JSON");
    }

    @Test
    void invalidJsonIsLocatedByLineAndColumn() throws IOException {
        Path f = write(home(), "settings.json", "{\n  \"permissions\": {\n    \"deny\": [\"Bash(rm *)\",]\n  }\n}\n");
        PermissionSettings s = SettingsLoader.load(env(false));
        assertThat(s.deny()).isEmpty();
        assertThat(s.unreadable()).singleElement().asString().startsWith(f + ":3:27: invalid JSON, skipped: ")
                .contains("Unexpected character (']'");
    }

    @Test
    void wrongTypesSkipTheFile() throws IOException {
        write(home(), "settings.json", "[\"Bash(ls *)\"]");
        write(home(), "settings.local.json", "{\"permissions\":[\"Bash(ls *)\"]}");
        write(project(), "settings.json", "{\"permissions\":{\"allow\":[\"Bash(x)\"],\"deny\":\"Bash(rm *)\"}}");
        Path pl = write(project(), "settings.local.json", "{\"permissions\":null}");

        PermissionSettings s = SettingsLoader.load(env(true));
        assertThat(s.allow()).isEmpty();
        assertThat(s.deny()).isEmpty();
        assertThat(s.filesRead()).containsExactly(pl);
        assertThat(s.warnings()).hasSize(3)
                .anySatisfy(w -> assertThat(w).contains("not a JSON object"))
                .anySatisfy(w -> assertThat(w).contains("\"permissions\" is not an object"))
                .anySatisfy(w -> assertThat(w).contains("permissions.deny").contains("not an array"));
    }

    @Test
    void nonStringEntriesAreIgnoredWithAWarning() throws IOException {
        Path u = write(home(), "settings.json",
                "{\"permissions\":{\"allow\":[\"Bash(ls *)\",42,null,{\"a\":1},[\"Bash(x)\"],true,\"Bash(cat *)\"]}}");
        PermissionSettings s = SettingsLoader.load(env(false));
        assertThat(s.allow()).containsExactly("Bash(ls *)", "Bash(cat *)");
        assertThat(s.filesRead()).containsExactly(u);
        assertThat(s.warnings()).hasSize(5).allSatisfy(w -> assertThat(w).contains("is not a string"));
    }

    @Test
    void nonUtf8IsWarnedAndSkipped() throws IOException {
        byte[] latin1 = "{\"permissions\":{\"allow\":[\"Bash(echo caf\u00e9)\"]}}".getBytes(StandardCharsets.ISO_8859_1);
        writeBytes(home(), "settings.json", latin1);
        PermissionSettings s = SettingsLoader.load(env(false));
        assertThat(s.allow()).isEmpty();
        assertThat(s.filesRead()).isEmpty();
        assertThat(s.warnings()).singleElement().asString().contains("UTF-8");
    }

    @Test
    void utf8WithBomAndUnicodeIsRead() throws IOException {
        byte[] body = "{\"permissions\":{\"allow\":[\"Bash(echo caf\u00e9 \uD83D\uDE00)\"]}}".getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[body.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(body, 0, withBom, 3, body.length);
        writeBytes(home(), "settings.json", withBom);
        PermissionSettings s = SettingsLoader.load(env(false));
        assertThat(s.allow()).containsExactly("Bash(echo caf\u00e9 \uD83D\uDE00)");
        assertThat(s.warnings()).isEmpty();
    }

    @Test
    void hugeFileIsWarnedAndSkipped() throws IOException {
        Path f = write(home(), "settings.json", "{}");
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.setLength(SettingsLoader.MAX_FILE_BYTES + 1); // sparse: cheap
        }
        PermissionSettings s = SettingsLoader.load(env(false));
        assertThat(s.filesRead()).isEmpty();
        assertThat(s.warnings()).singleElement().asString().contains("larger than");
    }

    @Test
    void deeplyNestedJsonDoesNotThrow() throws IOException {
        write(home(), "settings.json", "[".repeat(100_000));
        PermissionSettings s = SettingsLoader.load(env(false));
        assertThat(s.filesRead()).isEmpty();
        assertThat(s.warnings()).hasSize(1);
    }

    @Test
    void directoryInsteadOfFileAndBadPathsAreWarned() throws IOException {
        Files.createDirectories(home().resolve(".claude").resolve("settings.json"));
        PermissionSettings s = SettingsLoader.load(Map.of("HOME", home().toString(), "CLAUDE_PROJECT_DIR", "bad\0dir"));
        assertThat(s.filesRead()).isEmpty();
        assertThat(s.warnings()).anySatisfy(w -> assertThat(w).contains("not a regular file"))
                .anySatisfy(w -> assertThat(w).contains("invalid directory"));
    }

    @Test
    void loadFilesReadsExplicitFilesInOrderAndReportsMissingOnes() throws IOException {
        Path a = write(tmp.resolve("a"), "s.json", "{\"permissions\":{\"allow\":[\"Bash(b)\",\"Bash(a)\"],\"deny\":[\"Bash(rm *)\"]}}");
        Path b = write(tmp.resolve("b"), "s.json", "{\"permissions\":{\"allow\":[\"Bash(a)\",\"Bash(c)\"]}}");
        Path missing = tmp.resolve("missing.json");
        PermissionSettings s = SettingsLoader.loadFiles(java.util.Arrays.asList(a, missing, null, b));
        assertThat(s.allow()).containsExactly("Bash(b)", "Bash(a)", "Bash(c)");
        assertThat(s.deny()).containsExactly("Bash(rm *)");
        assertThat(s.filesRead()).containsExactly(a, b);
        assertThat(s.warnings()).singleElement().asString().contains("missing.json").contains("not found");
        assertThat(SettingsLoader.loadFiles(null)).isEqualTo(PermissionSettings.empty());
        assertThat(SettingsLoader.loadFiles(List.of())).isEqualTo(PermissionSettings.empty());
    }

    @Test
    void resultIsImmutable() throws IOException {
        write(home(), "settings.json", "{\"permissions\":{\"allow\":[\"Bash(ls *)\"]}}");
        PermissionSettings s = SettingsLoader.load(env(false));
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> s.allow().add("x"))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
