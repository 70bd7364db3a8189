package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Configuration a command writes for the later runs of its program (issue 18, docs/PROGRAMS.md "Key tables"
 * {@code writes}): {@code npm config set script-shell ./x} and {@code npm set K=V} (npm's {@code lib/commands/config.js}
 * {@code keyValues}: {@code KEY=VALUE} or {@code KEY VALUE}, the keys npm's own options), {@code npm pkg set
 * scripts.test=CMD} ({@code lib/commands/pkg.js}: {@code KEY=VALUE}, package.json fields), {@code gh alias set NAME
 * EXPANSION} (an expansion starting with {@code !}, or given {@code --shell}/{@code -s}, runs through {@code sh}).
 * Which subcommands write, and how their operands are read, is data: the schema's {@code config.writes}.
 * <p>
 * Each key written is judged: {@code inert} (the table, or the option table, lists it as inert), {@code script} (its
 * value is shell text the program runs) or {@code program} (anything else: it may choose what the program runs). A
 * value of a non-inert key is read as shell text for deny and ask rules ({@link #payloads}).
 */
final class ConfigWrites {
    /**
     * One key written.
     *
     * @param index the index of the word that holds the key
     * @param key   the key, or the word as written when it is only known at run time
     * @param value its value, or null when not known
     * @param role  {@code inert}, {@code script} or {@code program}
     */
    record Write(int index, String key, String value, String role) {
        /** True when later runs of the program may do something else because of it. */
        boolean changesWhatRuns() {
            return !role.equals("inert");
        }
    }

    /** The wrapper kind of a configuration writer whose values are read as commands (rules name it). */
    static final String KIND = "config write";

    private ConfigWrites() {
    }

    /**
     * The keys one command writes.
     *
     * @param schema the program's schema
     * @param args   the command's words, the name first
     * @return the keys written in order, empty when the command writes no configuration
     */
    static List<Write> of(ProgramSchemas.Schema schema, List<Arg> args) {
        if (schema == null || schema.config() == null || schema.config().writes().isEmpty()) return List.of();
        int i = skipOptions(schema.options(), args, 1);
        if (i < 0 || i >= args.size()) return List.of();
        String mode = null;
        int from = -1;
        for (Map.Entry<String, String> e : schema.config().writes().entrySet()) {
            int end = match(schema, e.getKey().split(" "), args, i);
            if (end > from) {
                from = end;
                mode = e.getValue();
            }
        }
        if (mode == null) return List.of();
        List<Integer> operands = new ArrayList<>();
        boolean shell = false;
        for (int k = from; k < args.size(); k++) {
            Arg w = args.get(k);
            if (!w.known()) {
                if (w.mayBeOption() || !mode.equals("alias") || operands.isEmpty()) {
                    return List.of(new Write(k, w.text(), null, "program"));
                }
                operands.add(k);
                continue;
            }
            String t = w.prefix();
            if (t.equals("--")) continue;
            if (t.startsWith("-") && t.length() > 1) {
                // gh alias set --shell / -s: the expansion is shell text
                if (t.equals("--shell") || t.equals("-s")) shell = true;
                ProgramSchemas.Declared d = schema.options() == null ? null : schema.options().declaredOption(t);
                if (d != null && d.argument() == OptionGrammar.Argument.REQUIRED && t.indexOf('=') < 0) k++;
                continue;
            }
            operands.add(k);
        }
        List<Write> out = new ArrayList<>();
        if (mode.equals("alias")) {
            if (operands.isEmpty()) return out;
            int k = operands.get(0);
            String value = operands.size() > 1 && args.get(operands.get(1)).known()
                    ? args.get(operands.get(1)).prefix() : null;
            boolean script = value != null && (shell || value.startsWith("!"));
            if (script && value.startsWith("!")) value = value.substring(1);
            // an expansion without ! is more words of the program itself: gh pr checkout
            if (!script && value != null) value = args.get(0).text() + " " + value;
            out.add(new Write(k, args.get(k).text(), value, script ? "script" : "program"));
            return out;
        }
        for (int n = 0; n < operands.size(); n++) {
            int k = operands.get(n);
            String t = args.get(k).prefix();
            int eq = t.indexOf('=');
            String key;
            String value;
            if (eq >= 0) {
                key = t.substring(0, eq).trim();
                value = t.substring(eq + 1).trim();
            } else {
                // KEY VALUE (npm config set, gh config set; npm pkg set KEY VALUE is a usage error, read the same)
                key = t.trim();
                value = null;
                if (n + 1 < operands.size()) {
                    Arg v = args.get(operands.get(++n));
                    value = v.known() ? v.prefix().trim() : null;
                }
            }
            out.add(new Write(k, key, value, judge(schema, mode, key)));
        }
        return out;
    }

    /** The role of a key written: {@code inert}, {@code script} or {@code program}. */
    private static String judge(ProgramSchemas.Schema schema, String mode, String key) {
        if (mode.equals("options")) {
            ProgramSchemas.Declared d = schema.options() == null ? null : schema.options().declaredOption("--" + key);
            if (d == null) return "program";
            return switch (d.role()) {
                case "inert" -> "inert";
                case "script" -> "script";
                default -> "program";
            };
        }
        ProgramSchemas.KeyTable t = schema.config();
        if (t.isInert(key)) return "inert";
        return "script".equals(t.role(key)) ? "script" : "program";
    }

    /**
     * The values of the keys written that run something, as shell text payloads (deny and ask rules judge their
     * commands); a runner's reading, so an allow rule matching the writer as written approves them unless a rule
     * denies or asks them.
     *
     * @return the reading, or null when no value written runs anything the words show
     */
    static WrapperGrammar.Unwrapped payloads(List<Write> writes) {
        List<WrapperGrammar.Payload> payloads = new ArrayList<>();
        for (Write w : writes) {
            if (!w.changesWhatRuns() || w.value() == null || w.value().isBlank()) continue;
            payloads.add(new WrapperGrammar.Payload(w.index(), w.index() + 1, true, WrapperGrammar.SCRIPT,
                    List.of(w.value()), List.of()));
        }
        if (payloads.isEmpty()) return null;
        return new WrapperGrammar.Unwrapped(KIND, List.copyOf(payloads), false, false, List.of(), List.of(), false,
                false, List.of(), false, null, false, true);
    }

    /**
     * True when {@code path} (a file written: a redirection's target, an operand a program writes) names one of the
     * program's configuration files ({@code config.files}: a name, or the end of a path such as {@code .git/config}).
     */
    static boolean isConfigFile(ProgramSchemas.Schema schema, String path) {
        if (schema == null || schema.config() == null || path == null) return false;
        for (String f : schema.config().files()) {
            if (path.equals(f) || path.endsWith("/" + f)) return true;
            // a directory of files it reads (.git/hooks/): any file below it
            if (f.endsWith("/") && (path.startsWith(f) || path.contains("/" + f))) return true;
        }
        return false;
    }

    /** Skips the options before the subcommand; -1 when a word there is only known at run time. */
    private static int skipOptions(ProgramSchemas.OptionTable table, List<Arg> args, int i) {
        while (i < args.size()) {
            Arg w = args.get(i);
            if (!w.known()) return w.mayBeOption() ? -1 : i;
            String t = w.prefix();
            if (!t.startsWith("-") || t.length() < 2) return i;
            if (t.equals("--")) return i + 1;
            ProgramSchemas.Declared d = table == null ? null : table.declaredOption(t);
            i += d != null && d.argument() == OptionGrammar.Argument.REQUIRED && t.indexOf('=') < 0 ? 2 : 1;
        }
        return i;
    }

    /**
     * Matches a writer's subcommand path at {@code i} (a name, an alias, or npm's abbreviation at each level; the
     * program's options may stand between the levels): the index after it, or -1.
     */
    private static int match(ProgramSchemas.Schema schema, String[] path, List<Arg> args, int i) {
        Map<String, ProgramSchemas.Node> subs = schema.subcommands();
        for (int level = 0; level < path.length; level++) {
            if (level > 0) i = skipOptions(schema.options(), args, i);
            if (i < 0 || i >= args.size() || !args.get(i).known()) return -1;
            String word = args.get(i).prefix();
            String name = subs.isEmpty() ? word : SchemaReader.resolve(schema, subs, word);
            if (name == null || !name.equals(path[level])) return -1;
            ProgramSchemas.Node n = subs.get(name);
            subs = n == null ? Map.of() : n.subcommands();
            i++;
        }
        return i;
    }
}
