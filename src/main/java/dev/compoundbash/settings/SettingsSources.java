package dev.compoundbash.settings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Where the Claude Code settings files are on this machine: the directories {@link SettingsLoader#loadFrom(SettingsSources)}
 * reads, worked out once from the environment and the OS name so that tests can point every one at a temporary
 * directory.
 *
 * <p>Source: Claude Code docs, "Settings" (settings files and scopes; {@code CLAUDE_CONFIG_DIR}) and "Deploy managed
 * settings" ({@code managed-settings.json} at {@code /etc/claude-code} on Linux and WSL and at
 * {@code /Library/Application Support/ClaudeCode} on macOS, with the drop-in directory {@code managed-settings.d}).
 *
 * @param managedDir the directory holding {@code managed-settings.json} and {@code managed-settings.d/}; null when
 *                   managed settings are not read (Windows, whose managed settings live in the registry or under
 *                   {@code Program Files}, is not supported)
 * @param userDir    {@code $CLAUDE_CONFIG_DIR}, or {@code $HOME/.claude} when it is unset; null when neither is set
 * @param projectDir {@code $CLAUDE_PROJECT_DIR}; null when unset
 * @param gitRoot    the nearest directory at or above {@code projectDir} that holds a {@code .git} entry (a directory,
 *                   or a file in a worktree); null when there is none or no project directory
 * @param warnings   problems met while working the directories out (for example {@code HOME} unset)
 */
public record SettingsSources(Path managedDir, Path userDir, Path projectDir, Path gitRoot, List<String> warnings,
                              boolean projectTrusted) {

    /** Sources whose project is trusted (tests, and callers that judge trust themselves). */
    public SettingsSources(Path managedDir, Path userDir, Path projectDir, Path gitRoot, List<String> warnings) {
        this(managedDir, userDir, projectDir, gitRoot, warnings, true);
    }

    /** Each global config's directories with {@code hasTrustDialogAccepted}, while the file is unchanged. */
    private static final FileMemo<Set<String>> TRUSTED = new FileMemo<>();
    private static final com.fasterxml.jackson.databind.ObjectMapper TRUST_READER =
            new com.fasterxml.jackson.databind.ObjectMapper();

    /** The managed settings directory on Linux and WSL. */
    public static final Path LINUX_MANAGED_DIR = Path.of("/etc/claude-code");

    /** The managed settings directory on macOS. */
    public static final Path MACOS_MANAGED_DIR = Path.of("/Library/Application Support/ClaudeCode");

    /**
     * Copies the warnings into an immutable list; null becomes empty.
     *
     * @param managedDir see the record description
     * @param userDir    see the record description
     * @param projectDir see the record description
     * @param gitRoot    see the record description
     * @param warnings   see the record description
     */
    public SettingsSources {
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
    }

    /**
     * Works the directories out from the process environment and the OS name. Only {@code env} is consulted, never
     * the JVM's {@code user.home}. A variable holding a path Java cannot represent (for example with a NUL) is
     * treated as unset, with a warning.
     *
     * @param env    the process environment ({@code HOME}, {@code CLAUDE_CONFIG_DIR}, {@code CLAUDE_PROJECT_DIR});
     *               null is treated as empty
     * @param osName the {@code os.name} system property (e.g. {@code "Linux"}, {@code "Mac OS X"}); null is treated
     *               as Linux
     * @return the sources; never null, never throws
     */
    public static SettingsSources of(Map<String, String> env, String osName) {
        Map<String, String> e = env == null ? Map.of() : env;
        List<String> warnings = new ArrayList<>();
        Path userDir = path(e.get("CLAUDE_CONFIG_DIR"), "CLAUDE_CONFIG_DIR", warnings);
        if (userDir == null) {
            Path home = path(e.get("HOME"), "HOME", warnings);
            if (home != null) {
                userDir = home.resolve(".claude");
            } else {
                warnings.add("HOME is not set: user settings (~/.claude/settings*.json) skipped");
            }
        }
        Path projectDir = path(e.get("CLAUDE_PROJECT_DIR"), "CLAUDE_PROJECT_DIR", warnings);
        Path config = e.get("CLAUDE_CONFIG_DIR") != null && !e.get("CLAUDE_CONFIG_DIR").isEmpty() ? userDir
                : path(e.get("HOME"), "HOME", new ArrayList<>());
        boolean trusted = e.get("CLAUDE_CODE_SANDBOXED") != null && !e.get("CLAUDE_CODE_SANDBOXED").isEmpty()
                || projectDir != null && config != null && trusted(config.resolve(".claude.json"), projectDir);
        return new SettingsSources(managedDirFor(osName), userDir, projectDir, gitRoot(projectDir), warnings, trusted);
    }

    /**
     * Whether Claude Code trusts the workspace {@code project}: its global config ({@code ~/.claude.json}, or
     * {@code $CLAUDE_CONFIG_DIR/.claude.json}) records {@code projects[DIR].hasTrustDialogAccepted: true} for it or
     * a directory above it. Claude Code drops a project's allow rules while the workspace is not trusted (measured,
     * 2.1.328: "Dropped 1 project-scoped permissions.allow entry — workspace not yet trusted"), and so does the hook.
     *
     * @param globalConfig the global config file
     * @param project      the project directory
     * @return true when trusted; false when the file or the record is missing or unreadable
     */
    static boolean trusted(Path globalConfig, Path project) {
        try {
            if (!java.nio.file.Files.isRegularFile(globalConfig)) return false;
            // Claude Code's global config is often large: its trusted directories are kept while it is unchanged.
            List<Object> stamp = FileMemo.stamp(globalConfig);
            Set<String> trusted = TRUSTED.get(globalConfig, stamp);
            if (trusted == null) {
                com.fasterxml.jackson.databind.JsonNode projects = TRUST_READER.readTree(globalConfig.toFile())
                        .path("projects");
                Set<String> read = new java.util.HashSet<>();
                for (var it = projects.fields(); it.hasNext(); ) {
                    var e = it.next();
                    if (e.getValue().path("hasTrustDialogAccepted").asBoolean(false)) read.add(e.getKey());
                }
                trusted = Set.copyOf(read);
                TRUSTED.put(globalConfig, stamp, trusted);
            }
            for (Path p = project.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
                if (trusted.contains(p.toString())) return true;
            }
            return false;
        } catch (java.io.IOException | RuntimeException ex) {
            return false;
        }
    }

    /**
     * The managed settings directory Claude Code reads on an OS.
     *
     * @param osName the {@code os.name} system property; null is treated as Linux
     * @return {@link #MACOS_MANAGED_DIR} on macOS, null on Windows, {@link #LINUX_MANAGED_DIR} otherwise
     */
    public static Path managedDirFor(String osName) {
        String os = osName == null ? "" : osName.toLowerCase(Locale.ROOT);
        if (os.startsWith("mac") || os.startsWith("darwin")) return MACOS_MANAGED_DIR;
        if (os.startsWith("windows")) return null;
        return LINUX_MANAGED_DIR;
    }

    /**
     * The same sources with another managed settings directory (tests point it at a temporary directory).
     *
     * @param dir the directory standing in for {@code /etc/claude-code}; null stops managed settings being read
     * @return a copy with {@code managedDir} replaced
     */
    public SettingsSources withManagedDir(Path dir) {
        return new SettingsSources(dir, userDir, projectDir, gitRoot, warnings, projectTrusted);
    }

    /**
     * The nearest directory at or above {@code start} with a {@code .git} entry, as git itself finds the top of a
     * working tree (git-rev-parse(1), {@code --show-toplevel}).
     *
     * @param start where to start looking; null gives null
     * @return the directory, or null when no ancestor has one
     */
    public static Path gitRoot(Path start) {
        if (start == null) return null;
        try {
            for (Path p = start.toAbsolutePath().normalize(); p != null; p = p.getParent()) {
                if (Files.exists(p.resolve(".git"))) return p;
            }
        } catch (RuntimeException e) { // SecurityException, InvalidPathException: no root found
            return null;
        }
        return null;
    }

    private static Path path(String value, String name, List<String> warnings) {
        if (value == null || value.isEmpty()) return null;
        try {
            return Path.of(value);
        } catch (RuntimeException e) { // InvalidPathException, e.g. a NUL in the variable
            warnings.add("invalid directory in " + name + ": " + e.getMessage().replace("\0", "\\0"));
            return null;
        }
    }
}
