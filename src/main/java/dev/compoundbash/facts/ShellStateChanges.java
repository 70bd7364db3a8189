package dev.compoundbash.facts;

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

    /** The lists, read once from {@code shell/shell-state.json} ({@link #list}). */
    private static final java.util.Map<String, Set<String>> LISTS = read();

    /** {@code set} single-letter options measured to change nothing that runs but whether the shell stops early. */
    private static final Set<Character> HARMLESS_SET_LETTERS = letters(list("harmlessSetLetters"));
    /** {@code set -o} names measured harmless (the long names of the letters above, and pipefail). */
    private static final Set<String> HARMLESS_SET_NAMES = list("harmlessSetOptions");
    /** hash's options that leave the table to PATH lookups: list, print, forget. */
    private static final Set<Character> HARMLESS_HASH_LETTERS = letters(list("harmlessHashLetters"));
    /** Builtins that always change state the extractor does not follow, whatever their words. */
    private static final Set<String> ALWAYS = list("stateBuiltins");
    /** Variables whose value bash runs or evaluates as code, or that change how bash reads what follows. */
    private static final Set<String> CODE_VARIABLES = list("codeVariables");
    /** Of those, the variables naming a file bash runs before a script. */
    private static final Set<String> FILE_VARIABLES = list("fileVariables");
    /** Variables that change how the words after the assignment split. */
    private static final Set<String> SPLIT_VARIABLES = list("splitVariables");
    /** Bash's builtins and reserved words: a function so named shadows one. */
    private static final Set<String> BUILTINS = list("builtins");
    /** Function names bash calls without the name being written as a command. */
    private static final Set<String> IMPLICIT_FUNCTIONS = list("implicitFunctions");

    /**
     * One list of the data file {@code shell/shell-state.json} (its {@code _source} cites the bash manual sections
     * each list follows).
     *
     * @param name the list's key in the file
     * @return its names
     * @throws IllegalStateException when the file has no such list (a defect of this build)
     */
    static Set<String> list(String name) {
        Set<String> l = LISTS.get(name);
        if (l == null) throw new IllegalStateException("shell/shell-state.json has no list " + name);
        return l;
    }

    private static Set<Character> letters(Set<String> names) {
        java.util.Set<Character> out = new java.util.HashSet<>();
        for (String n : names) {
            if (n.length() != 1) throw new IllegalStateException("shell/shell-state.json: not a letter: " + n);
            out.add(n.charAt(0));
        }
        return Set.copyOf(out);
    }

    private static java.util.Map<String, Set<String>> read() {
        try (java.io.InputStream in = ShellStateChanges.class.getClassLoader()
                .getResourceAsStream("shell/shell-state.json")) {
            if (in == null) throw new IllegalStateException("missing resource shell/shell-state.json");
            com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper().readTree(in);
            java.util.Map<String, Set<String>> out = new java.util.HashMap<>();
            for (var it = root.fields(); it.hasNext(); ) {
                var e = it.next();
                if (e.getKey().startsWith("_")) continue;
                java.util.Set<String> names = new java.util.LinkedHashSet<>();
                for (com.fasterxml.jackson.databind.JsonNode n : e.getValue().path("names")) names.add(n.asText());
                out.put(e.getKey(), Set.copyOf(names));
            }
            return java.util.Map.copyOf(out);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * What a simple command changes in the shell's state that the extractor does not follow.
     *
     * @param argv the command's words as text (the name first, static)
     * @return a description for a person, or null when it changes nothing the extractor does not follow
     */
    static String builtinChange(List<String> argv) {
        argv = inThisShell(argv);
        if (argv.isEmpty()) return null;
        String name = argv.get(0);
        List<String> rest = argv.subList(1, argv.size());
        if (ALWAYS.contains(name)) return "\"" + name + "\", which changes the shell's state for what follows";
        switch (name) {
            case "alias":
                // alias NAME and alias -p print (measured: no change); a definition has a '='
                for (String a : rest) if (a.indexOf('=') > 0 || (a.startsWith("-") && !a.equals("-p") && !a.equals("--"))) {
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
            case "hash":
                // hash -p PATH NAME binds NAME to any file for what follows; listing and forgetting do not
                for (String a : rest) {
                    if (a.equals("--")) break;
                    if (!a.startsWith("-") || a.length() < 2) continue;
                    for (int k = 1; k < a.length(); k++) {
                        if (!HARMLESS_HASH_LETTERS.contains(a.charAt(k))) {
                            return "\"hash " + a + "\", which binds a name to a program for what follows";
                        }
                    }
                }
                return null;
            case "set":
                return setChange(rest);
            default:
                return null;
        }
    }

    /**
     * The builtin a command runs in this shell: {@code builtin NAME ...} and {@code command [-p] NAME ...} run NAME
     * as the builtin it is (bash(1) SHELL BUILTIN COMMANDS: builtin, command), so {@code builtin alias g=git} and
     * {@code command set -k} change the shell as {@code alias g=git} and {@code set -k} do; {@code command -v}/
     * {@code -V} only look the name up.
     *
     * @param argv the command's words
     * @return the words from the builtin's name on (empty for a lookup or no name)
     */
    static List<String> inThisShell(List<String> argv) {
        while (!argv.isEmpty() && (argv.get(0).equals("builtin") || argv.get(0).equals("command"))) {
            boolean command = argv.get(0).equals("command");
            int i = 1;
            while (i < argv.size() && argv.get(i).startsWith("-") && argv.get(i).length() > 1) {
                String o = argv.get(i++);
                if (o.equals("--")) break;
                if (!command || o.contains("v") || o.contains("V")) return List.of();
            }
            argv = argv.subList(i, argv.size());
        }
        return argv;
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
        argv = inThisShell(argv);
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
            if (FILE_VARIABLES.contains(name)) {
                return new String[] {name + ", a file bash runs before a script", null};
            }
            if (code == null && name.startsWith("PS")) return null; // a prompt without expansions runs nothing
            return new String[] {name + ", whose value the shell runs as code", code};
        }
        if (statement && SPLIT_VARIABLES.contains(name)) {
            return new String[] {"IFS, which changes how the words after it are split", null};
        }
        return null;
    }

    /**
     * True when bash calls a function so named by itself, whether or not the command writes its name later
     * ({@code command_not_found_handle}).
     *
     * @param name the function's name
     * @return whether defining it changes what later commands run even where its name is not written
     */
    static boolean calledImplicitly(String name) {
        return IMPLICIT_FUNCTIONS.contains(name);
    }

    /**
     * True when {@code name} is a bash builtin or reserved word (bash(1) SHELL BUILTIN COMMANDS, RESERVED WORDS).
     *
     * @param name a command name
     * @return whether bash knows it without PATH
     */
    static boolean isBuiltin(String name) {
        return BUILTINS.contains(name);
    }
}
