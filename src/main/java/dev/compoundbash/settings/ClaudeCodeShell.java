package dev.compoundbash.settings;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Which shell Claude Code runs the Bash tool's commands in, read from the environment the hook process gets (the
 * same {@code SHELL}, {@code CLAUDE_CODE_SHELL} and {@code PATH} Claude Code itself was started with; the hook input
 * names no shell).
 *
 * <p>Source: Claude Code 2.1.332's shell selection, read in its shipped program and measured with
 * {@code claude-e2e} (docs/CLAUDE-CODE.md section S): the candidates are {@code CLAUDE_CODE_SHELL} and then
 * {@code SHELL}, each only when its text contains {@code bash} or {@code zsh}; then {@code zsh} found on
 * {@code PATH}, {@code /bin/zsh}, {@code /usr/bin/zsh}, {@code /usr/local/bin/zsh}, {@code /opt/homebrew/bin/zsh},
 * the same four for bash, and {@code bash} found on {@code PATH} — bash before zsh throughout when {@code SHELL}'s
 * name reads as bash. The first candidate that is executable ({@code access(X_OK)}) runs. Its kind is read from its
 * name: a file name containing {@code zsh} is zsh, else one containing {@code bash} is bash, else the same test on
 * the whole path.
 */
public final class ClaudeCodeShell {
    /** The standard directories Claude Code searches, in its order. */
    public static final List<String> STANDARD_DIRECTORIES = List.of("/bin", "/usr/bin", "/usr/local/bin",
            "/opt/homebrew/bin");

    /**
     * The shell Claude Code picks.
     *
     * @param kind {@code bash} or {@code zsh}
     * @param path the executable it runs, or null when no candidate is executable (Claude Code then refuses to run
     *             any command: "No suitable shell found"; {@code kind} is bash)
     * @param from what named it: {@code CLAUDE_CODE_SHELL}, {@code SHELL}, {@code PATH}, the directory searched, or
     *             {@code none}
     */
    public record Choice(String kind, String path, String from) {
        /** True for zsh. */
        public boolean isZsh() { return "zsh".equals(kind); }

        /** One line for the log and {@code explain}: {@code zsh (/usr/bin/zsh, from SHELL)}. */
        public String describe() {
            return kind + (path == null ? " (no shell found; bash assumed)" : " (" + path + ", from " + from + ")");
        }
    }

    private ClaudeCodeShell() {
    }

    /**
     * The shell Claude Code runs for a process with this environment, on this machine's file system.
     *
     * @param env the environment (the hook process's, or the variables a warm client sent)
     * @return the choice; never null
     */
    public static Choice of(Map<String, String> env) {
        return of(env, STANDARD_DIRECTORIES);
    }

    /**
     * As {@link #of(Map)}, searching {@code directories} instead of {@link #STANDARD_DIRECTORIES} (for tests).
     *
     * @param env         the environment
     * @param directories the directories searched after {@code PATH}, in order
     * @return the choice; never null
     */
    static Choice of(Map<String, String> env, List<String> directories) {
        String override = env.get("CLAUDE_CODE_SHELL");
        String shell = env.get("SHELL");
        boolean bashFirst = "bash".equals(kindOfName(shell == null ? "" : shell));
        List<String[]> candidates = new ArrayList<>();
        for (String[] named : List.of(new String[]{override, "CLAUDE_CODE_SHELL"}, new String[]{shell, "SHELL"})) {
            if (named[0] != null && (named[0].contains("bash") || named[0].contains("zsh"))) candidates.add(named);
        }
        List<String> order = bashFirst ? List.of("bash", "zsh") : List.of("zsh", "bash");
        String path = env.get("PATH");
        candidates.add(new String[]{onPath(order.get(0), path), "PATH"});
        for (String name : order) {
            for (String dir : directories) candidates.add(new String[]{dir + "/" + name, dir});
        }
        candidates.add(new String[]{onPath(order.get(1), path), "PATH"});
        for (String[] c : candidates) {
            if (c[0] != null && executable(c[0], path)) {
                String kind = kindOfName(c[0]);
                return new Choice(kind == null ? "bash" : kind, c[0], c[1]);
            }
        }
        return new Choice("bash", null, "none");
    }

    /**
     * The shell kind a path names, as Claude Code reads it: its file name (less a {@code .exe}) containing
     * {@code zsh}, else {@code bash}, then the same tests on the whole text.
     *
     * @param path a path or a bare name
     * @return {@code zsh}, {@code bash}, or null when it names neither
     */
    public static String kindOfName(String path) {
        String base = path.replaceFirst("^.*[\\\\/]", "").replaceFirst("(?i)\\.exe$", "");
        for (String t : new String[]{base, path}) {
            if (t.contains("zsh")) return "zsh";
            if (t.contains("bash")) return "bash";
        }
        return null;
    }

    /** The first executable file {@code name} in {@code PATH}'s absolute directories, or null ({@code which}). */
    private static String onPath(String name, String path) {
        if (path == null) return null;
        for (String dir : path.split(":")) {
            if (dir.isEmpty() || !dir.startsWith("/")) continue;
            try {
                Path p = Path.of(dir, name);
                if (Files.isRegularFile(p) && Files.isExecutable(p)) return p.toString();
            } catch (InvalidPathException e) {
                // not a path: skip it
            }
        }
        return null;
    }

    /**
     * Claude Code's test: {@code access(path, X_OK)}; a relative name it runs with {@code --version} instead, which
     * finds it on {@code PATH} (read here as: an executable of that name on {@code PATH}).
     */
    private static boolean executable(String candidate, String path) {
        try {
            if (candidate.startsWith("/")) return Files.isExecutable(Path.of(candidate));
            if (candidate.contains("/")) return false;
            return onPath(candidate, path) != null;
        } catch (InvalidPathException e) {
            return false;
        }
    }
}
