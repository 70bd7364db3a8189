package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The payload reader {@code runner}: programs that run a command their words name, described as data in their
 * schema's {@code payload} (docs/PROGRAMS.md "Runners"): package runners ({@code npx}, {@code npm exec},
 * {@code pnpm dlx}, {@code yarn dlx}, {@code bunx}, {@code uvx}, {@code pipx run}, {@code poetry run}), remote and
 * container shells ({@code ssh host CMD}, {@code docker exec}, {@code kubectl exec}, {@code docker run IMAGE CMD}).
 *
 * <p>The reader finds the level of the schema whose {@code payload.reader} is {@code runner} (the program itself, or
 * a subcommand path read with each level's options), reads the runner's options with that level's option table
 * (its own, the persistent ones above, and all above when {@code inherits}), skips {@code operands} operands (host,
 * container, pod, image), and takes the rest as the command: run directly ({@code argv}), or joined with spaces as
 * shell source ({@code script}, ssh: OpenSSH {@code ssh.c} joins the remaining arguments with " " and the remote
 * shell runs them; or when a {@code shellMode} option is given). An option with role {@code script} is shell source
 * the runner runs; {@code entrypoint} options name the program run instead; a {@code packageSpec} command word is a
 * package whose bin runs ({@code rimraf@5} runs {@code rimraf}). An option the table does not list, an option that
 * runs code the hook cannot read, or a word only known at run time where an option may stand make the reading
 * unreadable, with every later word a candidate for deny and ask rules ({@link WrapperGrammar#unreadable}).
 *
 * <p>The shapes beyond a command at the end: {@code each} (every word is a shell command: hyperfine), {@code
 * commandAfter} (the command follows a marker word: {@code mise exec T -- CMD}, {@code nix shell P -c CMD}),
 * {@code assignments} (leading {@code NAME=VALUE} words: cross-env), an {@code at} entry {@code ""} (the program
 * itself) or with {@code command} {@code none} (a level passed through, its options read: {@code podman compose -f F
 * run}), and {@code remote} (the payload runs elsewhere: {@link WrapperGrammar.Unwrapped#remote()}).
 */
final class RunnerReader {
    /** Whether a schema has a runner at some level, by file. */
    private static final Map<String, Boolean> HAS_RUNNER = new ConcurrentHashMap<>();
    /** Grammars of merged option tables. */
    private static final Map<List<ProgramSchemas.OptionTable>, OptionGrammar> GRAMMARS = new ConcurrentHashMap<>();

    private RunnerReader() {
    }

    /** True when the payload description names this reader. */
    static boolean isRunner(ProgramSchemas.Payload p) {
        return p != null && p.reader().equals("runner");
    }

    /**
     * Reads a runner's command.
     *
     * @param name   the program's name without its directory
     * @param schema its schema
     * @param a      the command's words, the name first
     * @return the payloads (a runner: {@link WrapperGrammar.Unwrapped#runner()}), or null when the words reach no
     *         runner level, or the runner runs no command its words name (no command: an interactive shell, an
     *         image's own entrypoint, a usage error)
     */
    static WrapperGrammar.Unwrapped read(String name, ProgramSchemas.Schema schema, List<Arg> a) {
        if (isRunner(schema.payload()) && !schema.payload().at().isEmpty()) return at(name, schema, a);
        if (isRunner(schema.payload())) {
            return atLevel(schema.config(), name, schema.payload(), schema.options(), List.of(), a, 1);
        }
        if (!hasRunner(schema)) return null;
        Map<String, ProgramSchemas.Node> subs = schema.subcommands();
        ProgramSchemas.OptionTable table = schema.options();
        List<ProgramSchemas.OptionTable> above = new ArrayList<>();
        List<String> path = new ArrayList<>(List.of(name));
        // options read before the runner's level from a table that applies everywhere (nopt: npm --call=CMD exec)
        List<OptionGrammar.Parsed> before = new ArrayList<>();
        int i = 1;
        for (int depth = 0; depth < 8 && !subs.isEmpty(); depth++) {
            List<ProgramSchemas.OptionTable> tables = new ArrayList<>();
            if (table != null) tables.add(table);
            for (ProgramSchemas.OptionTable t : above) if (t.persistent()) tables.add(t);
            OptionGrammar g = grammar(tables, true);
            if (g != null) {
                while (true) {
                    OptionGrammar.Parsed p = g.parse(a, i);
                    if (!p.certain()) return null; // judged by the closed world (SchemaReader)
                    if (!p.ok()) {
                        // a complete table: the closed world judges the unknown option; a partial one (the global
                        // options of a manual): the word is read as a flag and the reading goes on
                        if (!partial(tables) || p.errorAt() < i) return null;
                        i = p.errorAt() + 1;
                        continue;
                    }
                    i = p.end();
                    if (!p.operandIndices().isEmpty()) i = Math.min(i, p.operandIndices().get(0));
                    if (table != null && table.persistent()) before.add(p);
                    break;
                }
            } else {
                while (i < a.size() && a.get(i).known() && a.get(i).prefix().startsWith("-")) i++;
            }
            if (i >= a.size() || !a.get(i).known()) return null;
            String sub = SchemaReader.resolve(schema, subs, a.get(i).prefix());
            if (sub == null) return null;
            ProgramSchemas.Node node = subs.get(sub);
            path.add(sub);
            if (!node.sameAs().isEmpty()) {
                node = SchemaReader.follow(schema, node.sameAs());
                if (node == null) return null;
                path = new ArrayList<>(List.of(name));
                path.addAll(schema.subcommands().get(sub).sameAs());
            }
            if (table != null) above.add(table);
            if (isRunner(node.payload())) {
                return atLevel(schema.config(), String.join(" ", path), node.payload(), node.options(), above, a, i + 1,
                        before);
            }
            table = node.options();
            subs = node.subcommands();
            i++;
        }
        return null;
    }

    /** The options the runners of a schema read themselves, by file. */
    private static final Map<String, java.util.Set<String>> READ_OPTIONS = new ConcurrentHashMap<>();

    /**
     * True when a runner of the schema reads this option itself (its script, the package it installs, the program
     * it runs instead), so that the closed world does not count it unknown: what it runs is a payload.
     *
     * @param schema the program's schema
     * @param o      the option as read
     * @param role   its role in the table
     */
    static boolean readsOption(ProgramSchemas.Schema schema, OptionGrammar.Option o, String role) {
        if (!isRunner(schema.payload()) && !hasRunner(schema)) return false;
        if (role.equals("script")) return true;
        java.util.Set<String> read = READ_OPTIONS.computeIfAbsent(schema.file(), f -> {
            java.util.Set<String> out = new java.util.HashSet<>();
            collect(schema.payload(), out);
            collectAll(schema.subcommands(), out, 0);
            return out;
        });
        return read.contains(o.key()) || read.contains(o.spelled());
    }

    private static void collect(ProgramSchemas.Payload p, java.util.Set<String> out) {
        if (!isRunner(p)) return;
        out.addAll(p.packageOptions());
        out.addAll(p.entrypoint());
        out.addAll(p.shellMode());
    }

    private static void collectAll(Map<String, ProgramSchemas.Node> subs, java.util.Set<String> out, int depth) {
        if (depth > 8) return;
        for (ProgramSchemas.Node n : subs.values()) {
            collect(n.payload(), out);
            collectAll(n.subcommands(), out, depth + 1);
        }
    }

    /**
     * A program-level runner with {@code at} paths: the program's options, then the longest path written next,
     * then that runner's own options and command.
     */
    private static WrapperGrammar.Unwrapped at(String name, ProgramSchemas.Schema schema, List<Arg> a) {
        // an entry "" is the program itself when no other path is written (dotenv -e F CMD beside dotenv run CMD)
        boolean itself = schema.payload().at().containsKey("");
        int i = skipOptions(schema.options(), a, 1);
        if (i < 0) return itself ? unreadable(name, a, 1) : null;
        String best = null;
        int bestEnd = -1;
        Map<String, ProgramSchemas.Payload> at = schema.payload().at();
        for (String path : at.keySet()) {
            if (path.isEmpty() || at.get(path).command().equals("none")) continue;
            String[] words = path.split(" ");
            int pos = i;
            boolean match = true;
            for (int k = 0; match && k < words.length; k++) {
                // podman compose -f F run: a level the path passes through ("command": "none") reads its options
                ProgramSchemas.Payload level = k == 0 ? null : at.get(String.join(" ", List.of(words).subList(0, k)));
                if (level != null && level.command().equals("none")) {
                    pos = skipOptions(level.options(), a, pos);
                    if (pos < 0) return unreadable(name, a, i);
                }
                match = pos < a.size() && WrapperGrammar.is(a.get(pos), words[k]);
                pos++;
            }
            if (match && (best == null || words.length > best.split(" ").length)) {
                best = path;
                bestEnd = pos;
            }
        }
        if (best == null && schema.options() != null && schema.options().partial()) {
            // nix --option NAME VALUE shell P -c CMD: an option of a partial table may take more words than it
            // says, so a runner word later on may be where the runner starts: the reading is unsure
            for (String path : at.keySet()) {
                if (path.isEmpty() || at.get(path).command().equals("none")) continue;
                String first = path.split(" ")[0];
                for (int k = i + 1; k < a.size(); k++) {
                    if (WrapperGrammar.is(a.get(k), first)) return unreadable(name, a, i);
                }
            }
        }
        if (best == null && !itself) return null;
        if (best == null) {
            best = "";
            bestEnd = i;
        }
        ProgramSchemas.Payload d = at.get(best);
        List<ProgramSchemas.OptionTable> above = schema.options() == null ? List.of() : List.of(schema.options());
        return atLevel(schema.config(), best.isEmpty() ? name : name + " " + best, d, d.options(), above, a, bestEnd);
    }

    /**
     * Reads a level's options in order from {@code i} (a partial table's unknown option read as a flag): the index
     * of the first operand, or -1 when the reading cannot be settled.
     */
    private static int skipOptions(ProgramSchemas.OptionTable table, List<Arg> a, int i) {
        OptionGrammar g = table == null ? null : grammar(List.of(table), true);
        if (g == null) {
            while (i < a.size() && a.get(i).known() && a.get(i).prefix().startsWith("-")) i++;
            return i;
        }
        while (true) {
            OptionGrammar.Parsed p = g.parse(a, i);
            if (!p.certain()) return -1;
            if (!p.ok()) {
                if (!table.partial() || p.errorAt() < i) return -1;
                i = p.errorAt() + 1;
                continue;
            }
            int end = p.end();
            if (!p.operandIndices().isEmpty()) end = Math.min(end, p.operandIndices().get(0));
            return end;
        }
    }

    private static boolean partial(List<ProgramSchemas.OptionTable> tables) {
        for (ProgramSchemas.OptionTable t : tables) if (t.partial()) return true;
        return false;
    }

    private static boolean hasRunner(ProgramSchemas.Schema schema) {
        return HAS_RUNNER.computeIfAbsent(schema.file(), f -> anyRunner(schema.subcommands(), 0));
    }

    private static boolean anyRunner(Map<String, ProgramSchemas.Node> subs, int depth) {
        if (depth > 8) return false;
        for (ProgramSchemas.Node n : subs.values()) {
            if (isRunner(n.payload()) || anyRunner(n.subcommands(), depth + 1)) return true;
        }
        return false;
    }

    /**
     * One grammar for several option tables read together (the first one's style; partial tables too: their
     * options are known options), or null when none declares options.
     */
    private static OptionGrammar grammar(List<ProgramSchemas.OptionTable> tables, boolean stopAtOperand) {
        List<ProgramSchemas.OptionTable> key = new ArrayList<>(tables);
        key.add(new ProgramSchemas.OptionTable(stopAtOperand ? "order" : "any", null, List.of(), false, List.of(),
                Map.of(), false, false, false));
        return GRAMMARS.computeIfAbsent(key, k -> {
            ProgramSchemas.OptionTable first = null;
            List<ProgramSchemas.Declared> declared = new ArrayList<>();
            boolean operandsEnd = stopAtOperand;
            for (ProgramSchemas.OptionTable t : tables) {
                if (t == null || t.optstring() != null) continue;
                if (first == null) first = t;
                declared.addAll(t.declared());
                if (t == tables.get(0)) operandsEnd |= t.operandsEnd();
            }
            if (first == null || declared.isEmpty()) return NONE;
            return OptionGrammar.fromTable(new ProgramSchemas.OptionTable(first.style(), null, List.of(),
                    first.exact(), List.copyOf(declared), first.roles(), false, operandsEnd, false));
        }) == NONE ? null : GRAMMARS.get(key);
    }

    /** Stands for "no grammar" in the cache. */
    private static final OptionGrammar NONE = OptionGrammar.builtin("");

    private static String role(List<ProgramSchemas.OptionTable> tables, OptionGrammar.Option o) {
        for (ProgramSchemas.OptionTable t : tables) {
            if (t == null) continue;
            ProgramSchemas.Declared d = t.declaredOption(o.key());
            if (d == null) d = t.declaredOption(o.spelled());
            if (d != null) return d.role();
        }
        return "inert";
    }

    /** The runner's options, operands and command, from word {@code from} on. */
    private static WrapperGrammar.Unwrapped atLevel(ProgramSchemas.KeyTable config, String kind,
                                                     ProgramSchemas.Payload d,
                                                     ProgramSchemas.OptionTable own,
                                                     List<ProgramSchemas.OptionTable> above, List<Arg> a, int from) {
        return atLevel(config, kind, d, own, above, a, from, List.of());
    }

    /**
     * The runner's options, operands and command, from word {@code from} on; {@code before} holds the options read
     * at the levels above from tables that apply at every level (nopt reads {@code npm --call=CMD exec}'s
     * {@code --call} as exec's own).
     */
    private static WrapperGrammar.Unwrapped atLevel(ProgramSchemas.KeyTable config, String kind,
                                                     ProgramSchemas.Payload d,
                                                     ProgramSchemas.OptionTable own,
                                                     List<ProgramSchemas.OptionTable> above, List<Arg> a, int from,
                                                     List<OptionGrammar.Parsed> before) {
        List<ProgramSchemas.OptionTable> tables = new ArrayList<>();
        if (own != null) tables.add(own);
        for (ProgramSchemas.OptionTable t : above) if (t.persistent() || d.inherits()) tables.add(t);
        OptionGrammar g = grammar(tables, false);
        int marker = -1;
        if (!d.commandAfter().isEmpty()) {
            // mise exec TOOL@V -- CMD, nix shell PKG -c CMD: the command is the words after the marker
            for (int k = from; k < a.size() && marker < 0; k++) {
                for (String m : d.commandAfter()) if (WrapperGrammar.is(a.get(k), m)) marker = k;
                if (marker < 0 && !a.get(k).known()) return unreadable(kind, a, k).withRemote(d.remote());
            }
        }
        List<Arg> words = marker < 0 ? a : a.subList(0, marker);
        WrapperGrammar.Unwrapped u = options(config, kind, d, g, tables, a, words, from, marker, before);
        return u == null ? null : u.withRemote(d.remote());
    }

    /** {@link #atLevel} once the words are those before a {@code commandAfter} marker (at {@code marker}, or -1). */
    private static WrapperGrammar.Unwrapped options(ProgramSchemas.KeyTable config, String kind,
                                                    ProgramSchemas.Payload d, OptionGrammar g,
                                                    List<ProgramSchemas.OptionTable> tables, List<Arg> full,
                                                    List<Arg> a, int from, int marker,
                                                    List<OptionGrammar.Parsed> before) {
        List<WrapperGrammar.Payload> payloads = new ArrayList<>();
        List<Integer> command = new ArrayList<>();
        List<String> packages = new ArrayList<>();
        String entrypoint = null;
        boolean entrypointDynamic = false;
        boolean shellMode = false;
        int n = a.size();
        int i = from;
        List<OptionGrammar.Parsed> parses = new ArrayList<>(before);
        if (g == null) {
            // no options modelled here: an option word is unknown
            if (i < n && a.get(i).mayBeOption() && !WrapperGrammar.is(a.get(i), "--")) {
                return unreadable(kind, full, i);
            }
            if (i < n && WrapperGrammar.is(a.get(i), "--")) i++;
            if (n - i < d.operands()) return null; // no command: a usage error
            for (int k = i + d.operands(); k < n; k++) command.add(k);
        } else if (g.requiresOrder()) {
            int skipped = 0;
            while (true) {
                OptionGrammar.Parsed p = g.parse(a, i);
                if (!p.ok()) return unreadable(kind, full, p.errorAt());
                if (!p.certain()) return unreadable(kind, full, p.uncertainAt());
                parses.add(p);
                i = p.end();
                // a style that reads on past operands (nopt): the first operand ends the options here
                if (!p.operandIndices().isEmpty()) i = Math.min(i, p.operandIndices().get(0));
                if (skipped >= d.operands() || i >= n) break;
                i++;
                skipped++;
                if (!d.optionsAfterOperands()) {
                    while (skipped < d.operands() && i < n) {
                        i++;
                        skipped++;
                    }
                    break;
                }
            }
            if (skipped < d.operands()) return null; // no command: a usage error, or nothing to run
            // multipass exec NAME -- CMD: a -- after the operands ends the options (QCommandLineParser); where a
            // program would run "--" itself nothing runs, so reading the command after it only adds a reading
            if (d.operands() > 0 && i < n && WrapperGrammar.is(a.get(i), "--")) i++;
            for (int k = i; k < n; k++) command.add(k);
        } else {
            OptionGrammar.Parsed p = g.parse(a, i);
            if (!p.ok()) return unreadable(kind, full, p.errorAt());
            if (!p.certain()) return unreadable(kind, full, p.uncertainAt());
            parses.add(p);
            List<Integer> ops = p.operandIndices();
            if (ops.size() > d.operands()) command.addAll(ops.subList(d.operands(), ops.size()));
        }
        for (OptionGrammar.Parsed p : parses) {
            for (OptionGrammar.Option o : p.options()) {
                String r = role(tables, o);
                boolean spelledAs = false;
                for (String s : d.shellMode()) spelledAs |= s.equals(o.key()) || s.equals(o.spelled());
                if (spelledAs) shellMode = true;
                boolean pkg = false;
                for (String s : d.packageOptions()) pkg |= s.equals(o.key()) || s.equals(o.spelled());
                boolean entry = false;
                for (String s : d.entrypoint()) entry |= s.equals(o.key()) || s.equals(o.spelled());
                if (pkg && o.value() != null) {
                    packages.add(o.value().known() ? o.value().prefix() : null);
                } else if (entry && o.value() != null) {
                    entrypoint = o.value().text();
                    entrypointDynamic = o.value().dynamic();
                } else if (r.equals("script") && o.value() != null) {
                    int vi = o.valueIndex() >= 0 ? o.valueIndex() : o.index();
                    payloads.add(new WrapperGrammar.Payload(vi, vi + 1, true, WrapperGrammar.SCRIPT,
                            List.of(o.value().text()), List.of()));
                } else if (r.equals("exits")) {
                    return null; // it prints and exits (ssh -G, -V, -Q)
                } else if (r.equals("config") && config != null && o.value() != null) {
                    if (!o.value().known()) return unreadable(kind, full, o.index());
                    // ssh -o ProxyCommand=...: a key whose value is shell source the program runs (ssh_config(5))
                    String v = o.value().prefix();
                    int eq = v.indexOf('=');
                    String key = eq < 0 ? v.trim() : v.substring(0, eq).trim();
                    String keyRole = config.role(key);
                    // Include, Match, ProxyJump: more configuration, or another ssh, the hook does not read
                    if ("program".equals(keyRole)) return unreadable(kind, full, o.index());
                    if ("script".equals(config.role(config.caseInsensitive() ? key.toLowerCase(java.util.Locale.ROOT) : key))) {
                        int vi = o.valueIndex() >= 0 ? o.valueIndex() : o.index();
                        payloads.add(new WrapperGrammar.Payload(vi, vi + 1, true, WrapperGrammar.SCRIPT,
                                List.of(v.substring(eq + 1)), List.of()));
                    }
                } else if (r.equals("runs") || r.equals("code")) {
                    // it runs a program or code the hook cannot read
                    return unreadable(kind, full, o.index());
                }
            }
        }
        if (!d.commandAfter().isEmpty()) {
            // the operands before the marker are not the command (mise's tools, nix's installables)
            command.clear();
            a = full;
            n = full.size();
            if (marker >= 0) for (int k = marker + 1; k < n; k++) command.add(k);
        }
        List<String> env = new ArrayList<>();
        if (d.assignments()) {
            // cross-env NAME=VALUE ... CMD: the leading assignments are the command's environment
            while (!command.isEmpty() && a.get(command.get(0)).known()
                    && a.get(command.get(0)).prefix().matches("[A-Za-z_][A-Za-z0-9_]*=.*")) {
                env.add(a.get(command.get(0)).prefix());
                command.remove(0);
            }
            if (!command.isEmpty() && !a.get(command.get(0)).known()
                    && a.get(command.get(0)).text().matches("[A-Za-z_][A-Za-z0-9_]*=.*")) {
                env.add(a.get(command.get(0)).text()); // NAME=$VALUE: an assignment whatever its value
                command.remove(0);
            }
        }
        if (command.isEmpty()) {
            if (packages.isEmpty() || !payloads.isEmpty()) {
                return payloads.isEmpty() ? null : runner(kind, payloads);
            }
            // npm exec --package=foo with no command runs foo's bin
            String spec = packages.get(0);
            String bin = spec == null ? null : bin(d.packageSpec(), spec);
            if (bin == null) return unreadable(kind, full, from);
            payloads.add(new WrapperGrammar.Payload(from, n, true, WrapperGrammar.ARGV, List.of(bin), List.of()));
            return runner(kind, payloads);
        }
        int first = command.get(0);
        int last = command.get(command.size() - 1);
        boolean contiguous = last - first + 1 == command.size() && last == n - 1;
        List<String> words = new ArrayList<>();
        for (int k : command) words.add(a.get(k).text());
        if (!shellMode && d.command().equals("each")) {
            // hyperfine, concurrently: every word is a shell command of its own
            for (int k : command) {
                payloads.add(new WrapperGrammar.Payload(k, k + 1, true, WrapperGrammar.SCRIPT,
                        List.of(a.get(k).text()), List.of()));
            }
            return runner(kind, payloads);
        }
        if (shellMode || d.command().equals("script")) {
            payloads.add(new WrapperGrammar.Payload(first, last + 1, true, WrapperGrammar.SCRIPT,
                    List.of(String.join(" ", words)), List.of()));
            return runner(kind, payloads);
        }
        if (entrypoint != null) {
            if (entrypointDynamic) return unreadable(kind, full, first);
            List<String> w = new ArrayList<>();
            w.add(entrypoint);
            w.addAll(words);
            payloads.add(new WrapperGrammar.Payload(first, last + 1, true, WrapperGrammar.ARGV, w, List.of()));
            return runner(kind, payloads);
        }
        Arg head = a.get(first);
        if (d.packageSpec() != null && packages.isEmpty() && head.known()) {
            String bin = bin(d.packageSpec(), head.prefix());
            if (bin == null) return unreadable(kind, full, first);
            if (!bin.equals(head.prefix())) {
                words.set(0, bin);
                payloads.add(new WrapperGrammar.Payload(first, last + 1, true, WrapperGrammar.ARGV, words, List.of()));
                return runner(kind, payloads);
            }
        }
        payloads.add(contiguous && env.isEmpty() ? new WrapperGrammar.Payload(first, n, true)
                : new WrapperGrammar.Payload(first, last + 1, true, WrapperGrammar.ARGV, words, List.copyOf(env)));
        return runner(kind, payloads);
    }

    private static WrapperGrammar.Unwrapped runner(String kind, List<WrapperGrammar.Payload> payloads) {
        return new WrapperGrammar.Unwrapped(kind, List.copyOf(payloads), false, false, List.of(), List.of(), false,
                false, List.of(), false, null, false, true);
    }

    private static WrapperGrammar.Unwrapped unreadable(String kind, List<Arg> a, int at) {
        return WrapperGrammar.unreadable(kind, a, at, false).asRunner();
    }

    /**
     * The program a package specification runs: its name, the scope and version left off ({@code @scope/name@1}:
     * {@code name}; python {@code name[extra]>=1}, {@code name@1}: {@code name}); null for a specification that
     * names no package by name (a path, a URL, a git host shorthand, an alias).
     *
     * @param style {@code npm} or {@code python}
     * @param spec  the specification as written
     */
    static String bin(String style, String spec) {
        if (style == null) return spec;
        String s = spec;
        if (style.equals("npm")) {
            if (s.startsWith("@")) {
                int slash = s.indexOf('/');
                if (slash < 0) return null;
                s = s.substring(slash + 1);
            }
            int at = s.indexOf('@');
            if (at == 0) return null;
            if (at > 0) s = s.substring(0, at);
        } else {
            int cut = s.length();
            for (char c : new char[] {'[', '=', '<', '>', '!', '~', '@', ';', ' '}) {
                int k = s.indexOf(c);
                if (k >= 0) cut = Math.min(cut, k);
            }
            s = s.substring(0, cut).trim();
        }
        if (s.isEmpty() || !s.matches("[A-Za-z0-9][A-Za-z0-9._-]*")) return null;
        return s;
    }
}
