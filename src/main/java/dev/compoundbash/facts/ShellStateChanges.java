package dev.compoundbash.facts;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The shell-state changes of Claude Code's shell (issue 19) that the extractor does not follow exactly: aliases
 * ({@code expand_aliases} is on, docs/CLAUDE-CODE.md), {@code set}/{@code shopt} options other than the measured
 * harmless ones, history and {@code fc}, {@code enable}, {@code trap}, {@code bind}, functions named like a builtin
 * or a program, functions imported from the environment ({@code BASH_FUNC_name%%}), prompt variables whose values
 * run as code, {@code IFS} and {@code BASH_ENV}/{@code ENV}. Each is reported as a
 * {@link CallProblem#SHELL_STATE}; the code such a change stores (an alias value, a trap, a prompt, an imported
 * function's body) is also read as stored code, so a denied command inside it denies. Source followed: bash(1)
 * SHELL BUILTIN COMMANDS, ALIASES, PROMPTING, ENVIRONMENT; measured in bash 5.2 with
 * {@code bash -c 'shopt -s expand_aliases; eval "$1"' _ "$cmd"}.
 */
final class ShellStateChanges {
    private ShellStateChanges() {
    }

    /** {@code set} single-letter options measured to change nothing that runs but whether the shell stops early. */
    private static final Set<Character> HARMLESS_SET_LETTERS = Set.of('e', 'u', 'x');
    /** {@code set -o} names measured harmless (the long names of the letters above, and pipefail). */
    private static final Set<String> HARMLESS_SET_NAMES = Set.of("errexit", "nounset", "xtrace", "pipefail");
    /** Builtins that always change state the extractor does not follow, whatever their words. */
    private static final Set<String> ALWAYS = Set.of("unalias", "fc", "history", "enable", "bind", "complete",
            "compgen", "compopt");
    /** Variables whose value bash runs or evaluates as code, or that change how bash reads what follows. */
    private static final Set<String> CODE_VARIABLES = Set.of("PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4",
            "BASH_ENV", "ENV");
    /** Bash's builtins and reserved words (bash(1) SHELL BUILTIN COMMANDS): a function so named shadows one. */
    private static final Set<String> BUILTINS = Set.of(".", ":", "[", "alias", "bg", "bind", "break", "builtin",
            "caller", "cd", "command", "compgen", "complete", "compopt", "continue", "declare", "dirs", "disown",
            "echo", "enable", "eval", "exec", "exit", "export", "false", "fc", "fg", "getopts", "hash", "help",
            "history", "jobs", "kill", "let", "local", "logout", "mapfile", "popd", "printf", "pushd", "pwd", "read",
            "readarray", "readonly", "return", "set", "shift", "shopt", "source", "suspend", "test", "times", "trap",
            "true", "type", "typeset", "ulimit", "umask", "unalias", "unset", "wait", "time", "env", "xargs",
            "sudo", "nohup", "nice", "timeout", "find", "grep", "rg", "git", "ls", "cat");

    /**
     * What a simple command changes in the shell's state that the extractor does not follow.
     *
     * @param argv the command's words as text (the name first, static)
     * @return a description for a person, or null when it changes nothing the extractor does not follow
     */
    static String builtinChange(List<String> argv) {
        if (argv.isEmpty()) return null;
        String name = argv.get(0);
        List<String> rest = argv.subList(1, argv.size());
        if (ALWAYS.contains(name)) return "\"" + name + "\", which changes the shell's state for what follows";
        switch (name) {
            case "alias":
                for (String a : rest) if (!a.equals("-p") && !a.equals("--")) {
                    return "an alias, which Claude Code's shell (expand_aliases) applies to the lines after it";
                }
                return null;
            case "trap":
                for (String a : rest) if (!a.equals("-p") && !a.equals("-l") && !a.equals("--")) {
                    return "a trap, code the shell runs later";
                }
                return null;
            case "shopt":
                for (String a : rest) if (a.startsWith("-") && a.matches("-[a-z]*[suo][a-z]*")) {
                    return "\"shopt " + String.join(" ", rest) + "\", a shell option the hook does not follow";
                }
                return null;
            case "set":
                return setChange(rest);
            default:
                return null;
        }
    }

    private static String setChange(List<String> rest) {
        for (int i = 0; i < rest.size(); i++) {
            String a = rest.get(i);
            if (a.equals("--") || a.equals("-")) return null; // positional parameters follow
            if (a.length() < 2 || (a.charAt(0) != '-' && a.charAt(0) != '+')) return null;
            for (int k = 1; k < a.length(); k++) {
                char c = a.charAt(k);
                if (c == 'o') {
                    if (i + 1 >= rest.size()) return null; // set -o alone prints the options
                    String option = rest.get(++i);
                    if (!HARMLESS_SET_NAMES.contains(option)) return "\"set -o " + option + "\", a shell option the hook does not follow";
                } else if (!HARMLESS_SET_LETTERS.contains(c)) {
                    return "\"set " + a + "\", a shell option the hook does not follow";
                }
            }
        }
        return null;
    }

    /**
     * The code a state-changing builtin stores: a trap's action (an alias value is a prefix of a command, not one).
     *
     * @param argv the command's words as text
     * @return the texts bash may later run as code (empty when none)
     */
    static List<String> storedCode(List<String> argv) {
        List<String> out = new ArrayList<>();
        if (argv.isEmpty()) return out;
        if (argv.get(0).equals("trap")) {
            for (String a : argv.subList(1, argv.size())) {
                if (a.startsWith("-")) continue;
                out.add(a);
                break;
            }
        }
        return out;
    }

    /**
     * Reads a {@code NAME=VALUE} text (an assignment, an environment prefix, a word given to env or export).
     *
     * @param word the text
     * @param statement true for a statement of assignments (the value stays in the shell for what follows)
     * @return null when harmless, else a two-element array: a description, and code to read (or null)
     */
    static String[] variableChange(String word, boolean statement) {
        int eq = word.indexOf('=');
        if (eq <= 0) return null;
        String name = word.substring(0, eq);
        if (name.endsWith("+")) name = name.substring(0, name.length() - 1);
        String value = word.substring(eq + 1);
        if (name.startsWith("BASH_FUNC_")) {
            String f = name.substring("BASH_FUNC_".length()).replace("%%", "").replace("()", "");
            return new String[] {"a function imported from the environment (" + name + ")",
                    "f_" + f.replaceAll("[^A-Za-z0-9_]", "_") + value};
        }
        if (CODE_VARIABLES.contains(name)) {
            String code = name.equals("PROMPT_COMMAND") ? value : null;
            if (code == null && (value.contains("$") || value.contains("`"))) code = "echo " + value;
            if (name.equals("BASH_ENV") || name.equals("ENV")) {
                return new String[] {name + ", a file bash runs before a script", null};
            }
            if (code == null && name.startsWith("PS")) return null; // a prompt without expansions runs nothing
            return new String[] {name + ", whose value the shell runs as code", code};
        }
        if (statement && name.equals("IFS")) {
            return new String[] {"IFS, which changes how the words after it are split", null};
        }
        return null;
    }

    /**
     * True when a function so named shadows a builtin or a program on PATH: its calls (and what reads the name, such
     * as xargs) no longer run what the name says.
     *
     * @param name the function's name
     * @return whether the definition shadows a command
     */
    static boolean shadows(String name) {
        if (BUILTINS.contains(name)) return true;
        String path = System.getenv("PATH");
        if (path == null) path = "/usr/local/bin:/usr/bin:/bin";
        for (String dir : path.split(File.pathSeparator)) {
            if (!dir.isEmpty() && new File(dir, name).isFile()) return true;
        }
        return false;
    }
}
