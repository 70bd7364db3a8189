package dev.compoundbash.facts;

import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

/**
 * The one seam through which the extractor learns what a program does with its words: which other commands it
 * runs and how (a wrapper's payloads, a shell's script), which files it writes, find's acting primaries, which
 * words are paths and how they are opened, and the other ways its command line reads for deny and ask rules. The
 * passes ask {@link #read(List, List)} and never a program table directly, so replacing the tables behind it (one
 * schema per program, as data) changes this class only.
 *
 * <p>What it knows is the program schemas ({@link ProgramSchemas}, {@code programs/NAME.json}, docs/PROGRAMS.md),
 * read through {@link WrapperGrammar} (wrappers, runners, find), {@link ProgramTable} (path operands),
 * {@link GlobalOptions} and {@link ProgramReadings} (other readings); {@link ConfigCode} and {@link OptionGrammar}
 * are reached through those. It speaks their vocabulary
 * ({@link WrapperGrammar.Unwrapped}, {@link ProgramTable.Operand}). What a shell does with its invocation (a script
 * from standard input, from a file named at run time) follows bash(1) "INVOCATION".
 */
final class ProgramKnowledge {
    private static final ProgramKnowledge BUILT_IN = new ProgramKnowledge();

    /** Names of standard input as a file: a shell or {@code source} given one reads its script from stdin. */
    private static final Set<String> STDIN_FILES = Set.of("/dev/stdin", "/dev/fd/0", "/proc/self/fd/0");

    private ProgramKnowledge() {
    }

    /** The knowledge built into this build (the program schemas under {@code programs/}). */
    static ProgramKnowledge builtIn() {
        return BUILT_IN;
    }

    /**
     * What the program named by {@code args[0]} does with these words. The answer is computed as it is asked.
     *
     * @param args        the command's words, the name first (a name only known at run time is never read)
     * @param environment the environment prefix in force, {@code NAME=VALUE} words
     * @return the reading; never null
     */
    Reading read(List<Arg> args, List<String> environment) {
        return new Reading(args, environment);
    }

    /**
     * True when {@code name} is a shell: it runs a script, from {@code -c}, a file or standard input (its schema has
     * a {@code shell} part and is not a builtin that runs its script in this shell).
     */
    boolean isShell(String name) {
        return isShellProgram(name);
    }

    private static boolean isShellProgram(String name) {
        ProgramSchemas.Schema s = ProgramSchemas.of(name);
        return s != null && s.shell() != null && !s.shell().sameShell();
    }

    /**
     * True when the shell {@code name} may do no brace expansion (POSIX sh; dash on Debian and Ubuntu: its schema's
     * {@code shell.braceExpansion} is false).
     */
    boolean mayLackBraceExpansion(String name) {
        ProgramSchemas.Schema s = ProgramSchemas.of(name);
        return s != null && s.shell() != null && !s.shell().braceExpansion();
    }

    /**
     * True when the hook knows a program of this name (it has a schema): what the facts say a command so named does
     * comes from that knowledge, which a function of the same name makes wrong.
     *
     * @param name a command name as written
     * @return whether a schema names it
     */
    boolean knows(String name) {
        return ProgramSchemas.of(name) != null;
    }

    /** True when {@code name} runs its script in the current shell ({@code eval}, {@code source}, {@code .}). */
    boolean runsInThisShell(String name) {
        ProgramSchemas.Schema s = ProgramSchemas.of(name);
        return s != null && s.shell() != null && s.shell().sameShell();
    }

    /** The form with the program's global options removed ({@code git -C d push} as {@code git push}), or null. */
    List<String> withoutGlobalOptions(List<String> form) {
        return GlobalOptions.strip(form);
    }

    /**
     * The canonical readings of a form by its program's schema ({@link SchemaReader}): its global options removed,
     * its subcommand spelled every way the schema says; empty when no schema reads it.
     *
     * @param form words or shapes ({@link Arg#UNKNOWN} standing for any text), the name first
     */
    List<List<String>> canonicalForms(List<String> form) {
        if (form.isEmpty() || form.get(0).indexOf(Arg.UNKNOWN) >= 0) return List.of();
        ProgramSchemas.Schema schema = ProgramSchemas.ofCommand(form.get(0));
        if (schema == null || schema.options() == null && schema.subcommands().isEmpty()) return List.of();
        List<Arg> args = new java.util.ArrayList<>(form.size());
        for (String w : form) {
            int u = w.indexOf(Arg.UNKNOWN);
            if (u < 0) {
                args.add(Arg.literal(w));
            } else {
                String prefix = w.substring(0, u);
                args.add(new Arg(w, false, false, false, prefix, false, true, !prefix.isEmpty() && prefix.charAt(0) != '-'));
            }
        }
        return SchemaReader.read(schema, args, List.of(), List.of()).forms();
    }

    /**
     * The readings a git command has when configuration written earlier in the same call applies to it
     * ({@code git config alias.p push && git p origin} reads {@code git p origin} as {@code git push origin}): the
     * command read as if {@code -c KEY=VALUE} were given for each.
     *
     * @param argv    the command's words, the name first
     * @param written {@code KEY=VALUE} for each configuration written earlier in the call, in order
     * @return the other readings (empty when none)
     */
    List<List<String>> readingsWithConfiguration(List<String> argv, List<String> written) {
        if (written.isEmpty() || argv.isEmpty()) return List.of();
        ProgramSchemas.Schema schema = ProgramSchemas.ofCommand(argv.get(0));
        if (schema == null || schema.config() == null || schema.config().option().isEmpty()) return List.of();
        List<String> configured = new java.util.ArrayList<>();
        configured.add(argv.get(0));
        for (String w : written) {
            configured.add(schema.config().option().get(0));
            configured.add(w);
        }
        configured.addAll(argv.subList(1, argv.size()));
        return ProgramReadings.of(configured);
    }

    /** The other readings of the form alone ({@link ProgramReadings}). */
    List<List<String>> readings(List<String> form) {
        return ProgramReadings.of(form);
    }

    /** What one program does with one command's words. */
    static final class Reading {
        private final List<Arg> args;
        private final List<String> environment;
        private WrapperGrammar.Unwrapped wrapper;
        private boolean wrapperRead;
        private String base;
        private ProgramText.Reading program;
        private List<ConfigWrites.Write> writes;

        private Reading(List<Arg> args, List<String> environment) {
            this.args = args;
            this.environment = environment;
        }

        /** The program's name without its directory ({@code /bin/rm} is {@code rm}). */
        String baseName() {
            String b = base;
            if (b == null) base = b = WrapperGrammar.baseName(args.get(0).text());
            return b;
        }

        /**
         * The commands it runs: a wrapper's or runner's payloads, a shell's inline script, the files it writes
         * itself ({@code time -o FILE}); null when the program runs no other command as far as the grammars know.
         */
        WrapperGrammar.Unwrapped wrapper() {
            if (!wrapperRead) {
                wrapper = WrapperGrammar.unwrap(args, environment);
                if (wrapper == null) wrapper = codeOptionsAndWrites();
                wrapperRead = true;
            }
            return wrapper;
        }

        /**
         * The commands the options of a program with subcommands run ({@link SubcommandOptionCode}: {@code go test
         * -exec PROG}) and the values of the configuration it writes ({@link ConfigWrites}: {@code npm pkg set
         * scripts.test=CMD}), read as shell text for deny and ask rules; a runner's reading (an allow rule matching
         * the program as written approves them unless a rule denies or asks them). Null when there are none.
         */
        private WrapperGrammar.Unwrapped codeOptionsAndWrites() {
            ProgramSchemas.Schema schema = ProgramSchemas.of(baseName());
            if (schema == null) return null;
            List<WrapperGrammar.Payload> payloads =
                    new java.util.ArrayList<>(SubcommandOptionCode.payloads(SubcommandOptionCode.of(schema, args)));
            String kind = SubcommandOptionCode.KIND;
            WrapperGrammar.Unwrapped writes = ConfigWrites.payloads(configWrites());
            if (writes != null) {
                if (payloads.isEmpty()) kind = ConfigWrites.KIND;
                payloads.addAll(writes.payloads());
            }
            if (payloads.isEmpty()) return null;
            return new WrapperGrammar.Unwrapped(kind, List.copyOf(payloads), false, false, List.of(), List.of(), false,
                    false, List.of(), false, null, false, true);
        }

        /** The configuration keys this command writes for later runs of its program ({@link ConfigWrites}). */
        List<ConfigWrites.Write> configWrites() {
            List<ConfigWrites.Write> w = writes;
            if (w == null) writes = w = ConfigWrites.of(ProgramSchemas.of(baseName()), args);
            return w;
        }

        /** The program's schema, or null. */
        ProgramSchemas.Schema schema() {
            return ProgramSchemas.of(baseName());
        }

        /**
         * The words the program's schema does not list (the closed world, {@link SchemaReader}); empty when no
         * schema knows the program.
         *
         * @param written configuration written earlier in the call ({@code KEY=VALUE}): an alias defined there names
         *                a subcommand
         */
        List<SchemaReader.Unknown> unknownWords(List<String> written) {
            ProgramSchemas.Schema schema = ProgramSchemas.of(baseName());
            if (schema == null) return List.of();
            List<SchemaReader.Unknown> unknowns = SchemaReader.read(schema, args, environment, written).unknowns();
            if (schema.payload() != null && schema.payload().reader().equals("find")) {
                // a word neither GNU find nor bfs lists as a primary: unknown (find runs commands: it may choose
                // what runs)
                int at = WrapperGrammar.findUnknownPrimary(args);
                if (at > 0) {
                    unknowns = new java.util.ArrayList<>(unknowns);
                    unknowns.add(new SchemaReader.Unknown(at, args.get(at).text(), "primary", schema.runsCommands()));
                }
            }
            List<SchemaReader.Unknown> code = SubcommandOptionCode.unknowns(SubcommandOptionCode.of(schema, args), args);
            if (!code.isEmpty()) {
                List<SchemaReader.Unknown> all = new java.util.ArrayList<>(unknowns);
                all.addAll(code);
                unknowns = all;
            }
            SchemaReader.Unknown unread = unreadPayload(schema);
            if (unread != null) {
                unknowns = new java.util.ArrayList<>(unknowns);
                unknowns.add(unread);
            }
            if (schema.language() == null) return unknowns;
            List<SchemaReader.Unknown> all = new java.util.ArrayList<>(unknowns);
            all.addAll(program().unknowns());
            return all;
        }

        /**
         * The closed world for a program that runs commands or code (its schema says {@code runsCommands}) but whose
         * schema describes neither its options, nor a payload, a shell, a language or subcommands, and whom no
         * wrapper grammar reads ({@code strace CMD}, {@code fakeroot CMD}, {@code python3 -c CODE}): what it runs is
         * not read, so it is an unknown word that chooses what runs (asks under a deny or ask rule, rules/schema.drl).
         * An interpreter ({@code "script": "first-operand"}) given a script file as its first word runs that file,
         * the sandbox's business (issue 18), not an unknown: {@code python3 manage.py test}.
         *
         * @return the unknown, or null when the schema reads what the program runs (or it runs nothing)
         */
        private SchemaReader.Unknown unreadPayload(ProgramSchemas.Schema schema) {
            if (!schema.runsCommands() || schema.options() != null || schema.payload() != null || schema.shell() != null
                    || schema.language() != null || !schema.subcommands().isEmpty()) return null;
            if (wrapper() != null) return null;
            if ("first-operand".equals(schema.script())) {
                if (args.size() < 2) return new SchemaReader.Unknown(0, args.get(0).text(), UnknownWord.UNREAD, true);
                Arg first = args.get(1);
                if (first.known() && !first.prefix().startsWith("-")) return null;
                // python3 -m pytest: a module the interpreter runs as its script
                if (first.known() && schema.scriptOptions().contains(first.prefix()) && args.size() > 2
                        && args.get(2).known() && !args.get(2).prefix().startsWith("-")) return null;
                return new SchemaReader.Unknown(1, first.text(), UnknownWord.UNREAD, true);
            }
            return new SchemaReader.Unknown(args.size() < 2 ? 0 : 1, args.get(args.size() < 2 ? 0 : 1).text(),
                    UnknownWord.UNREAD, true);
        }

        /**
         * Whether the program's schema puts it in a safety tier (bash's builtins, the always-safe programs), whose
         * words name no file it opens beyond what its path schema says; false for a program no schema knows.
         */
        boolean opensNoFileOfItsWords() {
            ProgramSchemas.Schema schema = ProgramSchemas.of(baseName());
            return schema != null && schema.tier() != null && ProgramSchemas.TIERS.contains(schema.tier().tier());
        }

        /** The program in the program's own language among its words ({@link ProgramText}), read once. */
        private ProgramText.Reading program() {
            ProgramText.Reading p = program;
            if (p == null) program = p = ProgramText.read(ProgramSchemas.of(baseName()), args);
            return p;
        }

        /**
         * The configuration this command writes for the commands after it in the same call ({@code git config
         * [set|add] KEY VALUE}, static words only), as {@code KEY=VALUE}; null when it writes none.
         */
        String configurationWritten() {
            ProgramSchemas.Schema schema = ProgramSchemas.of(baseName());
            if (schema == null || schema.config() == null || schema.config().writers().isEmpty()) return null;
            int i = 1;
            while (i < args.size() && args.get(i).known() && args.get(i).prefix().startsWith("-")) {
                ProgramSchemas.Declared d = schema.options() == null ? null
                        : schema.options().declaredOption(args.get(i).prefix());
                i += d != null && d.valued() && args.get(i).prefix().indexOf('=') < 0 ? 2 : 1;
            }
            if (i >= args.size() || !args.get(i).known() || !schema.config().writers().contains(args.get(i).prefix())) {
                return null;
            }
            List<String> operands = new java.util.ArrayList<>();
            for (int k = i + 1; k < args.size(); k++) {
                Arg w = args.get(k);
                if (!w.known()) return null;
                String t = w.prefix();
                if (t.startsWith("-")) {
                    if (t.equals("--unset") || t.equals("--unset-all") || t.startsWith("--get") || t.equals("-l")
                            || t.equals("--list") || t.equals("--remove-section") || t.equals("--rename-section")) {
                        return null;
                    }
                    continue;
                }
                if (operands.isEmpty() && k == i + 1 && (t.equals("set") || t.equals("add"))) continue;
                operands.add(t);
            }
            return operands.size() >= 2 ? operands.get(0) + "=" + operands.get(1) : null;
        }

        /** find's acting primaries ({@code -exec}, {@code -delete}, {@code -fprint} ...). */
        List<WrapperGrammar.Action> findActions() {
            return WrapperGrammar.findActions(args);
        }

        /**
         * A shell given no {@code -c} and no script file (or {@code -s}, or {@code /dev/stdin}) reads its script
         * from standard input (bash(1) "INVOCATION"); so do {@code source /dev/stdin} and {@code . /dev/stdin}.
         */
        boolean readsScriptFromStandardInput() {
            String base = baseName();
            // source /dev/stdin <<< 'cmd' and . /dev/stdin run standard input as a script in this shell
            boolean source = (base.equals("source") || base.equals(".")) && args.size() >= 2
                    && !args.get(1).dynamic() && STDIN_FILES.contains(args.get(1).text());
            if (!isShellProgram(base) && !source) return false;
            if (source) return true;
            for (int i = 1; i < args.size(); i++) {
                String a = args.get(i).text();
                boolean dynamic = args.get(i).dynamic();
                if (a.equals("-s")) break;
                // bash /dev/stdin <<< 'cmd' reads its script from standard input too
                if (!dynamic && STDIN_FILES.contains(a)) break;
                if (dynamic || !(a.startsWith("-") || a.startsWith("+"))) {
                    return false; // a script file operand (or one only known at run time)
                }
            }
            return true;
        }

        /**
         * A shell that reads its script from standard input that is no here-document or here-string the hook can
         * read (a pipe, a file, the terminal: {@code echo 'rm -rf y' | bash}), or {@code source}/{@code .} of a
         * file named only at run time ({@code . <(echo cmd)}, {@code source "$f"}, {@code . /dev/stdin}): code the
         * hook cannot read runs. Only asked of a command that is not a wrapper.
         *
         * @return the kind of the unreadable script ({@code bash <stdin}, {@code source $f}), or null
         */
        String hiddenScript() {
            String base = baseName();
            if (!base.equals("source") && !base.equals(".") && !isShellProgram(base)) return null;
            List<String> argv = Arg.texts(args);
            String kind = null;
            if (base.equals("source") || base.equals(".")) {
                int i = 1;
                if (i < argv.size() && argv.get(i).equals("--")) i++;
                if (i < argv.size() && (args.get(i).dynamic() || STDIN_FILES.contains(argv.get(i)))) {
                    kind = base + " " + argv.get(i);
                }
            } else if (isShellProgram(base)) {
                kind = base + " <stdin";
                for (int i = 1; i < argv.size(); i++) {
                    String a = argv.get(i);
                    boolean dynamic = args.get(i).dynamic();
                    if (a.equals("-s")) break;
                    if (!dynamic && STDIN_FILES.contains(a)) break;
                    if (dynamic || a.startsWith("/dev/fd/") || a.startsWith("/proc/")) {
                        // a script file named only at run time: bash <(curl ...), sh "$f"
                        kind = base + " " + a;
                        break;
                    }
                    if (!(a.startsWith("-") || a.startsWith("+"))) {
                        kind = null; // a script file operand, or -c (a wrapper)
                        break;
                    }
                    if (a.startsWith("-") && !a.startsWith("--") && a.indexOf('c') > 0) {
                        kind = null;
                        break;
                    }
                }
            }
            return kind;
        }

        /** The program's entry among those whose path operands Claude Code checks, or null. */
        PathCheckedProgram pathChecked() {
            return ProgramTable.programs().get(baseName());
        }

        /**
         * The words it opens as files, with their access ({@link ProgramTable#operands}).
         *
         * @param program     {@link #pathChecked()}
         * @param mayBeOption whether a word only known at run time may become an option
         */
        List<ProgramTable.Operand> pathOperands(PathCheckedProgram program, Predicate<Arg> mayBeOption) {
            List<ProgramTable.Operand> operands = ProgramTable.operands(program, args, mayBeOption);
            List<ProgramTable.Operand> more = program().paths();
            if (more.isEmpty()) return operands;
            List<ProgramTable.Operand> all = new java.util.ArrayList<>(operands);
            all.addAll(more);
            return all;
        }

        /** The access of the words xargs appends to it ({@link ProgramTable#appendedAccess}). */
        String appendedAccess(PathCheckedProgram program) {
            return ProgramTable.appendedAccess(program, args);
        }

        /** The directory a cd, pushd or chdir moves to, read as cd reads its operands (empty: none). */
        List<ProgramTable.Operand> directoryOperand() {
            return ProgramTable.operands(ProgramTable.programs().get("cd"), args);
        }
    }
}
