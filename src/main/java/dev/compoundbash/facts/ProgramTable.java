package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The programs whose path operands Claude Code checks against the working directories, as data: the {@code paths}
 * of the program schemas ({@code programs/NAME.json}, {@link ProgramSchemas}; measured with the e2e tool against Claude Code 2.1.328; see
 * {@code docs/CLAUDE-CODE.md}), read once. {@link #operands} finds a command's path words the way Claude Code
 * does, erring on the side of more words: for {@code standard} programs every word after the leading options,
 * option values included ({@code head -n 1 f} checks {@code 1} and {@code f}), with {@code --} ending the options;
 * for {@code grep}/{@code rg}/{@code sed}/{@code awk}/{@code jq} the first operand is a pattern or a program unless
 * {@code -e}/{@code -f} gives one, and {@code -f FILE} is a path; for {@code find} the start paths and the values
 * of {@code -newer}-like tests; for {@code git} what each subcommand's {@code paths.subcommands} entry says. Each program is a
 * {@link PathCheckedProgram} fact too, so the rules can read the table.
 *
 * <p>On top of those, the entry's {@code options} name the options whose value is a file the program reads, writes
 * or takes file names from ({@code date -f}, {@code diff --to-file}, {@code sort -o}, {@code wc --files0-from}:
 * GNU getopt_long's grammar, read so that a mistake only adds a path), {@code follows} and
 * {@code followsDirectories} the traversals that follow symbolic links ({@code grep -R}, {@code ls -LR},
 * {@code find -L}, {@code diff} of directories), whose directory operands the caller treats as unknown; see the
 * format in {@code docs/PROGRAMS.md}.
 */
public final class ProgramTable {
    private static volatile Map<String, PathCheckedProgram> table;

    private ProgramTable() {
    }

    private static volatile Map<String, Options> options;

    /** The files a subcommand names: its schema entry and its options read as a program's. */
    private record Subcommand(ProgramSchemas.SubcommandPaths paths, Options options) {
    }

    private static volatile Map<String, Map<String, Subcommand>> subcommands = Map.of();

    /**
     * A path word of a command: the word, how the program uses the file it names, and whether the program reads
     * the files inside it, following the symbolic links there, when it is a directory ({@code grep -R},
     * {@code ls -LR}, {@code diff}).
     */
    public record Operand(Arg arg, String access, boolean followsInto, boolean recursive) {
        /** An operand the program does not traverse. */
        public Operand(Arg arg, String access) {
            this(arg, access, false, false);
        }

        /** An operand the program traverses following links, or not at all. */
        public Operand(Arg arg, String access, boolean followsInto) {
            this(arg, access, followsInto, followsInto);
        }
    }

    /**
     * The options of a program that name files, from the entry's {@code options}, {@code follows} and
     * {@code followsDirectories} fields of a schema's {@code paths}.
     *
     * @param roles              spelling ({@code -f}, {@code --file}, or a one-dash word such as {@code -follow})
     *                           to role: {@code read} (its value is a file the program reads), {@code names} (a file
     *                           holding the names of files it reads; {@code -} names standard input), {@code list}
     *                           (a colon-separated list of files it reads), {@code write} (a file it writes), or the
     *                           flags {@code names-operands} (its operands hold names of files it reads)
     * @param follows            conditions under which the program traverses its directory operands following
     *                           symbolic links: each a list of option groups that must all be given
     * @param followsDirectories the program reads the files in a directory operand following symbolic links unless
     *                           this option is given (null: it does not; "" : always)
     * @param recursive          conditions under which the program reads the files below its directory operands
     *                           (as {@code follows}; an empty condition: always; a spelling {@code -d=recurse}: the
     *                           option given that value)
     */
    record Options(Map<String, String> roles, List<List<List<String>>> follows, String followsDirectories,
                   List<List<List<String>>> recursive) {
        boolean valued(String spelled) {
            String r = roles.get(spelled);
            if (r == null) return spellings().get(spelled) != null && spellings().get(spelled).equals("value-flag");
            return !r.equals("names-operands") && !r.equals("flag");
        }

        /** Every spelling the words are scanned for: the roles, and the flags of the traversal conditions. */
        Map<String, String> spellings() {
            Map<String, String> all = new LinkedHashMap<>(roles);
            for (List<List<String>> c : follows) for (List<String> g : c) for (String x : g) all.putIfAbsent(x, "flag");
            for (List<List<String>> c : recursive) {
                for (List<String> g : c) {
                    for (String x : g) {
                        if (x.isEmpty()) continue;
                        int eq = x.indexOf('=', 1);
                        if (eq > 0) all.putIfAbsent(x.substring(0, eq), "value-flag");
                        else all.putIfAbsent(x, "flag");
                    }
                }
            }
            if (followsDirectories != null && !followsDirectories.isEmpty()) all.putIfAbsent(followsDirectories, "flag");
            return all;
        }
    }

    /** Option groups joined by {@code  + }, each group's spellings by {@code |}; {@code ""} is no group at all. */
    private static List<List<List<String>>> conditions(List<String> written) {
        List<List<List<String>>> out = new ArrayList<>();
        for (String f : written) {
            List<List<String>> all = new ArrayList<>();
            if (!f.isBlank()) for (String group : f.split(" \\+ ")) all.add(List.of(group.trim().split("\\|")));
            out.add(List.copyOf(all));
        }
        return List.copyOf(out);
    }

    /** Whether one of the conditions holds: every group of it has a spelling given (or given that value). */
    private static boolean holds(List<List<List<String>>> conditions, java.util.Set<String> given) {
        for (List<List<String>> condition : conditions) {
            boolean all = true;
            for (List<String> group : condition) all &= group.stream().anyMatch(given::contains);
            if (all) return true;
        }
        return false;
    }

    /**
     * The built-in table, read once.
     *
     * @return program name to its entry, in file order
     * @throws IllegalStateException when the resource is missing or malformed (a defect of this build)
     */
    public static Map<String, PathCheckedProgram> programs() {
        Map<String, PathCheckedProgram> t = table;
        if (t != null) return t;
        synchronized (ProgramTable.class) {
            if (table == null) table = read();
            return table;
        }
    }

    private static Map<String, PathCheckedProgram> read() {
        Map<String, PathCheckedProgram> out = new LinkedHashMap<>();
        Map<String, Options> opts = new LinkedHashMap<>();
        Map<String, Map<String, Subcommand>> subs = new LinkedHashMap<>();
        java.util.Set<String> responseFiles = new java.util.HashSet<>();
        for (ProgramSchemas.Schema schema : ProgramSchemas.all().values()) {
            ProgramSchemas.Paths v = schema.paths();
            if (v == null) continue;
            Map<String, String> roles = new LinkedHashMap<>();
            for (Map.Entry<String, String> oe : v.options().entrySet()) {
                for (String spelled : oe.getKey().split("\\|")) roles.put(spelled, oe.getValue());
            }
            List<List<List<String>>> follows = conditions(v.follows());
            List<List<List<String>>> recursive = conditions(v.recursive());
            Map<String, Subcommand> bySub = new LinkedHashMap<>();
            for (Map.Entry<String, ProgramSchemas.SubcommandPaths> se : v.subcommands().entrySet()) {
                ProgramSchemas.SubcommandPaths sp = se.getValue();
                Map<String, String> sr = new LinkedHashMap<>();
                for (Map.Entry<String, String> oe : sp.options().entrySet()) {
                    for (String spelled : oe.getKey().split("\\|")) sr.put(spelled, oe.getValue());
                }
                bySub.put(se.getKey(), new Subcommand(sp, new Options(Map.copyOf(sr), List.of(), null,
                        conditions(sp.recursive()))));
            }
            for (String name : schema.names()) {
                if (!bySub.isEmpty()) subs.put(name, Map.copyOf(bySub));
                out.put(name, new PathCheckedProgram(name, v.access(), v.operands(), v.verb()));
                if (v.responseFiles()) responseFiles.add(name);
                if (!roles.isEmpty() || !follows.isEmpty() || v.followsDirectories() != null || !recursive.isEmpty()) {
                    opts.put(name, new Options(Map.copyOf(roles), follows, v.followsDirectories(), recursive));
                }
            }
        }
        options = Map.copyOf(opts);
        subcommands = Map.copyOf(subs);
        RESPONSE_FILES = Set.copyOf(responseFiles);
        return java.util.Collections.unmodifiableMap(out);
    }

    /**
     * The path words of a command.
     *
     * @param program its table entry
     * @param args    the command's words, the name first
     * @return the path words with their access; empty when the program names no file
     */
    public static List<Operand> operands(PathCheckedProgram program, List<Arg> args) {
        return operands(program, args, Arg::mayBeOption);
    }

    /**
     * The path words of a command, given what may be an option among its words only known at run time.
     *
     * @param program     its table entry
     * @param args        the command's words, the name first
     * @param mayBeOption whether a word only known at run time may become an option (a loop variable whose words
     *                    all start otherwise may not)
     * @return the path words with their access; empty when the program names no file
     */
    public static List<Operand> operands(PathCheckedProgram program, List<Arg> args,
                                         java.util.function.Predicate<Arg> mayBeOption) {
        List<Operand> base = kindOperands(program, args);
        programs();
        if (RESPONSE_FILES.contains(program.getName())) base = responseFiles(base);
        Options o = options.get(program.getName());
        return o == null ? base : withOptions(o, args.subList(1, args.size()), base, mayBeOption);
    }

    /**
     * binutils programs read {@code @FILE} as a response file: its contents are more arguments (libiberty
     * {@code expandargv}; sb: {@code strings @../outside/secret.txt} prints the file's words in its errors). The file
     * is read and what it names is only known at run time.
     */
    private static List<Operand> responseFiles(List<Operand> base) {
        List<Operand> out = new ArrayList<>();
        for (Operand b : base) {
            Arg a = b.arg();
            if (a.isStatic() && a.text().startsWith("@") && a.text().length() > 1) {
                out.add(new Operand(Arg.literal(a.text().substring(1)), "read"));
                out.add(new Operand(Arg.unknown("(the arguments " + a.text() + " holds)"), "read"));
            } else if (!a.isStatic() && !a.lead() && a.prefix().isEmpty()) {
                out.add(b);
                out.add(new Operand(Arg.unknown("(a response file only known at run time)"), "read"));
            } else {
                out.add(b);
            }
        }
        return out;
    }

    private static volatile Set<String> RESPONSE_FILES = Set.of();

    /**
     * The access of the words xargs appends to the command: the program's, or write for {@code sed -i}.
     *
     * @param program its table entry
     * @param args    the command's words as written, the name first
     * @return {@code read}, {@code write} or {@code create}
     */
    public static String appendedAccess(PathCheckedProgram program, List<Arg> args) {
        if (program.getOperands().equals("sed") && sedWrites(args.subList(1, args.size()))) return "write";
        if (program.getOperands().equals("inout")) return "write";
        return program.getAccess();
    }

    /**
     * Adds the files named by options ({@code date -f F}, {@code diff --to-file=F}, {@code sort -o F},
     * {@code wc --files0-from=F}) and marks the traversing reads. Options are found the way GNU getopt_long finds
     * them, over-reading where that is cheaper than exact (each over-reading only adds a path): a long option by
     * its name or any prefix of it, with its value after {@code =} or in the next word; a one-letter option
     * anywhere in a cluster, its value the rest of the cluster or the next word; a one-dash word option
     * ({@code -follow}) as a whole word; {@code --} ends the options. A word only known at run time that may be
     * an option may be any of them: the command then names a path only known at run time.
     */
    private static List<Operand> withOptions(Options o, List<Arg> words, List<Operand> base,
                                             java.util.function.Predicate<Arg> mayBeOption) {
        List<Operand> out = new ArrayList<>();
        java.util.Set<String> given = new java.util.HashSet<>();
        Map<String, String> spellings = o.spellings();
        boolean unknownOption = false;
        for (int i = 0; i < words.size(); i++) {
            Arg a = words.get(i);
            if (a.isStatic() && a.text().equals("--")) break;
            if (!a.isStatic()) {
                // --name=$(...): the option is known, only its value is not
                int eq = a.prefix().indexOf('=');
                if (a.prefix().startsWith("--") && eq > 2) {
                    String name = a.prefix().substring(0, eq);
                    for (Map.Entry<String, String> e : spellings.entrySet()) {
                        if (!e.getKey().startsWith("--") || !e.getKey().startsWith(name)) continue;
                        given.add(e.getKey());
                        String role = e.getValue();
                        if (role.equals("names-operands") || role.equals("flag")) continue;
                        out.add(new Operand(Arg.unknown(a.text()), role.equals("write") ? "write" : "read"));
                    }
                    continue;
                }
                if (mayBeOption.test(a)) unknownOption = true;
                continue;
            }
            String t = a.text();
            if (t.length() < 2 || t.charAt(0) != '-') continue;
            for (Map.Entry<String, String> e : spellings.entrySet()) {
                String spelled = e.getKey();
                Arg value = null;
                boolean hit = false;
                if (spelled.startsWith("--")) {
                    if (!t.startsWith("--")) continue;
                    int eq = t.indexOf('=');
                    String name = eq > 0 ? t.substring(0, eq) : t;
                    if (name.length() < 3 || !spelled.startsWith(name)) continue;
                    hit = true;
                    if (eq > 0) value = Arg.literal(t.substring(eq + 1));
                    else if (o.valued(spelled) && i + 1 < words.size()) value = words.get(i + 1);
                } else if (spelled.length() == 2) {
                    if (t.startsWith("--")) continue;
                    int k = t.indexOf(spelled.charAt(1), 1);
                    if (k < 0) continue;
                    hit = true;
                    if (k + 1 < t.length()) value = Arg.literal(t.substring(k + 1));
                    else if (o.valued(spelled) && i + 1 < words.size()) value = words.get(i + 1);
                } else {
                    if (!t.equals(spelled) && !t.startsWith(spelled + "=")) continue;
                    hit = true;
                    if (t.length() > spelled.length()) value = Arg.literal(t.substring(spelled.length() + 1));
                    else if (o.valued(spelled) && i + 1 < words.size()) value = words.get(i + 1);
                }
                if (!hit) continue;
                given.add(spelled);
                String role = e.getValue();
                if (role.equals("value-flag")) {
                    // -d recurse: the option and its value, for the traversal conditions
                    given.add(spelled + "=" + (value != null && value.isStatic() ? value.text() : "\u0000"));
                    if (value != null && !value.isStatic()) unknownOption = true;
                    continue;
                }
                if (role.equals("names-operands") || role.equals("flag") || value == null) continue;
                boolean stdin = value.isStatic() && value.text().equals("-");
                switch (role) {
                    case "write" -> out.add(new Operand(value, "write"));
                    case "read-write" -> {
                        // git config --file F: reads F, and writes it when setting a key
                        out.add(new Operand(value, "write"));
                        if (!stdin) out.add(new Operand(value, "read"));
                    }
                    case "prefix" -> {
                        // git checkout-index --prefix=P writes P followed by each path: a directory when P ends in
                        // "/", else names that only begin with P (--prefix=.cla and ude/settings.json)
                        out.add(new Operand(value, "write"));
                        if (!value.isStatic()) {
                            out.add(new Operand(Arg.unknown("(the files named " + value.text() + "...)"), "write"));
                        } else {
                            String prefix = value.text();
                            int slash = prefix.lastIndexOf('/');
                            String last = prefix.substring(slash + 1);
                            for (String p : RedirectTargets.PROTECTED) {
                                if (!last.isEmpty() && p.startsWith(last)) {
                                    out.add(new Operand(Arg.literal(prefix.substring(0, slash + 1) + p + "/"), "write"));
                                }
                            }
                        }
                    }
                    case "names" -> {
                        if (!stdin) out.add(new Operand(value, "read"));
                        out.add(new Operand(Arg.unknown("(the files " + spelled + " names)"), "read"));
                    }
                    case "list" -> {
                        if (value.isStatic()) {
                            for (String part : value.text().split(":", -1)) {
                                if (!part.isEmpty()) out.add(new Operand(Arg.literal(part), "read"));
                            }
                        } else {
                            out.add(new Operand(value, "read"));
                        }
                    }
                    default -> {
                        if (!stdin) out.add(new Operand(value, "read"));
                    }
                }
            }
        }
        boolean follows = holds(o.follows(), given);
        boolean recursive = follows || holds(o.recursive(), given);
        if (o.followsDirectories() != null
                && (o.followsDirectories().isEmpty() || !given.contains(o.followsDirectories()))) follows = true;
        if (unknownOption && (follows || !o.roles().isEmpty() || !o.follows().isEmpty() || !o.recursive().isEmpty())) {
            out.add(new Operand(Arg.unknown("(an option only known at run time)"), "read"));
        }
        List<Operand> result = new ArrayList<>();
        for (Operand b : base) {
            boolean read = b.access().equals("read");
            // a written operand may be read below too (cp -r: the sources); whether it is read is the rules' call
            result.add(read && (follows || recursive) ? new Operand(b.arg(), b.access(), follows, recursive)
                    : !read && recursive && !o.recursive().isEmpty() ? new Operand(b.arg(), b.access(), false, true) : b);
        }
        for (Operand b : out) {
            result.add(b.access().equals("read") && (follows || recursive)
                    ? new Operand(b.arg(), "read", follows, recursive) : b);
        }
        // A traversal with no directory operand reads the working directory (grep -R, ls -R, rg, find); one more
        // "." where the operands name other directories only over-reads.
        if ((follows && !o.follows().isEmpty())
                || (recursive && !o.recursive().isEmpty() && base.stream().noneMatch(b -> b.access().equals("read")))) {
            result.add(new Operand(Arg.literal("."), "read", follows, true));
        }
        if (given.stream().anyMatch(g -> "names-operands".equals(o.roles().get(g)))) {
            boolean anyOperand = !base.isEmpty();
            result.add(new Operand(Arg.unknown("(the files its " + (anyOperand ? "operands" : "input") + " names)"),
                    "read"));
        }
        return result;
    }

    private static List<Operand> kindOperands(PathCheckedProgram program, List<Arg> args) {
        List<Arg> words = args.subList(1, args.size());
        String access = program.getAccess();
        return switch (program.getOperands()) {
            case "none" -> List.of();
            case "cd" -> cd(words, access);
            case "find" -> find(words, access);
            case "grep" -> patternFirst(words, access, GREP_VALUED, GREP_PATTERN, GREP_FILE, false);
            case "rg" -> patternFirst(words, access, RG_VALUED, RG_PATTERN, RG_FILE, false);
            case "sed" -> patternFirst(words, sedWrites(words) ? "write" : access, SED_VALUED, SED_PATTERN, SED_FILE,
                    false);
            case "awk" -> patternFirst(words, access, AWK_VALUED, AWK_PATTERN, AWK_FILE, false);
            case "jq" -> jq(words, access);
            case "git" -> git(program.getName(), words, access);
            case "man" -> man(words, access);
            case "noflags" -> noflags(words, access);
            case "inout" -> inout(program.getName(), words, access);
            case "dd" -> dd(words, access);
            case "tee" -> standard(words, access).stream()
                    .filter(o -> !(o.arg().isStatic() && TEE_DEVICES.contains(o.arg().text()))).toList();
            default -> standard(words, access);
        };
    }

    /**
     * {@code uniq [OPTION]... [INPUT [OUTPUT]]}, {@code xxd [options] [infile [outfile]]}: the first operand is
     * read, a later one is written. Option values are not told from operands here, so every word after the
     * leading options is read and every one after the first is also written (over-reading: {@code -c 16 in out}).
     */
    private static List<Operand> inout(String name, List<Arg> words, String access) {
        List<Operand> out = new ArrayList<>();
        if (OptionGrammar.names().contains(name)) {
            // an exact reading by the program's own grammar (uniq: coreutils uniq.c)
            OptionGrammar.Parsed p = OptionGrammar.named(name).parse(words, 0);
            if (p.clean()) {
                List<Arg> ops = p.operandArgs();
                for (int k = 0; k < ops.size(); k++) {
                    Arg a = ops.get(k);
                    if (a.isStatic() && a.text().equals("-")) continue;
                    out.add(new Operand(a, k == 0 && !a.many() ? access : "write"));
                    if (k == 0 && a.many()) out.add(new Operand(a, access));
                }
                return out;
            }
        }
        List<Operand> all = standard(words, access);
        for (int k = 0; k < all.size(); k++) {
            out.add(all.get(k));
            if (k > 0 || !all.get(k).arg().known() || all.get(k).arg().many()) out.add(new Operand(all.get(k).arg(), "write"));
        }
        return out;
    }

    /**
     * dd (coreutils dd.c): operands {@code if=FILE} (read) and {@code of=FILE} (written); a word only known at run
     * time may be either.
     */
    private static List<Operand> dd(List<Arg> words, String access) {
        List<Operand> out = new ArrayList<>();
        for (Arg a : words) {
            if (!a.isStatic()) {
                // of=$d/x: the path after the operand's name, loop words substituted; else a run-time path
                String kind = a.prefix().startsWith("of=") ? "write" : a.prefix().startsWith("if=") ? "read" : null;
                Arg path = kind == null ? null : a.afterText(3);
                if (path != null) {
                    out.add(new Operand(path, kind));
                } else {
                    out.add(new Operand(Arg.unknown(a.text()), "read"));
                    out.add(new Operand(Arg.unknown(a.text()), "write"));
                }
            } else if (a.text().startsWith("if=")) {
                out.add(new Operand(Arg.literal(a.text().substring(3)), "read"));
            } else if (a.text().startsWith("of=")) {
                out.add(new Operand(Arg.literal(a.text().substring(3)), "write"));
            }
        }
        return out;
    }

    private static final Set<String> TEE_DEVICES = Set.of("/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty");

    /** An option word: starts with {@code -} and is longer (a lone {@code -} is standard input). */
    private static boolean option(Arg a) {
        return a.isStatic() && a.text().length() > 1 && a.text().charAt(0) == '-';
    }

    /** Every word after the leading options; a word that may be an option is a path too (it may be one). */
    private static List<Operand> standard(List<Arg> words, String access) {
        List<Operand> out = new ArrayList<>();
        boolean options = true;
        for (Arg a : words) {
            if (options && a.isStatic() && a.text().equals("--")) {
                options = false;
                continue;
            }
            if (options && option(a)) continue;
            options = false;
            if (a.isStatic() && a.text().equals("-")) continue;
            out.add(new Operand(a, access));
        }
        return out;
    }

    /**
     * cp, mv, ln: like {@code standard}, but any option makes the paths unknown: {@code -t DIR},
     * {@code --target-directory=DIR} and the like name the destination in an option (Claude Code asks for any
     * option of cp and mv for that reason).
     */
    private static List<Operand> noflags(List<Arg> words, String access) {
        for (Arg a : words) {
            if (a.isStatic() && a.text().equals("--")) break;
            if (option(a)) return List.of(new Operand(Arg.unknown(a.text()), access));
        }
        return standard(words, access);
    }

    /** cd/pushd: the first operand; none is HOME; {@code -} is the previous directory (unknown). */
    private static List<Operand> cd(List<Arg> words, String access) {
        for (Arg a : words) {
            if (option(a) && !a.text().equals("--")) continue;
            if (a.isStatic() && a.text().equals("--")) continue;
            if (a.isStatic() && a.text().equals("-")) return List.of(new Operand(Arg.unknown("$OLDPWD"), access));
            return List.of(new Operand(a, access));
        }
        return List.of(new Operand(HOME, access));
    }

    /** The home directory, as {@code cd} with no operand goes there. */
    static final Arg HOME = new Arg("~", false, false, false, "", false, false, true, false, null, "");

    private static final Set<String> FIND_PATH_TESTS = Set.of("-newer", "-anewer", "-cnewer", "-mnewer", "-samefile",
            "-path", "-wholename", "-ipath", "-iwholename", "-lname", "-ilname");

    /** find: the start paths before the first expression word, and the values of the tests that name files. */
    private static List<Operand> find(List<Arg> words, String access) {
        List<Operand> out = new ArrayList<>();
        int i = 0;
        while (i < words.size() && words.get(i).isStatic() && List.of("-H", "-L", "-P").contains(words.get(i).text())) i++;
        if (i < words.size() && words.get(i).isStatic() && words.get(i).text().startsWith("-D")) i += 2;
        if (i < words.size() && words.get(i).isStatic() && words.get(i).text().startsWith("-O")) i++;
        for (; i < words.size(); i++) {
            Arg a = words.get(i);
            if (a.isStatic() && (a.text().startsWith("-") || a.text().equals("(") || a.text().equals("!"))) break;
            if (!a.isStatic() && a.mayBeOption()) {
                out.add(new Operand(a, access));
                break;
            }
            out.add(new Operand(a, access));
        }
        for (int k = i; k < words.size(); k++) {
            Arg a = words.get(k);
            if (a.isStatic() && (FIND_PATH_TESTS.contains(a.text()) || a.text().matches("-newer[amBct][amBct]"))
                    && k + 1 < words.size()) {
                out.add(new Operand(words.get(++k), access));
            }
        }
        return out;
    }

    private static final Set<String> GREP_VALUED = Set.of("-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D",
            "--regexp", "--file", "--exclude", "--include", "--exclude-dir", "--include-dir", "--exclude-from",
            "--include-from", "--max-count", "--after-context", "--before-context", "--context", "--label",
            "--color", "--colour", "--binary-files", "--devices", "--directories", "--group-separator");
    private static final Set<String> GREP_PATTERN = Set.of("-e", "--regexp", "-f", "--file");
    private static final Set<String> GREP_FILE = Set.of("-f", "--file", "--exclude-from", "--include-from");
    private static final Set<String> RG_VALUED = Set.of("-e", "-f", "-t", "-T", "-g", "-m", "-r", "-A", "-B", "-C",
            "-E", "-j", "-M", "--regexp", "--file", "--type", "--type-not", "--glob", "--iglob", "--max-count",
            "--max-depth", "--replace", "--after-context", "--before-context", "--context", "--encoding",
            "--threads", "--max-columns", "--ignore-file", "--type-add", "--sort", "--sortr", "--colors", "--color",
            "--pre", "--pre-glob", "--path-separator", "--max-filesize", "--context-separator", "--field-match-separator");
    private static final Set<String> RG_PATTERN = Set.of("-e", "--regexp", "-f", "--file");
    private static final Set<String> RG_FILE = Set.of("-f", "--file", "--ignore-file");
    private static final Set<String> SED_VALUED = Set.of("-e", "-f", "-l", "--expression", "--file",
            "--line-length");
    private static final Set<String> SED_PATTERN = Set.of("-e", "--expression", "-f", "--file");
    private static final Set<String> SED_FILE = Set.of("-f", "--file");
    private static final Set<String> AWK_VALUED = Set.of("-f", "-F", "-v", "-e", "-E", "-i", "-l", "--file",
            "--field-separator", "--assign", "--source", "--exec", "--include", "--load");
    private static final Set<String> AWK_PATTERN = Set.of("-f", "--file", "-e", "--source", "-E", "--exec");
    private static final Set<String> AWK_FILE = Set.of("-f", "--file", "-E", "--exec", "-i", "--include");

    /**
     * grep, rg, sed, awk: options (those in {@code valued} take the next word, or a value attached with {@code =}
     * or in a cluster); the first operand is the pattern or program unless an option in {@code patternGiven} gave
     * one; the values of {@code fileValued} options are paths; every other operand is a path.
     */
    private static List<Operand> patternFirst(List<Arg> words, String access, Set<String> valued,
                                              Set<String> patternGiven, Set<String> fileValued, boolean unused) {
        List<Operand> out = new ArrayList<>();
        boolean options = true;
        boolean pattern = false;
        List<Arg> operands = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            Arg a = words.get(i);
            if (options && a.isStatic() && a.text().equals("--")) {
                options = false;
                continue;
            }
            if (options && option(a)) {
                String t = a.text();
                String name = t;
                String attached = null;
                if (t.startsWith("--")) {
                    int eq = t.indexOf('=');
                    if (eq > 0) {
                        name = t.substring(0, eq);
                        attached = t.substring(eq + 1);
                    }
                } else {
                    // a cluster: the first letter that takes a value takes the rest of the word, or the next word
                    for (int k = 1; k < t.length(); k++) {
                        String o = "-" + t.charAt(k);
                        if (valued.contains(o)) {
                            name = o;
                            if (k + 1 < t.length()) attached = t.substring(k + 1);
                            break;
                        }
                    }
                }
                if (!valued.contains(name) && name.startsWith("--") && name.length() >= 3) {
                    // getopt_long takes any unambiguous prefix (--fil=F is --file=F): read as every option it may
                    // abbreviate, its value (the next word) left to be read as an operand too
                    final String prefix = name;
                    List<String> may = valued.stream().filter(v -> v.startsWith(prefix)).toList();
                    if (!may.isEmpty()) {
                        if (may.stream().anyMatch(patternGiven::contains)) pattern = true;
                        if (may.stream().anyMatch(fileValued::contains)) {
                            if (attached != null) out.add(new Operand(Arg.literal(attached), "read"));
                            else if (i + 1 < words.size()) out.add(new Operand(words.get(i + 1), "read"));
                        }
                        continue;
                    }
                }
                if (!valued.contains(name)) continue;
                if (patternGiven.contains(name)) pattern = true;
                Arg value;
                if (attached != null) {
                    value = Arg.literal(attached);
                } else if (i + 1 < words.size()) {
                    value = words.get(++i);
                } else {
                    continue;
                }
                if (fileValued.contains(name)) out.add(new Operand(value, "read"));
                continue;
            }
            if (options && !a.isStatic() && a.mayBeOption()) {
                // an expansion in option position may be an option taking the next word: all of it is unknown
                out.add(new Operand(a, access));
                continue;
            }
            operands.add(a);
        }
        for (int k = pattern ? 0 : 1; k < operands.size(); k++) {
            Arg a = operands.get(k);
            if (a.isStatic() && a.text().equals("-")) continue;
            out.add(new Operand(a, access));
        }
        return out;
    }

    /** sed -i / --in-place edits its files. */
    private static boolean sedWrites(List<Arg> words) {
        for (Arg a : words) {
            if (!a.isStatic()) continue;
            String t = a.text();
            if (t.equals("--")) break;
            if (t.startsWith("--in-place")) return true;
            String name = t.indexOf('=') > 0 ? t.substring(0, t.indexOf('=')) : t;
            if (name.length() >= 3 && "--in-place".startsWith(name)) return true; // --i, --in-pl: abbreviations
            if (t.startsWith("-") && !t.startsWith("--") && t.indexOf('i') > 0
                    && t.substring(1, t.indexOf('i')).chars().noneMatch(c -> "efl".indexOf(c) >= 0)) return true;
        }
        return false;
    }

    /** jq FILTER FILE...: -f/--from-file FILE, --slurpfile/--rawfile NAME FILE, -L DIR; --args/--jsonargs end files. */
    private static List<Operand> jq(List<Arg> words, String access) {
        List<Operand> out = new ArrayList<>();
        boolean filter = false;
        List<Arg> operands = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            Arg a = words.get(i);
            String t = a.isStatic() ? a.text() : "";
            if (t.equals("--args") || t.equals("--jsonargs")) break;
            if (t.equals("-f") || t.equals("--from-file")) {
                filter = true;
                if (i + 1 < words.size()) out.add(new Operand(words.get(++i), access));
            } else if (t.equals("-L") || t.equals("--indent")) {
                if (t.equals("-L") && i + 1 < words.size()) out.add(new Operand(words.get(i + 1), access));
                i++;
            } else if (t.equals("--arg") || t.equals("--argjson")) {
                i += 2;
            } else if (t.equals("--slurpfile") || t.equals("--rawfile")) {
                if (i + 2 < words.size()) out.add(new Operand(words.get(i + 2), access));
                i += 2;
            } else if (option(a)) {
                // flags
            } else {
                operands.add(a);
            }
        }
        for (int k = filter ? 0 : 1; k < operands.size(); k++) out.add(new Operand(operands.get(k), access));
        return out;
    }

    /**
     * git: the files each subcommand names, from the schema's {@code paths.subcommands} (git.json): its operands
     * ({@code all}, {@code grep}'s words after the pattern, {@code revisions}' {@code REV:PATH}) with its access,
     * the files its options name ({@code commit -F}, {@code archive -o}, {@code checkout-index --prefix}) and the
     * traversals that read every file below a directory ({@code grep --untracked}, {@code diff --no-index},
     * {@code add}: staging a file reads it into the repository, where any later git command prints it). A read
     * operand {@code REV:PATH} ({@code show :.env}, {@code diff HEAD:.env}) also names {@code PATH}. A subcommand
     * the table does not list names no file. A global option that moves the repository ({@code -C},
     * {@code --git-dir}, {@code --work-tree}) makes those paths unknown (Claude Code does not path-check the
     * directory itself: docs/CLAUDE-CODE.md, p-h-git-C-tmp, p-h-cd-git-dir). Operands {@code pathspecs}
     * ({@link #pathspecs}) and {@code moves} ({@link #moves}) read what git matches and moves.
     */
    private static List<Operand> git(String program, List<Arg> words, String access) {
        int i = 0;
        boolean moved = false;
        boolean icase = false;
        while (i < words.size() && option(words.get(i))) {
            String t = words.get(i).text();
            if (t.equals("-C") || t.equals("-c") || t.equals("--git-dir") || t.equals("--work-tree")
                    || t.equals("--namespace") || t.equals("--exec-path") || t.equals("--config-env")) {
                moved |= !t.equals("-c") && !t.equals("--namespace") && !t.equals("--config-env");
                i += 2;
            } else {
                moved |= t.startsWith("--git-dir=") || t.startsWith("--work-tree=");
                icase |= t.equals("--icase-pathspecs");
                i++;
            }
        }
        if (i >= words.size() || !words.get(i).isStatic()) return List.of();
        Subcommand spec = subcommands.getOrDefault(program, Map.of()).get(words.get(i).text());
        if (spec == null) return List.of();
        ProgramSchemas.SubcommandPaths sp = spec.paths();
        List<Arg> rest = words.subList(i + 1, words.size());
        List<Operand> base = switch (sp.operands()) {
            case "grep" -> patternFirst(rest, sp.access(), sp.valued(), GREP_PATTERN, Set.of("-f"), false);
            case "none" -> List.of();
            case "pathspecs" -> pathspecs(gitOperands(rest, sp), icase);
            case "moves" -> moves(gitOperands(rest, sp));
            default -> gitOperands(rest, sp);
        };
        List<Operand> out = withOptions(spec.options(), rest, base, Arg::mayBeOption);
        if ((sp.operands().equals("pathspecs") || sp.operands().equals("none"))
                && base.stream().noneMatch(b -> b.access().equals("read"))) {
            // a traversal with no pathspec (add -A, add -u, commit -a, stash -u) covers the whole work tree, not
            // only the directory git runs in (git-add(1) "-A": "If no <pathspec> is given ... the whole tree")
            List<Operand> whole = new ArrayList<>();
            for (Operand o : out) {
                whole.add(o.recursive() && o.arg().isStatic() && o.arg().text().equals(".")
                        ? new Operand(Arg.literal(WORK_TREE_TOP), o.access(), o.followsInto(), true) : o);
            }
            out = whole;
        }
        if (moved) {
            // -C DIR moves every path, the default "." included
            List<Operand> unknown = new ArrayList<>();
            for (String a : List.of("read", "write", "create")) {
                if (out.stream().anyMatch(o -> o.access().equals(a)) || (a.equals(sp.access()) && !sp.operands().equals("none"))) {
                    unknown.add(new Operand(Arg.unknown("(a path in another repository)"), a, false,
                            out.stream().anyMatch(Operand::recursive)));
                }
            }
            return unknown;
        }
        return out;
    }

    /**
     * The text that stands for the top of the work tree in an operand ({@code git add ':/'}, an exclusion): the
     * path pass resolves it by finding the repository upwards from the directory the command runs in.
     */
    static final String WORK_TREE_TOP = ":/";

    /**
     * The files git pathspecs may match (gitglossary(7) "pathspec"; git's pathspec.c and wildmatch.c): every
     * operand is read recursively when it is a directory; one with fnmatch characters ({@code * ? [ \}, which
     * git matches itself also when the shell quoted them: {@code git add '*.env'}) reads every file below the
     * directory before its first one; magic ({@code :(icase)}, {@code :(glob)}, {@code :(attr:...)}) reads every
     * file below that directory, or below the working directory when case is ignored ({@code --icase-pathspecs}
     * too); {@code :/} or {@code :(top)} and exclusions ({@code :!}, {@code :^}, {@code :(exclude)}: an exclusion
     * alone matches the whole work tree) read every file of the work tree ({@link #WORK_TREE_TOP});
     * {@code :(literal)} is its text.
     *
     * @param operands the operands as {@link #gitOperands} read them
     * @param icase    {@code --icase-pathspecs} was given: every pathspec ignores case
     * @return the operands with the directories they may read below
     */
    private static List<Operand> pathspecs(List<Operand> operands, boolean icase) {
        List<Operand> out = new ArrayList<>();
        for (Operand o : operands) {
            Arg a = o.arg();
            if (!a.isStatic()) {
                out.add(new Operand(a, o.access(), false, true));
                continue;
            }
            String t = a.text();
            boolean top = false;
            boolean exclude = false;
            boolean magic = false;
            boolean caseless = icase;
            boolean literal = false;
            String rest = t;
            if (t.startsWith(":(")) {
                int close = t.indexOf(')');
                if (close < 0) {
                    // git refuses it ("Missing ')' at the end of pathspec magic"); read as the whole work tree
                    out.add(new Operand(Arg.literal(WORK_TREE_TOP), o.access(), false, true));
                    continue;
                }
                for (String m : t.substring(2, close).split(",")) {
                    String k = m.trim();
                    switch (k) {
                        case "top", "" -> top |= k.equals("top");
                        case "exclude" -> exclude = true;
                        case "literal" -> literal = true;
                        case "icase" -> caseless = true;
                        default -> magic = true; // glob, attr:..., prefix:N and any later magic
                    }
                }
                rest = t.substring(close + 1);
            } else if (t.startsWith(":")) {
                int k = 1;
                while (k < t.length() && "/!^".indexOf(t.charAt(k)) >= 0) {
                    if (t.charAt(k) == '/') top = true;
                    else exclude = true;
                    k++;
                }
                if (k < t.length() && t.charAt(k) == ':') k++;
                rest = t.substring(k);
            }
            if (top || exclude) {
                out.add(new Operand(Arg.literal(WORK_TREE_TOP), o.access(), false, true));
            } else if (caseless) {
                out.add(new Operand(Arg.literal("."), o.access(), false, true));
            } else if (!literal && (magic || rest.matches("(?s).*[*?\\[\\\\].*"))) {
                out.add(new Operand(Arg.literal(directoryBefore(rest)), o.access(), false, true));
            } else {
                out.add(new Operand(rest.equals(t) ? a : Arg.literal(rest.isEmpty() ? "." : rest), o.access(),
                        false, true));
            }
        }
        return out;
    }

    /** The directory of a pattern before its first fnmatch character ({@code src/*.c}: {@code src/}), or {@code .}. */
    private static String directoryBefore(String pattern) {
        int k = 0;
        while (k < pattern.length() && "*?[\\".indexOf(pattern.charAt(k)) < 0) k++;
        int slash = pattern.lastIndexOf('/', k);
        return slash < 0 ? "." : pattern.substring(0, slash + 1);
    }

    /** {@code git mv SOURCE... DESTINATION}: every operand is written, and every source is also read. */
    private static List<Operand> moves(List<Operand> operands) {
        List<Operand> out = new ArrayList<>(operands);
        for (int k = 0; k < operands.size() - 1; k++) out.add(new Operand(operands.get(k).arg(), "read"));
        // a source or destination only known at run time may be any of them
        if (operands.stream().anyMatch(o -> !o.arg().isStatic()) && !operands.isEmpty()) {
            out.add(new Operand(operands.get(operands.size() - 1).arg(), "read"));
        }
        return out;
    }

    /**
     * A git subcommand's operands: every word that is not an option or the value of a {@code valued} option, from
     * the {@code from}th on ({@code revisions}: only the {@code PATH} of {@code REV:PATH}); a read {@code REV:PATH}
     * also names {@code PATH} (the index, {@code :PATH} or {@code :N:PATH}, or a revision's copy of it).
     */
    private static List<Operand> gitOperands(List<Arg> words, ProgramSchemas.SubcommandPaths sp) {
        List<Operand> out = new ArrayList<>();
        boolean options = true;
        int n = 0;
        for (int i = 0; i < words.size(); i++) {
            Arg a = words.get(i);
            if (options && a.isStatic() && a.text().equals("--")) {
                options = false;
                continue;
            }
            if (options && option(a)) {
                String t = a.text();
                if (sp.valued().contains(t)) {
                    i++;
                } else if (a.isStatic() && t.length() > 2 && !t.startsWith("--")) {
                    // a cluster (parse-options): the first letter that takes a value takes the rest of the word, or
                    // the next word when it is the last one (git commit -am MSG)
                    for (int k = 1; k < t.length(); k++) {
                        if (!sp.valued().contains("-" + t.charAt(k))) continue;
                        if (k == t.length() - 1) i++;
                        break;
                    }
                }
                continue;
            }
            if (n++ < sp.from()) continue;
            boolean revisions = sp.operands().equals("revisions");
            if (!revisions || !a.isStatic()) out.add(new Operand(a, sp.access()));
            // a pathspec's leading ":" is its magic, never REV:PATH (the pathspec reader reads it)
            if (a.isStatic() && !sp.access().equals("write") && !sp.operands().equals("pathspecs")) {
                String t = a.text();
                int colon = t.startsWith(":(") ? -1 : t.indexOf(':');
                if (colon >= 0) {
                    String path = t.substring(colon + 1);
                    if (colon == 0 && path.length() > 2 && path.charAt(1) == ':' && Character.isDigit(path.charAt(0))) {
                        path = path.substring(2);
                    }
                    if (path.startsWith("./")) path = path.substring(2);
                    if (!path.isEmpty()) out.add(new Operand(Arg.literal(path), "read"));
                }
            }
        }
        return out;
    }

    /** man: operands that look like paths; every operand with -l/--local-file. */
    private static List<Operand> man(List<Arg> words, String access) {
        boolean local = words.stream().anyMatch(a -> a.isStatic() && (a.text().equals("-l")
                || a.text().equals("--local-file")));
        List<Operand> out = new ArrayList<>();
        for (Operand o : standard(words, access)) {
            String t = o.arg().text();
            if (local || !o.arg().isStatic() || t.contains("/") || t.startsWith(".") || t.startsWith("~")) out.add(o);
        }
        return out;
    }
}
