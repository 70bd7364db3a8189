package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code install --agent} and {@code uninstall --agent}: each agent's hook configuration (docs/AGENTS.md). */
class AgentInstallerTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static void apply(List<HookInstaller.Edit> edits) throws Exception {
        for (HookInstaller.Edit e : edits) AgentInstaller.apply(e);
    }

    /**
     * The trust hash Codex 0.169.0 computes for this hook: an install whose config.toml held exactly this value ran
     * the hook in the real client without asking for trust (measured, docs/AGENTS.md).
     */
    @Test
    void codexTrustHashAsTheRealClientComputesIt() {
        assertThat(AgentInstaller.codexHash("PreToolUse", "Bash", "/work/wt-agents/bin/compound-bash hook --agent codex",
                30)).isEqualTo("sha256:4bac9df6f2cd6a10b744e9e4524bcdb90dfcad4f2a19c4411907bdd6ea5c7b21");
        assertThat(AgentInstaller.codexHash("PermissionRequest", "Bash",
                "/work/wt-agents/bin/compound-bash hook --agent codex", 30))
                .isEqualTo("sha256:0c7ee99b6a87f8de0b97bb2f9a3e4535e30c02d42c35cbbc8667071c6d6e4e3e");
    }

    @Test
    void codexInstallIsIdempotentKeepsOtherHooksAndUninstallMovesTheirTrust(@TempDir Path home) throws Exception {
        Map<String, String> env = Map.of("HOME", home.toString());
        AgentInstaller.Files2 f = AgentInstaller.files("codex", false, env, home);
        Files.createDirectories(f.hooks().getParent());
        Files.writeString(f.trust(), "model = \"gpt-5\"\n");
        String cmd = "/opt/cb/bin/compound-bash hook --agent codex";
        apply(AgentInstaller.install("codex", f, cmd));
        assertThat(AgentInstaller.install("codex", f, cmd)).noneMatch(HookInstaller.Edit::changes);
        JsonNode hooks = JSON.readTree(f.hooks().toFile()).path("hooks");
        assertThat(hooks.path("PreToolUse").get(0).path("matcher").asText()).isEqualTo("Bash");
        assertThat(hooks.path("PermissionRequest").get(0).path("hooks").get(0).path("command").asText()).isEqualTo(cmd);
        String toml = Files.readString(f.trust());
        assertThat(toml).startsWith("model = \"gpt-5\"\n");
        String pre = AgentInstaller.codexKey(f.hooks(), "PreToolUse", 0, 0);
        assertThat(AgentInstaller.trustedHash(toml, pre)).isEqualTo(AgentInstaller.codexHash("PreToolUse", "Bash", cmd, 30));
        // another hook after ours, trusted by the user; our removal moves its key from group 1 to group 0
        com.fasterxml.jackson.databind.node.ObjectNode root = (com.fasterxml.jackson.databind.node.ObjectNode)
                JSON.readTree(f.hooks().toFile());
        ((com.fasterxml.jackson.databind.node.ArrayNode) root.path("hooks").path("PreToolUse")).addObject()
                .put("matcher", "Bash").putArray("hooks").addObject().put("type", "command").put("command", "audit");
        Files.writeString(f.hooks(), JSON.writeValueAsString(root));
        String theirs = AgentInstaller.codexKey(f.hooks(), "PreToolUse", 1, 0);
        Files.writeString(f.trust(), toml + "\n[hooks.state.\"" + theirs + "\"]\ntrusted_hash = \"sha256:theirs\"\n");
        apply(AgentInstaller.uninstall("codex", f));
        JsonNode after = JSON.readTree(f.hooks().toFile()).path("hooks");
        assertThat(after.path("PreToolUse")).hasSize(1);
        assertThat(after.path("PreToolUse").get(0).path("hooks").get(0).path("command").asText()).isEqualTo("audit");
        assertThat(after.has("PermissionRequest")).isFalse();
        String t2 = Files.readString(f.trust());
        assertThat(AgentInstaller.trustedHash(t2, pre)).isEqualTo("sha256:theirs");
        assertThat(t2).doesNotContain("permission_request").startsWith("model = \"gpt-5\"");
        assertThat(AgentInstaller.uninstall("codex", f)).noneMatch(HookInstaller.Edit::changes);
    }

    @Test
    void geminiInstallAndUninstall(@TempDir Path home) throws Exception {
        Map<String, String> env = Map.of("HOME", home.toString());
        AgentInstaller.Files2 f = AgentInstaller.files("gemini", false, env, home);
        Files.createDirectories(f.hooks().getParent());
        Files.writeString(f.hooks(), "{\"security\": {\"auth\": {\"selectedType\": \"gemini-api-key\"}}}");
        String cmd = "/opt/cb/bin/compound-bash hook --agent gemini";
        apply(AgentInstaller.install("gemini", f, cmd));
        assertThat(AgentInstaller.install("gemini", f, cmd)).noneMatch(HookInstaller.Edit::changes);
        JsonNode s = JSON.readTree(f.hooks().toFile());
        JsonNode g = s.path("hooks").path("BeforeTool").get(0);
        assertThat(g.path("matcher").asText()).isEqualTo("run_shell_command");
        assertThat(g.path("hooks").get(0).path("timeout").asInt()).isEqualTo(30000);
        assertThat(s.path("security").path("auth").path("selectedType").asText()).isEqualTo("gemini-api-key");
        apply(AgentInstaller.uninstall("gemini", f));
        assertThat(JSON.readTree(f.hooks().toFile()).has("hooks")).isFalse();
        assertThat(home.resolve(".gemini")).isDirectoryContaining(p -> p.getFileName().toString().endsWith(".bak"));
    }

    @Test
    void copilotHookFileOfItsOwn(@TempDir Path home) throws Exception {
        Map<String, String> env = Map.of("HOME", home.toString());
        AgentInstaller.Files2 f = AgentInstaller.files("copilot", false, env, home);
        assertThat(f.hooks()).isEqualTo(home.resolve(".copilot/hooks/compound-bash.json"));
        assertThat(AgentInstaller.files("copilot", true, env, home.resolve("p")).hooks())
                .isEqualTo(home.resolve("p/.github/hooks/compound-bash.json"));
        String cmd = "/opt/cb/bin/compound-bash hook --agent copilot";
        apply(AgentInstaller.install("copilot", f, cmd));
        JsonNode c = JSON.readTree(f.hooks().toFile());
        assertThat(c.path("version").asInt()).isEqualTo(1);
        assertThat(c.path("hooks").path("preToolUse").get(0).path("bash").asText()).isEqualTo(cmd);
        assertThat(c.path("hooks").path("preToolUse").get(0).path("timeoutSec").asInt()).isEqualTo(30);
        assertThat(AgentInstaller.install("copilot", f, cmd)).noneMatch(HookInstaller.Edit::changes);
        apply(AgentInstaller.uninstall("copilot", f));
        assertThat(f.hooks()).doesNotExist();
        assertThat(AgentInstaller.uninstall("copilot", f)).noneMatch(HookInstaller.Edit::changes);
    }

    /** doctor: installed and trusted is ok; a changed trust or hooks turned off fails, saying how to fix it. */
    @Test
    void doctorChecksEachAgent(@TempDir Path home) throws Exception {
        Map<String, String> env = Map.of("HOME", home.toString());
        assertThat(AgentInstaller.check("codex", env, home, false)).isNull();
        assertThat(AgentInstaller.check("codex", env, home, true).status()).isEqualTo(Doctor.Status.WARN);
        AgentInstaller.Files2 f = AgentInstaller.files("codex", false, env, home);
        String cmd = "/nonexistent/bin/compound-bash hook --agent codex";
        apply(AgentInstaller.install("codex", f, cmd));
        Doctor.Check c = AgentInstaller.check("codex", env, home, false);
        assertThat(c.status()).isEqualTo(Doctor.Status.FAIL);
        assertThat(c.details()).anyMatch(d -> d.contains("does not exist"));
        Path launcher = home.resolve("cb/bin/compound-bash");
        Files.createDirectories(launcher.getParent());
        Files.writeString(launcher, "#!/bin/sh\n");
        apply(AgentInstaller.uninstall("codex", f));
        apply(AgentInstaller.install("codex", f, launcher + " hook --agent codex"));
        assertThat(AgentInstaller.check("codex", env, home, false).status()).isEqualTo(Doctor.Status.OK);
        Files.writeString(f.trust(), Files.readString(f.trust()).replaceFirst("sha256:[0-9a-f]+", "sha256:00"));
        Doctor.Check changed = AgentInstaller.check("codex", env, home, false);
        assertThat(changed.status()).isEqualTo(Doctor.Status.FAIL);
        assertThat(changed.details()).anyMatch(d -> d.contains("changed since it was trusted"));
        AgentInstaller.Files2 g = AgentInstaller.files("gemini", false, env, home);
        apply(AgentInstaller.install("gemini", g, launcher + " hook --agent gemini"));
        assertThat(AgentInstaller.check("gemini", env, home, false).status()).isEqualTo(Doctor.Status.OK);
        Files.writeString(g.hooks(), Files.readString(g.hooks()).replaceFirst("\\{", "{\"hooksConfig\": {\"enabled\": false},"));
        assertThat(AgentInstaller.check("gemini", env, home, false).status()).isEqualTo(Doctor.Status.FAIL);
    }

    @Test
    void oursMatchesOnlyTheAgentsHook() {
        assertThat(AgentInstaller.ours("codex").matcher("/x/bin/compound-bash hook --agent codex").matches()).isTrue();
        assertThat(AgentInstaller.ours("codex").matcher("'/x y/bin/compound-bash' hook --agent codex").matches()).isTrue();
        assertThat(AgentInstaller.ours("codex").matcher("env PATH=/b /x/compound-bash hook --agent codex").matches())
                .isTrue();
        assertThat(AgentInstaller.ours("codex").matcher("/x/bin/compound-bash hook --agent gemini").matches()).isFalse();
        assertThat(AgentInstaller.ours("codex").matcher("/x/bin/compound-bash hook").matches()).isFalse();
    }
}
