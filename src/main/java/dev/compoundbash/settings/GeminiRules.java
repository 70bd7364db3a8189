package dev.compoundbash.settings;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Gemini CLI's own rules for its shell tool ({@code run_shell_command}) read as Claude Code permission rules.
 *
 * <ul>
 *   <li>Policy files ({@code ~/.gemini/policies/*.toml}, the admin {@code /etc/gemini-cli/policies/*.toml}): a
 *       {@code [[rule]]} for {@code run_shell_command} with a {@code commandPrefix} (a string or a list) matches a
 *       command that starts with the prefix followed by a blank or the end (the engine's {@code argsPattern}); each
 *       prefix P becomes {@code Bash(P)} and {@code Bash(P *)} of the rule's kind: {@code allow}, {@code ask_user}
 *       (ask), {@code deny}. A rule for the whole tool (no prefix, no pattern) becomes {@code Bash(*)}.</li>
 *   <li>{@code settings.json} (the user's, the system's {@code /etc/gemini-cli/settings.json}, the workspace's
 *       {@code .gemini/settings.json}): {@code tools.allowed} entries {@code run_shell_command(P)} are allow rules,
 *       {@code tools.exclude} entries deny rules ({@code run_shell_command} alone: every command).</li>
 * </ul>
 * The hook applies them at any depth and through every wrapper. Gemini's priorities are not modelled: a deny or ask
 * rule applies wherever it matches (stricter than Gemini where a higher-priority allow overrides it). An allow rule
 * restricted to some approval {@code modes} or to {@code interactive} runs is not used (the hook does not know the
 * mode); a rule the hook cannot translate ({@code commandRegex}, {@code argsPattern}, a prefix holding {@code *}) is
 * left to Gemini, which applies it itself, and named in the warnings.
 *
 * <p>Source: Gemini CLI docs "Policy engine" (TOML rule schema, {@code commandPrefix}, decisions, tiers, locations)
 * and "Configuration" ({@code tools.allowed}, {@code tools.exclude}); {@code packages/core/src/policy}.
 */
public final class GeminiRules {
    /** What the rules read as. */
    public record Read(List<String> allow, List<String> ask, List<String> deny, List<Path> files,
                       List<String> warnings) {
    }

    private static final TomlMapper TOML = new TomlMapper();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Pattern SHELL_ENTRY = Pattern.compile("^\\s*run_shell_command\\s*(?:\\((.*)\\))?\\s*$",
            Pattern.DOTALL);
    static final Path SYSTEM_DIR = Path.of("/etc/gemini-cli");

    private GeminiRules() {
    }

    /**
     * Gemini CLI's user directory: {@code $GEMINI_CLI_HOME/.gemini}, else {@code $HOME/.gemini}.
     *
     * @param env the environment
     * @return the directory, or null when neither is set
     */
    public static Path home(Map<String, String> env) {
        String h = env.get("GEMINI_CLI_HOME");
        if (h == null || h.isEmpty()) h = env.get("HOME");
        return h == null || h.isEmpty() ? null : Path.of(h, ".gemini");
    }

    /**
     * Reads the user's, the admin's and the workspace's rules.
     *
     * @param env the environment
     * @param cwd the workspace directory (the hook input's {@code cwd}), or null
     * @return the rules; never null, never throws
     */
    public static Read load(Map<String, String> env, Path cwd) {
        return load(home(env), SYSTEM_DIR, cwd);
    }

    static Read load(Path userDir, Path systemDir, Path cwd) {
        Read out = new Read(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
                new ArrayList<>());
        List<Path> settings = new ArrayList<>();
        if (systemDir != null) {
            settings.add(systemDir.resolve("settings.json"));
            policies(systemDir.resolve("policies"), out);
        }
        if (userDir != null) {
            settings.add(userDir.resolve("settings.json"));
            policies(userDir.resolve("policies"), out);
        }
        if (cwd != null) settings.add(cwd.resolve(".gemini").resolve("settings.json"));
        for (Path f : settings) settingsFile(f, out);
        return out;
    }

    private static void policies(Path dir, Read out) {
        if (!Files.isDirectory(dir)) return;
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".toml")).sorted().toList();
        } catch (IOException e) {
            out.warnings().add(dir + ": cannot list: " + e.getMessage());
            return;
        }
        for (Path f : files) {
            JsonNode root;
            try {
                root = TOML.readTree(f.toFile());
            } catch (IOException | RuntimeException e) {
                out.warnings().add(f + ": not read (" + firstLine(e) + "); Gemini CLI applies it itself");
                continue;
            }
            out.files().add(f);
            int n = 0;
            for (JsonNode rule : root.path("rule")) {
                n++;
                policyRule(f + " rule " + n, rule, out);
            }
        }
    }

    private static void policyRule(String where, JsonNode rule, Read out) {
        JsonNode tools = rule.get("toolName");
        boolean shellTool = false;
        if (tools != null) {
            for (JsonNode t : tools.isArray() ? tools : JSON.createArrayNode().add(tools)) {
                if (t.isTextual() && t.textValue().equals("run_shell_command")) shellTool = true;
            }
        }
        JsonNode prefix = rule.get("commandPrefix");
        if (!shellTool && prefix == null && rule.get("commandRegex") == null) return;
        if (rule.has("mcpName") || rule.has("subagent")) return;
        String decision = rule.path("decision").asText("");
        String kind = switch (decision) {
            case "allow" -> "allow";
            case "deny" -> "deny";
            case "ask_user" -> "ask";
            default -> null;
        };
        if (kind == null) {
            out.warnings().add(where + ": decision \"" + decision + "\" is not allow, deny or ask_user");
            return;
        }
        if (kind.equals("allow") && (rule.path("modes").size() > 0 || rule.has("interactive"))) {
            out.warnings().add(where + ": an allow rule for some modes or runs only is not used");
            return;
        }
        if (rule.has("commandRegex") || rule.has("argsPattern")) {
            out.warnings().add(where + ": commandRegex and argsPattern are not translated; Gemini CLI applies them");
            return;
        }
        List<String> prefixes = new ArrayList<>();
        if (prefix == null) {
            prefixes.add(null);
        } else if (prefix.isArray()) {
            for (JsonNode p : prefix) if (p.isTextual()) prefixes.add(p.textValue());
        } else if (prefix.isTextual()) {
            prefixes.add(prefix.textValue());
        }
        for (String p : prefixes) add(out, kind, p, where);
    }

    private static void settingsFile(Path f, Read out) {
        if (!Files.isRegularFile(f)) return;
        JsonNode root;
        try {
            root = JSON.readTree(stripComments(Files.readString(f)));
        } catch (IOException | RuntimeException e) {
            out.warnings().add(f + ": not read (" + firstLine(e) + ")");
            return;
        }
        out.files().add(f);
        JsonNode tools = root.path("tools");
        for (String[] k : new String[][]{{"allowed", "allow"}, {"exclude", "deny"}}) {
            for (JsonNode e : tools.path(k[0])) {
                if (!e.isTextual()) continue;
                Matcher m = SHELL_ENTRY.matcher(e.textValue());
                if (!m.matches()) continue;
                String p = m.group(1);
                add(out, k[1], p == null || p.isBlank() ? null : p.strip(), f + " tools." + k[0]);
            }
        }
    }

    private static void add(Read out, String kind, String prefix, String where) {
        List<String> target = kind.equals("allow") ? out.allow() : kind.equals("ask") ? out.ask() : out.deny();
        List<String> rules;
        if (prefix == null) {
            rules = List.of("Bash(*)");
        } else {
            String p = prefix.strip();
            if (p.isEmpty() || p.contains(")") || kind.equals("allow") && p.contains("*")) {
                out.warnings().add(where + ": the prefix \"" + prefix + "\" is not translated; Gemini CLI applies it");
                return;
            }
            rules = List.of("Bash(" + p + ")", "Bash(" + p + " *)");
        }
        for (String r : rules) if (!target.contains(r)) target.add(r);
    }

    /** JSON with comments (Gemini's settings files allow them) as plain JSON: comments outside strings removed. */
    static String stripComments(String s) {
        StringBuilder b = new StringBuilder();
        boolean str = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (str) {
                b.append(c);
                if (c == '\\' && i + 1 < s.length()) b.append(s.charAt(++i));
                else if (c == '"') str = false;
            } else if (c == '"') {
                str = true;
                b.append(c);
            } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '/') {
                while (i < s.length() && s.charAt(i) != '\n') i++;
                b.append('\n');
            } else if (c == '/' && i + 1 < s.length() && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                i = end < 0 ? s.length() : end + 1;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static String firstLine(Exception e) {
        String m = String.valueOf(e.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
