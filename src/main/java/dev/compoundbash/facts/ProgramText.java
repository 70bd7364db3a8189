package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Programs in another language among a command's words ({@code sed} scripts, {@code awk} programs; the schema's
 * {@code language}, docs/PROGRAMS.md): finds the program text the way the program does (its options by its schema's
 * option table: {@code -e}/{@code --expression}/{@code --source} pieces, else the first operand; a program file,
 * {@code -f FILE}, is not read), reads it ({@link SedScript}, {@link AwkProgram}) and says what it does:
 * <ul>
 *   <li>{@link Reading#unknowns()}: what the reader does not understand, or cannot see (a program file, a program
 *       only known at run time): the command is not approvable and, since such a program may run anything, it asks
 *       under deny and ask rules ({@code schema.drl});</li>
 *   <li>{@link Reading#paths()}: the files it reads and writes, as path operands (boundary and Read/Edit rules);</li>
 *   <li>{@link Reading#unwrapped()}: the commands it runs, as a wrapper: each static command text a script payload
 *       (deny and ask rules judge it as {@code sh -c}), and one unreadable payload, so the program is never approved
 *       (running commands is not on the harmless list).</li>
 * </ul>
 * GNU sed's {@code -i[SUFFIX]} backup files are writes too ({@code sed.c} {@code get_backup_file_name}: each
 * {@code *} of the suffix is the file's name, in the file's directory).
 */
final class ProgramText {
    /** The languages a schema may name. */
    static final Set<String> LANGUAGES = union(Set.of("sed", "awk"), InlineCode.LANGUAGES);

    private static Set<String> union(Set<String> a, Set<String> b) {
        java.util.Set<String> u = new java.util.HashSet<>(a);
        u.addAll(b);
        return Set.copyOf(u);
    }

    /** What a program does, as found by a language reader. Mutable while reading. */
    static final class Found {
        final List<String> unknown = new ArrayList<>();
        final List<String> reads = new ArrayList<>();
        final List<String> writes = new ArrayList<>();
        final List<String> commands = new ArrayList<>();
        final List<String> hidden = new ArrayList<>();
        private boolean stopped;

        /** A construct not understood; the reading stops being trusted. */
        void unknown(String what) {
            unknown.add(what);
            stopped = true;
        }

        boolean stopped() {
            return stopped;
        }

        /** A file read; null when its name is only known at run time. */
        void read(String file) {
            reads.add(file);
        }

        /** A file written; null when its name is only known at run time. */
        void write(String file) {
            writes.add(file);
        }

        /** Shell text run, static. */
        void command(String text) {
            commands.add(text);
        }

        /** A command run whose text is only known at run time. */
        void hidden(String why) {
            hidden.add(why);
        }

        void addAll(Found o) {
            unknown.addAll(o.unknown);
            reads.addAll(o.reads);
            writes.addAll(o.writes);
            commands.addAll(o.commands);
            hidden.addAll(o.hidden);
        }
    }

    /**
     * The reading of one command's program.
     *
     * @param unknowns  what is not understood, as schema unknowns (they may choose what runs)
     * @param paths     the files the program reads and writes
     * @param unwrapped the commands it runs as a wrapper, or null when it runs none
     */
    record Reading(List<SchemaReader.Unknown> unknowns, List<ProgramTable.Operand> paths,
                   WrapperGrammar.Unwrapped unwrapped) {
        static final Reading NONE = new Reading(List.of(), List.of(), null);
    }

    private ProgramText() {
    }

    /**
     * Reads the program among a command's words.
     *
     * @param schema the program's schema (its {@code language} names the reader; null or none: {@link Reading#NONE})
     * @param args   the command's words, the name first
     * @return the reading
     */
    static Reading read(ProgramSchemas.Schema schema, List<Arg> args) {
        if (schema == null || schema.language() == null || args.isEmpty()) return Reading.NONE;
        String language = schema.language();
        // an interpreter's or editor's inline code: the commands its own calls run (InlineCode)
        if (InlineCode.LANGUAGES.contains(language)) return InlineCode.read(language, args);
        OptionGrammar grammar;
        try {
            grammar = OptionGrammar.named(schema.name());
        } catch (IllegalArgumentException e) {
            return Reading.NONE;
        }
        List<SchemaReader.Unknown> unknowns = new ArrayList<>();
        List<ProgramTable.Operand> paths = new ArrayList<>();
        Found found = new Found();
        OptionGrammar.Parsed p = grammar.parse(args, 1);
        // the options, judged here: the schema reader leaves an optstring table to the program's own reader
        if (!p.ok()) {
            int at = p.errorAt();
            unknowns.add(new SchemaReader.Unknown(at, at >= 0 && at < args.size() ? args.get(at).text() : "",
                    "option", true));
        } else if (!p.certain()) {
            int at = p.uncertainAt();
            unknowns.add(new SchemaReader.Unknown(at, args.get(at).text(), "word only known at run time", true));
        } else {
            for (OptionGrammar.Option o : p.options()) {
                String role = schema.options().role(o.key());
                if (role.equals("runs") || role.equals("code") || role.equals("script")) {
                    unknowns.add(new SchemaReader.Unknown(o.index(), args.get(o.index()).text(),
                            "option that runs a program or code", true));
                }
            }
            program(language, p, args, found, unknowns, paths, true);
        }
        // other implementations (BSD sed's -i SUFFIX): the commands and files of their reading count too
        for (String variant : schema.variants().keySet()) {
            OptionGrammar g;
            try {
                g = OptionGrammar.named(schema.name() + "@" + variant);
            } catch (IllegalArgumentException e) {
                continue;
            }
            OptionGrammar.Parsed q = g.parse(args, 1);
            if (!q.clean()) continue;
            Found other = new Found();
            program(language, q, args, other, new ArrayList<>(), new ArrayList<>(), false);
            other.unknown.clear();
            found.addAll(other);
        }
        int at = -1;
        for (String u : found.unknown) unknowns.add(new SchemaReader.Unknown(at, u, "program construct", true));
        for (String r : dedupe(found.reads)) {
            paths.add(new ProgramTable.Operand(r == null ? Arg.unknown("(a file the " + language
                    + " program names at run time)") : Arg.literal(r), "read"));
        }
        for (String w : dedupe(found.writes)) {
            paths.add(new ProgramTable.Operand(w == null ? Arg.unknown("(a file the " + language
                    + " program names at run time)") : Arg.literal(w), "write"));
        }
        WrapperGrammar.Unwrapped u = null;
        if (!found.commands.isEmpty() || !found.hidden.isEmpty()) {
            List<WrapperGrammar.Payload> payloads = new ArrayList<>();
            int index = Math.max(1, programIndex(p));
            for (String c : dedupe(found.commands)) {
                if (c.isBlank()) continue;
                payloads.add(new WrapperGrammar.Payload(index, index + 1, true, WrapperGrammar.SCRIPT, List.of(c),
                        List.of()));
            }
            payloads.add(new WrapperGrammar.Payload(args.size(), args.size(), false));
            u = new WrapperGrammar.Unwrapped(language + " program", List.copyOf(payloads), false, false, List.of(),
                    List.of(), false, false, List.of(), false);
        }
        return new Reading(List.copyOf(unknowns), List.copyOf(paths), u);
    }

    private static List<String> dedupe(List<String> xs) {
        List<String> out = new ArrayList<>();
        for (String x : xs) if (!out.contains(x)) out.add(x);
        return out;
    }

    /** The index of the word holding the program text: the first {@code -e} value, else the first operand. */
    private static int programIndex(OptionGrammar.Parsed p) {
        for (OptionGrammar.Option o : p.options()) {
            if (o.key().equals("-e")) return o.valueIndex();
        }
        List<Integer> ops = p.operandIndices();
        return ops.isEmpty() ? -1 : ops.get(0);
    }

    /**
     * Finds and reads the program of one option reading.
     *
     * @param judged the reading that decides (records unknowns for a program it cannot see, and the paths of
     *               options that write files)
     */
    private static void program(String language, OptionGrammar.Parsed p, List<Arg> args, Found found,
                                List<SchemaReader.Unknown> unknowns, List<ProgramTable.Operand> paths,
                                boolean judged) {
        StringBuilder text = new StringBuilder();
        boolean given = false;
        boolean file = false;
        String inPlace = null;
        for (OptionGrammar.Option o : p.options()) {
            String key = o.key();
            boolean source = key.equals("-e");
            boolean programFile = key.equals("-f") || language.equals("awk") && (key.equals("-E") || key.equals("-i"));
            if (source) {
                given = true;
                if (o.value() == null || !o.value().known()) {
                    unknowns.add(new SchemaReader.Unknown(o.index(), args.get(o.index()).text(),
                            "program only known at run time", true));
                    found.stopped = true;
                    continue;
                }
                if (text.length() > 0) text.append('\n');
                text.append(o.value().prefix());
            } else if (programFile) {
                given = true;
                file = true;
                unknowns.add(new SchemaReader.Unknown(o.index(), args.get(o.index()).text(),
                        "program file, which the hook does not read", true));
            } else if (language.equals("sed") && key.equals("-i")) {
                inPlace = o.value() == null ? "" : o.value().known() ? o.value().prefix() : null;
            } else if (language.equals("awk") && judged && (key.equals("-d") || key.equals("-p")
                    || key.equals("-o"))) {
                // gawk --dump-variables, --profile, --pretty-print write a file (default awkvars.out, awkprof.out)
                String v = o.value() == null ? (key.equals("-d") ? "awkvars.out" : "awkprof.out")
                        : o.value().known() ? o.value().prefix() : null;
                if (v == null) found.write(null);
                else if (!AWK_STREAMS.contains(v)) found.write(v);
            }
        }
        List<Arg> operands = p.operandArgs();
        int firstFile = 0;
        if (!given) {
            if (operands.isEmpty()) {
                return; // a usage error: nothing runs
            }
            Arg a = operands.get(0);
            firstFile = 1;
            if (!a.known()) {
                unknowns.add(new SchemaReader.Unknown(p.operandIndices().get(0), a.text(),
                        "program only known at run time", true));
                found.stopped = true;
            } else {
                text.append(a.prefix());
            }
        }
        if (!found.stopped() && (text.length() > 0 || !file)) {
            found.addAll(language.equals("sed") ? SedScript.read(text.toString()) : AwkProgram.read(text.toString()));
        }
        if (inPlace != null && !inPlace.isEmpty() && judged) {
            // backups of every input file
            for (int k = firstFile; k < operands.size(); k++) {
                Arg f = operands.get(k);
                if (!f.known()) {
                    found.write(null);
                    continue;
                }
                String name = f.prefix();
                int slash = name.lastIndexOf('/');
                String dir = slash < 0 ? "" : name.substring(0, slash + 1);
                String base = name.substring(slash + 1);
                found.write(dir + (inPlace.indexOf('*') >= 0 ? inPlace.replace("*", base) : base + inPlace));
            }
        } else if (inPlace == null && judged && p.options().stream().anyMatch(o -> o.key().equals("-i"))) {
            found.write(null);
        }
    }

    private static final Set<String> AWK_STREAMS = Set.of("/dev/stdout", "/dev/stderr", "-");
}
