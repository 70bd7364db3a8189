package dev.compoundbash.rules;

import dev.compoundbash.facts.NameList;

import java.util.List;

/**
 * Java access to two built-in {@link NameList}s of {@code rules/names.json}: the environment variables an approval
 * may pass in a command's prefix ({@link NameList#SAFE_ENVIRONMENT}: they change formatting, locale, colours,
 * logging or build targets, never which program runs; the variables Claude Code's own Bash permission check strips
 * before matching allow rules, plus {@code LC_*}, {@code CI}, {@code COLUMNS}, {@code LINES}), and the variables
 * that change what runs ({@link NameList#CHANGES_WHAT_RUNS}: {@code PATH}, {@code LD_*}, {@code BASH_ENV}, ...). DRL
 * reads the same lists as facts; this class serves Java operators such as {@link TierArguments}.
 */
public final class SafeEnvironment {
    private SafeEnvironment() {
    }

    /**
     * @param name a variable name as written in an assignment
     * @return true when setting it for a command cannot change what the command runs
     */
    public static boolean isSafe(String name) {
        return NameList.of(NameList.SAFE_ENVIRONMENT).contains(name);
    }

    /**
     * Whether a command's environment prefix is safe for the command {@code name}: every variable is
     * {@linkplain #isSafe safe}, and {@code IFS} also before the {@code read} builtin, where it only chooses how the
     * line read is split (bash(1) "read"); elsewhere it may reach a child process's environment.
     *
     * @param names the variable names of a command's environment prefix (possibly empty)
     * @param name  the command's name as written
     * @return true when every one is safe for that command
     */
    public static boolean allSafe(List<String> names, String name) {
        for (String n : names) if (!isSafe(n) && !(n.equals("IFS") && "read".equals(name))) return false;
        return true;
    }

    /**
     * @param names the variable names of a command's environment prefix (possibly empty)
     * @return true when every one is {@linkplain #isSafe safe}; true for no prefix
     */
    public static boolean allSafe(List<String> names) {
        for (String n : names) if (!isSafe(n)) return false;
        return true;
    }

    /**
     * @param name a variable name; null stands for a name only known at run time, which may be any of them
     * @return true when setting it may change which program runs, what code it loads, or how the shell reads the
     *         rest of the command
     */
    public static boolean changesWhatRuns(String name) {
        return name == null || NameList.of(NameList.CHANGES_WHAT_RUNS).contains(name);
    }
}
