package dev.compoundbash.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The options programs take before their subcommand ({@code git -C dir push}, {@code npm --prefix x publish},
 * {@code kubectl -n prod delete}), as data: the resource {@code rules/global-options.json}, read once. Deny and ask
 * rules match a command with them removed too ({@link #strip}), so {@code Bash(git push *)} denies
 * {@code git -C /tmp push} and {@code git -c k=v push}; allow rules never do (an option may change what the
 * program does).
 */
public final class GlobalOptions {
    private record Program(Set<String> valued, Set<String> flags, JsonNode entry) {
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
        try (InputStream in = GlobalOptions.class.getClassLoader().getResourceAsStream("rules/global-options.json")) {
            if (in == null) throw new IllegalStateException("missing resource rules/global-options.json");
            JsonNode root = new ObjectMapper().readTree(in);
            Map<String, Program> out = new HashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().startsWith("_")) continue;
                Set<String> valued = new HashSet<>();
                Set<String> flags = new HashSet<>();
                e.getValue().path("valued").forEach(x -> valued.add(x.asText()));
                e.getValue().path("flags").forEach(x -> flags.add(x.asText()));
                out.put(e.getKey(), new Program(Set.copyOf(valued), Set.copyOf(flags), e.getValue()));
            }
            return Map.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rules/global-options.json", e);
        }
    }

    /**
     * The program's entry in the table, for {@link ProgramReadings}.
     *
     * @param name a command name, any directory removed
     * @return the entry, or null when the program is not in the table
     */
    static JsonNode entry(String name) {
        Program p = table().get(name);
        return p == null ? null : p.entry();
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
