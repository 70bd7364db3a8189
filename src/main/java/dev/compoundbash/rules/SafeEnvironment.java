package dev.compoundbash.rules;

import dev.compoundbash.facts.VariableWrites;

import java.util.List;
import java.util.Set;

/**
 * The environment variables an allow rule or a safety tier may approve a command past when they are set in its
 * prefix ({@code LANG=C sort x}). They change formatting, locale, colours, logging or build targets, never which
 * program runs or what code it loads. The list follows the variables Claude Code's own Bash permission check strips
 * before matching allow rules (its {@code SAFE_ENV_VARS}: Go build settings, {@code RUST_BACKTRACE},
 * {@code RUST_LOG}, {@code NODE_ENV}, Python's behaviour flags, locale, terminal and colour settings), plus every
 * {@code LC_*} locale category (POSIX Base Definitions §8.2) and {@code CI}, {@code COLUMNS}, {@code LINES}.
 *
 * <p>Never on it, whatever the value: {@code PATH}, {@code LD_*} and {@code DYLD_*}, {@code BASH_ENV}, {@code ENV},
 * {@code IFS} (but see {@link #allSafe(List, String)}), {@code SHELLOPTS}, {@code PROMPT_COMMAND}, {@code PYTHONPATH}, {@code NODE_OPTIONS},
 * {@code NODE_PATH}, {@code GIT_SSH_COMMAND}, {@code GIT_EXTERNAL_DIFF}, {@code PAGER}, {@code EDITOR},
 * {@code HOME}, {@code TMPDIR}: they choose what runs. Deny and ask rules match past any prefix, safe or not.
 */
public final class SafeEnvironment {
    /** The exact names that are safe. */
    public static final Set<String> NAMES = Set.of(
            "GOEXPERIMENT", "GOOS", "GOARCH", "CGO_ENABLED", "GO111MODULE",
            "RUST_BACKTRACE", "RUST_LOG",
            "NODE_ENV",
            "PYTHONUNBUFFERED", "PYTHONDONTWRITEBYTECODE",
            "LANG", "LANGUAGE", "CHARSET",
            "TERM", "COLORTERM", "NO_COLOR", "FORCE_COLOR", "TZ",
            "LS_COLORS", "LSCOLORS", "GREP_COLOR", "GREP_COLORS", "GCC_COLORS",
            "CI", "COLUMNS", "LINES");

    private SafeEnvironment() {
    }

    /**
     * @param name a variable name as written in an assignment
     * @return true when setting it for a command cannot change what the command runs
     */
    public static boolean isSafe(String name) {
        return NAMES.contains(name) || name.matches("LC_[A-Z]+");
    }

    /**
     * Like {@link #allSafe(List)}, for a prefix on the command {@code name}: {@code IFS} is also safe before the
     * {@code read} builtin, where it only chooses how the line read is split (bash(1) "read"); elsewhere it may
     * reach a child process's environment.
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
     * Variables that choose which program runs, what code it loads, or how the shell reads the rest of the
     * command. Setting one in a statement before a command ({@code PATH=/tmp/x; ls}) may change what that command
     * runs when the variable is exported, as these usually are: bash(1) "Shell Variables", ld.so(8), dyld(1),
     * git(1) ENVIRONMENT VARIABLES, python(1), node(1), perlrun(1), ruby(1), java(1).
     *
     * @param name a variable name
     * @return true when the name is one of them
     */
    public static boolean changesWhatRuns(String name) {
        return RUNS.contains(name) || name.equals(VariableWrites.RUN_TIME_NAME)
                || name.equals(VariableWrites.RUN_TIME_VALUE) || name.startsWith("LD_") || name.startsWith("DYLD_") || name.startsWith("GIT_")
                || name.startsWith("BASH_FUNC_") || name.startsWith("PYTHON") || name.startsWith("PERL5")
                || name.startsWith("RUBY") || name.startsWith("NODE_") && !name.equals("NODE_ENV");
    }

    /**
     * @param names variable names set by earlier statements
     * @return the first that {@linkplain #changesWhatRuns changes what runs}, or null
     */
    public static String firstChangingWhatRuns(List<String> names) {
        for (String n : names) if (changesWhatRuns(n)) return n;
        return null;
    }

    /**
     * Why a command after a statement setting {@code name} is not approved, for the finding's reason.
     *
     * @param name        a name {@link #changesWhatRuns} accepts, or one of {@link VariableWrites}' markers
     * @param commandName the command's name as written
     * @return one sentence
     */
    public static String whyNotApproved(String name, String commandName) {
        if (name.equals(VariableWrites.RUN_TIME_NAME)) {
            return "the command sets a variable whose name is only known at run time, so what \"" + commandName
                    + "\" runs is not known";
        }
        if (name.equals(VariableWrites.RUN_TIME_VALUE)) {
            return "the command evaluates a value only known at run time as arithmetic or as a variable name, which "
                    + "runs the command substitutions of an array subscript in it";
        }
        return name + " is set earlier in the command, so what \"" + commandName + "\" runs is not known";
    }

    private static final Set<String> RUNS = Set.of("PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS",
            // bash's command hash table and alias table (bash(1) "Shell Variables"): an element binds a name
            "BASH_CMDS", "BASH_ALIASES", "EXECIGNORE", "BASH_LOADABLES_PATH", "POSIXLY_CORRECT",
            "PROMPT_COMMAND", "PS4", "CDPATH", "GLOBIGNORE", "HOME", "TMPDIR", "PAGER", "MANPAGER", "EDITOR",
            "VISUAL", "BROWSER", "LESSOPEN", "LESSCLOSE", "CLASSPATH", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
            "JDK_JAVA_OPTIONS", "SSH_ASKPASS", "SUDO_ASKPASS", "GCONV_PATH", "XDG_CONFIG_HOME", "PERLLIB",
            "GOFLAGS", "RUSTFLAGS", "RUSTC_WRAPPER", "CC", "CXX", "MAKEFLAGS", "NPM_CONFIG_PREFIX");
}
