package dev.compoundbash.audit;

import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.BashPattern;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.settings.SettingsLoader;
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
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rules suggest} on a generated decision log: the log is written by the hook itself ({@link HookRunner#run})
 * in a temporary HOME whose settings hold an allow, a deny and an ask rule; the suggestions are then checked, and
 * a replay of the log under the settings plus the suggested rules confirms exactly the calls each one claimed.
 */
class RuleSuggesterTest {
    static final String SETTINGS = "{\"permissions\":{\"allow\":[\"Bash(git status)\"],\"deny\":[\"Bash(git push *)\"],"
            + "\"ask\":[\"Bash(npm publish *)\"]}}";
    static final List<String> COMMANDS = List.of(
            "git status", "git diff", "git diff --stat", "git diff HEAD~1 -- src", "echo \"$(git diff --name-only)\" | wc -l",
            "npm run test", "npm run test", "timeout 60 npm run test", "npm run test > /dev/null",
            "NODE_ENV=test npm run test", "FOO=1 npm run test", "npm run build", "npm run build",
            "npm publish --dry-run", "git push origin main", "git pull origin main",
            "rm -rf build", "rm -rf dist", "rm -f notes.tmp", "bash -c 'make all'", "bash scripts/a.sh",
            "xargs -n1 echo < list.txt", "cat list.txt | xargs wc -l", "cargo test", "cargo test --release", "cargo clippy");

    @TempDir
    Path tmp;
    Path home;
    Path project;
    Path log;
    Map<String, String> env;

    @BeforeEach
    void generateLog() throws Exception {
        home = tmp.resolve("home");
        project = tmp.resolve("project");
        Files.createDirectories(home.resolve(".claude"));
        Files.createDirectories(project);
        Files.writeString(home.resolve(".claude/settings.json"), SETTINGS);
        env = Map.of("HOME", home.toString(), "SHELL", "/bin/bash");   // a bash user's log (zsh: ZshGuardTest)
        for (String c : COMMANDS) {
            String input = new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(Map.of(
                    "tool_name", "Bash", "hook_event_name", "PreToolUse", "session_id", "gen", "cwd", project.toString(),
                    "tool_input", Map.of("command", c)));
            new HookRunner(env, "test").run(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        }
        log = DecisionLog.resolvePath(env);
        assertThat(Files.readAllLines(log)).hasSize(COMMANDS.size());
    }

    Function<String, PermissionSettings> settings() {
        return cwd -> SettingsLoader.load(Map.of("HOME", home.toString(), "CLAUDE_PROJECT_DIR", cwd == null ? "" : cwd));
    }

    RuleSuggester.Result suggest(boolean broad) throws Exception {
        return new RuleSuggester(RuleEngine.load(List.of()), settings(), project.toString(), null, broad)
                .suggest(RuleSuggester.read(List.of(log), null));
    }

    static RuleSuggester.Suggestion find(RuleSuggester.Result r, String rule) {
        return r.suggestions().stream().filter(s -> s.rule().equals(rule)).findFirst()
                .orElseThrow(() -> new AssertionError(rule + " not suggested: " + r.suggestions()));
    }

    static List<String> commands(RuleSuggester.Suggestion s) {
        return s.approved().stream().map(a -> a.call().command()).toList();
    }

    @Test
    void groupsIntoTheNarrowestRulesRankedByApprovals() throws Exception {
        RuleSuggester.Result r = suggest(false);
        assertThat(r.calls()).isEqualTo(COMMANDS.size());
        List<String> rules = r.suggestions().stream().map(RuleSuggester.Suggestion::rule).toList();
        assertThat(rules.get(0)).isEqualTo("Bash(npm run *)");
        assertThat(commands(find(r, "Bash(npm run *)"))).containsExactly("npm run test", "npm run test",
                "timeout 60 npm run test", "npm run test > /dev/null", "NODE_ENV=test npm run test",
                "npm run build", "npm run build"); // FOO=1 is not a safe prefix: no allow rule approves past it
        assertThat(commands(find(r, "Bash(npm run test)"))).hasSize(5);
        assertThat(commands(find(r, "Bash(git diff *)"))).containsExactly("git diff", "git diff --stat",
                "git diff HEAD~1 -- src", "echo \"$(git diff --name-only)\" | wc -l");
        assertThat(commands(find(r, "Bash(cargo test *)"))).containsExactly("cargo test", "cargo test --release");
        assertThat(find(r, "Bash(cargo clippy)").approved()).hasSize(1);
        assertThat(find(r, "Bash(git pull origin main)").approved()).hasSize(1);
        for (int i = 1; i < r.suggestions().size(); i++) {
            assertThat(r.suggestions().get(i).approved().size())
                    .isLessThanOrEqualTo(r.suggestions().get(i - 1).approved().size());
            assertThat(r.suggestions().get(i).number()).isEqualTo(i + 1);
        }
    }

    @Test
    void flagsApprovedCallsThatRanThroughAWrapperARedirectOrAPrefix() throws Exception {
        RuleSuggester.Suggestion s = find(suggest(false), "Bash(npm run *)");
        Map<String, List<String>> flags = new java.util.HashMap<>();
        for (RuleSuggester.Approved a : s.approved()) flags.put(a.call().command(), a.flags());
        assertThat(flags.get("timeout 60 npm run test")).contains("wrapper timeout");
        assertThat(flags.get("npm run test > /dev/null")).contains("redirect > /dev/null");
        assertThat(flags.get("NODE_ENV=test npm run test")).contains("prefix NODE_ENV=test");
        assertThat(flags.get("npm run build")).isEmpty();
    }

    @Test
    void neverContradictsADenyOrAskRuleNorSuggestsBareRulesForProgramsThatRunOthersOrDelete() throws Exception {
        RuleSuggester.Result r = suggest(false);
        List<String> rules = r.suggestions().stream().map(RuleSuggester.Suggestion::rule).toList();
        for (String rule : rules) {
            String p = BashPattern.innerPattern(rule);
            for (String q : List.of("git push *", "npm publish *")) {
                assertThat(RuleSuggester.overlap(p, q)).as(rule + " vs " + q).isFalse();
            }
        }
        assertThat(rules).noneMatch(x -> x.startsWith("Bash(git *") || x.equals("Bash(rm *)") || x.equals("Bash(rm -rf *)")
                || x.equals("Bash(bash *)") || x.equals("Bash(xargs *)") || x.startsWith("Bash(xargs -n1 *"));
        assertThat(rules).doesNotContain("Bash(npm publish --dry-run)"); // asked by an ask rule, not for lack of allow
        assertThat(r.rejected()).extracting(RuleSuggester.Rejected::rule).contains("Bash(rm -rf *)");
        // the narrow exact rules of the rm family are still offered
        assertThat(rules).contains("Bash(rm -rf build)", "Bash(rm -rf dist)", "Bash(rm -f notes.tmp)");

        RuleSuggester.Result broad = suggest(true);
        assertThat(broad.suggestions()).extracting(RuleSuggester.Suggestion::rule).contains("Bash(rm -rf *)");
    }

    @Test
    void aGroupThatADenyRuleOverlapsIsNotSuggested() throws Exception {
        // a deny rule no logged call met, but which the family's rule would overlap: the family falls back to its
        // exact lines
        Files.writeString(home.resolve(".claude/settings.json"),
                "{\"permissions\":{\"deny\":[\"Bash(cargo test --workspace *)\"]}}");
        RuleSuggester.Result r = suggest(false);
        assertThat(r.suggestions()).extracting(RuleSuggester.Suggestion::rule).doesNotContain("Bash(cargo test *)");
        assertThat(r.rejected()).anyMatch(x -> x.rule().equals("Bash(cargo test *)") && x.why().contains("contradicted by Bash(cargo test --workspace *)"));
        assertThat(r.suggestions()).extracting(RuleSuggester.Suggestion::rule)
                .contains("Bash(cargo test)", "Bash(cargo test --release)");
    }

    @Test
    void replayConfirmsEverySuggestion() throws Exception {
        RuleSuggester.Result r = suggest(false);
        for (RuleSuggester.Suggestion s : r.suggestions()) {
            PermissionSettings base = settings().apply(project.toString());
            List<String> allow = new java.util.ArrayList<>(base.allow());
            allow.add(s.rule());
            PermissionSettings with = new PermissionSettings(allow, base.ask(), base.deny(), base.additionalDirectories(),
                    base.filesRead(), base.warnings());
            Replay replay = new Replay(RuleEngine.load(List.of()), c -> with, project.toString(), null, null);
            replay.replay(log, null);
            long lifted = replay.transitions().entrySet().stream()
                    .filter(e -> !e.getKey().startsWith("allow") && e.getKey().endsWith("-> allow"))
                    .mapToLong(Map.Entry::getValue).sum();
            assertThat(lifted).as(s.rule()).isEqualTo(s.approved().size());
            replay.report(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
        }
    }

    @Test
    void overlapOfPatterns() {
        assertThat(RuleSuggester.overlap("git *", "git push *")).isTrue();
        assertThat(RuleSuggester.overlap("git diff *", "git push *")).isFalse();
        assertThat(RuleSuggester.overlap("npm run *", "npm run deploy")).isTrue();
        assertThat(RuleSuggester.overlap("ls *", "ls")).isTrue(); // word boundary: "ls *" matches "ls"
        assertThat(RuleSuggester.overlap("ls *", "lsof *")).isFalse();
        assertThat(RuleSuggester.overlap("ls*", "lsof *")).isTrue();
        assertThat(RuleSuggester.overlap("git:*", "git status")).isTrue();
        assertThat(RuleSuggester.overlap("*", "rm -rf /")).isTrue();
        assertThat(RuleSuggester.overlap("cargo test", "cargo test --release *")).isFalse();
        assertThat(RuleSuggester.overlap("a*b", "*c")).isFalse();
        assertThat(RuleSuggester.overlap("a*c", "*b*")).isTrue();
    }

    @Test
    void ruleShapes() {
        assertThat(RuleSuggester.ruleFor(List.of(List.of("npm", "test")))).isEqualTo("Bash(npm test)");
        assertThat(RuleSuggester.ruleFor(List.of(List.of("git", "diff"), List.of("git", "diff", "--stat"))))
                .isEqualTo("Bash(git diff *)");
        assertThat(RuleSuggester.ruleFor(List.of(List.of("find", ".", "-name", "*.log"))))
                .as("a * in a word would be a wildcard").isEqualTo("Bash(find . -name *)");
        assertThat(RuleSuggester.bare("rm -rf *")).isTrue();
        assertThat(RuleSuggester.bare("find . -name *")).isTrue();
        assertThat(RuleSuggester.bare("python3 -m pytest *")).isFalse();
        assertThat(RuleSuggester.bare("rm -rf build")).isFalse();
    }
}
