package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The options of a program with subcommands that run a program or code (roles {@code script}, {@code runs},
 * {@code code}, docs/PROGRAMS.md), at any level the words reach: {@code go test -exec PROG}, {@code go build
 * -toolexec PROG}, {@code go vet -vettool PROG} (cmd/go: the value is split into words and run), {@code npm edit
 * --editor CMD}, {@code npm run --script-shell PROG}. Their known values are payloads read as shell text, so deny and
 * ask rules judge what they run ({@link #payloads}); an option found in a table that lists only some options
 * ({@code partial}, the closed world does not judge that level otherwise) is an unknown word that may choose what runs
 * ({@link #unknowns}). Programs whose own reader reads these options (git's and make's {@link ConfigCode}, a runner's
 * {@link RunnerReader}) are left to it.
 */
final class SubcommandOptionCode {
    /** The wrapper kind of these readings (the kind {@code OptionPayloads} gives a program's own options). */
    static final String KIND = "program option";

    /**
     * One option found.
     *
     * @param index   the option's word
     * @param value   its value (null when not given)
     * @param role    {@code script}, {@code runs} or {@code code}
     * @param partial found in a table that lists only some options
     */
    record Found(int index, Arg value, String role, boolean partial) {
    }

    private SubcommandOptionCode() {
    }

    /**
     * The options of the command that run a program or code.
     *
     * @param schema the program's schema
     * @param args   the command's words, the name first
     * @return the options found, in order; empty for a program without subcommands or with a reader of its own
     */
    static List<Found> of(ProgramSchemas.Schema schema, List<Arg> args) {
        if (schema == null || schema.subcommands().isEmpty() || schema.language() != null) return List.of();
        if (schema.payload() != null) return List.of();
        List<ProgramSchemas.OptionTable> tables = new ArrayList<>();
        if (schema.options() != null) tables.add(schema.options());
        Map<String, ProgramSchemas.Node> subs = schema.subcommands();
        int i = 1;
        for (int depth = 0; depth < 8 && !subs.isEmpty(); depth++) {
            while (i < args.size() && args.get(i).known() && args.get(i).prefix().startsWith("-")) {
                ProgramSchemas.Declared d = declared(tables, args.get(i).prefix());
                i += d != null && d.argument() == OptionGrammar.Argument.REQUIRED
                        && args.get(i).prefix().indexOf('=') < 0 ? 2 : 1;
            }
            if (i >= args.size() || !args.get(i).known()) break;
            String name = SchemaReader.resolve(schema, subs, args.get(i).prefix());
            ProgramSchemas.Node n = name == null ? null : subs.get(name);
            if (n == null) break;
            if (!n.sameAs().isEmpty()) n = SchemaReader.follow(schema, n.sameAs());
            if (n == null) break;
            if (n.options() != null) tables.add(n.options());
            subs = n.subcommands();
            i++;
        }
        List<Found> out = new ArrayList<>();
        for (int k = 1; k < args.size(); k++) {
            Arg w = args.get(k);
            if (!w.known()) continue;
            String t = w.prefix();
            if (t.equals("--")) break;
            if (!t.startsWith("-") || t.length() < 2) continue;
            int eq = t.indexOf('=');
            String spelled = eq < 0 ? t : t.substring(0, eq);
            ProgramSchemas.OptionTable table = null;
            ProgramSchemas.Declared d = null;
            for (ProgramSchemas.OptionTable tb : tables) {
                d = tb.declaredOption(spelled);
                // Go's flag package reads --name as -name
                if (d == null && spelled.startsWith("--") && "go".equals(tb.style())) {
                    d = tb.declaredOption(spelled.substring(1));
                }
                if (d != null) {
                    table = tb;
                    break;
                }
            }
            if (d == null) continue;
            String role = d.role();
            if (!role.equals("script") && !role.equals("runs") && !role.equals("code")) {
                if (d.argument() == OptionGrammar.Argument.REQUIRED && eq < 0) k++;
                continue;
            }
            Arg value = null;
            if (eq >= 0) {
                value = Arg.literal(t.substring(eq + 1));
            } else if (d.argument() == OptionGrammar.Argument.REQUIRED && k + 1 < args.size()) {
                value = args.get(++k);
            }
            out.add(new Found(k, value, role, table.partial()));
        }
        return out;
    }

    private static ProgramSchemas.Declared declared(List<ProgramSchemas.OptionTable> tables, String word) {
        int eq = word.indexOf('=');
        String spelled = eq < 0 ? word : word.substring(0, eq);
        for (ProgramSchemas.OptionTable t : tables) {
            ProgramSchemas.Declared d = t.declaredOption(spelled);
            if (d != null) return d;
        }
        return null;
    }

    /** The options found in tables the closed world does not judge, as unknown words that may choose what runs. */
    static List<SchemaReader.Unknown> unknowns(List<Found> found, List<Arg> args) {
        List<SchemaReader.Unknown> out = new ArrayList<>();
        for (Found f : found) {
            if (f.partial()) {
                out.add(new SchemaReader.Unknown(f.index(), args.get(f.index()).text(),
                        "option that runs a program or code", true));
            }
        }
        return out;
    }

    /**
     * Payloads for the known values of {@code script} and {@code runs} options, read as shell text; a value only
     * known at run time is a payload that cannot be read.
     */
    static List<WrapperGrammar.Payload> payloads(List<Found> found) {
        List<WrapperGrammar.Payload> out = new ArrayList<>();
        for (Found f : found) {
            if (f.value() == null || f.role().equals("code")) continue;
            if (!f.value().known()) {
                out.add(new WrapperGrammar.Payload(f.index(), f.index() + 1, false));
            } else if (!f.value().prefix().isBlank()) {
                out.add(new WrapperGrammar.Payload(f.index(), f.index() + 1, true, WrapperGrammar.SCRIPT,
                        List.of(f.value().prefix()), List.of()));
            }
        }
        return out;
    }
}
