package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HookInstallerTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String CMD = "/opt/compound-bash/bin/compound-bash hook";
    static final String SETTINGS = """
            {
              "permissions": {"allow": ["Bash(git status)"], "deny": ["Bash(rm -rf *)"]},
              "hooks": {
                "PreToolUse": [{"matcher": "Write", "hooks": [{"type": "command", "command": "lint.sh"}]}],
                "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]}]
              },
              "cleanupPeriodDays": 30.5,
              "env": {"A": "b"}
            }
            """;

    @TempDir
    Path tmp;

    @Test
    void installAddsOneEntryAndKeepsEverythingElse() throws IOException {
        Path f = tmp.resolve("settings.json");
        Files.writeString(f, SETTINGS);
        HookInstaller.Edit e = HookInstaller.install(f, CMD);
        assertThat(e.changes()).isTrue();
        JsonNode after = JSON.readTree(e.after());
        JsonNode before = JSON.readTree(SETTINGS);
        assertThat(after.get("permissions")).isEqualTo(before.get("permissions"));
        assertThat(after.get("env")).isEqualTo(before.get("env"));
        assertThat(after.get("cleanupPeriodDays").decimalValue()).isEqualByComparingTo("30.5");
        assertThat(after.at("/hooks/PostToolUse")).isEqualTo(before.at("/hooks/PostToolUse"));
        JsonNode pre = after.at("/hooks/PreToolUse");
        assertThat(pre).hasSize(2);
        assertThat(pre.get(0)).isEqualTo(before.at("/hooks/PreToolUse/0"));
        assertThat(pre.get(1).get("matcher").asText()).isEqualTo("Bash");
        assertThat(pre.get(1).at("/hooks/0/command").asText()).isEqualTo(CMD);
        assertThat(pre.get(1).at("/hooks/0/type").asText()).isEqualTo("command");
        assertThat(e.after()).startsWith("{\n  \"permissions\": {\n    \"allow\": [\n      \"Bash(git status)\"").endsWith("}\n");
    }

    @Test
    void installAddsTheSessionStartWarmUpAndUninstallRemovesIt() throws IOException {
        Path f = tmp.resolve("settings.json");
        Files.writeString(f, "{\"hooks\":{\"SessionStart\":[{\"hooks\":[{\"type\":\"command\",\"command\":\"other\"}]}]}}");
        HookInstaller.apply(HookInstaller.install(f, CMD));
        JsonNode after = JSON.readTree(Files.readString(f));
        assertThat(after.at("/hooks/SessionStart")).hasSize(2);
        assertThat(after.at("/hooks/SessionStart/1/hooks/0/command").asText())
                .isEqualTo(CMD.replaceFirst(" hook$", " warm"));
        HookInstaller.apply(HookInstaller.uninstall(f));
        JsonNode back = JSON.readTree(Files.readString(f));
        assertThat(back.at("/hooks/SessionStart")).hasSize(1);
        assertThat(back.at("/hooks/PreToolUse").isMissingNode()).isTrue();
    }

    @Test
    void anEarlierInstallGainsTheWarmUp() throws IOException {
        Path f = tmp.resolve("settings.json");
        Files.writeString(f, "{\"hooks\":{\"PreToolUse\":[{\"matcher\":\"Bash\",\"hooks\":[{\"type\":\"command\","
                + "\"command\":\"" + CMD + "\"}]}]}}");
        HookInstaller.Edit e = HookInstaller.install(f, CMD);
        assertThat(e.changes()).isTrue();
        JsonNode after = JSON.readTree(e.after());
        assertThat(after.at("/hooks/PreToolUse")).hasSize(1);
        assertThat(after.at("/hooks/SessionStart/0/hooks/0/command").asText()).endsWith(" warm");
    }

    @Test
    void secondInstallChangesNothingEvenFromAnotherPath() throws IOException {
        Path f = tmp.resolve("settings.json");
        Files.writeString(f, SETTINGS);
        Path backup = HookInstaller.apply(HookInstaller.install(f, CMD));
        assertThat(backup).exists();
        assertThat(Files.readString(backup)).isEqualTo(SETTINGS);
        String once = Files.readString(f);
        assertThat(HookInstaller.install(f, CMD).changes()).isFalse();
        assertThat(HookInstaller.install(f, "'/other place/compound-bash' hook").changes()).isFalse();
        assertThat(HookInstaller.apply(HookInstaller.install(f, CMD))).isNull();
        assertThat(Files.readString(f)).isEqualTo(once);
    }

    @Test
    void uninstallRestoresTheOriginal() throws IOException {
        Path f = tmp.resolve("settings.json");
        Files.writeString(f, SETTINGS);
        HookInstaller.apply(HookInstaller.install(f, CMD));
        HookInstaller.Edit u = HookInstaller.uninstall(f);
        assertThat(u.changes()).isTrue();
        HookInstaller.apply(u);
        assertThat(JSON.readTree(Files.readString(f))).isEqualTo(JSON.readTree(SETTINGS));
        assertThat(HookInstaller.uninstall(f).changes()).isFalse();
    }

    @Test
    void installIntoAMissingFileAndUninstallRemovesWhatItCreated() throws IOException {
        Path f = tmp.resolve("new/.claude/settings.json");
        HookInstaller.Edit e = HookInstaller.install(f, CMD);
        assertThat(HookInstaller.apply(e)).isNull();
        assertThat(JSON.readTree(Files.readString(f)).at("/hooks/PreToolUse/0/hooks/0/command").asText()).isEqualTo(CMD);
        HookInstaller.Edit u = HookInstaller.uninstall(f);
        assertThat(u.removes()).isTrue();
        assertThat(u.diff()).contains("-  \"hooks\": {");
        Path backup = HookInstaller.apply(u);
        assertThat(f).doesNotExist();
        // what was removed is kept, as every edit's backup
        assertThat(JSON.readTree(Files.readString(backup)).at("/hooks/PreToolUse/0/hooks/0/command").asText()).isEqualTo(CMD);
        assertThat(HookInstaller.uninstall(f).changes()).isFalse();
    }

    @Test
    void uninstallGivesBackTheUsersOwnText() throws IOException {
        // the user's formatting (one line, no final newline, keys in their order) comes back byte for byte
        String mine = "{\"env\":{\"A\":\"b\"},   \"permissions\":{\"deny\":[\"Bash(rm *)\"]}}";
        Path f = tmp.resolve("settings.json");
        Files.writeString(f, mine);
        HookInstaller.apply(HookInstaller.install(f, CMD));
        assertThat(Files.readString(f)).contains(CMD);
        HookInstaller.apply(HookInstaller.uninstall(f));
        assertThat(Files.readString(f)).isEqualTo(mine);
        // a user's own empty object stays, as it was
        Path g = tmp.resolve("other/settings.json");
        Files.createDirectories(g.getParent());
        Files.writeString(g, "{ }\n");
        HookInstaller.apply(HookInstaller.install(g, CMD));
        HookInstaller.apply(HookInstaller.uninstall(g));
        assertThat(Files.readString(g)).isEqualTo("{ }\n");
    }

    @Test
    void uninstallAfterTheUserChangedTheFileKeepsTheirChange() throws IOException {
        Path f = tmp.resolve("settings.json");
        Files.writeString(f, SETTINGS);
        HookInstaller.apply(HookInstaller.install(f, CMD));
        JsonNode edited = JSON.readTree(Files.readString(f));
        ((com.fasterxml.jackson.databind.node.ObjectNode) edited).put("model", "opus");
        Files.writeString(f, HookInstaller.print(edited));
        HookInstaller.apply(HookInstaller.uninstall(f));
        JsonNode back = JSON.readTree(Files.readString(f));
        assertThat(back.get("model").asText()).isEqualTo("opus");
        assertThat(back.toString()).doesNotContain(CMD);
    }

    @Test
    void dryRunDiffShowsOnlyAddedLines() throws IOException {
        Path f = tmp.resolve("settings.json");
        Files.writeString(f, HookInstaller.print(JSON.readTree(SETTINGS)));
        String diff = HookInstaller.install(f, CMD).diff();
        assertThat(diff).contains("+++ ").contains("+            \"command\": \"" + CMD + "\"");
        assertThat(diff.lines().filter(l -> l.startsWith("-") && !l.startsWith("---"))).isEmpty();
        assertThat(Files.readString(f)).doesNotContain(CMD);
    }

    @Test
    void malformedSettingsAreRefused() throws IOException {
        Path f = tmp.resolve("settings.json");
        Files.writeString(f, "{\"a\": ");
        assertThatThrownBy(() -> HookInstaller.install(f, CMD)).isInstanceOf(IOException.class).hasMessageContaining("not valid JSON");
        // the place to fix: FILE:LINE:COLUMN, and the file is left as it was
        Files.writeString(f, "{\n  \"hooks\": {},\n  \"env\": {\"A\": 1,}\n}\n");
        assertThatThrownBy(() -> HookInstaller.install(f, CMD)).hasMessageStartingWith(f + ":3:18: not valid JSON");
        assertThatThrownBy(() -> HookInstaller.uninstall(f)).hasMessageStartingWith(f + ":3:18: not valid JSON");
        assertThat(Files.readString(f)).isEqualTo("{\n  \"hooks\": {},\n  \"env\": {\"A\": 1,}\n}\n");
        Files.writeString(f, "{\"a\": ");
        Files.writeString(f, "[1]");
        assertThatThrownBy(() -> HookInstaller.install(f, CMD)).hasMessageContaining("JSON object");
    }

    @Test
    void oursRecognisesQuotedAndPlainPaths() {
        assertThat(HookInstaller.OURS.matcher("/x/bin/compound-bash hook").matches()).isTrue();
        assertThat(HookInstaller.OURS.matcher("'/a b/compound-bash' hook").matches()).isTrue();
        assertThat(HookInstaller.OURS.matcher("${CLAUDE_PLUGIN_ROOT}/bin/compound-bash hook").matches()).isTrue();
        assertThat(HookInstaller.OURS.matcher("compound-bash explain x").matches()).isFalse();
        assertThat(HookInstaller.OURS.matcher("lint.sh").matches()).isFalse();
    }
}
