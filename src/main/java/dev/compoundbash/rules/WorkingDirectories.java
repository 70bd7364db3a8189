package dev.compoundbash.rules;

import dev.compoundbash.facts.Arg;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A neutral operator for the rules: does a command's word name a path outside the working directories? Used where an
 * agent path-checks every word of a command, not only the operands of the programs Claude Code checks
 * ({@code rules/agents.drl}, Copilot CLI: measured, docs/AGENTS.md).
 *
 * <p>A word names a path when it starts with {@code /}, {@code ~} or {@code ..}, holds a {@code /../} segment, or,
 * relative, names an existing file or directory (followed through symbolic links); the text after an option's
 * {@code =} counts too ({@code --file=/etc/x}). A word only partly known at run time counts by its literal prefix. A
 * path is outside when, symbolic links resolved where they exist, it lies under none of the directories; {@code ~}
 * is always outside (the home directory is not a working directory); {@code /dev/null} is inside.
 */
public final class WorkingDirectories {
    private WorkingDirectories() {
    }

    /**
     * Whether any argument of a command (its words after the name) names a path outside {@code dirs}.
     *
     * @param args the command's words as {@link Arg}s, the name first
     * @param dirs the working directories, absolute, the first being the command's working directory
     * @return true when one does
     */
    public static boolean anyOutside(List<Arg> args, List<String> dirs) {
        if (dirs == null || dirs.isEmpty()) return false;
        for (int i = 1; i < args.size(); i++) {
            Arg a = args.get(i);
            String w = a.isStatic() ? a.text() : a.prefix();
            if (w == null || w.isEmpty()) continue;
            List<String> words = new ArrayList<>(List.of(w));
            int eq = w.indexOf('=');
            if (w.startsWith("-") && eq > 0) words.add(w.substring(eq + 1));
            for (String x : words) {
                if (outside(x, dirs, !a.isStatic())) return true;
            }
        }
        return false;
    }

    /**
     * Whether one word names a path outside the directories.
     *
     * @param word    the word's text (or the literal prefix of a word known only at run time)
     * @param dirs    the working directories, the first being the command's working directory
     * @param partial the word is only a prefix of the real one
     * @return true when it names a path outside
     */
    static boolean outside(String word, List<String> dirs, boolean partial) {
        if (word.equals("/dev/null")) return false;
        if (word.startsWith("~")) return true;
        boolean pathLike = word.startsWith("/") || word.startsWith("..") || word.contains("/../") || word.endsWith("/..");
        Path cwd;
        Path p;
        try {
            cwd = Path.of(dirs.get(0));
            p = cwd.resolve(word).normalize();
        } catch (RuntimeException e) {
            return pathLike;
        }
        if (!pathLike && (partial || !Files.exists(p))) return false;
        if (partial && !word.startsWith("/") && !word.startsWith("..")) return false;
        Path real = p;
        try {
            if (Files.exists(p)) real = p.toRealPath();
        } catch (Exception e) {
            real = p;
        }
        for (String d : dirs) {
            try {
                Path dir = Path.of(d).normalize();
                Path realDir = Files.exists(dir) ? dir.toRealPath() : dir;
                if (real.startsWith(realDir) || real.startsWith(dir)) return false;
            } catch (Exception e) {
                // an unreadable directory holds nothing
            }
        }
        return true;
    }
}
