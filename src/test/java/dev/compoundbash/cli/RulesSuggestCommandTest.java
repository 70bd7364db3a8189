package dev.compoundbash.cli;

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
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code compound-bash rules suggest} as a process: the listing, {@code --apply} with {@code --dry-run} (a diff,
 * nothing written), then for real (a backup, the rules in {@code permissions.allow}, every other key kept), again
 * (nothing changes), {@code --project}, and {@code replay} confirming the calls that change.
 */
class RulesSuggestCommandTest {
    @TempDir
    Path tmp;
    Path home;
    Path project;
    Map<String, String> env;

    @BeforeEach
    void setUp() throws Exception {
        home = tmp.resolve("home");
        project = tmp.resolve("project");
        Files.createDirectories(home.resolve(".claude"));
        Files.createDirectories(project);
        Files.writeString(home.resolve(".claude/settings.json"),
                "{\"model\": \"x\", \"permissions\": {\"deny\": [\"Bash(git push *)\"]}}\n");
        env = Map.of("HOME", home.toString(), "CLAUDE_PROJECT_DIR", project.toString());
        for (String c : List.of("git diff", "git diff --stat", "git push origin main", "npm test", "npm test",
                "echo \"$(git diff HEAD)\"")) {
            String input = new ObjectMapper().writeValueAsString(Map.of("tool_name", "Bash", "session_id", "g",
                    "cwd", project.toString(), "tool_input", Map.of("command", c)));
            new HookRunner(env, "test").run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        }
    }

    Proc.Result run(String... args) throws Exception {
        return Proc.run(project, env, null, args);
    }

    long backups(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> p.getFileName().toString().endsWith(".bak")).count();
        }
    }

    @Test
    void listsAppliesIdempotentlyAndReplayConfirms() throws Exception {
        Proc.Result list = run("rules", "suggest");
        assertThat(list.exit()).as(list.stderr()).isZero();
        assertThat(list.stdout()).contains("6 call(s) in 1 log(s)")
                .contains(" 1. Bash(git diff *)").contains("approves 3 call(s)")
                .contains(" 2. Bash(npm test)").contains("(2x)");

        Path settings = home.resolve(".claude/settings.json");
        String before = Files.readString(settings);
        Proc.Result dry = run("rules", "suggest", "--apply", "1,2", "--dry-run");
        assertThat(dry.exit()).as(dry.stderr()).isZero();
        assertThat(dry.stdout()).contains("+      \"Bash(git diff *)\",").contains("+      \"Bash(npm test)\"");
        assertThat(Files.readString(settings)).isEqualTo(before);

        Proc.Result applied = run("rules", "suggest", "--apply", "Bash(git diff *),Bash(npm test)");
        assertThat(applied.exit()).as(applied.stderr()).isZero();
        assertThat(applied.stdout()).contains("done (backup: ");
        assertThat(backups(home.resolve(".claude"))).isEqualTo(1);
        String after = Files.readString(settings);
        assertThat(after).contains("\"model\": \"x\"").contains("\"Bash(git push *)\"")
                .contains("\"Bash(git diff *)\"").contains("\"Bash(npm test)\"");

        Proc.Result again = run("rules", "suggest", "--apply", "Bash(git diff *),Bash(npm test)");
        assertThat(again.stdout()).contains("already done, nothing changed");
        assertThat(backups(home.resolve(".claude"))).isEqualTo(1);
        assertThat(run("rules", "suggest").stdout()).contains("no rule to suggest");

        Proc.Result replay = run("replay", home.resolve(".claude/logs/compound-bash.jsonl").toString());
        assertThat(replay.exit()).isEqualTo(1);
        assertThat(replay.stdout()).containsPattern("defer -> allow +5  changed") // the nested git diff defers: Claude Code's read-only check accepts it
               
                .containsPattern("deny -> deny +1\n").contains("6 decision(s) replayed, 5 changed");
    }

    @Test
    void projectScopeWritesTheProjectsSettings() throws Exception {
        Proc.Result r = run("rules", "suggest", "--project", "--apply", "1");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(Files.readString(project.resolve(".claude/settings.json"))).contains("\"Bash(git diff *)\"");
    }

    @Test
    void aNumberThatWasNotListedIsAnError() throws Exception {
        Proc.Result r = run("rules", "suggest", "--apply", "9");
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.stderr()).contains("no suggestion 9");
    }
}
