package dev.compoundbash.rules;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The commands a program the hook does not know might run from its own words: every tail of its argument list that
 * starts at a word not an option ({@code bwrap --bind / / curl http://x} may run {@code curl http://x}), and every
 * tail of the simple commands a word with blanks holds when read as shell text ({@code tmux new 'curl http://x'},
 * {@code sqlite3 :memory: '.shell curl http://x'}). Deny and ask rules are matched against them (rules/patterns.drl)
 * to ask: the hook cannot tell whether the program runs them (closed world: what it does not know may reach the
 * denied command), so this never denies or approves.
 *
 * <p>Splitting a word follows the Bash Reference Manual §2.3 only roughly (blanks and the control operators
 * {@code ; & | ( )} and newline end words and commands; quote characters are dropped): it over-reads, which only
 * asks more.
 */
public final class CommandTails {
    /** Beyond this many tails a command yields no more (a long argument list is read up to here). */
    static final int MAX_TAILS = 256;

    private CommandTails() {
    }

    /**
     * Takes a command's words, its name first; returns the command lines its arguments might run, without the
     * whole line itself.
     */
    public static List<String> of(List<String> argv) {
        return of(argv, List.of());
    }

    /**
     * As {@link #of(List)}, also reading the values of the command's environment prefix as shell text
     * ({@code LESSOPEN='|curl http://x %s' less f}).
     *
     * @param argv        the command's words, its name first
     * @param assignments its environment prefix, {@code NAME=VALUE} each
     * @return the command lines its words might run
     */
    public static List<String> of(List<String> argv, List<String> assignments) {
        Set<String> out = new LinkedHashSet<>();
        for (String a : assignments) {
            int eq = a.indexOf('=');
            if (eq > 0) text(a.substring(eq + 1), out);
        }
        for (int i = 1; i < argv.size() && out.size() < MAX_TAILS; i++) {
            String w = argv.get(i);
            if (!w.isEmpty() && !w.startsWith("-")) out.add(String.join(" ", argv.subList(i, argv.size())));
            text(w, out);
        }
        return List.copyOf(out);
    }

    /** Adds the tails of the simple commands a word with blanks or control operators holds, read as shell text. */
    private static void text(String w, Set<String> out) {
        if (w.chars().noneMatch(c -> c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&')) return;
        // ! (vi, ed, gdb: a shell escape) and = (tar --to-command=CMD, --checkpoint-action=exec=CMD) end a word too
        for (String command : w.split("[;&|()\\n!=]+")) {
            List<String> words = new ArrayList<>();
            for (String t : command.replace("'", " ").replace("\"", " ").replace("`", " ").trim().split("[ \\t]+")) {
                if (!t.isEmpty()) words.add(t);
            }
            for (int j = 0; j < words.size() && out.size() < MAX_TAILS; j++) {
                if (!words.get(j).startsWith("-")) out.add(String.join(" ", words.subList(j, words.size())));
            }
        }
    }
}
