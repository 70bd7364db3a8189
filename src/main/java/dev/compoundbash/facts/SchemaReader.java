package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Reads a command's words with its program's schema ({@link ProgramSchemas}, docs/PROGRAMS.md "The closed world"):
 * level by level, the options by the level's option table ({@link OptionGrammar}, the style of the program's own
 * parser), the subcommand by its name, alias or abbreviation, configuration ({@code -c KEY=VALUE}), environment
 * variables of the program and variable definitions ({@code make NAME=VALUE}) by their key tables. It finds:
 * <ul>
 *   <li>the words the schema does not list ({@link Unknown}): an option, a subcommand, a configuration key, an
 *       environment variable, a variable definition, or a word only known at run time where an option may stand;</li>
 *   <li>the canonical readings, for deny and ask rules: the command with the options before its subcommand removed
 *       and its subcommand path spelled every way the schema says it may be ({@code kubectl --v=0 delete pod x} as
 *       {@code kubectl delete pod x}, {@code docker container rm x} as {@code docker rm x}, {@code npm rum build} as
 *       {@code npm run build}); an unknown option is read both as a flag and as taking the next word.</li>
 * </ul>
 * A level whose options the schema does not model, or models only in part ({@code partial}), is not judged: its
 * words pass as before.
 */
final class SchemaReader {
    /** At most this many canonical readings of one command. */
    private static final int MAX_FORMS = 16;

    /**
     * A word the program's schema does not list.
     *
     * @param index           the word's index in the command
     * @param word            the word as written
     * @param what            what it stands for ({@code option}, {@code subcommand}, {@code configuration key},
     *                        {@code environment variable}, {@code variable definition}, {@code word only known at run
     *                        time})
     * @param choosesWhatRuns it may choose what the program runs (the program runs commands, or the option runs code)
     */
    record Unknown(int index, String word, String what, boolean choosesWhatRuns) {
    }

    /** What the schema reading found: the unknown words and the canonical readings. */
    record Result(List<Unknown> unknowns, List<List<String>> forms) {
        static final Result NONE = new Result(List.of(), List.of());
    }

    /** The grammars of merged option tables, built once each. */
    private static final java.util.Map<ProgramSchemas.OptionTable, OptionGrammar> GRAMMARS =
            new java.util.concurrent.ConcurrentHashMap<>();

    /** A level's merged option table and its grammar (both null when no table there is complete). */
    private record Reading(ProgramSchemas.OptionTable table, OptionGrammar grammar) {
        static final Reading NONE = new Reading(null, null);
    }

    /**
     * The tables merged at a level, by the tables' identity (they belong to the schemas, loaded once): the records'
     * own equality and hash code walk every declared option, which cost more than the reading itself.
     */
    private record MergeKey(List<ProgramSchemas.OptionTable> tables, boolean stopAtOperand) {
        @Override
        public boolean equals(Object o) {
            if (!(o instanceof MergeKey k) || k.stopAtOperand != stopAtOperand || k.tables.size() != tables.size()) {
                return false;
            }
            for (int i = 0; i < tables.size(); i++) if (k.tables.get(i) != tables.get(i)) return false;
            return true;
        }

        @Override
        public int hashCode() {
            int h = stopAtOperand ? 1 : 0;
            for (ProgramSchemas.OptionTable t : tables) h = 31 * h + System.identityHashCode(t);
            return h;
        }
    }

    private static final java.util.Map<MergeKey, Reading> READINGS = new java.util.concurrent.ConcurrentHashMap<>();

    /** {@link #merged} and its grammar, computed once per list of tables. */
    private static Reading reading(List<ProgramSchemas.OptionTable> tables, boolean stopAtOperand) {
        MergeKey key = new MergeKey(java.util.Collections.unmodifiableList(new ArrayList<>(tables)), stopAtOperand);
        Reading r = READINGS.get(key);
        if (r != null) return r;
        ProgramSchemas.OptionTable table = merged(tables, stopAtOperand);
        r = table == null ? Reading.NONE : new Reading(table, GRAMMARS.computeIfAbsent(table, OptionGrammar::fromTable));
        READINGS.putIfAbsent(key, r);
        return r;
    }

    private SchemaReader() {
    }

    /**
     * Reads a command with its program's schema.
     *
     * @param schema      the program's schema
     * @param args        the command's words, the name first
     * @param environment the environment prefix in force ({@code NAME=VALUE})
     * @param written     configuration written earlier in the call ({@code KEY=VALUE}, {@code git config}): an alias
     *                    defined there, or by the command's own {@code -c alias.NAME=VALUE}, names a subcommand (what
     *                    it runs is read for deny and ask rules by {@link ProgramReadings})
     * @return the reading
     */
    static Result read(ProgramSchemas.Schema schema, List<Arg> args, List<String> environment, List<String> written) {
        List<Unknown> unknowns = new ArrayList<>();
        if (schema.environment() != null) {
            for (String e : environment) {
                int eq = e.indexOf('=');
                String name = eq < 0 ? e : e.substring(0, eq);
                ProgramSchemas.KeyTable t = schema.environment();
                if (t.isInert(name) || t.role(name) != null) continue; // a role is judged by the program's reader
                // a variable of the program's own (its namespace) that the schema does not list as inert
                for (String prefix : t.namespace()) {
                    if (name.startsWith(prefix)) {
                        unknowns.add(new Unknown(-1, e, "environment variable", schema.runsCommands()));
                        break;
                    }
                }
            }
        }
        Set<List<String>> forms = new LinkedHashSet<>();
        Set<String> aliases = aliases(schema, args, written);
        walk(schema, args, 1, schema.options(), schema.subcommands(), List.of(), List.of(), unknowns, forms, true, 0,
                aliases);
        List<List<String>> out = new ArrayList<>(forms);
        out.removeIf(f -> f.equals(Arg.texts(args)));
        // a word read at two levels (nopt's options anywhere) is one unknown
        Set<String> seen = new java.util.HashSet<>();
        unknowns.removeIf(u -> !seen.add(u.index() + "\u0000" + u.word()));
        if (out.size() > MAX_FORMS) out = out.subList(0, MAX_FORMS);
        return new Result(List.copyOf(unknowns), List.copyOf(out));
    }

    /**
     * One level: its options from {@code from}, then its subcommand.
     *
     * @param table      the level's own option table (null: not modelled)
     * @param subs       the level's subcommands
     * @param persistent option tables of the levels above that apply here too
     * @param path       the subcommand words read so far, canonically spelled
     * @param judge      record unknown words (false on a second reading of the same words)
     */
    private static void walk(ProgramSchemas.Schema schema, List<Arg> args, int from, ProgramSchemas.OptionTable table,
                             java.util.Map<String, ProgramSchemas.Node> subs, List<ProgramSchemas.OptionTable> persistent,
                             List<String> path, List<Unknown> unknowns, Set<List<String>> forms,
                             boolean judge, int depth, Set<String> aliases) {
        if (depth > 8 || forms.size() > MAX_FORMS) return;
        int i = from;
        boolean hasSubs = !subs.isEmpty();
        // a level is read with its own table, and with the tables above that are the program's options everywhere
        // (nopt); a level whose own options are not modelled is not judged
        List<ProgramSchemas.OptionTable> tables = new ArrayList<>(persistent);
        if (table != null) tables.add(0, table);
        Reading r = table == null && persistent.isEmpty() ? Reading.NONE : reading(tables, hasSubs);
        ProgramSchemas.OptionTable reading = r.table();
        OptionGrammar grammar = r.grammar();
        if (grammar != null) {
            // read this level's options up to the subcommand (or all of them, at the last level)
            OptionGrammar.Parsed p = (hasSubs ? grammar.inOrder() : grammar).parse(args, i);
            if (judge) judgeOptions(schema, reading, p, unknowns);
            if (!p.ok()) {
                int at = p.errorAt();
                if (judge) unknowns.add(new Unknown(at, args.get(at).text(), "option", schema.runsCommands()));
                if (!hasSubs) return;
                // an option the schema does not know: read as a flag, and as taking the next word
                Arg w = args.get(at);
                walk(schema, args, at + 1, table, subs, persistent, path, unknowns, forms, judge, depth + 1, aliases);
                if (w.known() && w.prefix().indexOf('=') < 0 && at + 2 <= args.size()) {
                    walk(schema, args, at + 2, table, subs, persistent, path, unknowns, forms, false, depth + 1, aliases);
                }
                return;
            }
            if (!p.certain()) {
                int at = p.uncertainAt();
                // a word only known at run time where an option may stand: for a program that runs no command its
                // words choose, it can only be one of the options listed (or a usage error); which files it names is
                // the path pass's (a path only known at run time)
                // A program that runs commands is judged the same way at a subcommand's last level whose option
                // tables are complete, declare no option that runs code, names a program or directory or takes
                // configuration, and whose node runs nothing its words say (git status "$x", git rev-list $(...)):
                // the subcommand is fixed, and the word can only be one of those options or an operand.
                if (judge && schema.runsCommands() && (hasSubs || mayChooseWhatRuns(schema, path, tables))) {
                    unknowns.add(new Unknown(at, args.get(at).text(), "word only known at run time",
                            schema.runsCommands()));
                }
                return;
            }
            i = p.end();
            // a style that reads options after operands (nopt): the subcommand is the first operand
            if (hasSubs && !p.operandIndices().isEmpty()) i = Math.min(i, p.operandIndices().get(0));
            if (!hasSubs) {
                if (judge && schema.variables() != null && depth == 0) variables(schema, args, from, unknowns, forms);
                return;
            }
        } else if (hasSubs) {
            // options not modelled at this level: the subcommand is the first word that is not an option
            while (i < args.size() && args.get(i).known() && args.get(i).prefix().startsWith("-")) i++;
            if (i > from) return; // the options' values are not known: no canonical reading
        }
        if (!hasSubs || i >= args.size()) return;
        if (depth == 0 && "cargo-commands".equals(schema.readings()) && args.get(i).known()
                && args.get(i).prefix().startsWith("+")) {
            i++; // cargo +nightly build: rustup's toolchain word, then cargo's own (rustup(1) proxies)
            if (i >= args.size()) return;
        }
        Arg w = args.get(i);
        if (!w.known()) {
            if (judge) unknowns.add(new Unknown(i, w.text(), "subcommand only known at run time", schema.runsCommands()));
            return;
        }
        String word = w.prefix();
        String name = resolve(schema, subs, word);
        ProgramSchemas.Node node = name == null ? null : subs.get(name);
        if (node == null) {
            // an alias the call defines runs what its value says (read by ProgramReadings for deny and ask rules)
            boolean alias = path.isEmpty() && aliases.contains(word.toLowerCase(Locale.ROOT));
            if (judge && !alias) unknowns.add(new Unknown(i, word, "subcommand", false));
            return;
        }
        List<String> canon = new ArrayList<>(path);
        canon.add(name);
        ProgramSchemas.Node target = node;
        if (!node.sameAs().isEmpty()) {
            // a shortcut: the path it stands for
            canon = node.sameAs();
            target = follow(schema, canon);
            if (target == null) return;
        }
        List<ProgramSchemas.OptionTable> nextPersistent = new ArrayList<>(persistent);
        if (table != null && table.persistent()) nextPersistent.add(table);
        addForms(args, i + 1, spellingsOf(schema, canon), forms);
        if (judge && schema.config() != null && schema.config().writers().contains(name) && path.isEmpty()) {
            configWrite(schema, target, args, i + 1, unknowns);
        }
        if (judge && schema.variables() != null && target.subcommands().isEmpty()) {
            // not reached for make (no subcommands); kept for a program with both
            variables(schema, args, i + 1, unknowns, forms);
        }
        walk(schema, args, i + 1, target.options(), target.subcommands(), nextPersistent, canon, unknowns, forms, judge,
                depth + 1, aliases);
    }

    /**
     * {@code git config [set|add] KEY VALUE} writes configuration the git commands after it read (git-config(1)):
     * the key is judged as if given by {@code -c}. A read ({@code git config KEY}, {@code --get}) has one operand.
     */
    private static void configWrite(ProgramSchemas.Schema schema, ProgramSchemas.Node node, List<Arg> args, int from,
                                    List<Unknown> unknowns) {
        List<Integer> operands = new ArrayList<>();
        for (int k = from; k < args.size(); k++) {
            Arg w = args.get(k);
            if (!w.known()) {
                if (w.mayBeOption() || operands.isEmpty()) {
                    unknowns.add(new Unknown(k, w.text(), "configuration only known at run time", schema.runsCommands()));
                    return;
                }
                operands.add(k);
                continue;
            }
            String t = w.prefix();
            if (t.startsWith("-") && t.length() > 1) {
                ProgramSchemas.Declared d = node.options() == null ? null : node.options().declaredOption(t);
                if (d != null && d.valued() && t.indexOf('=') < 0) k++;
                continue;
            }
            if (operands.isEmpty() && (t.equals("set") || t.equals("add")) && k == from) continue;
            operands.add(k);
        }
        if (operands.size() < 2) return;
        Arg key = args.get(operands.get(0));
        judgeKey(schema, key.prefix(), operands.get(0), key.text(), unknowns);
    }

    /**
     * Command-line variable definitions ({@code make NAME=VALUE}: GNU make reads every argument holding {@code =}
     * as one, make(1)): a variable the schema lists as inert passes; one with a role is read by the program's reader
     * ({@code SHELL}, {@code .DEFAULT_GOAL}: its value is a goal, a canonical reading); any other is unknown.
     */
    static void variables(ProgramSchemas.Schema schema, List<Arg> args, int from, List<Unknown> unknowns,
                          Set<List<String>> forms) {
        ProgramSchemas.KeyTable t = schema.variables();
        for (int k = from; k < args.size(); k++) {
            Arg w = args.get(k);
            String text = w.prefix();
            int eq = text.indexOf('=');
            if (eq <= 0 || text.startsWith("-")) continue;
            String name = text.substring(0, eq).replaceAll("[:+?!]+$", "");
            if (!name.matches("[A-Za-z0-9_.]+")) continue;
            if (t.isInert(name)) continue;
            String role = t.role(name);
            if ("goal".equals(role)) {
                if (w.known()) {
                    List<String> f = new ArrayList<>();
                    f.add(args.get(0).text());
                    for (String g : text.substring(eq + 1).trim().split("\\s+")) if (!g.isEmpty()) f.add(g);
                    forms.add(List.copyOf(f));
                } else {
                    unknowns.add(new Unknown(k, w.text(), "goal only known at run time", schema.runsCommands()));
                }
                continue;
            }
            if (role != null) continue; // SHELL, MAKESHELL, .SHELLFLAGS: ConfigCode
            unknowns.add(new Unknown(k, w.text(), "variable definition " + name, schema.runsCommands()));
        }
    }

    /**
     * The names of the aliases the command's own configuration options ({@code git -c alias.NAME=VALUE}) and the
     * configuration written earlier define, in lower case (git's alias names are case-insensitive).
     */
    private static Set<String> aliases(ProgramSchemas.Schema schema, List<Arg> args, List<String> written) {
        Set<String> out = new java.util.HashSet<>();
        if (schema.config() == null) return out;
        List<String> configs = new ArrayList<>(written);
        for (int k = 1; k + 1 < args.size(); k++) {
            if (args.get(k).known() && schema.config().option().contains(args.get(k).prefix())
                    && args.get(k + 1).known()) configs.add(args.get(k + 1).prefix());
        }
        for (String c : configs) {
            int eq = c.indexOf('=');
            String key = (eq < 0 ? c : c.substring(0, eq)).toLowerCase(Locale.ROOT);
            if ("alias".equals(schema.config().role(key)) && key.indexOf('.') > 0) {
                out.add(key.substring(key.indexOf('.') + 1));
            }
        }
        return out;
    }

    /** The command name, every spelling of the path, then the words from {@code rest} on. */
    private static void addForms(List<Arg> args, int rest, List<List<List<String>>> path, Set<List<String>> forms) {
        if (forms.size() > MAX_FORMS) return;
        List<List<String>> heads = new ArrayList<>();
        heads.add(List.of(args.get(0).text()));
        for (List<List<String>> level : path) {
            List<List<String>> more = new ArrayList<>();
            for (List<String> h : heads) {
                for (List<String> s : level) {
                    List<String> x = new ArrayList<>(h);
                    for (String part : s) x.addAll(List.of(part.split(" ")));
                    more.add(x);
                    if (more.size() > MAX_FORMS) break;
                }
            }
            heads = more;
        }
        for (List<String> h : heads) {
            List<String> f = new ArrayList<>(h);
            for (int k = rest; k < args.size(); k++) f.add(args.get(k).text());
            forms.add(List.copyOf(f));
        }
    }

    /** The option roles by which a word chooses what runs, or where: a word that may be one of them is not inert. */
    private static final Set<String> CHOOSING_ROLES = Set.of("script", "runs", "code", "config", "directory");

    /**
     * Whether a word only known at run time, at the last level {@code path} of a program that runs commands, may
     * choose what it runs: at the program's own level always (its readers and wrappers judge it), and at a
     * subcommand's level unless the level runs nothing its words say, and every table read there is complete (not
     * {@code partial}) and declares no option of a choosing role.
     */
    private static boolean mayChooseWhatRuns(ProgramSchemas.Schema schema, List<String> path,
                                             List<ProgramSchemas.OptionTable> tables) {
        if (path.isEmpty()) return true;
        ProgramSchemas.Node node = follow(schema, path);
        if (node == null || node.runsCommands() || node.payload() != null || tables.isEmpty()) return true;
        for (ProgramSchemas.OptionTable t : tables) {
            if (t.partial()) return true;
            for (ProgramSchemas.Declared d : t.declared()) if (CHOOSING_ROLES.contains(d.role())) return true;
            for (String role : t.roles().values()) if (CHOOSING_ROLES.contains(role)) return true;
        }
        return false;
    }

    /** The node a path of subcommand words names in a schema (a {@code sameAs} path, a runner's path), or null. */
    static ProgramSchemas.Node follow(ProgramSchemas.Schema schema, List<String> words) {
        java.util.Map<String, ProgramSchemas.Node> subs = schema.subcommands();
        ProgramSchemas.Node n = null;
        for (String w : words) {
            n = subs.get(w);
            if (n == null) return null;
            subs = n.subcommands();
        }
        return n;
    }

    /**
     * Every spelling of a canonical path, level by level: the names and aliases there, and every shortcut elsewhere
     * in the schema that stands for it ({@code docker rm} for {@code docker container rm}).
     */
    private static List<List<List<String>>> spellingsOf(ProgramSchemas.Schema schema, List<String> words) {
        // The answer depends only on the schema (loaded once, immutable) and the path (a path of that schema, so
        // the cache is bounded by the schema's size); computing it walks the schema's whole tree of subcommands.
        java.util.Map<List<String>, List<List<List<String>>>> bySchema;
        synchronized (SPELLINGS) {
            bySchema = SPELLINGS.computeIfAbsent(schema, k -> new java.util.concurrent.ConcurrentHashMap<>());
        }
        List<List<List<String>>> cached = bySchema.get(words);
        if (cached != null) return cached;
        List<List<List<String>>> computed = spellingsOfUncached(schema, words);
        List<List<List<String>>> frozen = new ArrayList<>(computed.size());
        for (List<List<String>> level : computed) {
            List<List<String>> l = new ArrayList<>(level.size());
            for (List<String> s : level) l.add(List.copyOf(s));
            frozen.add(List.copyOf(l));
        }
        List<List<List<String>>> answer = List.copyOf(frozen);
        bySchema.putIfAbsent(List.copyOf(words), answer);
        return answer;
    }

    /** {@link #spellingsOf} per schema, by the schema's identity (its record equality would walk the whole tree). */
    private static final java.util.Map<ProgramSchemas.Schema, java.util.Map<List<String>, List<List<List<String>>>>>
            SPELLINGS = new java.util.IdentityHashMap<>();

    private static List<List<List<String>>> spellingsOfUncached(ProgramSchemas.Schema schema, List<String> words) {
        List<List<List<String>>> out = new ArrayList<>();
        java.util.Map<String, ProgramSchemas.Node> subs = schema.subcommands();
        for (String w : words) {
            ProgramSchemas.Node n = subs.get(w);
            List<List<String>> level = new ArrayList<>();
            level.add(List.of(w));
            if (n != null) {
                for (String a : n.aliases()) level.add(List.of(a));
                subs = n.subcommands();
            }
            out.add(level);
        }
        // shortcuts: the whole path spelled otherwise (one level standing for all of it)
        List<List<String>> shortcuts = new ArrayList<>();
        collectShortcuts(schema.subcommands(), List.of(), words, shortcuts);
        if (!shortcuts.isEmpty()) {
            List<List<String>> whole = new ArrayList<>();
            for (List<String> s : expand(out)) whole.add(List.of(String.join(" ", s)));
            for (List<String> s : shortcuts) whole.add(List.of(String.join(" ", s)));
            return List.of(whole);
        }
        return out;
    }

    private static void collectShortcuts(java.util.Map<String, ProgramSchemas.Node> subs, List<String> at,
                                         List<String> target, List<List<String>> out) {
        for (java.util.Map.Entry<String, ProgramSchemas.Node> e : subs.entrySet()) {
            List<String> here = new ArrayList<>(at);
            here.add(e.getKey());
            if (e.getValue().sameAs().equals(target)) {
                out.add(here);
                for (String a : e.getValue().aliases()) {
                    List<String> alias = new ArrayList<>(at);
                    alias.add(a);
                    out.add(alias);
                }
            }
            if (here.size() < 3) collectShortcuts(e.getValue().subcommands(), here, target, out);
        }
    }

    private static List<List<String>> expand(List<List<List<String>>> levels) {
        List<List<String>> heads = new ArrayList<>();
        heads.add(List.of());
        for (List<List<String>> level : levels) {
            List<List<String>> more = new ArrayList<>();
            for (List<String> h : heads) for (List<String> s : level) {
                List<String> x = new ArrayList<>(h);
                x.addAll(s);
                more.add(x);
            }
            heads = more;
        }
        return heads;
    }

    /** The subcommand {@code word} names at this level: a name, an alias, or (npm) an abbreviation; or null. */
    static String resolve(ProgramSchemas.Schema schema, java.util.Map<String, ProgramSchemas.Node> subs,
                                  String word) {
        if (subs.containsKey(word)) return word;
        for (java.util.Map.Entry<String, ProgramSchemas.Node> e : subs.entrySet()) {
            if (e.getValue().aliases().contains(word)) return e.getKey();
        }
        if ("npm".equals(schema.subcommandAbbreviations()) && subs == schema.subcommands()) {
            String c = ProgramReadings.npmCanonical(schema, word);
            if (c != null && subs.containsKey(c)) return c;
        }
        return null;
    }

    /**
     * The options of a level read together: its own and the persistent ones above, in the style of the first;
     * options stop at the subcommand when the level has subcommands. Null when no table there is complete.
     */
    private static ProgramSchemas.OptionTable merged(List<ProgramSchemas.OptionTable> tables, boolean stopAtOperand) {
        ProgramSchemas.OptionTable first = null;
        List<ProgramSchemas.Declared> declared = new ArrayList<>();
        for (ProgramSchemas.OptionTable t : tables) {
            if (t == null || t.partial()) continue;
            // a table written as an optstring belongs to a program whose own reader judges it (WrapperGrammar,
            // TierArguments): not read here
            if (t.optstring() != null) return null;
            if (first == null) first = t;
            declared.addAll(t.declared());
        }
        if (first == null) return null;
        return new ProgramSchemas.OptionTable(first.style(), null, List.of(), first.exact(), List.copyOf(declared),
                first.roles(), first.persistent(), first.operandsEnd() || stopAtOperand, false);
    }

    /**
     * The options read at a level, judged by their roles: an option that runs code the hook cannot read makes the
     * command not approvable (and may choose what runs); configuration is judged by the key table.
     */
    private static void judgeOptions(ProgramSchemas.Schema schema, ProgramSchemas.OptionTable table,
                                     OptionGrammar.Parsed p, List<Unknown> unknowns) {
        for (OptionGrammar.Option o : p.options()) {
            String role = roleOf(table, o);
            // a runner reads its script, package and entrypoint options itself (RunnerReader): their payloads
            // meet the rules as commands
            if (RunnerReader.readsOption(schema, o, role)) continue;
            // a program's own options that run a command (sort --compress-program, tar -I, rsync -e): OptionPayloads
            if (OptionPayloads.readsOption(schema, role)) continue;
            switch (role) {
                case "script", "runs", "code" -> {
                    // git's own (ConfigCode) reads its code-running options as a wrapper already
                    if (!"git-config".equals(schema.payload() == null ? null : schema.payload().reader())
                            && !"make-config".equals(schema.payload() == null ? null : schema.payload().reader())) {
                        unknowns.add(new Unknown(o.index(), p.words().get(o.index()).text(),
                                "option that runs a program or code", true));
                    }
                }
                case "config" -> {
                    if (schema.config() == null) break;
                    if (o.value() == null || !o.value().known()) {
                        if (o.value() != null) {
                            unknowns.add(new Unknown(o.index(), p.words().get(o.index()).text(),
                                    "configuration only known at run time", schema.runsCommands()));
                        }
                        break;
                    }
                    String v = o.value().prefix();
                    int eq = v.indexOf('=');
                    // a value without = is a key set to true for git (-c KEY), a file of configuration for cargo
                    if (eq < 0 && !schema.config().caseInsensitive()) break;
                    String key = eq < 0 ? v : v.substring(0, eq);
                    judgeKey(schema, key, o.valueIndex(), p.words().get(o.valueIndex()).text(), unknowns);
                }
                default -> {
                }
            }
        }
    }

    /** A configuration key given on the command line: inert, with a role its reader judges, or unknown. */
    static void judgeKey(ProgramSchemas.Schema schema, String key, int index, String word, List<Unknown> unknowns) {
        ProgramSchemas.KeyTable t = schema.config();
        if (t.isInert(key)) return;
        String role = t.role(key);
        if (role != null) return; // script, program, alias: read by the program's reader (ConfigCode, readings)
        unknowns.add(new Unknown(index, word, "configuration key " + (t.caseInsensitive()
                ? key.toLowerCase(Locale.ROOT) : key), schema.runsCommands()));
    }

    private static String roleOf(ProgramSchemas.OptionTable table, OptionGrammar.Option o) {
        for (ProgramSchemas.Declared d : table.declared()) {
            if (d.spellings().contains(o.key()) || d.spellings().contains(o.spelled())) return d.role();
        }
        return "inert";
    }
}
