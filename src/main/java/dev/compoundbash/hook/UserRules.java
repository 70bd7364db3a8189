package dev.compoundbash.hook;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Where a user's own DRL files live: {@code $CLAUDE_CONFIG_DIR/compound-bash/rules/*.drl}, or
 * {@code $HOME/.claude/compound-bash/rules/*.drl} when {@code CLAUDE_CONFIG_DIR} is unset.
 */
public final class UserRules {
    private UserRules() {
    }

    /** The user's rules directory for {@code env}, or null when neither variable is set. */
    public static Path directory(Map<String, String> env) {
        String config = env.get("CLAUDE_CONFIG_DIR");
        if (config != null && !config.isEmpty()) return Path.of(config, "compound-bash", "rules");
        String home = env.get("HOME");
        if (home == null || home.isEmpty()) return null;
        return Path.of(home, ".claude", "compound-bash", "rules");
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

    /** The {@code *.drl} files in the user's rules directory, sorted by name; empty when there is none. */
    public static List<Path> files(Map<String, String> env) {
        Path dir = directory(env);
        List<Path> out = new ArrayList<>();
        if (dir == null || !Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> p.getFileName().toString().endsWith(".drl")).sorted().forEach(out::add);
        } catch (IOException e) {
            // An unreadable directory holds no rules we can load; the caller logs the empty list.
        }
        return out;
    }
}
