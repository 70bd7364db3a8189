package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The commands a program runs through its own options (docs/PROGRAMS.md, roles {@code script} and {@code runs}), for
 * a program that is no wrapper or runner otherwise: {@code sort --compress-program=PROG} (coreutils sort execs PROG),
 * {@code tar --use-compress-program=CMD}, {@code --to-command=CMD}, {@code -F SCRIPT} (GNU tar runs them through
 * {@code /bin/sh -c}), {@code rsync -e CMD}, {@code --rsync-path=CMD}, {@code rg --pre PROG}. The program becomes a
 * wrapper ({@link WrapperGrammar.Unwrapped}): a {@code script} value is shell source (deny and ask rules judge its
 * commands, as for {@code sh -c}); a {@code runs} value is the program run, with arguments the program adds at run
 * time. A value only known at run time is a payload that cannot be read. The program-level option table is read with
 * the style of its parser ({@link OptionGrammar}); a reading that fails (an unknown option, a word only known at run
 * time where an option may stand) is left to the closed world ({@link SchemaReader}).
 */
final class OptionPayloads {
    /** Grammars of the program-level tables, by schema file. */
    private static final Map<String, java.util.Optional<OptionGrammar>> GRAMMARS = new ConcurrentHashMap<>();

    /** The wrapper kind of these readings: wrappers.drl names it. */
    static final String KIND = "program option";

    private OptionPayloads() {
    }

    /**
     * True when this reader reads the schema's options: no payload reader of its own, no subcommands, and a complete
     * declared option table with an option of role {@code script} or {@code runs}.
     *
     * @param schema a program's schema
     */
    static boolean reads(ProgramSchemas.Schema schema) {
        return grammar(schema) != null;
    }

    private static OptionGrammar grammar(ProgramSchemas.Schema schema) {
        return GRAMMARS.computeIfAbsent(schema.file(), f -> {
            ProgramSchemas.OptionTable t = schema.options();
            if (schema.payload() != null || !schema.subcommands().isEmpty() || t == null || t.partial()
                    || t.optstring() != null || schema.language() != null) {
                return java.util.Optional.empty();
            }
            boolean any = false;
            for (ProgramSchemas.Declared d : t.declared()) any |= d.role().equals("script") || d.role().equals("runs");
            return any ? java.util.Optional.ofNullable(OptionGrammar.fromTable(t)) : java.util.Optional.empty();
        }).orElse(null);
    }

    /**
     * The commands the options of one command run.
     *
     * @param name   the program's name without its directory
     * @param schema its schema ({@link #reads} true, else null is returned)
     * @param a      the command's words, the name first
     * @return the payloads, or null when no option given runs anything (or the options cannot be read)
     */
    static WrapperGrammar.Unwrapped read(String name, ProgramSchemas.Schema schema, List<Arg> a) {
        OptionGrammar g = grammar(schema);
        if (g == null) return null;
        OptionGrammar.Parsed p = g.parse(a, 1);
        if (!p.ok() || !p.certain()) return null; // judged by the closed world (SchemaReader)
        List<WrapperGrammar.Payload> payloads = new ArrayList<>();
        boolean appends = false;
        for (OptionGrammar.Option o : p.options()) {
            ProgramSchemas.Declared d = schema.options().declaredOption(o.key());
            if (d == null) d = schema.options().declaredOption(o.spelled());
            if (d == null) continue;
            String role = d.role();
            if (role.equals("exits")) return null; // --help, --version: nothing runs
            if (o.value() == null) continue;
            if (!role.equals("script") && !role.equals("runs")) continue;
            int vi = o.valueIndex() >= 0 ? o.valueIndex() : o.index();
            Arg v = o.value();
            if (!v.known()) {
                payloads.add(new WrapperGrammar.Payload(vi, vi + 1, false));
                continue;
            }
            if (role.equals("script")) {
                payloads.add(new WrapperGrammar.Payload(vi, vi + 1, true, WrapperGrammar.SCRIPT, List.of(v.prefix()),
                        List.of()));
            } else {
                // the program named runs with arguments of the program's own (sort: PROG -d; rg: PROG FILE)
                payloads.add(new WrapperGrammar.Payload(vi, vi + 1, !v.prefix().isEmpty(), WrapperGrammar.ARGV,
                        List.of(v.prefix()), List.of()));
                appends = true;
            }
        }
        if (payloads.isEmpty()) return null;
        return new WrapperGrammar.Unwrapped(KIND, List.copyOf(payloads), appends, false, List.of(), List.of());
    }

    /** True when this reader reads the option with this role itself (the closed world does not count it unknown). */
    static boolean readsOption(ProgramSchemas.Schema schema, String role) {
        return (role.equals("script") || role.equals("runs")) && reads(schema);
    }
}
