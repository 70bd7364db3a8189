package dev.compoundbash.facts;

import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The options programs take before their subcommand ({@code git -C dir push}, {@code npm --prefix x publish},
 * {@code kubectl -n prod delete}), as data: the declared options of the program schemas ({@link ProgramSchemas}). Deny and ask
 * rules match a command with them removed too ({@link #strip}), so {@code Bash(git push *)} denies
 * {@code git -C /tmp push} and {@code git -c k=v push}; allow rules never do (an option may change what the
 * program does).
 */
public final class GlobalOptions {
    private record Program(Set<String> valued, Set<String> flags, ProgramSchemas.Schema schema) {
    }

    private static volatile Map<String, Program> table;

    private GlobalOptions() {
    }

    private static Map<String, Program> table() {
        Map<String, Program> t = table;
        if (t != null) return t;
        synchronized (GlobalOptions.class) {
            if (table == null) table = read();
            return table;
        }
    }

    private static Map<String, Program> read() {
        Map<String, Program> out = new HashMap<>();
        for (ProgramSchemas.Schema schema : ProgramSchemas.all().values()) {
            ProgramSchemas.OptionTable t = schema.options();
            if (t == null || t.declared().isEmpty()) continue;
            Set<String> valued = new HashSet<>();
            Set<String> flags = new HashSet<>();
            for (ProgramSchemas.Declared d : t.declared()) (d.valued() ? valued : flags).addAll(d.spellings());
            for (String n : schema.names()) out.put(n, new Program(Set.copyOf(valued), Set.copyOf(flags), schema));
        }
        return Map.copyOf(out);
    }

    /**
     * The program's entry in the table, for {@link ProgramReadings}.
     *
     * @param name a command name, any directory removed
     * @return the entry, or null when the program is not in the table
     */
    static ProgramSchemas.Schema entry(String name) {
        Program p = table().get(name);
        return p == null ? null : p.schema();
    }

    /** True when {@code word} is one of the program's global options that take no value. */
    static boolean isFlag(String name, String word) {
        Program p = table().get(name);
        return p != null && p.flags().contains(word);
    }

    /** True when {@code word} is one of the program's global options that take a value in the next word. */
    static boolean takesValue(String name, String word) {
        Program p = table().get(name);
        return p != null && p.valued().contains(word) && !word.contains("=");
    }

    /**
     * The command line with the program's leading global options removed.
     *
     * @param argv a command's words, the name first
     * @return the words without those options, or null when the program has none in the table or none were given
     */
    public static List<String> strip(List<String> argv) {
        if (argv.isEmpty()) return null;
        String name = argv.get(0);
        int slash = name.lastIndexOf('/');
        Program p = table().get(slash >= 0 ? name.substring(slash + 1) : name);
        if (p == null) return null;
        int i = 1;
        while (i < argv.size()) {
            String w = argv.get(i);
            int eq = w.indexOf('=');
            // --name=value, and single-dash long options with = (terraform -chdir=DIR)
            String option = w.startsWith("-") && eq > 2 ? w.substring(0, eq) : w;
            if (p.flags().contains(w)) {
                i++;
            } else if (p.valued().contains(option)) {
                i += option.equals(w) ? 2 : 1;
            } else if (w.length() > 2 && w.charAt(0) == '-' && w.charAt(1) != '-'
                    && p.valued().contains(w.substring(0, 2))) {
                i++; // -Cdir, -nprod: the value attached
            } else {
                break;
            }
        }
        if (i == 1 || i >= argv.size()) return null;
        List<String> out = new java.util.ArrayList<>();
        out.add(argv.get(0));
        out.addAll(argv.subList(i, argv.size()));
        return out;
    }
}
