package dev.compoundbash.facts;

import java.nio.file.Path;
import java.util.List;

/**
 * What fact extraction needs to know about the world: the working directory of the call (the hook input's
 * {@code cwd}), the {@code additionalDirectories} from settings, and the OS name (for macOS's {@code /tmp}
 * aliases; injectable for tests).
 *
 * @param cwd                   absolute working directory
 * @param additionalDirectories directories as written in settings: absolute, relative to {@code cwd}, or {@code ~/...}
 * @param osName                the value of {@code os.name}, e.g. {@code "Linux"} or {@code "Mac OS X"}
 * @param tmpDir                {@code $TMPDIR}, or null
 * @param home                  the user's home directory ({@code $HOME}), which {@code ~} and {@code $HOME} name;
 *                              null when not known (then paths through it are unknown)
 */
public record Environment(Path cwd, List<String> additionalDirectories, String osName, String tmpDir, String home) {

    /** An environment whose home directory is not known. */
    public Environment(Path cwd, List<String> additionalDirectories, String osName, String tmpDir) {
        this(cwd, additionalDirectories, osName, tmpDir, null);
    }

    /** An environment for {@code cwd} and {@code additionalDirectories} on this machine's OS, home not known. */
    public static Environment of(Path cwd, List<String> additionalDirectories, String tmpDir) {
        return of(cwd, additionalDirectories, tmpDir, null);
    }

    /** An environment for {@code cwd} and {@code additionalDirectories} on this machine's OS. */
    public static Environment of(Path cwd, List<String> additionalDirectories, String tmpDir, String home) {
        return new Environment(cwd, List.copyOf(additionalDirectories), System.getProperty("os.name", "Linux"), tmpDir,
                home == null || home.isEmpty() ? null : home);
    }

    /** True when {@link #osName} names macOS. */
    public boolean isMac() {
        return osName != null && osName.toLowerCase().startsWith("mac");
    }
}
