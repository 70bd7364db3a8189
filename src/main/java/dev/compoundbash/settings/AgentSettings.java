package dev.compoundbash.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The permission rules the hook applies for an agent other than Claude Code (docs/AGENTS.md, "Rules"), merged in
 * this order, a rule kept once:
 * <ol>
 *   <li>compound-bash's own settings file ({@link #ownFile}): {@code permissions.allow}, {@code ask}, {@code deny},
 *       {@code additionalDirectories} in Claude Code's syntax ({@code Bash(git diff *)}, {@code Read(./secrets/**)});
 *       Copilot's {@code shell(git:*)} is read as {@code Bash(git:*)};</li>
 *   <li>the deny and ask rules of Claude Code's user settings ({@code $CLAUDE_CONFIG_DIR/settings.json} or
 *       {@code ~/.claude/settings.json}): one deny list for every agent; Claude Code's allow rules are its own;</li>
 *   <li>the agent's own rules where they mean the same: Codex's prefix rules ({@link CodexRules}), Gemini CLI's
 *       policies and {@code tools.allowed}/{@code tools.exclude} ({@link GeminiRules}); Copilot CLI keeps its rules
 *       in command-line flags a hook cannot see.</li>
 * </ol>
 * Never throws: a file that cannot be read is a warning; where it may hold a deny rule the hook cannot see
 * (compound-bash's own file, Codex's rules), every command asks: the ask rule {@code Bash(*)}.
 */
public final class AgentSettings {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern COPILOT_SHELL = Pattern.compile("^\\s*shell\\s*(?:\\((.*)\\))?\\s*$", Pattern.DOTALL);

    /**
     * The settings, and compound-bash's per-agent options.
     *
     * @param settings the merged rules
     * @param options  {@code compoundBash} of compound-bash's own file (an empty object when absent)
     */
    public record Loaded(PermissionSettings settings, JsonNode options) {
        /**
         * A boolean-ish text option under {@code compoundBash}, by dotted path.
         *
         * @param dotted e.g. {@code agents.gemini.ask}
         * @return its text, or null
         */
        public String option(String dotted) {
            JsonNode n = options;
            for (String k : dotted.split("\\.")) n = n.path(k);
            return n.isValueNode() ? n.asText() : null;
        }
    }

    private AgentSettings() {
    }

    /**
     * compound-bash's own settings file: {@code $COMPOUND_BASH_SETTINGS} when set, else
     * {@code $XDG_CONFIG_HOME/compound-bash/settings.json}, else {@code $HOME/.config/compound-bash/settings.json}.
     *
     * @param env the environment
     * @return the file (it may not exist), or null when no variable names a place
     */
    public static Path ownFile(Map<String, String> env) {
        String f = env.get("COMPOUND_BASH_SETTINGS");
        if (f != null && !f.isEmpty()) return Path.of(f);
        String xdg = env.get("XDG_CONFIG_HOME");
        if (xdg != null && !xdg.isEmpty()) return Path.of(xdg, "compound-bash", "settings.json");
        String home = env.get("HOME");
        return home == null || home.isEmpty() ? null : Path.of(home, ".config", "compound-bash", "settings.json");
    }

    /**
     * Loads the rules for {@code agent}.
     *
     * @param agent {@code codex}, {@code gemini} or {@code copilot} (another name reads the first two sources only)
     * @param env   the hook's environment
     * @param cwd   the call's working directory, or null
     * @return the rules and options; never null, never throws
     */
    public static Loaded load(String agent, Map<String, String> env, Path cwd) {
        List<String> allow = new ArrayList<>(), ask = new ArrayList<>(), deny = new ArrayList<>();
        List<String> dirs = new ArrayList<>(), warnings = new ArrayList<>();
        List<Path> files = new ArrayList<>();
        JsonNode options = JSON.createObjectNode();
        Path own = ownFile(env);
        JsonNode root = readJson(own, warnings);
        if (root != null) {
            files.add(own);
            JsonNode p = root.path("permissions");
            addAll(allow, p.path("allow"), true);
            addAll(ask, p.path("ask"), true);
            addAll(deny, p.path("deny"), true);
            addAll(dirs, p.path("additionalDirectories"), false);
            if (root.path("compoundBash").isObject()) options = root.get("compoundBash");
        } else if (own != null && Files.exists(own)) {
            // closed world: the file may hold the user's deny rules
            warnings.add(own + ": compound-bash's own settings cannot be read, so every command asks");
            ask.add("Bash(*)");
        }
        Path claude = claudeUserSettings(env);
        JsonNode cc = readJson(claude, warnings);
        if (cc != null) {
            files.add(claude);
            addAll(ask, cc.path("permissions").path("ask"), false);
            addAll(deny, cc.path("permissions").path("deny"), false);
        }
        switch (agent == null ? "" : agent) {
            case "codex" -> {
                CodexRules.Read r = CodexRules.load(env);
                merge(allow, r.allow());
                merge(ask, r.ask());
                merge(deny, r.deny());
                files.addAll(r.files());
                warnings.addAll(r.warnings());
            }
            case "gemini" -> {
                GeminiRules.Read r = GeminiRules.load(env, cwd);
                merge(allow, r.allow());
                merge(ask, r.ask());
                merge(deny, r.deny());
                files.addAll(r.files());
                warnings.addAll(r.warnings());
            }
            default -> {
            }
        }
        return new Loaded(new PermissionSettings(allow, ask, deny, dirs, files, warnings), options);
    }

    /** {@code $CLAUDE_CONFIG_DIR/settings.json}, else {@code $HOME/.claude/settings.json}, or null. */
    static Path claudeUserSettings(Map<String, String> env) {
        String config = env.get("CLAUDE_CONFIG_DIR");
        if (config != null && !config.isEmpty()) return Path.of(config, "settings.json");
        String home = env.get("HOME");
        return home == null || home.isEmpty() ? null : Path.of(home, ".claude", "settings.json");
    }

    /**
     * A rule string in Claude Code's syntax: Copilot CLI's {@code shell(ARG)} is {@code Bash(ARG)} (its {@code :*}
     * prefix form is Claude Code's legacy one), {@code shell} alone every command ({@code Bash(*)}); everything else as
     * written.
     *
     * @param rule the rule as written
     * @return the rule in Claude Code's syntax
     */
    public static String claudeSyntax(String rule) {
        Matcher m = COPILOT_SHELL.matcher(rule);
        if (!m.matches()) return rule.strip();
        String arg = m.group(1) == null ? "" : m.group(1).strip();
        return arg.isEmpty() ? "Bash(*)" : "Bash(" + arg + ")";
    }

    private static void addAll(List<String> out, JsonNode list, boolean translate) {
        for (JsonNode n : list) {
            if (!n.isTextual()) continue;
            String r = translate ? claudeSyntax(n.textValue()) : n.textValue();
            if (!out.contains(r)) out.add(r);
        }
    }

    private static void merge(List<String> out, List<String> more) {
        for (String r : more) if (!out.contains(r)) out.add(r);
    }

    private static JsonNode readJson(Path f, List<String> warnings) {
        if (f == null || !Files.isRegularFile(f)) return null;
        try {
            JsonNode n = JSON.readTree(GeminiRules.stripComments(Files.readString(f)));
            if (n == null || !n.isObject()) {
                warnings.add(f + ": not a JSON object");
                return null;
            }
            return n;
        } catch (IOException | RuntimeException e) {
            warnings.add(f + ": not read: " + String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            return null;
        }
    }
}
