package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Code in an interpreter's or editor's own language given on its command line (the schema's {@code language}, one
 * of {@link #LANGUAGES}; docs/PROGRAMS.md): {@code python -c}, {@code perl -e}/{@code -E}, {@code node -e}/{@code -p},
 * {@code ruby -e}, {@code php -r}, vi/vim/ex {@code -c}/{@code +}/{@code --cmd}, sqlite3's SQL and dot-command
 * operands and {@code -cmd}. The reader does not read the language: it finds the string literals passed to the
 * language's own command-running calls (Python {@code os.system}, {@code subprocess.*}, {@code os.popen},
 * {@code os.exec*}; Perl {@code system}, {@code exec}, backticks, {@code qx}, piped {@code open}; Node
 * {@code child_process} {@code exec*}/{@code spawn*}; Ruby {@code system}, backticks, {@code %x}; PHP
 * {@code system}, {@code shell_exec}, ...; ex {@code !cmd}, {@code r !cmd}, {@code w !cmd}, {@code system()};
 * sqlite3 {@code .shell}, {@code .system}, {@code .once|.output|.import|.read '|cmd'}) and hands each to the rules as
 * a shell command, so deny and ask rules judge it; sqlite3's {@code readfile('F')} is a read of F. Everything else
 * in the code is unknown, never harmless: the reading always carries one payload that cannot be read, so the
 * command asks while deny or ask rules are in force ({@code wrappers.drl}); with none, an allow rule matching the
 * command as written approves it as before (the inline-code rule there).
 */
final class InlineCode {
    /** The languages this reader knows (a schema's {@code language}). */
    static final Set<String> LANGUAGES = Set.of("python", "perl", "node", "ruby", "php", "ex", "sqlite", "tcl", "capsh", "ed");

    /** The names of calls whose string arguments are commands, by language. */
    private static final Map<String, Set<String>> CALLS = Map.of(
            "python", Set.of("system", "popen", "run", "call", "check_call", "check_output", "Popen", "getoutput",
                    "getstatusoutput", "spawn", "execl", "execle", "execlp", "execlpe", "execv", "execve", "execvp",
                    "execvpe", "spawnl", "spawnle", "spawnlp", "spawnlpe", "spawnv", "spawnve", "spawnvp",
                    "spawnvpe", "posix_spawn", "posix_spawnp", "create_subprocess_shell",
                    "create_subprocess_exec", "popen2", "popen3", "popen4"),
            "perl", Set.of("system", "exec", "readpipe", "open", "open2", "open3", "run", "capture"),
            "node", Set.of("exec", "execSync", "spawn", "spawnSync", "execFile", "execFileSync", "execa",
                    "execaSync", "$"),
            "ruby", Set.of("system", "exec", "spawn", "popen", "popen2", "popen2e", "popen3", "capture2",
                    "capture2e", "capture3", "pipeline", "pipeline_r", "pipeline_w", "pipeline_rw", "open"),
            "php", Set.of("system", "exec", "shell_exec", "passthru", "popen", "proc_open", "pcntl_exec"),
            "ex", Set.of("system", "systemlist", "job_start", "term_start", "jobstart", "termopen"),
            "sqlite", Set.of(), "tcl", Set.of(), "capsh", Set.of(), "ed", Set.of());

    private InlineCode() {
    }

    /**
     * Reads the inline code among a command's words.
     *
     * @param language the schema's language (one of {@link #LANGUAGES})
     * @param args     the command's words, the name first
     * @return the reading: {@link ProgramText.Reading#NONE} when the words hold no inline code (a script file, an
     *         interactive session, standard input)
     */
    static ProgramText.Reading read(String language, List<Arg> args) {
        List<Arg> code = code(language, args);
        if (code.isEmpty()) return ProgramText.Reading.NONE;
        ProgramText.Found found = new ProgramText.Found();
        for (Arg c : code) {
            if (!c.known()) {
                found.hidden("code only known at run time");
                continue;
            }
            String text = c.prefix();
            switch (language) {
                case "ex" -> ex(text, found);
                case "sqlite" -> sqlite(text, found);
                case "tcl" -> tcl(text, found, 0);
                case "capsh" -> command("bash" + (text.isEmpty() ? "" : " " + text), found);
                default -> calls(language, text, found);
            }
        }
        List<ProgramTable.Operand> paths = new ArrayList<>();
        for (String r : found.reads) {
            paths.add(new ProgramTable.Operand(r == null ? Arg.unknown("(a file the " + language
                    + " code names at run time)") : Arg.literal(r), "read"));
        }
        for (String w : found.writes) {
            paths.add(new ProgramTable.Operand(w == null ? Arg.unknown("(a file the " + language
                    + " code names at run time)") : Arg.literal(w), "write"));
        }
        List<WrapperGrammar.Payload> payloads = new ArrayList<>();
        List<String> seen = new ArrayList<>();
        for (String c : found.commands) {
            if (c.isBlank() || seen.contains(c)) continue;
            seen.add(c);
            payloads.add(new WrapperGrammar.Payload(1, 2, true, WrapperGrammar.SCRIPT, List.of(c), List.of()));
        }
        // the rest of the code: not read, so unknown
        payloads.add(new WrapperGrammar.Payload(args.size(), args.size(), false));
        WrapperGrammar.Unwrapped u = new WrapperGrammar.Unwrapped(language + " inline code", List.copyOf(payloads),
                false, false, List.of(), List.of(), false, false, List.of(), false, null, false, true);
        return new ProgramText.Reading(List.of(), List.copyOf(paths), u);
    }

    /** The words holding inline code, as the program finds them; empty when there is none. */
    static List<Arg> code(String language, List<Arg> args) {
        List<Arg> out = words(language, args);
        if (!out.isEmpty() || !Set.of("python", "perl", "ruby", "node", "php", "ed").contains(language)) return out;
        // no inline code: a first operand "-", or none at all, is code read from standard input (python3 - <<< CODE,
        // ed f <<< '!cmd'), which the hook does not read
        if (language.equals("ed")) return List.of(Arg.unknown("(ed commands read from standard input)"));
        for (int i = 1; i < args.size(); i++) {
            Arg a = args.get(i);
            if (!a.known()) return out;
            String w = a.prefix();
            if (w.equals("-")) return List.of(Arg.unknown("(code read from standard input)"));
            if (w.equals("--")) {
                if (i + 1 < args.size()) return out;
                break;
            }
            if (!w.startsWith("-")) return out;
            if (language.equals("python") && w.equals("-m")) return out; // python3 -m MODULE: the module is the script
            // the closed world: the interpreter's options have no table here, and some load or run code of their
            // own (perl -M, node --require/--import, python -X, perl -i writes files): each one is unknown
            return List.of(Arg.unknown("(the " + language + " option " + w + ", which the hook does not model)"));
        }
        return List.of(Arg.unknown("(code read from standard input)"));
    }

    /** The words holding inline code given as arguments. */
    private static List<Arg> words(String language, List<Arg> args) {
        List<Arg> out = new ArrayList<>();
        int n = args.size();
        switch (language) {
            case "python" -> {
                // Modules/main.c, Python/getopt.c: "bBc:dEhiIm:OPqsSuvVW:xX:?"; -c and -m end the options
                for (int i = 1; i < n; i++) {
                    Arg a = args.get(i);
                    if (!a.known()) return out;
                    String w = a.prefix();
                    if (!w.startsWith("-") || w.equals("-") || w.equals("--")) return out;
                    if (w.startsWith("--")) {
                        if (w.equals("--check-hash-based-pycs")) i++;
                        continue;
                    }
                    for (int k = 1; k < w.length(); k++) {
                        char c = w.charAt(k);
                        if (c == 'c') {
                            String rest = w.substring(k + 1);
                            if (!rest.isEmpty()) out.add(Arg.literal(rest));
                            else if (i + 1 < n) out.add(args.get(i + 1));
                            return out;
                        }
                        if (c == 'm') return out;
                        if (c == 'W' || c == 'X') {
                            if (k + 1 == w.length()) i++;
                            break;
                        }
                    }
                }
            }
            case "perl", "ruby" -> {
                // perl.c S_parse_body / moreswitches; ruby.c proc_options: -e CODE (attached or next), repeated
                for (int i = 1; i < n; i++) {
                    Arg a = args.get(i);
                    if (!a.known()) return out;
                    String w = a.prefix();
                    if (!w.startsWith("-") || w.equals("-") || w.equals("--")) return out;
                    if (w.startsWith("--")) continue;
                    for (int k = 1; k < w.length(); k++) {
                        char c = w.charAt(k);
                        if (c == 'e' || c == 'E' && language.equals("perl")) {
                            String rest = w.substring(k + 1);
                            if (!rest.isEmpty()) out.add(Arg.literal(rest));
                            else if (i + 1 < n) out.add(args.get(++i));
                            break;
                        }
                        if (c == 'l' || c == '0') {
                            while (k + 1 < w.length() && Character.isLetterOrDigit(w.charAt(k + 1))
                                    && "0123456789abcdefABCDEFx".indexOf(w.charAt(k + 1)) >= 0) k++;
                            continue;
                        }
                        if ("iIMmFxdDCVrWTUT".indexOf(c) >= 0 && !(language.equals("perl") && "TU".indexOf(c) >= 0)) {
                            if (c == 'I' && k + 1 == w.length() && i + 1 < n) i++;
                            if (language.equals("ruby") && (c == 'r' || c == 'C' || c == 'I')
                                    && k + 1 == w.length() && i + 1 < n) i++;
                            break;
                        }
                    }
                }
            }
            case "node" -> {
                for (int i = 1; i < n; i++) {
                    Arg a = args.get(i);
                    if (!a.known()) continue;
                    String w = a.prefix();
                    if (w.equals("--")) break;
                    if (Set.of("-e", "--eval", "-p", "--print", "-pe", "-ep").contains(w) && i + 1 < n) {
                        out.add(args.get(++i));
                    } else if (w.startsWith("--eval=") || w.startsWith("--print=")) {
                        out.add(Arg.literal(w.substring(w.indexOf('=') + 1)));
                    }
                }
            }
            case "php" -> {
                for (int i = 1; i < n; i++) {
                    Arg a = args.get(i);
                    if (!a.known()) continue;
                    String w = a.prefix();
                    if (w.equals("--")) break;
                    if (Set.of("-r", "--run", "-B", "--process-begin", "-R", "--process-code", "-E",
                            "--process-end").contains(w) && i + 1 < n) {
                        out.add(args.get(++i));
                    } else if (w.startsWith("-r") && w.length() > 2) {
                        out.add(Arg.literal(w.substring(2)));
                    }
                }
            }
            case "ex" -> {
                // vim main.c: -c CMD, +CMD, --cmd CMD (at most 10 each); -S FILE sources a file
                for (int i = 1; i < n; i++) {
                    Arg a = args.get(i);
                    if (!a.known()) continue;
                    String w = a.prefix();
                    if (w.equals("--")) break;
                    if ((w.equals("-c") || w.equals("--cmd")) && i + 1 < n) out.add(args.get(++i));
                    else if (w.startsWith("+") && w.length() > 1 && !w.substring(1).chars().allMatch(Character::isDigit)) {
                        out.add(Arg.literal(w.substring(1)));
                    } else if (w.matches("-[a-zA-Z]*c") && w.length() > 2 && i + 1 < n) {
                        out.add(args.get(++i)); // ex -sc CMD
                    } else if (w.startsWith("-c") && w.length() > 2 && !w.startsWith("--")) {
                        out.add(Arg.literal(w.substring(2)));
                    }
                }
            }
            case "capsh" -> {
                // libcap progs/capsh.c main(): the arguments are read in order; "--" execs /bin/bash (or the
                // --shell= program) with the rest, "==" execs capsh again with the rest
                for (int i = 1; i < n; i++) {
                    Arg a = args.get(i);
                    if (!a.known()) {
                        out.add(Arg.unknown("(a capsh argument only known at run time)"));
                        return out;
                    }
                    String w = a.prefix();
                    if (w.startsWith("--shell=")) {
                        out.add(Arg.unknown("(capsh --shell: another shell)"));
                        return out;
                    }
                    // the closed world: capsh has no option table, and its options change the root, the user,
                    // the capabilities or the program run (--chroot, --user, --forkfor): each one is unknown
                    if (w.startsWith("-") && !w.equals("--") && !w.equals("==")) {
                        out.add(Arg.unknown("(capsh " + w + ": an option the hook does not follow)"));
                        return out;
                    }
                    if (w.equals("==")) {
                        List<Arg> again = new ArrayList<>(List.of(args.get(0)));
                        again.addAll(args.subList(i + 1, n));
                        out.addAll(code(language, again));
                        return out;
                    }
                    if (w.equals("--")) {
                        List<String> rest = new ArrayList<>();
                        for (Arg r : args.subList(i + 1, n)) {
                            if (!r.known()) {
                                out.add(Arg.unknown("(a shell argument only known at run time)"));
                                return out;
                            }
                            rest.add(r.prefix());
                        }
                        out.add(Arg.literal(join(rest)));
                        return out;
                    }
                }
            }
            case "tcl" -> {
                // expect exp_main_sub.c exp_parse_argv: getopt "+b:c:dD:f:inN-v": -c CMDS (repeatable) runs CMDS
                for (int i = 1; i < n; i++) {
                    Arg a = args.get(i);
                    if (!a.known()) return out;
                    String w = a.prefix();
                    if (!w.startsWith("-") || w.equals("-") || w.equals("--")) return out;
                    for (int k = 1; k < w.length(); k++) {
                        char c = w.charAt(k);
                        if ("bcDf".indexOf(c) >= 0) {
                            String rest = w.substring(k + 1);
                            Arg v = !rest.isEmpty() ? Arg.literal(rest) : i + 1 < n ? args.get(++i) : null;
                            if (c == 'c' && v != null) out.add(v);
                            if ((c == 'f' || c == 'b')) return out;
                            break;
                        }
                    }
                }
            }
            case "sqlite" -> {
                // shell.c main(): options anywhere (-x or --x); the first operand is the database, the rest are
                // SQL or dot-commands run in order; -cmd runs one before them
                Set<String> valued = Set.of("separator", "newline", "nullvalue", "cmd", "init", "vfs", "heap",
                        "pagecache", "lookaside", "threadsafe", "mmap", "maxsize", "sorterref", "escape",
                        "zip", "memtrace");
                boolean db = false;
                for (int i = 1; i < n; i++) {
                    Arg a = args.get(i);
                    String w = a.known() ? a.prefix() : "";
                    if (a.known() && w.startsWith("-") && w.length() > 1) {
                        String o = w.startsWith("--") ? w.substring(2) : w.substring(1);
                        if (valued.contains(o) && i + 1 < n) {
                            i++;
                            if (o.equals("cmd")) out.add(args.get(i));
                            if (o.equals("init")) out.add(Arg.unknown("(-init file)"));
                        }
                        continue;
                    }
                    if (!db) {
                        db = true;
                        continue;
                    }
                    out.add(a);
                }
            }
            default -> {
            }
        }
        return out;
    }

    /** A string literal's value: null when it interpolates (its value is only known at run time). */
    private record Lit(String value, int end) {
    }

    /**
     * Finds the command-running calls of {@code language} in {@code text} and their literal arguments; also the
     * languages' command literals (backticks in Perl, Ruby and PHP, {@code qx} and {@code %x}).
     */
    static void calls(String language, String text, ProgramText.Found found) {
        Set<String> calls = CALLS.get(language);
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == '#' && (language.equals("python") || language.equals("ruby"))) {
                while (i < n && text.charAt(i) != '\n') i++;
                continue;
            }
            if (c == '`' && !language.equals("python")) {
                Lit l = literal(language, text, i);
                if (language.equals("node")) {
                    i = l.end;
                    continue; // a template literal
                }
                command(l.value, found);
                i = l.end;
                continue;
            }
            if (c == '\'' || c == '"') {
                i = literal(language, text, i).end;
                continue;
            }
            if (Character.isLetter(c) || c == '_' || c == '$' || c == '%') {
                int s = i;
                if (c == '%' && language.equals("ruby") && i + 1 < n && text.charAt(i + 1) == 'x') {
                    Lit l = delimited(text, i + 2);
                    command(l.value, found);
                    i = l.end;
                    continue;
                }
                if (c == '%') {
                    i++;
                    continue;
                }
                i++;
                while (i < n && (Character.isLetterOrDigit(text.charAt(i)) || text.charAt(i) == '_')) i++;
                String word = text.substring(s, i);
                boolean method = s > 0 && (text.charAt(s - 1) == '.' || text.charAt(s - 1) == ':'
                        || text.charAt(s - 1) == '>');
                if (word.equals("qx") && language.equals("perl") && i < n && !Character.isWhitespace(text.charAt(i))
                        && "=,;".indexOf(text.charAt(i)) < 0) {
                    Lit l = delimited(text, i);
                    command(l.value, found);
                    i = l.end;
                    continue;
                }
                if (word.startsWith("$") && !language.equals("node")) continue;
                if (!calls.contains(word) || (!method && (word.equals("run") || word.equals("call"))
                        && language.equals("python"))) {
                    continue;
                }
                i = arguments(language, word, text, i, found);
                continue;
            }
            i++;
        }
    }

    /** Reads the arguments of a call at {@code i} (after its name); returns where reading goes on. */
    private static int arguments(String language, String word, String text, int i, ProgramText.Found found) {
        int n = text.length();
        int j = skipSpace(text, i);
        boolean paren = j < n && text.charAt(j) == '(';
        boolean bare = !paren && (language.equals("perl") || language.equals("ruby"));
        if (!paren && !bare && !(language.equals("node") && word.equals("$") && j < n && text.charAt(j) == '`')) {
            return i;
        }
        if (language.equals("node") && word.equals("$")) {
            if (j < n && text.charAt(j) == '`') {
                Lit l = literal("perl", text, j); // zx/execa: $`cmd` runs cmd
                command(l.value, found);
                return l.end;
            }
        }
        if (paren) j++;
        List<String> argv = new ArrayList<>();
        boolean dynamic = false;
        boolean any = false;
        while (true) {
            j = skipSpace(text, j);
            if (j >= n) break;
            char c = text.charAt(j);
            if (c == '\'' || c == '"' || (c == '`' && !language.equals("python") && !language.equals("node"))) {
                Lit l = literal(language, text, j);
                if (l.value == null) dynamic = true;
                else argv.add(l.value);
                j = l.end;
                any = true;
            } else if (c == '`' && language.equals("node")) {
                Lit l = literal("perl", text, j);
                if (l.value == null) dynamic = true;
                else argv.add(l.value);
                j = l.end;
                any = true;
            } else if (c == '[') {
                // a list literal of strings: the argv
                j++;
                while (j < n) {
                    j = skipSpace(text, j);
                    if (j >= n) break;
                    char d = text.charAt(j);
                    if (d == ']') {
                        j++;
                        break;
                    }
                    if (d == '\'' || d == '"') {
                        Lit l = literal(language, text, j);
                        if (l.value == null) dynamic = true;
                        else argv.add(l.value);
                        j = l.end;
                    } else if (d == ',') {
                        j++;
                    } else {
                        dynamic = true;
                        j = skipExpression(text, j, "],");
                    }
                }
                any = true;
            } else if (c == ')' || c == ';' || c == '\n') {
                break;
            } else {
                int e = skipExpression(text, j, paren ? ",)" : ",;\n");
                // keyword arguments (shell=True, cwd=...) and options objects: not a command word
                String expr = text.substring(j, e).trim();
                if (!expr.matches("[A-Za-z_]+\\s*=[^=].*") && !expr.startsWith("{")) dynamic = true;
                j = e;
                any = true;
            }
            j = skipSpace(text, j);
            if (j < n && text.charAt(j) == ',') {
                j++;
                continue;
            }
            if (!paren && j < n && (text.charAt(j) == '.' || text.charAt(j) == '=')) {
                dynamic = true;
            }
            break;
        }
        if (!any) return i;
        if (word.equals("open") || word.equals("popen") && language.equals("ruby")) {
            // perl open(F, "|cmd") / open(F, "cmd|") / open(F, "-|", "cmd", ...); ruby open("|cmd")
            List<String> cmd = new ArrayList<>();
            for (int k = 0; k < argv.size(); k++) {
                String a = argv.get(k).trim();
                if (a.equals("-|") || a.equals("|-")) {
                    cmd.addAll(argv.subList(k + 1, argv.size()));
                    break;
                }
                if (a.startsWith("|")) cmd.add(a.substring(1));
                else if (a.endsWith("|")) cmd.add(a.substring(0, a.length() - 1));
            }
            if (word.equals("popen")) cmd.addAll(argv);
            if (!cmd.isEmpty()) add(cmd, found);
            else if (dynamic) found.hidden(word + " with an argument only known at run time");
            return j;
        }
        if (dynamic) found.hidden(word + " with an argument only known at run time");
        if (!argv.isEmpty()) add(argv, found);
        return j;
    }

    /** One command from literal words: one word is shell text; several are an argv (and argv[0]-doubled forms). */
    private static void add(List<String> argv, ProgramText.Found found) {
        if (argv.size() == 1) {
            command(argv.get(0), found);
            return;
        }
        found.command(join(argv));
        // os.execlp('curl', 'curl', URL): the first is the file, the rest the argv
        found.command(join(argv.subList(1, argv.size())));
        for (String a : argv) {
            if (a.indexOf(' ') >= 0) command(a, found); // a shell string among them (spawn("sh", ["-c", S]))
        }
    }

    private static void command(String text, ProgramText.Found found) {
        if (text == null) found.hidden("a command only known at run time");
        else found.command(text);
    }

    private static String join(List<String> words) {
        StringBuilder b = new StringBuilder();
        for (String w : words) {
            if (b.length() > 0) b.append(' ');
            if (w.matches("[A-Za-z0-9_@%+=:,./-]+")) b.append(w);
            else b.append('\'').append(w.replace("'", "'\\''")).append('\'');
        }
        return b.toString();
    }

    private static int skipSpace(String t, int i) {
        while (i < t.length() && (t.charAt(i) == ' ' || t.charAt(i) == '\t')) i++;
        return i;
    }

    /** Skips an expression up to one of {@code stops} at depth 0, over brackets and string literals. */
    private static int skipExpression(String t, int i, String stops) {
        int depth = 0;
        while (i < t.length()) {
            char c = t.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                i = literal("python", t, i).end;
                continue;
            }
            if (depth == 0 && stops.indexOf(c) >= 0) return i;
            if ("([{".indexOf(c) >= 0) depth++;
            if (")]}".indexOf(c) >= 0) {
                if (depth == 0) return i;
                depth--;
            }
            i++;
        }
        return i;
    }

    /**
     * A string literal starting at {@code i} (its quote): its value, null when it interpolates ({@code $} in Perl,
     * Ruby, PHP double quotes and backticks, {@code ${}} in JS templates, {@code #{}} in Ruby, an f-string in Python:
     * a prefix letter before the quote).
     */
    private static Lit literal(String language, String t, int i) {
        char q = t.charAt(i);
        int n = t.length();
        boolean triple = language.equals("python") && t.startsWith(String.valueOf(q).repeat(3), i);
        boolean fString = language.equals("python") && i > 0 && "fF".indexOf(t.charAt(i - 1)) >= 0
                || language.equals("python") && i > 1 && "fF".indexOf(t.charAt(i - 2)) >= 0
                && "rRbB".indexOf(t.charAt(i - 1)) >= 0;
        boolean raw = language.equals("python") && i > 0 && "rR".indexOf(t.charAt(i - 1)) >= 0;
        boolean interpolates = q != '\'' && !language.equals("python") && !language.equals("node")
                || language.equals("node") && q == '`' || fString;
        int j = i + (triple ? 3 : 1);
        StringBuilder b = new StringBuilder();
        boolean dynamic = false;
        while (j < n) {
            char c = t.charAt(j);
            if (triple ? t.startsWith(String.valueOf(q).repeat(3), j) : c == q) {
                j += triple ? 3 : 1;
                return new Lit(dynamic ? null : b.toString(), j);
            }
            if (c == '\\' && j + 1 < n) {
                char d = t.charAt(j + 1);
                if (raw) {
                    b.append(c).append(d);
                } else if (q == '\'' && !language.equals("python") && !language.equals("node")) {
                    // single quotes in Perl, Ruby, PHP: only \\ and \' are escapes
                    b.append(d == '\\' || d == '\'' ? String.valueOf(d) : "\\" + d);
                } else {
                    switch (d) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case '\\', '\'', '"', '`', '$', '@', '#', '{' -> b.append(d);
                        default -> {
                            dynamic = true; // an escape this reader does not decode
                            b.append(d);
                        }
                    }
                }
                j += 2;
                continue;
            }
            if (interpolates && (c == '$' || c == '@' && language.equals("perl")
                    || c == '#' && language.equals("ruby") && j + 1 < n && t.charAt(j + 1) == '{'
                    || c == '{' && (fString || language.equals("php")))) {
                dynamic = true;
            }
            if (fString && c == '{') dynamic = true;
            b.append(c);
            j++;
        }
        return new Lit(null, n); // unterminated
    }

    /** Perl {@code qx} and Ruby {@code %x} text between delimiters at {@code i}; interpolation makes it dynamic. */
    private static Lit delimited(String t, int i) {
        int n = t.length();
        if (i >= n) return new Lit(null, n);
        char open = t.charAt(i);
        char close = switch (open) {
            case '(' -> ')';
            case '{' -> '}';
            case '[' -> ']';
            case '<' -> '>';
            default -> open;
        };
        int depth = 0;
        StringBuilder b = new StringBuilder();
        boolean dynamic = false;
        for (int j = i + 1; j < n; j++) {
            char c = t.charAt(j);
            if (c == '\\' && j + 1 < n) {
                b.append(t.charAt(++j));
                continue;
            }
            if (c == close && depth == 0) return new Lit(dynamic || open == '\'' && false ? null : b.toString(), j + 1);
            if (c == open && open != close) depth++;
            if (c == close) depth--;
            if ((c == '$' || c == '@' || c == '#') && open != '\'') dynamic = true;
            b.append(c);
        }
        return new Lit(null, n);
    }

    /**
     * ex commands (vi, vim, ex {@code -c}): {@code !cmd} (after a range: a filter), {@code r !cmd},
     * {@code w !cmd}, {@code read !}/{@code write !}, {@code terminal cmd}, {@code silent !cmd}, and the functions
     * that run commands ({@code system('...')}). {@code |} separates commands except after {@code !}.
     */
    static void ex(String text, ProgramText.Found found) {
        for (String line : text.split("\n")) {
            String s = line.strip();
            while (s.startsWith(":")) s = s.substring(1).strip();
            // modifiers
            for (String m : List.of("silent!", "silent", "sil!", "sil", "execute", "exe", "keepalt", "noautocmd",
                    "unsilent", "vertical", "botright", "topleft", "verbose")) {
                if (s.startsWith(m + " ")) s = s.substring(m.length()).strip();
            }
            // a range
            s = s.replaceFirst("^([%.$]|\\d+|'[a-z<>]|/[^/]*/|\\?[^?]*\\?)([,;]([.$]|\\d+|'[a-z<>]|/[^/]*/|[+-]\\d*))*",
                    "").strip();
            String cmdWord = s.replaceFirst("^([A-Za-z]*).*$", "$1");
            String rest = s.substring(cmdWord.length());
            if (s.startsWith("!")) {
                command(s.substring(1), found);
            } else if (Set.of("r", "re", "rea", "read", "w", "wr", "wri", "writ", "write").contains(cmdWord)
                    && rest.strip().startsWith("!") && (rest.startsWith(" ") || rest.startsWith("\t"))) {
                command(rest.strip().substring(1), found);
            } else if (Set.of("r", "read").contains(cmdWord) && rest.startsWith("!")) {
                command(rest.substring(1), found); // :r!cmd
            } else if (Set.of("ter", "term", "termi", "termin", "termina", "terminal").contains(cmdWord)) {
                String c = rest.strip().replaceAll("^(\\+\\+\\S+\\s*)+", "");
                if (!c.isEmpty()) command(c, found);
                else found.hidden("an interactive shell");
            } else if (Set.of("sh", "she", "shel", "shell").contains(cmdWord)) {
                found.hidden("an interactive shell");
            } else {
                calls("ex", s, found);
                // commands after | (not after !, where | is part of the shell command)
                int bar = s.indexOf('|');
                if (bar >= 0 && !s.substring(0, bar).contains("!")) ex(s.substring(bar + 1), found);
            }
        }
    }

    /**
     * One sqlite3 operand or {@code -cmd}: a dot-command ({@code .shell}/{@code .system} run their arguments as a
     * shell command; {@code .once}, {@code .output}, {@code .import}, {@code .read} with {@code '|cmd'} pipe through
     * one) or SQL ({@code readfile('F')} reads F, {@code writefile('F', ...)} writes it, {@code edit()} runs an
     * editor).
     */
    static void sqlite(String text, ProgramText.Found found) {
        String s = text.strip();
        if (s.startsWith(".")) {
            List<String> words = sqliteWords(s.substring(1));
            if (words.isEmpty()) return;
            String cmd = words.get(0);
            if (cmd.equals("shell") || cmd.equals("system")) {
                command(String.join(" ", words.subList(1, words.size())), found);
            } else if (Set.of("once", "output", "import", "read", "open").contains(cmd)) {
                for (String w : words.subList(1, words.size())) {
                    if (w.startsWith("|")) command(w.substring(1), found);
                    else if (w.equals("-e") || w.equals("-x")) found.hidden("." + cmd + " " + w + " opens a program");
                }
                if (cmd.equals("read") && words.size() > 1 && !words.get(1).startsWith("|")) {
                    found.read(words.get(1));
                }
            } else if (cmd.equals("excel") || cmd.equals("load") || cmd.equals("edit")) {
                found.hidden("." + cmd + " runs a program or loads code");
            }
            return;
        }
        // SQL: the file functions of the sqlite3 shell (fileio.c)
        java.util.regex.Matcher m = java.util.regex.Pattern
                .compile("(?i)\\b(readfile|writefile|lsdir|fsdir|edit|load_extension)\\s*\\(\\s*('([^']*)')?")
                .matcher(s);
        while (m.find()) {
            String f = m.group(1).toLowerCase();
            String file = m.group(3);
            switch (f) {
                case "readfile", "fsdir", "lsdir" -> found.read(file);
                case "writefile" -> found.write(file);
                default -> found.hidden(f + "() runs a program or loads code");
            }
        }
    }

    /** sqlite3 shell.c resolve_backslashes / the dot-command argument splitter: quotes group words. */
    private static List<String> sqliteWords(String s) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = s.length();
        while (i < n) {
            while (i < n && Character.isWhitespace(s.charAt(i))) i++;
            if (i >= n) break;
            char c = s.charAt(i);
            StringBuilder b = new StringBuilder();
            if (c == '\'' || c == '"') {
                i++;
                while (i < n && s.charAt(i) != c) b.append(s.charAt(i++));
                i++;
            } else {
                while (i < n && !Character.isWhitespace(s.charAt(i))) b.append(s.charAt(i++));
            }
            out.add(b.toString());
        }
        return out;
    }

    /**
     * Tcl (expect {@code -c}): the commands {@code spawn} (its options, then the program and its arguments),
     * {@code exec} (a program and its arguments; {@code |} pipelines and redirections read by the shell parser) and
     * {@code system} (its arguments joined with spaces: a shell command), in every command, also inside
     * {@code [...]} and braces; a word with {@code $} or {@code [} is only known at run time.
     */
    static void tcl(String text, ProgramText.Found found, int depth) {
        if (depth > 8) {
            found.hidden("Tcl nested too deep");
            return;
        }
        List<List<String>> commands = new ArrayList<>();
        List<String> words = new ArrayList<>();
        int n = text.length();
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (c == ';' || c == '\n') {
                if (!words.isEmpty()) commands.add(words);
                words = new ArrayList<>();
                i++;
                continue;
            }
            if (Character.isWhitespace(c)) {
                i++;
                continue;
            }
            if (c == '#' && words.isEmpty()) {
                while (i < n && text.charAt(i) != '\n') i++;
                continue;
            }
            StringBuilder b = new StringBuilder();
            boolean dynamic = false;
            if (c == '{') {
                int d = 0;
                int j = i;
                for (; j < n; j++) {
                    char e = text.charAt(j);
                    if (e == '\\') {
                        j++;
                        continue;
                    }
                    if (e == '{') d++;
                    if (e == '}' && --d == 0) break;
                }
                String body = text.substring(i + 1, Math.min(j, n));
                tcl(body, found, depth + 1); // a body may be code (if, proc, foreach, expect patterns)
                b.append(body);
                i = j + 1;
            } else {
                char q = c == '"' ? '"' : 0;
                if (q != 0) i++;
                while (i < n) {
                    char e = text.charAt(i);
                    if (q != 0 ? e == q : Character.isWhitespace(e) || e == ';') break;
                    if (e == '\\' && i + 1 < n) {
                        b.append(text.charAt(i + 1));
                        i += 2;
                        dynamic = true;
                        continue;
                    }
                    if (e == '$') dynamic = true;
                    if (e == '[') {
                        int d = 0;
                        int j = i;
                        for (; j < n; j++) {
                            if (text.charAt(j) == '[') d++;
                            if (text.charAt(j) == ']' && --d == 0) break;
                        }
                        tcl(text.substring(i + 1, Math.min(j, n)), found, depth + 1);
                        dynamic = true;
                        i = Math.min(j + 1, n);
                        continue;
                    }
                    b.append(e);
                    i++;
                }
                if (q != 0) i++;
            }
            words.add(dynamic ? null : b.toString());
        }
        if (!words.isEmpty()) commands.add(words);
        for (List<String> w : commands) {
            String name = w.get(0);
            if (name == null) {
                found.hidden("a Tcl command only known at run time");
                continue;
            }
            int k = 1;
            if (name.equals("spawn")) {
                while (k < w.size() && w.get(k) != null && w.get(k).startsWith("-")) {
                    if (w.get(k).equals("-ignore")) k++;
                    k++;
                }
            } else if (name.equals("exec")) {
                while (k < w.size() && w.get(k) != null && w.get(k).startsWith("-")) {
                    if (w.get(k++).equals("--")) break;
                }
            } else if (!name.equals("system")) {
                continue;
            }
            List<String> argv = w.subList(Math.min(k, w.size()), w.size());
            if (argv.isEmpty()) continue;
            if (argv.contains(null)) {
                found.hidden(name + " with a word only known at run time");
                List<String> known = new ArrayList<>();
                for (String a : argv) {
                    if (a == null) break;
                    known.add(a);
                }
                if (!known.isEmpty()) found.command(name.equals("system") ? String.join(" ", known) : join(known));
                continue;
            }
            found.command(name.equals("system") ? String.join(" ", argv) : join(argv));
        }
    }

}
