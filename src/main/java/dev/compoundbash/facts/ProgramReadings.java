package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Other ways a program reads the same words, for deny and ask rules (never allow rules): the {@code reading} of the
 * program's schema ({@code programs/NAME.json}) names one of the operators here, and the schema holds its data.
 * <ul>
 *   <li>{@code make-operands}: GNU make takes variable definitions ({@code NAME=VALUE}) and options anywhere among
 *       its targets and makes every target (make(1); GNU make {@code main.c} reads every argument holding {@code =}
 *       as a variable definition), so {@code make V=1 build deploy} is read as {@code make deploy build} and
 *       {@code make deploy} too;</li>
 *   <li>{@code npm-commands}: npm's command is the first operand (options may stand anywhere, {@code nopt}), an
 *       exact name, an alias or a unique abbreviation ({@code deref()} of npm 11.19.1 {@code lib/utils/cmd-list.js}:
 *       {@code npm publi} runs {@code publish}, {@code npm rm} runs {@code uninstall});</li>
 *   <li>{@code git-config}: {@code git -c alias.NAME=VALUE NAME} runs {@code git VALUE} (git(1) and
 *       git-config(1) "alias.*", names case-insensitive; measured with git 2.39), and {@code -c help.autocorrect=V}
 *       with any V but 0, never, show, false, off, no runs the command nearest to an unknown one, so the subcommand
 *       may be any command.</li>
 * </ul>
 * Words may be shapes ({@link Arg#shape()}): a word holding {@link Arg#UNKNOWN} where the command or a configuration
 * stands makes the command any command, written as a lone {@code UNKNOWN}.
 */
public final class ProgramReadings {
    /** At most this many readings of one command. */
    private static final int MAX = 16;
    private static final String ANY = String.valueOf(Arg.UNKNOWN);
    private static final Set<String> AUTOCORRECT_OFF = Set.of("0", "never", "show", "false", "off", "no");

    private static volatile Map<String, Npm> npm = new HashMap<>();

    private record Npm(Set<String> commands, Map<String, String> aliases) {
    }

    private ProgramReadings() {
    }

    /**
     * The other readings of one command.
     *
     * @param argv the command's words (or shapes), the name first
     * @return the other argument vectors it runs as; empty when the program has none in the table
     */
    public static List<List<String>> of(List<String> argv) {
        if (argv.size() < 2) return List.of();
        String name = argv.get(0);
        int slash = name.lastIndexOf('/');
        if (slash >= 0) name = name.substring(slash + 1);
        ProgramSchemas.Schema entry = GlobalOptions.entry(name);
        if (entry == null) return List.of();
        String reading = entry.readings() == null ? "" : entry.readings();
        List<List<String>> out = new ArrayList<>(switch (reading) {
            case "make-operands" -> makeOperands(name, argv);
            case "npm-commands" -> npmCommands(name, entry, argv);
            case "git-config" -> gitConfig(name, argv);
            case "cargo-commands" -> cargoCommands(name, entry, argv);
            default -> List.<List<String>>of();
        });
        out.removeIf(argv::equals);
        return out.size() > MAX ? out.subList(0, MAX) : out;
    }

    private static List<List<String>> makeOperands(String name, List<String> argv) {
        List<String> targets = new ArrayList<>();
        for (int i = 1; i < argv.size(); i++) {
            String w = argv.get(i);
            if (w.startsWith("-") && w.length() > 1 && !w.equals("--")) {
                if (GlobalOptions.takesValue(name, w)) i++;
                continue;
            }
            if (w.equals("--") || w.indexOf('=') >= 0 && w.indexOf(Arg.UNKNOWN) < 0) continue;
            targets.add(w);
        }
        List<List<String>> out = new ArrayList<>();
        List<String> all = new ArrayList<>();
        all.add(argv.get(0));
        all.addAll(targets);
        out.add(all);
        for (int k = 0; k < targets.size() && out.size() < MAX; k++) {
            List<String> first = new ArrayList<>();
            first.add(argv.get(0));
            first.add(targets.get(k));
            out.add(List.copyOf(first));
            for (int j = 0; j < targets.size(); j++) if (j != k) first.add(targets.get(j));
            out.add(first);
        }
        return out;
    }

    private static List<List<String>> npmCommands(String name, ProgramSchemas.Schema entry, List<String> argv) {
        Npm table = npmTable(name, entry);
        List<List<String>> out = new ArrayList<>();
        // Unknown options take no value (first), or the next word (second): one of them is how npm reads it.
        for (boolean valueAfterUnknown : new boolean[]{false, true}) {
            int i = 1;
            while (i < argv.size()) {
                String w = argv.get(i);
                if (w.indexOf(Arg.UNKNOWN) >= 0 || !w.startsWith("-") || w.equals("-")) break;
                if (w.equals("--")) {
                    i++;
                    break;
                }
                boolean valued = GlobalOptions.takesValue(name, w)
                        || valueAfterUnknown && !w.contains("=") && !GlobalOptions.isFlag(name, w);
                i += valued ? 2 : 1;
            }
            if (i >= argv.size()) continue;
            String command = argv.get(i);
            String resolved = command.indexOf(Arg.UNKNOWN) >= 0 ? ANY : deref(table, command);
            if (resolved == null) continue;
            List<String> r = new ArrayList<>();
            r.add(argv.get(0));
            r.add(resolved);
            r.addAll(argv.subList(i + 1, argv.size()));
            if (!out.contains(r)) out.add(r);
        }
        return out;
    }

    /** The npm command {@code word} names (npm's {@code deref}), or null. */
    static String npmCanonical(ProgramSchemas.Schema schema, String word) {
        return deref(npmTable(schema.name(), schema), word);
    }

    /** npm's {@code deref(c)}: the command {@code c} names, or null when it names none. */
    private static String deref(Npm t, String c) {
        if (c.isEmpty()) return null;
        StringBuilder kebab = new StringBuilder();
        for (char ch : c.toCharArray()) {
            if (ch >= 'A' && ch <= 'Z') kebab.append('-').append(Character.toLowerCase(ch));
            else kebab.append(ch);
        }
        c = kebab.toString();
        if (t.commands().contains(c)) return c;
        if (t.aliases().containsKey(c)) return t.aliases().get(c);
        String found = null;
        for (String w : t.commands()) if (w.startsWith(c)) found = found == null ? w : "";
        for (String w : t.aliases().keySet()) if (w.startsWith(c)) found = found == null ? w : "";
        if (found == null || found.isEmpty()) return null;
        for (int k = 0; k < 8 && t.aliases().containsKey(found); k++) found = t.aliases().get(found);
        return found;
    }

    private static Npm npmTable(String name, ProgramSchemas.Schema entry) {
        Npm t = npm.get(name);
        if (t != null) return t;
        Set<String> commands = new HashSet<>(entry.subcommands().keySet());
        Map<String, String> aliases = new HashMap<>();
        entry.subcommands().forEach((c, node) -> node.aliases().forEach(x -> aliases.put(x, c)));
        t = new Npm(Set.copyOf(commands), Map.copyOf(aliases));
        Map<String, Npm> next = new HashMap<>(npm);
        next.put(name, t);
        npm = next;
        return t;
    }

    private static List<List<String>> gitConfig(String name, List<String> argv) {
        List<String> configs = new ArrayList<>();
        int i = 1;
        while (i < argv.size()) {
            String w = argv.get(i);
            int eq = w.indexOf('=');
            String option = w.startsWith("--") && eq > 0 ? w.substring(0, eq) : w;
            if (w.equals("-c") || w.equals("--config-env")) {
                if (i + 1 < argv.size()) configs.add(w.equals("-c") ? argv.get(i + 1) : configEnv(argv.get(i + 1)));
                i += 2;
            } else if (option.equals("--config-env")) {
                configs.add(configEnv(w.substring(eq + 1)));
                i++;
            } else if (GlobalOptions.isFlag(name, w)) {
                i++;
            } else if (GlobalOptions.takesValue(name, option)) {
                i += option.equals(w) ? 2 : 1;
            } else if (w.length() > 2 && w.charAt(0) == '-' && w.charAt(1) != '-'
                    && GlobalOptions.takesValue(name, w.substring(0, 2))) {
                if (w.startsWith("-c")) configs.add(w.substring(2));
                i++;
            } else {
                break;
            }
        }
        if (configs.isEmpty() || i >= argv.size()) return List.of();
        String command = argv.get(i);
        List<String> rest = argv.subList(i + 1, argv.size());
        List<List<String>> out = new ArrayList<>();
        Map<String, String> aliases = new HashMap<>();
        boolean any = false;
        for (String c : configs) {
            int eq = c.indexOf('=');
            String key = (eq < 0 ? c : c.substring(0, eq)).toLowerCase(Locale.ROOT);
            String value = eq < 0 ? "true" : c.substring(eq + 1);
            if (key.indexOf(Arg.UNKNOWN) >= 0) {
                any = true; // a configuration only known at run time may be any alias
            } else if (key.equals("help.autocorrect")) {
                if (value.indexOf(Arg.UNKNOWN) >= 0 || !AUTOCORRECT_OFF.contains(value.toLowerCase(Locale.ROOT))) {
                    any = true;
                }
            } else if (key.startsWith("alias.")) {
                aliases.put(key.substring(6), value);
            }
        }
        if (any) {
            List<String> r = new ArrayList<>();
            r.add(argv.get(0));
            r.add(ANY);
            r.addAll(rest);
            out.add(r);
        }
        List<String> words = List.of(command);
        for (int depth = 0; depth < 8 && !words.isEmpty(); depth++) {
            String head = words.get(0);
            if (head.indexOf(Arg.UNKNOWN) >= 0) break;
            String value = aliases.get(head.toLowerCase(Locale.ROOT));
            if (value == null || value.startsWith("!")) break; // a shell alias is code (ConfigCode)
            List<String> expanded = new ArrayList<>(split(value));
            expanded.addAll(words.subList(1, words.size()));
            words = expanded;
            List<String> r = new ArrayList<>();
            r.add(argv.get(0));
            r.addAll(words);
            r.addAll(rest);
            out.add(r);
        }
        return out;
    }

    private static List<List<String>> cargoCommands(String name, ProgramSchemas.Schema entry, List<String> argv) {
        List<String> words = new ArrayList<>(argv);
        List<List<String>> out = new ArrayList<>();
        if (words.size() > 1 && words.get(1).startsWith("+")) {
            words.remove(1); // cargo +nightly publish: the toolchain, then cargo's own words
            out.add(List.copyOf(words));
        }
        Map<String, String> aliases = new HashMap<>();
        entry.subcommands().forEach((c, node) -> node.aliases().forEach(x -> aliases.put(x, c)));
        int i = 1;
        boolean any = false;
        while (i < words.size()) {
            String w = words.get(i);
            if (w.equals("--config") && i + 1 < words.size() || w.startsWith("--config=")) {
                String c = w.equals("--config") ? words.get(i + 1) : w.substring(9);
                if (c.indexOf(Arg.UNKNOWN) >= 0) any = true;
                int eq = c.indexOf('=');
                if (eq > 0 && c.startsWith("alias.")) {
                    String v = c.substring(eq + 1).replaceAll("[\\[\\]\"',]", " ").trim();
                    aliases.put(c.substring(6, eq).trim(), v);
                }
                i += w.equals("--config") ? 2 : 1;
            } else if (GlobalOptions.isFlag(name, w)) {
                i++;
            } else if (GlobalOptions.takesValue(name, w)) {
                i += 2;
            } else if (w.startsWith("--") && w.contains("=")) {
                i++;
            } else {
                break;
            }
        }
        if (i >= words.size()) return out;
        List<String> rest = words.subList(i + 1, words.size());
        if (any) {
            List<String> r = new ArrayList<>(List.of(words.get(0), ANY));
            r.addAll(rest);
            out.add(r);
        }
        String value = aliases.get(words.get(i));
        if (value != null) {
            List<String> r = new ArrayList<>();
            r.add(words.get(0));
            for (String v : value.split("\\s+")) if (!v.isEmpty()) r.add(v);
            r.addAll(rest);
            out.add(r);
        }
        return out;
    }

    /** {@code --config-env=NAME=ENVVAR}: the value comes from the environment. */
    private static String configEnv(String w) {
        int eq = w.indexOf('=');
        return (eq < 0 ? w : w.substring(0, eq)) + "=" + ANY;
    }

    /**
     * An alias value as git splits it ({@code split_cmdline}: whitespace, with quotes grouping); a value holding a
     * quote or backslash is read as any text.
     */
    private static List<String> split(String value) {
        if (value.indexOf('"') >= 0 || value.indexOf('\'') >= 0 || value.indexOf('\\') >= 0) return List.of(ANY);
        List<String> out = new ArrayList<>();
        for (String w : value.trim().split("[ \t\n]+")) if (!w.isEmpty()) out.add(w);
        return out;
    }
}
