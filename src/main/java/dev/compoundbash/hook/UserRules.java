package dev.compoundbash.hook;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import dev.compoundbash.settings.SettingsLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where DRL rules beside the built-in ones come from.
 *
 * <ul>
 *   <li>The user's own: {@code $CLAUDE_CONFIG_DIR/compound-bash/rules/*.drl}, or
 *       {@code $HOME/.claude/compound-bash/rules/*.drl} when {@code CLAUDE_CONFIG_DIR} is unset.</li>
 *   <li>The project's: {@code $CLAUDE_PROJECT_DIR/.claude/compound-bash/rules/*.drl}, loaded only when the user's
 *       own settings file ({@code ~/.claude/settings.json}, or {@code $CLAUDE_CONFIG_DIR/settings.json}) lists
 *       that project directory in {@code compoundBash.trustedProjectDirs}: DRL runs arbitrary Java, so a cloned
 *       repository must not bring its own rules uninvited.</li>
 * </ul>
 */
public final class UserRules {
    /** The settings key (in the user's own settings.json) listing trusted project directories. */
    public static final String TRUST_KEY = "compoundBash.trustedProjectDirs";

    private static final ObjectMapper JSON = new ObjectMapper();

    private UserRules() {
    }

    /** The user's Claude Code directory: {@code $CLAUDE_CONFIG_DIR}, else {@code $HOME/.claude}; null if neither. */
    public static Path configDirectory(Map<String, String> env) {
        String config = env.get("CLAUDE_CONFIG_DIR");
        if (config != null && !config.isEmpty()) return Path.of(config);
        String home = env.get("HOME");
        if (home == null || home.isEmpty()) return null;
        return Path.of(home, ".claude");
    }

    /** The user's rules directory for {@code env}, or null when neither variable is set. */
    public static Path directory(Map<String, String> env) {
        Path config = configDirectory(env);
        return config == null ? null : config.resolve("compound-bash").resolve("rules");
    }

    /**
     * Where compiled user rules are cached: {@code compound-bash/cache} beside the rules directory
     * ({@code $CLAUDE_CONFIG_DIR/compound-bash/cache} or {@code $HOME/.claude/compound-bash/cache}).
     *
     * @param env the process environment
     * @return the directory (it may not exist yet), or null when neither variable is set
     */
    public static Path cacheDirectory(Map<String, String> env) {
        Path dir = directory(env);
        return dir == null ? null : dir.resolveSibling("cache");
    }

    /** The project's rules directory ({@code $CLAUDE_PROJECT_DIR/.claude/compound-bash/rules}), or null. */
    public static Path projectDirectory(Map<String, String> env) {
        String project = env.get("CLAUDE_PROJECT_DIR");
        if (project == null || project.isEmpty()) return null;
        return Path.of(project, ".claude", "compound-bash", "rules");
    }

    /**
     * The directories listed under {@code compoundBash.trustedProjectDirs} in the user's own settings.json; a
     * leading {@code ~/} is the home directory. Unreadable or malformed settings trust nothing.
     */
    public static List<Path> trustedProjectDirs(Map<String, String> env) {
        List<Path> out = new ArrayList<>();
        Path config = configDirectory(env);
        if (config == null) return out;
        Path settings = config.resolve("settings.json");
        if (!Files.isRegularFile(settings)) return out;
        try {
            JsonNode list = JSON.readTree(settings.toFile()).path("compoundBash").path("trustedProjectDirs");
            String home = env.get("HOME");
            for (JsonNode n : list) {
                if (!n.isTextual()) continue;
                String s = n.asText();
                if (s.startsWith("~/") && home != null && !home.isEmpty()) s = home + s.substring(1);
                Path p = Path.of(s);
                if (p.isAbsolute()) out.add(p);
            }
        } catch (IOException | RuntimeException e) {
            // malformed settings trust nothing
        }
        return out;
    }

    /** True when {@code $CLAUDE_PROJECT_DIR} is set and is one of {@link #trustedProjectDirs}, symlinks resolved. */
    public static boolean projectTrusted(Map<String, String> env) {
        String project = env.get("CLAUDE_PROJECT_DIR");
        if (project == null || project.isEmpty()) return false;
        Path p = canonical(Path.of(project));
        for (Path t : trustedProjectDirs(env)) if (canonical(t).equals(p)) return true;
        return false;
    }

    /**
     * The DRL files to load with the built-in rules: the user's, then the project's when it is trusted, each
     * directory sorted by name; empty when there are none.
     */
    public static List<Path> files(Map<String, String> env) {
        List<Path> out = new ArrayList<>(drlFiles(directory(env)));
        if (projectTrusted(env)) out.addAll(drlFiles(projectDirectory(env)));
        return out;
    }

    /** Notes for the log: project rules present but not loaded because the project is not trusted. */
    public static List<String> notes(Map<String, String> env) {
        Path dir = projectDirectory(env);
        if (dir == null || projectTrusted(env) || drlFiles(dir).isEmpty()) return List.of();
        return List.of("project rules in " + dir + " are not loaded: " + env.get("CLAUDE_PROJECT_DIR")
                + " is not in " + TRUST_KEY + " of your own settings.json");
    }

    /**
     * The {@code *.drl} files directly in {@code dir}, sorted by name; empty when {@code dir} is null or surely does
     * not exist. A rules directory that exists (or may: its parent cannot be searched) but cannot be listed — no
     * permission, a dangling link, a file in its place — may hold the user's deny rules, so it is not taken as
     * empty: the list then holds {@code dir} itself, which {@code RuleEngine.load} cannot read as a rule file and
     * reports as a rule file error, and every call asks until it is fixed (issue 20, finding 1).
     *
     * @param dir the rules directory, or null
     * @return the files, or {@code [dir]} when it cannot be listed
     */
    public static List<Path> drlFiles(Path dir) {
        List<Path> out = new ArrayList<>();
        if (dir == null || SettingsLoader.surelyAbsent(dir)) return out;
        if (!Files.isDirectory(dir)) return List.of(dir);
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".drl")).sorted().forEach(out::add);
        } catch (IOException | RuntimeException e) {
            return List.of(dir);
        }
        return out;
    }

    private static Path canonical(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException | RuntimeException e) {
            return p.toAbsolutePath().normalize();
        }
    }
}
