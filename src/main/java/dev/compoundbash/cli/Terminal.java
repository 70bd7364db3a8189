package dev.compoundbash.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * Whether a command's output may carry ANSI colours: only on a terminal, and never when {@code NO_COLOR} is set to
 * a non-empty value (https://no-color.org: "when present and not an empty string ... prevents the addition of ANSI
 * color"). Every subcommand that colours its output asks here.
 */
final class Terminal {
    private Terminal() {
    }

    /**
     * Colours for standard output.
     *
     * @param env the environment ({@code NO_COLOR} is read)
     * @return true when stdout is a terminal and {@code NO_COLOR} is unset or empty
     */
    static boolean colourOnStdout(Map<String, String> env) {
        return colourAllowed(env) && isTerminal(1);
    }

    /**
     * Whether the environment allows colours at all.
     *
     * @param env the environment
     * @return false when {@code NO_COLOR} holds a non-empty value, or {@code TERM} is {@code dumb}
     */
    static boolean colourAllowed(Map<String, String> env) {
        String noColor = env.get("NO_COLOR");
        if (noColor != null && !noColor.isEmpty()) return false;
        return !"dumb".equals(env.get("TERM"));
    }

    /**
     * Whether file descriptor {@code fd} (1 stdout, 2 stderr) is a terminal: read from Linux {@code /proc}, else
     * {@link System#console()} (which needs stdin and stdout to be one).
     */
    static boolean isTerminal(int fd) {
        try {
            Path p = Path.of("/proc/self/fd/" + fd);
            if (Files.exists(p)) {
                String t = p.toRealPath().toString();
                return t.startsWith("/dev/pts/") || t.startsWith("/dev/tty");
            }
        } catch (Exception e) {
            // not a terminal we can tell: fall back to the console
        }
        return System.console() != null;
    }
}
