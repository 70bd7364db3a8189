package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The Claude Code plugin layout: manifest, marketplace entry and hooks file agree with each other and the build. */
class PluginLayoutTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void manifestMarketplaceAndHooksAgree() throws Exception {
        JsonNode plugin = JSON.readTree(Path.of(".claude-plugin/plugin.json").toFile());
        JsonNode market = JSON.readTree(Path.of(".claude-plugin/marketplace.json").toFile());
        JsonNode hooks = JSON.readTree(Path.of("hooks/hooks.json").toFile());
        assertThat(plugin.get("name").asText()).isEqualTo("compound-bash");
        assertThat(plugin.get("version").asText()).isEqualTo(Version.get());
        assertThat(market.get("name").asText()).matches("[a-z0-9-]+");
        assertThat(market.at("/owner/name").asText()).isNotBlank();
        JsonNode entry = market.get("plugins").get(0);
        assertThat(entry.get("name").asText()).isEqualTo(plugin.get("name").asText());
        assertThat(entry.get("source").asText()).isEqualTo("./");
        JsonNode pre = hooks.at("/hooks/PreToolUse");
        assertThat(pre).hasSize(1);
        assertThat(pre.get(0).get("matcher").asText()).isEqualTo("Bash");
        String command = pre.get(0).at("/hooks/0/command").asText();
        assertThat(command).isEqualTo("${CLAUDE_PLUGIN_ROOT}/bin/compound-bash hook");
        assertThat(HookInstaller.OURS.matcher(command).matches()).isTrue();
        assertThat(Files.isExecutable(Path.of("bin/compound-bash"))).isTrue();
        // SessionStart starts the evaluator so that a session's first Bash call is warm
        assertThat(hooks.at("/hooks/SessionStart/0/hooks/0/command").asText())
                .isEqualTo("${CLAUDE_PLUGIN_ROOT}/bin/compound-bash warm");
    }
}
