package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.hook.UserRules;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where Claude Code runs compound-bash from: the two routes, read from the settings files Claude Code reads and the
 * plugin records beside the user settings. The <b>install route</b> is a {@code hooks.PreToolUse} entry whose command
 * runs {@code compound-bash hook} ({@link HookInstaller#OURS}); the <b>plugin route</b> is an {@code enabledPlugins}
 * entry {@code "compound-bash@MARKETPLACE": true}, whose hook Claude Code runs from the plugin's root directory.
 *
 * <p>Which root Claude Code runs, measured with Claude Code 2.1.332 (claude-e2e, docs/CLAUDE-CODE.md "Plugins"):
 * for a marketplace added from a local path ({@code plugins/known_marketplaces.json}: {@code source.source ==
 * "directory"}) it reads {@code hooks/hooks.json} from, and runs, the checkout itself ({@code installLocation} joined
 * with the plugin's {@code source} in that checkout's {@code .claude-plugin/marketplace.json}), although
 * {@code plugins/installed_plugins.json} names a copy under {@code plugins/cache/}; for a marketplace from GitHub it
 * runs that copy ({@code installPath}).
 */
final class Registrations {
    /** The plugin's name in {@code enabledPlugins} and {@code installed_plugins.json}: {@code compound-bash@...}. */
    static final Pattern OUR_PLUGIN = Pattern.compile("compound-bash@.*");
    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * A settings entry of ours (the install route).
     *
     * @param file    the settings file
     * @param matcher the matcher group's {@code matcher}
     * @param command the hook command
     */
    record Entry(Path file, String matcher, String command) {
    }

    /**
     * An enabled plugin of ours (the plugin route).
     *
     * @param key   {@code compound-bash@MARKETPLACE}
     * @param file  the settings file that enables it
     * @param roots the directories Claude Code runs its {@code bin/compound-bash} from (empty when no installation
     *              is recorded); each with how it was found
     */
    record Plugin(String key, Path file, List<Root> roots) {
    }

    /**
     * One directory Claude Code runs the plugin from.
     *
     * @param dir the plugin root ({@code ${CLAUDE_PLUGIN_ROOT}})
     * @param how {@code checkout} (a marketplace added from a local path: the checkout itself) or {@code copy}
     *            (the copy Claude Code installed under {@code plugins/cache/})
     */
    record Root(Path dir, String how) {
    }

    /**
     * Both routes as Claude Code would see them.
     *
     * @param entries  settings entries of ours, in the order of the files
     * @param plugins  enabled plugins of ours
     * @param disabled settings files that set {@code disableAllHooks}
     */
    record Found(List<Entry> entries, List<Plugin> plugins, List<Path> disabled) {
        /** True when the plugin route runs the hook. */
        boolean pluginActive() {
            return !plugins.isEmpty();
        }
    }

    private Registrations() {
    }

    /**
     * Reads the routes from {@code settingsFiles} (the files Claude Code reads, e.g. {@code PermissionSettings
     * .filesRead()}) and the plugin records of the user's configuration directory.
     *
     * @param settingsFiles the settings files, in the order Claude Code reads them
     * @param env           the environment ({@code CLAUDE_CONFIG_DIR}, {@code HOME})
     * @return what was found; a file that does not parse is skipped (the settings check reports it)
     */
    static Found find(List<Path> settingsFiles, Map<String, String> env) {
        List<Entry> entries = new ArrayList<>();
        List<Plugin> plugins = new ArrayList<>();
        List<Path> disabled = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (Path f : settingsFiles) {
            JsonNode root;
            try {
                root = JSON.readTree(Files.readString(f, StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                continue;
            }
            if (root == null) continue;
            if (root.path("disableAllHooks").asBoolean(false)) disabled.add(f);
            for (JsonNode g : root.path("hooks").path("PreToolUse")) {
                for (JsonNode h : g.path("hooks")) {
                    String cmd = h.path("command").asText("");
                    if (HookInstaller.OURS.matcher(cmd).matches()) entries.add(new Entry(f, g.path("matcher").asText(""), cmd));
                }
            }
            for (var it = root.path("enabledPlugins").fields(); it.hasNext(); ) {
                var e = it.next();
                if (OUR_PLUGIN.matcher(e.getKey()).matches() && e.getValue().asBoolean(false) && seen.add(e.getKey())) {
                    plugins.add(new Plugin(e.getKey(), f, roots(e.getKey(), env)));
                }
            }
        }
        return new Found(entries, plugins, disabled);
    }

    /** The directories Claude Code runs plugin {@code key} from (see the class comment). */
    static List<Root> roots(String key, Map<String, String> env) {
        Path config = UserRules.configDirectory(env);
        if (config == null) return List.of();
        Path plugins = config.resolve("plugins");
        int at = key.indexOf('@');
        String name = key.substring(0, at), market = key.substring(at + 1);
        List<Root> out = new ArrayList<>();
        Path checkout = localCheckout(plugins.resolve("known_marketplaces.json"), market, name);
        if (checkout != null) {
            out.add(new Root(checkout, "checkout"));
            return out;
        }
        try {
            JsonNode installs = JSON.readTree(plugins.resolve("installed_plugins.json").toFile()).path("plugins").path(key);
            for (JsonNode inst : installs) {
                String p = inst.path("installPath").asText("");
                if (!p.isEmpty() && out.stream().noneMatch(r -> r.dir().equals(Path.of(p)))) {
                    out.add(new Root(Path.of(p), "copy"));
                }
            }
        } catch (IOException | RuntimeException e) {
            // no installation recorded
        }
        return out;
    }

    /**
     * The plugin's directory inside a marketplace added from a local path, or null when the marketplace is not one
     * (or its records cannot be read).
     */
    private static Path localCheckout(Path knownMarketplaces, String market, String name) {
        try {
            JsonNode m = JSON.readTree(knownMarketplaces.toFile()).path(market);
            if (!"directory".equals(m.path("source").path("source").asText())) return null;
            String location = m.path("installLocation").asText(m.path("source").path("path").asText(""));
            if (location.isEmpty()) return null;
            Path dir = Path.of(location);
            String source = "./";
            JsonNode manifest = JSON.readTree(dir.resolve(".claude-plugin").resolve("marketplace.json").toFile());
            for (JsonNode p : manifest.path("plugins")) {
                if (name.equals(p.path("name").asText()) && p.path("source").isTextual()) source = p.path("source").asText();
            }
            return dir.resolve(source).normalize();
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** How a user turns a plugin off, for messages: the command line and the in-session command. */
    static String disableAdvice(String key) {
        return "claude plugin disable " + key + " (or /plugin in a session)";
    }
}
