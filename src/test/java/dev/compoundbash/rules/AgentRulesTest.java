package dev.compoundbash.rules;

import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code rules/agents.drl}: what the agent, its shell and its hook event change (docs/AGENTS.md). */
class AgentRulesTest {
    private static RuleEngine engine;

    @TempDir
    static Path cwd;

    @BeforeAll
    static void load() {
        engine = RuleEngine.load(List.of());
    }

    private static Decider.Verdict decide(String command, List<String> allow, List<String> deny, String agent,
                                          String shell, String event) {
        PermissionSettings s = new PermissionSettings(allow, List.of(), deny, List.of(), List.of(), List.of());
        return Decider.decide(new Decider.Call(command, cwd.toString(), null, s, null, null, agent, shell, event),
                engine);
    }

    /**
     * The parser reads bash: a command another shell runs is never approved; deny rules still deny. zsh has its own
     * guard (ZshDifferences): a command with no form zsh reads otherwise is judged as bash judges it.
     */
    @Test
    void aShellTheHookDoesNotReadApprovesNothing() {
        assertThat(decide("ls -la", List.of(), List.of(), "codex", "bash", "PermissionRequest").outcome())
                .isEqualTo("defer");
        assertThat(decide("ls -la", List.of("Bash(ls *)"), List.of(), "codex", "bash", "PermissionRequest").outcome())
                .isEqualTo("allow");
        assertThat(decide("ls -la", List.of("Bash(ls *)"), List.of(), "codex", "zsh", "PermissionRequest").outcome())
                .isEqualTo("allow");
        assertThat(decide("x='a b'; ls $x", List.of("Bash(ls *)"), List.of(), "codex", "zsh", "PermissionRequest")
                .outcome()).isEqualTo("defer");
        for (String shell : List.of("sh", "powershell", "fish")) {
            Decider.Verdict v = decide("ls -la", List.of("Bash(ls *)"), List.of(), "codex", shell, "PermissionRequest");
            assertThat(v.outcome()).as(shell).isEqualTo("defer");
            assertThat(v.reason()).as(shell).contains("runs in " + shell);
            assertThat(decide("ls | xargs rm", List.of(), List.of("Bash(rm *)"), "copilot", shell, "PreToolUse")
                    .outcome()).as(shell).isEqualTo("deny");
        }
        assertThat(decide("ls -la", List.of(), List.of(), "copilot", "bash", "PreToolUse").outcome()).isEqualTo("allow");
    }

    /**
     * Codex asks (PermissionRequest) to run a command outside its sandbox: the known-safe tiers do not lift that,
     * a user's allow rule does.
     */
    @Test
    void codexSandboxEscalationNeedsTheUsersRule() {
        Decider.Verdict tiers = decide("cat README.md", List.of(), List.of(), "codex", "bash", "PermissionRequest");
        assertThat(tiers.outcome()).isEqualTo("defer");
        assertThat(tiers.reason()).contains("outside its sandbox");
        assertThat(decide("cat README.md", List.of(), List.of(), "codex", "bash", "PreToolUse").outcome())
                .isEqualTo("allow");
        assertThat(decide("npm test", List.of("Bash(npm test)"), List.of(), "codex", "bash", "PermissionRequest")
                .outcome()).isEqualTo("allow");
        assertThat(decide("npm test && echo ok", List.of("Bash(npm test)"), List.of(), "codex", "bash",
                "PermissionRequest").outcome()).isEqualTo("defer");
        assertThat(decide("cat README.md", List.of(), List.of(), "copilot", "bash", "PermissionRequest").outcome())
                .isEqualTo("allow");
    }

    /**
     * Copilot CLI asks before a command naming a path outside its working directory (measured: cat ../outside.txt,
     * cat link-etc), and honours a hook's allow over that: any such word keeps the command from approval there.
     */
    @Test
    void copilotDefersForAnyWordNamingAPathOutside() throws Exception {
        java.nio.file.Files.writeString(cwd.resolve("README.md"), "x\n");
        java.nio.file.Path link = cwd.resolve("link-etc");
        if (!java.nio.file.Files.exists(link, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            java.nio.file.Files.createSymbolicLink(link, java.nio.file.Path.of("/etc/hostname"));
        }
        for (String c : List.of("wc -l README.md", "echo \"$(wc -l < README.md)\"", "ls -la", "echo hi 2>/dev/null")) {
            assertThat(decide(c, List.of(), List.of(), "copilot", "bash", "PreToolUse").outcome()).as(c).isEqualTo("allow");
        }
        for (String c : List.of("echo /etc/hostname", "wc -c link-etc", "basename ../x",
                "grep --file=/etc/hostname x README.md", "ls sub/../../")) {
            Decider.Verdict v = decide(c, List.of(), List.of(), "copilot", "bash", "PreToolUse");
            assertThat(v.outcome()).as(c).isEqualTo("defer");
        }
        assertThat(decide("echo /etc/hostname", List.of(), List.of(), null, null, null).outcome()).isEqualTo("allow");
    }

    /** A command the hook cannot read asks for another agent while deny rules are in force; defers otherwise. */
    @Test
    void anUnreadableCommandAsksUnderDenyRulesForAnotherAgent() {
        String broken = "echo ok\n)\nrm -rf build\n(";
        assertThat(decide(broken, List.of(), List.of("Bash(rm *)"), "gemini", "bash", "PreToolUse").outcome())
                .isEqualTo("ask");
        assertThat(decide(broken, List.of(), List.of(), "gemini", "bash", "PreToolUse").outcome()).isEqualTo("defer");
        assertThat(decide(broken, List.of(), List.of("Bash(rm *)"), null, null, null).outcome()).isEqualTo("defer");
    }
}
