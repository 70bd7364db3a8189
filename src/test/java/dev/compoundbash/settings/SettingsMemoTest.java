package dev.compoundbash.settings;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The settings files and Claude Code's global config are read once and kept while unchanged ({@link FileMemo}):
 * a change must still be seen on the next call, also one that keeps the file's size, and a file changed within the
 * last two seconds is read on every call.
 */
class SettingsMemoTest {

    @TempDir
    Path tmp;

    private Path settings() throws IOException {
        Path f = tmp.resolve("home/.claude/settings.json");
        Files.createDirectories(f.getParent());
        return f;
    }

    private Map<String, String> env() {
        return Map.of("HOME", tmp.resolve("home").toString());
    }

    /** Waits until a file written now counts as settled, so that what is read from it is kept. */
    private static void settle() throws InterruptedException {
        Thread.sleep(FileMemo.SETTLED_MILLIS + 300);
    }

    @Test
    void anEditOfTheSameSizeAfterACachedReadIsSeen() throws Exception {
        Path f = settings();
        Files.writeString(f, "{\"permissions\":{\"allow\":[\"Bash(ls)\"]}}");
        settle();
        assertThat(SettingsLoader.load(env()).allow()).containsExactly("Bash(ls)");
        assertThat(SettingsLoader.load(env()).allow()).containsExactly("Bash(ls)"); // from the memo
        Files.writeString(f, "{\"permissions\":{\"allow\":[\"Bash(rm)\"]}}"); // same size
        assertThat(SettingsLoader.load(env()).allow()).containsExactly("Bash(rm)");
        assertThat(SettingsLoader.load(env()).deny()).isEmpty();
    }

    @Test
    void anEditWithinOneClockTickIsSeen() throws Exception {
        Path f = settings();
        for (int i = 0; i < 20; i++) {
            String rule = "Bash(x" + (char) ('a' + i) + ")"; // every version the same size, written back to back
            Files.writeString(f, "{\"permissions\":{\"deny\":[\"" + rule + "\"]}}");
            assertThat(SettingsLoader.load(env()).deny()).containsExactly(rule);
        }
    }

    @Test
    void aFileThatBecomesInvalidIsSeenAtOnce() throws Exception {
        Path f = settings();
        Files.writeString(f, "{\"permissions\":{\"deny\":[\"Bash(git push *)\"]}}");
        settle();
        assertThat(SettingsLoader.load(env()).deny()).containsExactly("Bash(git push *)");
        Files.writeString(f, "{\"permissions\":{\"deny\":[\"Bash(git push *)\"]},");
        PermissionSettings s = SettingsLoader.load(env());
        assertThat(s.deny()).isEmpty();
        assertThat(s.unreadable()).hasSize(1);
    }

    @Test
    void aRemovedFileIsSeenAtOnce() throws Exception {
        Path f = settings();
        Files.writeString(f, "{\"permissions\":{\"allow\":[\"Bash(ls)\"]}}");
        settle();
        assertThat(SettingsLoader.load(env()).allow()).containsExactly("Bash(ls)");
        Files.delete(f);
        assertThat(SettingsLoader.load(env()).allow()).isEmpty();
    }

    @Test
    void aWorkspaceTrustedLaterIsSeen() throws Exception {
        Path project = tmp.resolve("project");
        Files.createDirectories(project.resolve(".claude"));
        Files.writeString(project.resolve(".claude/settings.json"), "{\"permissions\":{\"allow\":[\"Bash(make)\"]}}");
        Path global = tmp.resolve("home/.claude.json");
        Files.createDirectories(global.getParent());
        Files.writeString(global, "{\"projects\":{\"" + project + "\":{\"hasTrustDialogAccepted\":false}}}");
        settle();
        Map<String, String> env = Map.of("HOME", tmp.resolve("home").toString(), "CLAUDE_PROJECT_DIR", project.toString());
        assertThat(SettingsLoader.load(env).allow()).isEmpty();
        assertThat(SettingsLoader.load(env).allow()).isEmpty();
        Files.writeString(global, "{\"projects\":{\"" + project + "\":{\"hasTrustDialogAccepted\":true }}}");
        assertThat(SettingsLoader.load(env).allow()).containsExactly("Bash(make)");
    }
}
