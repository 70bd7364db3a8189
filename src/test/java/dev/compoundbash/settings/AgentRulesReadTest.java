package dev.compoundbash.settings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The agents' own permission rules read as Claude Code rules (docs/AGENTS.md, "Rules"): Codex's prefix rules, Gemini
 * CLI's policies and tools settings, compound-bash's own settings file.
 */
class AgentRulesReadTest {

    private static CodexRules.Read codex(String text) {
        CodexRules.Read r = new CodexRules.Read(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
                new ArrayList<>(), new ArrayList<>());
        CodexRules.read("case.rules", text, r);
        return r;
    }

    /** Codex docs "Rules": prefix_rule(pattern, decision allow|prompt|forbidden); a list token is alternatives. */
    @Test
    void codexPrefixRules() {
        CodexRules.Read r = codex("""
                # comments and trailing commas are Starlark
                prefix_rule(
                    pattern = ["git", ["push", "fetch"]],
                    decision = "forbidden",
                    justification = "no network from here",
                    match = [["git", "push"]],
                )
                prefix_rule(pattern = ["npm", "publish"], decision = "prompt")
                prefix_rule(pattern = ["cargo", "test"], decision = "allow")
                prefix_rule(pattern = ['rm'])
                """);
        assertThat(r.deny()).containsExactly("Bash(git push)", "Bash(git push *)", "Bash(git fetch)",
                "Bash(git fetch *)", "Bash(rm)", "Bash(rm *)");
        assertThat(r.ask()).containsExactly("Bash(npm publish)", "Bash(npm publish *)");
        assertThat(r.allow()).containsExactly("Bash(cargo test)", "Bash(cargo test *)");
        assertThat(r.warnings()).isEmpty();
    }

    /** Closed world: what cannot be read may be a forbidden rule, so every command asks. */
    @Test
    void codexRulesThatCannotBeReadAskForEverything() {
        for (String text : new String[]{
                "P = [\"git\"]\nprefix_rule(pattern = P, decision = \"forbidden\")\n",
                "prefix_rule(pattern = [\"git\"], decision = \"forbidden\"\n",
                "network_rule(host = \"example.com\", decision = \"forbidden\")\n",
                "prefix_rule(pattern = [\"rm\", \"-*\"], decision = \"prompt\")\n",
                "prefix_rule(pattern = [\"git\"], decision = \"maybe\")\n"}) {
            CodexRules.Read r = codex(text);
            assertThat(r.ask()).as(text).contains("Bash(*)");
            assertThat(r.warnings()).as(text).isNotEmpty();
        }
        CodexRules.Read allow = codex("prefix_rule(pattern = [\"ls\", \"-*\"], decision = \"allow\")\n");
        assertThat(allow.allow()).isEmpty();
        assertThat(allow.ask()).isEmpty();
    }

    @Test
    void codexRulesDirectory(@TempDir Path home) throws Exception {
        Path rules = home.resolve(".codex").resolve("rules");
        Files.createDirectories(rules);
        Files.writeString(rules.resolve("a.rules"), "prefix_rule(pattern = [\"rm\"], decision = \"forbidden\")\n");
        Files.writeString(rules.resolve("notes.txt"), "prefix_rule(pattern = [\"ls\"], decision = \"forbidden\")\n");
        CodexRules.Read r = CodexRules.load(Map.of("HOME", home.toString()));
        assertThat(r.deny()).containsExactly("Bash(rm)", "Bash(rm *)");
        CodexRules.Read viaEnv = CodexRules.load(Map.of("HOME", "/nonexistent",
                "CODEX_HOME", home.resolve(".codex").toString()));
        assertThat(viaEnv.deny()).containsExactly("Bash(rm)", "Bash(rm *)");
    }

    /** Gemini docs "Policy engine": commandPrefix (string or list), decisions allow/deny/ask_user. */
    @Test
    void geminiPoliciesAndToolsSettings(@TempDir Path dir) throws Exception {
        Path user = dir.resolve("user");
        Files.createDirectories(user.resolve("policies"));
        Files.writeString(user.resolve("policies").resolve("mine.toml"), """
                [[rule]]
                toolName = "run_shell_command"
                commandPrefix = ["git push", "rm"]
                decision = "deny"
                priority = 500

                [[rule]]
                toolName = "run_shell_command"
                commandPrefix = "npm publish"
                decision = "ask_user"
                priority = 100

                [[rule]]
                commandPrefix = "git status"
                decision = "allow"
                priority = 100

                [[rule]]
                toolName = "run_shell_command"
                commandPrefix = "make"
                decision = "allow"
                modes = ["yolo"]
                priority = 100

                [[rule]]
                toolName = "run_shell_command"
                commandRegex = "curl .*"
                decision = "deny"
                priority = 100

                [[rule]]
                toolName = "read_file"
                decision = "deny"
                priority = 100
                """);
        Files.writeString(user.resolve("settings.json"), """
                {
                  // Gemini CLI's settings allow comments
                  "tools": {"allowed": ["run_shell_command(ls -la)", "read_file"],
                            "exclude": ["run_shell_command(dd)"]}
                }""");
        Path work = dir.resolve("work");
        Files.createDirectories(work.resolve(".gemini"));
        Files.writeString(work.resolve(".gemini").resolve("settings.json"),
                "{\"tools\": {\"exclude\": [\"run_shell_command\"]}}");
        GeminiRules.Read r = GeminiRules.load(user, dir.resolve("none"), work);
        assertThat(r.deny()).containsExactly("Bash(git push)", "Bash(git push *)", "Bash(rm)", "Bash(rm *)",
                "Bash(dd)", "Bash(dd *)", "Bash(*)");
        assertThat(r.ask()).containsExactly("Bash(npm publish)", "Bash(npm publish *)");
        assertThat(r.allow()).containsExactly("Bash(git status)", "Bash(git status *)", "Bash(ls -la)",
                "Bash(ls -la *)");
        assertThat(r.warnings()).anyMatch(w -> w.contains("some modes")).anyMatch(w -> w.contains("commandRegex"));
    }

    /** compound-bash's own file, Claude Code's deny and ask rules, Copilot's shell(...) syntax. */
    @Test
    void compoundBashOwnSettings(@TempDir Path home) throws Exception {
        Path own = home.resolve(".config").resolve("compound-bash").resolve("settings.json");
        Files.createDirectories(own.getParent());
        Files.writeString(own, """
                {"permissions": {"allow": ["Bash(git diff *)", "shell(git:*)"], "deny": ["shell(rm)"],
                                 "ask": ["shell"]},
                 "compoundBash": {"agents": {"gemini": {"ask": "ask"}}}}""");
        Files.createDirectories(home.resolve(".claude"));
        Files.writeString(home.resolve(".claude").resolve("settings.json"), """
                {"permissions": {"allow": ["Bash(make *)"], "deny": ["Bash(curl *)"], "ask": ["Bash(git push *)"]}}""");
        AgentSettings.Loaded l = AgentSettings.load("copilot", Map.of("HOME", home.toString()), null);
        assertThat(l.settings().allow()).containsExactly("Bash(git diff *)", "Bash(git:*)");
        assertThat(l.settings().deny()).containsExactly("Bash(rm)", "Bash(curl *)");
        assertThat(l.settings().ask()).containsExactly("Bash(*)", "Bash(git push *)");
        assertThat(l.option("agents.gemini.ask")).isEqualTo("ask");
        assertThat(AgentSettings.claudeSyntax("shell()")).isEqualTo("Bash(*)");
        assertThat(AgentSettings.claudeSyntax("Read(./x)")).isEqualTo("Read(./x)");
    }

    @Test
    void ownSettingsThatCannotBeReadAskForEverything(@TempDir Path home) throws Exception {
        Path own = home.resolve("own.json");
        Files.writeString(own, "{\"permissions\": {\"deny\": [\"Bash(rm *)\"]");
        AgentSettings.Loaded l = AgentSettings.load("codex", Map.of("HOME", home.toString(),
                "COMPOUND_BASH_SETTINGS", own.toString()), null);
        assertThat(l.settings().ask()).contains("Bash(*)");
        assertThat(l.settings().warnings()).anyMatch(w -> w.contains("cannot be read"));
    }

    @Test
    void ownFileLocation() {
        assertThat(AgentSettings.ownFile(Map.of("HOME", "/h"))).isEqualTo(Path.of("/h/.config/compound-bash/settings.json"));
        assertThat(AgentSettings.ownFile(Map.of("HOME", "/h", "XDG_CONFIG_HOME", "/x")))
                .isEqualTo(Path.of("/x/compound-bash/settings.json"));
        assertThat(AgentSettings.ownFile(Map.of("COMPOUND_BASH_SETTINGS", "/s.json"))).isEqualTo(Path.of("/s.json"));
        assertThat(AgentSettings.ownFile(Map.of())).isNull();
    }
}
