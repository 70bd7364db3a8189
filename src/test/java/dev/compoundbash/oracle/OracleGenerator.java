package dev.compoundbash.oracle;

import dev.compoundbash.settings.PermissionSettings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;

/**
 * Commands of the shapes agents write, and of every class of issue 14, built only from names the oracle shims or
 * runs for real, with random rule sets and permission modes over those names.
 *
 * <p>Each class is a production with its own weight ({@link #CLASSES}), so any budget covers all of them, and every
 * generated command names its class (the oracle counts outcomes per class). The productions follow bash's
 * semantics, not cases: each class combines its construct with every quoting form, context and decoy the construct
 * could hide a command behind. The decoys are set up by {@link ExecutionOracleTest}: programs of every shimmed name
 * in {@code ./0/}, {@code ./10/}, {@code ./11/}, {@code ./12/} (reached when PATH becomes {@code 0} or a file
 * descriptor number), {@code script.sh} and {@code rc.sh} holding a command, start-up files in the home directory
 * and as {@code /etc/profile} and {@code /etc/bash.bashrc}, file names and list lines holding {@code $(...)} and
 * {@code ;}, a {@code .git} and a {@code .claude} directory, a symbolic link {@code link-out} and a directory
 * {@code ../outside} beyond the working directory.
 *
 * <p>In the base class, control flow never skips a command ({@code false}, {@code ||} and functions are defined and
 * called in one group), so a denied command in the text is one bash reaches; the other classes may stop bash early
 * (an arithmetic syntax error, {@code ${x?}}), so only the base and constant classes are held to "a deny runs".
 */
final class OracleGenerator {
    static final String[] NAMES = ExecutionOracleTest.SHIMMED;
    static final boolean INLINE = !"false".equals(System.getProperty("oracle.inlineScripts"));
    static final String[] ARGS = {"status", "-la", "x", "'a b'", "\"q\"", "-rf", "foo.txt", "'*.txt'", "*.txt",
            "-n", "1", "--", "a\\ b", "$'\\x41'", "push", "build", "."};
    /** Arguments without quotes: safe inside any quoting context of the class productions. */
    static final String[] PLAIN_ARGS = {"status", "-la", "x", "-rf", "foo.txt", "-n", "1", "push", "build", ".", "a.txt"};

    /** A generated command: its class, its text, and whether a deny in it must be reached by bash. */
    record Generated(String cls, String command, boolean strictDeny) {
    }

    /** One class of issue 14 (or the base shapes): its weight among all productions. */
    record Production(String cls, int weight, boolean strictDeny, Function<Random, String> make) {
    }

    /** The directory beyond the working directory, as the commands name it (relative, or absolute). */
    private final String outside;
    private final String outsideAbsolute;
    final List<Production> classes = new ArrayList<>();
    private final int totalWeight;
    private final WrapperOptionOracleTest.SpellingGenerator spellings = new WrapperOptionOracleTest.SpellingGenerator();

    /** Class names, in the order of issue 14. */
    static final String BASE = "base", ARITHMETIC = "arithmetic-quoting", ANSI_C_WORD = "ansi-c-in-parameter-word",
            HEREDOC = "heredoc-delimiter", REPLACE = "replace-string-script", SAME_FD = "same-descriptor",
            BRACE = "brace-expansion", VARREDIR = "varredir-assignment", CHILD_VAR = "child-variable",
            STARTUP = "shell-startup", WRAPPER_OPTION = "wrapper-option", PROCESS_PATH = "process-path",
            PROTECTED_CWD = "protected-cwd", GLOBAL_OPTION = "global-option", CONSTANT = "constant",
            BOUNDARY = "boundary";

    /** A generator whose boundary decoys live in {@code ../outside} (also named by {@code outsideAbsolute}). */
    OracleGenerator(String outsideAbsolute) {
        this.outside = "../outside";
        this.outsideAbsolute = outsideAbsolute;
        String only = System.getProperty("oracle.classes", "");
        add(only, BASE, 25, true, r -> shape(r, 2));
        add(only, ARITHMETIC, 5, false, this::arithmetic);
        add(only, ANSI_C_WORD, 5, false, this::ansiCWord);
        add(only, HEREDOC, 5, false, this::heredoc);
        add(only, REPLACE, 5, false, this::replaceString);
        add(only, SAME_FD, 5, false, this::sameDescriptor);
        add(only, BRACE, 5, false, this::brace);
        add(only, VARREDIR, 5, false, this::varredir);
        add(only, CHILD_VAR, 5, false, this::childVariable);
        add(only, STARTUP, 5, false, this::startup);
        add(only, WRAPPER_OPTION, 5, false, this::wrapperOption);
        add(only, PROCESS_PATH, 5, false, this::processPath);
        add(only, PROTECTED_CWD, 5, false, this::protectedCwd);
        add(only, GLOBAL_OPTION, 5, false, this::globalOption);
        add(only, CONSTANT, 5, true, this::constant);
        add(only, BOUNDARY, 5, false, this::boundary);
        int w = 0;
        for (Production p : classes) w += p.weight();
        totalWeight = w;
        if (classes.isEmpty()) throw new IllegalArgumentException("no class named in -Doracle.classes=" + only);
    }

    private void add(String only, String cls, int weight, boolean strict, Function<Random, String> make) {
        if (!only.isEmpty() && !List.of(only.split(",")).contains(cls)) return;
        classes.add(new Production(cls, weight, strict, make));
    }

    /** The class names this generator produces, in order. */
    List<String> classNames() {
        return classes.stream().map(Production::cls).toList();
    }

    /** One command: a class drawn by weight, its production, and (for the classes) sometimes a base context. */
    Generated generate(Random r) {
        int k = r.nextInt(totalWeight);
        Production p = null;
        for (Production c : classes) {
            k -= c.weight();
            if (k < 0) {
                p = c;
                break;
            }
        }
        String core = p.make().apply(r);
        boolean strict = p.strictDeny();
        if (!p.cls().equals(BASE)) {
            // Mixed with the rest: beside a construct of another class (before or after it, so what one changes,
            // PATH through {PATH}>, a directory through cd, reaches the other), inside a base context, or both.
            if (r.nextInt(4) == 0) {
                Production q = classes.get(r.nextInt(classes.size()));
                String other = q.make().apply(r);
                core = r.nextBoolean() ? join(r, core, other) : join(r, other, core);
                strict &= q.strictDeny();
            }
            if (r.nextInt(3) == 0) core = context(r, core);
        }
        return new Generated(p.cls(), core, strict);
    }

    /**
     * Two commands as one list: after a left side holding a newline (a here-document's delimiter line must stay
     * alone on its line) only a newline; otherwise {@code ;}, {@code &&}, {@code |} or a newline.
     */
    private static String join(Random r, String left, String right) {
        if (left.contains("\n")) return left + "\n" + right;
        return left + pick(r, "; ", " && ", " | ", "\n", ";\n") + right;
    }

    /** The base shapes only (the generator of issue 8): kept for callers that want a command string. */
    String command(Random r) {
        int n = 1 + r.nextInt(3);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) b.append(new String[]{" && ", "; ", " | ", "\n", " |& "}[r.nextInt(5)]);
            b.append(shape(r, 2));
        }
        return b.toString();
    }

    /**
     * A class construct inside a base context: a subshell, group, substitution, loop, condition, or beside another
     * command. The closing token goes on its own line, so a here-document's delimiter line stays as written.
     */
    private String context(Random r, String core) {
        // An inline script: the class construct as the text of bash -c or sh -c (issue 6), where a single quote
        // of its own would end the quoting.
        if (INLINE && !core.contains("'") && r.nextInt(9) == 0) {
            return pick(r, "bash -c '", "sh -c '", "timeout 5 bash -c '", "env sh -c '") + core + "\n'";
        }
        return switch (r.nextInt(8)) {
            case 0 -> "( " + core + "\n)";
            case 1 -> "{ " + core + "\n}";
            case 2 -> "echo \"$( " + core + "\n)\"";
            case 3 -> "for i in 1; do " + core + "\ndone";
            case 4 -> "if :; then " + core + "\nfi";
            case 5 -> simple(r) + " && " + core;
            case 6 -> core + "\n" + simple(r);
            default -> simple(r) + " | " + core;
        };
    }

    // ---- the base shapes (issue 8) --------------------------------------------------------------------------------

    private String shape(Random r, int depth) {
        String s = simple(r);
        if (depth <= 0) return s;
        String inner = shape(r, depth - 1);
        return switch (r.nextInt(26)) {
            case 0 -> "echo \"$( " + inner + " )\"";
            case 1 -> name(r) + " \"$( " + inner + " )\"";
            case 2 -> "echo `" + simple(r) + "`";
            case 3 -> "for f in a b; do " + name(r) + " \"$f\"; done";
            case 4 -> "cat <<EOF\n$( " + inner + " )\nEOF";
            case 5 -> "cat <<'EOF'\n$( " + inner + " )\nEOF";
            case 6 -> "echo a b | xargs " + bare(r);
            case 7 -> "printf '%s\\n' a b | xargs -I{} " + name(r) + " {} x";
            case 8 -> "find . -name '*.txt' -exec " + name(r) + " {} \\;";
            case 9 -> "find . -exec " + name(r) + " -n {} +";
            case 10 -> "timeout 5 " + bare(r);
            case 11 -> "nice -n 1 " + bare(r);
            // Inline scripts, judged through their script (issue 6); -Doracle.inlineScripts=false turns them off.
            case 12 -> INLINE ? "sh -c '" + simple(r).replace("'", "") + "'" : "nice " + bare(r);
            case 13 -> simple(r) + " > out.txt";
            case 14 -> "( " + inner + " )";
            case 15 -> "{ " + inner + "; }";
            case 16 -> "{ f() { " + inner + "; }; f; }";
            case 17 -> "cat <(" + simple(r) + ") <(" + simple(r) + ")";
            case 18 -> "if " + simple(r) + "; then " + inner + "; fi";
            case 19 -> "x=$( " + simple(r) + " )";
            case 20 -> "nohup " + bare(r) + " >/dev/null";
            case 21, 22 -> resolution(r);
            // Line continuations in here-documents: the joined line tr\<newline>ue closes an unquoted body (then
            // `inner` runs, then the builtin `true`); in the delimiter word it is no quoting, so the body expands.
            case 23 -> "cat <<true\nbody\ntr\\\nue\n" + inner + "\ntrue";
            case 24 -> "cat <<tr\\\nue\n$( " + inner + " )\ntrue";
            default -> trick(r);
        };
    }

    /**
     * Commands that change what a later name runs, or make bash evaluate a value as code (the red-team classes of
     * issue 8): the hash table, PATH set through arithmetic, loops, unset, read, printf -v and name references (the
     * sandbox's work directory holds decoy programs in {@code ./} and {@code ./0/}), and values evaluated by
     * {@code ${x@P}}, by a builtin given a run-time name, or as arithmetic.
     */
    private String resolution(Random r) {
        String a = name(r), b = name(r), arg = arg(r);
        // In a group ending in ":", so a false status (test -v, read at EOF, ((0))) never skips what follows.
        return "{ " + switch (r.nextInt(14)) {
            case 0 -> "BASH_CMDS[" + a + "]=$(command -v " + b + "); " + a + " " + arg;
            case 1 -> "((PATH=0)); " + a + " " + arg;
            case 2 -> "for PATH in 0; do " + a + " " + arg + "; done";
            case 3 -> "unset PATH; " + a + " " + arg;
            case 4 -> "x='$(" + b + " " + arg.replace("'", "") + ")'; echo ${x@P}";
            case 5 -> "x='$(" + b + ")'; test -v \"a[$x]\"";
            case 6 -> "x='$(" + b + ")'; read \"a[$x]\" < /dev/null";
            case 7 -> "x='a[$(" + b + ")]'; echo $((x))";
            case 8 -> "x='a[$(" + b.charAt(0) + "'; y='" + b.substring(1) + ")]'; z=$x$y; echo $((z))";
            case 9 -> "x=PATH; read $x <<< 0; " + a + " " + arg;
            case 10 -> "declare -n ref=PATH; ref=0; " + a + " " + arg;
            case 11 -> "printf -v PATH[0] 0; " + a + " " + arg;
            case 12 -> "a[PATH=0]=1; " + a + " " + arg;
            default -> ": ${PATH:=0}; unset PATH; : ${PATH:=0}; " + a + " " + arg;
        } + "; :; }";
    }

    private String trick(Random r) {
        String n = name(r);
        String hidden = switch (r.nextInt(6)) {
            case 0 -> "'" + n + "'";
            case 1 -> n.charAt(0) + "\"\"" + n.substring(1);
            case 2 -> "\\" + n;
            case 3 -> "$'" + n + "'";
            case 4 -> n.charAt(0) + "\\\n" + n.substring(1);
            default -> "\"" + n + "\"";
        };
        return hidden + " " + arg(r);
    }

    private String simple(Random r) {
        StringBuilder b = new StringBuilder(r.nextInt(8) == 0 ? "FOO=1 " : "").append(name(r));
        int n = r.nextInt(3);
        for (int i = 0; i < n; i++) b.append(' ').append(arg(r));
        return b.toString();
    }

    /** A simple command without an assignment prefix: the payload of a wrapper, which would exec the prefix. */
    private String bare(Random r) {
        StringBuilder b = new StringBuilder(name(r));
        int n = r.nextInt(3);
        for (int i = 0; i < n; i++) b.append(' ').append(arg(r));
        return b.toString();
    }

    /** A simple command of a name and up to two unquoted arguments: fits inside any quotes. */
    private String plain(Random r) {
        StringBuilder b = new StringBuilder(name(r));
        int n = r.nextInt(3);
        for (int i = 0; i < n; i++) b.append(' ').append(PLAIN_ARGS[r.nextInt(PLAIN_ARGS.length)]);
        return b.toString();
    }

    private static String name(Random r) {
        return NAMES[r.nextInt(NAMES.length)];
    }

    private static String arg(Random r) {
        return ARGS[r.nextInt(ARGS.length)];
    }

    static String pick(Random r, String... xs) {
        return xs[r.nextInt(xs.length)];
    }

    // ---- class 1: quoting inside arithmetic and subscripts --------------------------------------------------------

    /**
     * An operand that holds a command in each quoting form: bash reads arithmetic and indexed subscripts like
     * double-quoted text, so {@code '$(c)'} runs c, {@code $'...'} is decoded and expanded again, and an escaped
     * {@code \$(c)} is text; an associative subscript is an ordinary word (its quotes quote).
     */
    private String arithmeticOperand(Random r) {
        String c = plain(r);
        String op = pick(r, "'$(" + c + ")'", "$'$(" + c + ")'", "$'\\x24(" + c + ")'", "$'\\044(" + c + ")'",
                "\"$(" + c + ")\"", "'`" + c + "`'", "$'`" + c + "`'", "$(" + c + ")", "\\$(" + c + ")",
                "'1'", "$'1'", "\"'$(" + c + ")'\"", "$\"$(" + c + ")\"", "'$('" + c + "')'");
        return switch (r.nextInt(6)) {
            case 0 -> "1+" + op;
            case 1 -> op + "+1";
            case 2 -> "b[" + op + "]";
            case 3 -> "0?1:" + op;
            default -> op;
        };
    }

    private String arithmetic(Random r) {
        String x = arithmeticOperand(r);
        String expansion = pick(r, "$(( " + x + " ))", "$[ " + x + " ]", "${s:" + x + "}", "${s:0:" + x + "}",
                "${a[" + x + "]}", "${#a[" + x + "]}", "${a[" + x + "]:-d}", "${h[" + x + "]}");
        String setup = pick(r, "", "s=abc; ", "a=(1 2); ", "declare -A h; ", "declare -a a; ");
        return setup + switch (r.nextInt(16)) {
            case 0, 1 -> "echo " + expansion;
            case 2 -> "echo \"" + expansion + "\"";
            case 3 -> "cat <<EOF\n" + expansion + "\nEOF";
            case 4 -> "cat <<'EOF'\n" + expansion + "\nEOF";
            case 5 -> "(( " + x + " ))";
            case 6 -> "for (( i=" + x + "; i<1; i++ )); do :; done";
            case 7 -> "a[" + x + "]=1";
            case 8 -> "a[" + x + "]+=1";
            case 9 -> "a=([" + x + "]=v)";
            case 10 -> "declare -a a=([" + x + "]=v)";
            case 11 -> "declare -A h; h[" + x + "]=1";
            case 12 -> "declare -A h=([" + x + "]=v)";
            case 13 -> "cat <<EOF\n$(( " + x + " )) ${a[" + x + "]}\nEOF";
            case 14 -> "x=" + expansion + "; " + plain(r);
            default -> "declare -i n; n=" + x;
        };
    }

    // ---- class 2: ANSI-C quoting inside a double-quoted parameter-expansion word ----------------------------------

    private String ansiCWord(Random r) {
        String c = plain(r);
        String op = pick(r, "-", "=", "+", "?");
        String colon = r.nextBoolean() ? ":" : "";
        String inner = pick(r, "$'$(" + c + ")'", "$'\\x24(" + c + ")'", "$'`" + c + "`'", "'$(" + c + ")'",
                "\\$(" + c + ")", "$\"$(" + c + ")\"", "$'\\$(" + c + ")'", "$'a'$(" + c + ")", "$'\\047'$(" + c + ")");
        String set = op.equals("+") ? pick(r, "x=1; ", "x=; ") : pick(r, "", "unset x; ", "x=; ", "x=1; ");
        String word = "${x" + colon + op + inner + "}";
        return set + switch (r.nextInt(7)) {
            case 0, 1 -> "echo \"" + word + "\"";
            case 2 -> "echo " + word;
            case 3 -> "y=\"" + word + "\"; " + plain(r);
            case 4 -> "cat <<EOF\n" + word + "\nEOF";
            case 5 -> "echo \"${y:-" + word + "}\"";
            default -> "echo \"a" + word + "b\" " + plain(r);
        };
    }

    // ---- class 3: here-document delimiters, here-documents in command substitutions -------------------------------

    static final String[] DELIMITERS = {"EOF", "'EOF'", "\"EOF\"", "\\EOF", "E'O'F", "E\"O\"F", "E\\OF", "$'EOF'",
            "$'E\\x4fF'", "$'E\\117F'", "$\"EOF\"", "'E'OF", "\"E\"'O'F", "EOF\\\n", "E$'O'F"};

    private String heredoc(Random r) {
        String delim = pick(r, DELIMITERS);
        String dash = r.nextInt(4) == 0 ? "-" : "";
        String indent = dash.isEmpty() ? "" : "\t";
        StringBuilder body = new StringBuilder();
        body.append(indent).append(pick(r, "$(" + plain(r) + ")", "`" + plain(r) + "`", "x $(" + plain(r) + ") y",
                "${x:-$(" + plain(r) + ")}")).append('\n');
        if (r.nextBoolean()) {
            // lines that look like the delimiter but are not (or are, for some quotings)
            body.append(pick(r, "EOF ", " EOF", "'EOF'", "\"EOF\"", "EOF\\", "E\\OF", "EOF;", "EOF)", "$'EOF'"))
                    .append('\n').append(indent).append("$(" + plain(r) + ")").append('\n');
        }
        String end = indent + "EOF";
        String after = plain(r);
        return switch (r.nextInt(9)) {
            case 0, 1, 2 -> "cat <<" + dash + delim + "\n" + body + end + "\n" + after;
            case 3 -> "echo \"$(cat <<" + dash + delim + "\n" + body + end + "\n)\"; " + after;
            case 4 -> "x=$(cat <<" + dash + delim + "\n" + body + end + "\n); " + after;
            case 5 -> "echo $(cat <<" + dash + delim + "\n" + body + end + ")\n" + after;
            case 6 -> "echo `cat <<" + dash + delim + "\n" + body + end + "\n`; " + after;
            case 7 -> "cat <<" + delim + " <<" + pick(r, DELIMITERS) + "\n" + body + "EOF\n" + body + "EOF\n" + after;
            default -> "x=$(cat <<'EOF'\n)\nEOF\n); " + after;
        };
    }

    // ---- class 4: replacement strings spliced into scripts --------------------------------------------------------

    private String replaceString(Random r) {
        String[][] forms = {{"-I{}", "{}"}, {"-I {}", "{}"}, {"-I %", "%"}, {"-i", "{}"}, {"--replace", "{}"},
                {"--replace=R", "R"}, {"-IR", "R"}, {"-i%", "%"}};
        String[] f = forms[r.nextInt(forms.length)];
        String rep = f[1];
        String n = name(r);
        String shell = pick(r, "sh", "bash");
        String script = switch (r.nextInt(6)) {
            case 0 -> shell + " -c '" + n + " " + rep + "'";
            case 1 -> shell + " -c 'echo " + rep + "; " + n + "'";
            case 2 -> shell + " -c \"" + n + " " + rep + "\"";
            case 3 -> shell + " -c '" + n + " \"$1\"' _ " + rep; // the safe form: the text is an argument
            case 4 -> shell + " -c '" + rep + "'";
            default -> shell + " -c 'x=" + rep + "; " + n + " \"$x\"'";
        };
        String n2 = name(r);
        String input = pick(r, "printf '%s\\n' a 'b;" + n2 + " z' | ", "printf '%s\\n' '$(" + n2 + " s)' | ",
                "echo a | ", "", "printf '%s\\n' '`" + n2 + "`' | ");
        return switch (r.nextInt(5)) {
            case 0, 1 -> input.isEmpty() ? "xargs " + f[0] + " " + script + " < list.txt"
                    : input + "xargs " + f[0] + " " + script;
            case 2 -> "find names -name '*.txt' -exec " + script.replace(rep, "{}") + " \\;";
            case 3 -> "find names -type f " + pick(r, "-exec", "-execdir") + " " + script.replace(rep, "{}") + " \\;";
            default -> "find names -name '*.txt' -exec " + script.replace(rep, "{}") + " +";
        };
    }

    // ---- class 5: several redirections of one descriptor ----------------------------------------------------------

    private String sameDescriptor(Random r) {
        String reader = pick(r, "bash", "sh", "bash -s", "sh -s x", "source /dev/stdin", ". /dev/stdin",
                "bash /dev/stdin", "bash -", "bash /proc/self/fd/0", "bash /dev/fd/0", "env bash", "timeout 5 sh",
                "cat", "nice bash");
        String p = plain(r);
        List<String> redirs = new ArrayList<>(List.of("<<< '" + p + "'", "< script.sh", "0< script.sh", "< a.txt",
                "0<<< '" + plain(r) + "'", "<&3 3< script.sh", "< /dev/null"));
        java.util.Collections.shuffle(redirs, r);
        int k = 2 + r.nextInt(2);
        List<String> chosen = new ArrayList<>(redirs.subList(0, k));
        boolean doc = r.nextInt(3) == 0;
        if (doc) chosen.add(r.nextInt(chosen.size() + 1), pick(r, "<<EOF", "<<'EOF'"));
        String line = reader + " " + String.join(" ", chosen);
        return doc ? line + "\n" + plain(r) + "\nEOF" : line;
    }

    // ---- class 6: brace expansion in names, wrapper payloads, find actions, git subcommands -----------------------

    private String brace(Random r) {
        String a = name(r), b = name(r), c = name(r);
        String args = r.nextBoolean() ? " " + PLAIN_ARGS[r.nextInt(PLAIN_ARGS.length)] : "";
        String pair = "{" + a + "," + b + "}";
        return switch (r.nextInt(16)) {
            case 0 -> pair + args;
            case 1 -> a.charAt(0) + "{" + a.substring(1) + ",x}" + args;
            case 2 -> "{" + a + ",}" + args;
            case 3 -> "{," + a + "}" + args;
            case 4 -> pick(r, "timeout 5 ", "nice ", "nohup ", "env ", "stdbuf -oL ", "echo a | xargs ", "command ",
                    "time ") + pair + args;
            case 5 -> "find . -maxdepth 0 -exec " + pair + " \\;";
            case 6 -> "find . -maxdepth 0 -exec" + pick(r, "{,dir}", "{dir,}") + " " + a + " {} \\;";
            case 7 -> "find . -maxdepth 0 -{" + pick(r, "exec,name", "name,exec", "print,exec") + "} " + a + " \\;";
            case 8 -> "git {" + pick(r, "push,status", "status,push", "push,", ",push") + "} origin";
            case 9 -> "git pu{sh,ll} origin";
            case 10 -> "g{it,} push" + args;
            case 11 -> "{" + a + ",{" + b + "," + c + "}}" + args;
            case 12 -> "{eval," + a + "}" + args;
            case 13 -> "{sh,-c,'" + plain(r) + "'}";
            case 14 -> "x={" + a + ",y}; $x" + args; // no brace expansion in an assignment
            default -> "echo {" + a + "," + b + "}; e{cho,val} " + a;
        };
    }

    // ---- class 7: redirections that assign variables --------------------------------------------------------------

    private String varredir(Random r) {
        String p = plain(r), q = plain(r);
        String var = r.nextInt(5) == 0 ? pick(r, "BASH_ENV", "IFS", "HOME", "fd") : "PATH";
        String redir = "{" + var + "}" + pick(r, ">/dev/null", ">>/dev/null", "<a.txt", "<>/dev/null", ">&2", "<&0");
        return switch (r.nextInt(12)) {
            case 0 -> ": " + redir + "; " + p;
            case 1 -> "exec " + redir + "; " + p;
            case 2 -> "exec {fd}>/dev/null " + redir + "; " + p;
            case 3 -> "{ " + p + "; } " + redir;
            case 4 -> "{ " + p + "; } " + redir + "; " + q;
            case 5 -> "true " + redir + "; " + p;
            case 6 -> p + " " + redir + "; " + q;
            case 7 -> "for i in 1; do " + p + "; done " + redir;
            case 8 -> "f() { " + p + "; }; f " + redir;
            case 9 -> "echo " + redir + "; " + p;
            case 10 -> "(: " + redir + "; " + p + ")";
            default -> "read x " + redir + " </dev/null; " + p;
        };
    }

    // ---- class 8: variables set in a child by a wrapper, and variables programs read to choose what they run ------

    private String childVariable(Random r) {
        String n = name(r), p = plain(r), b = bare(r);
        return switch (r.nextInt(14)) {
            case 0 -> "echo a | xargs --process-slot-var=PATH " + b;
            case 1 -> "echo a | xargs --process-slot-var PATH " + b;
            case 2 -> "echo a b | xargs -P2 -n1 --process-slot-var=PATH " + b;
            case 3 -> "echo a | xargs " + pick(r, "--process-slot=PATH", "--process-s PATH", "--proc=PATH") + " " + b;
            case 4 -> "echo a | xargs --process-slot-var=X " + b;
            case 5 -> "SHELL=./0/" + n + " script -qc '" + p + "' /dev/null";
            case 6 -> "SHELL=./0/" + n + " flock a.txt -c '" + p + "'";
            case 7 -> "env SHELL=./0/" + n + " script -qc '" + p + "' /dev/null";
            case 8 -> "export SHELL=./0/" + n + "; flock a.txt -c '" + p + "'";
            case 9 -> "script -qc '" + p + "' /dev/null";
            case 10 -> "flock a.txt -c '" + p + "'";
            case 11 -> "SHELL=./0/" + n + " flock a.txt " + b;
            case 12 -> "SHELL=./0/" + n + " " + pick(r, "timeout 5 ", "nice ", "env ") + "script -qec '" + p
                    + "' /dev/null";
            default -> "echo a | xargs -I{} --process-slot-var=PATH sh -c '" + p + "'";
        };
    }

    // ---- class 9: shell start-up options and variables ------------------------------------------------------------

    private String startup(Random r) {
        String p = plain(r);
        String s = "'" + p + "'";
        return switch (r.nextInt(20)) {
            case 0 -> "bash --rcfile rc.sh -i -c " + s;
            case 1 -> "bash --init-file rc.sh -i -c " + s;
            case 2 -> "bash --init-file rc.sh -ic " + s;
            case 3 -> "bash -i -c " + s;
            case 4 -> "bash -ic " + s;
            case 5 -> "bash --login -c " + s;
            case 6 -> "bash -l -c " + s;
            case 7 -> "bash -lc " + s;
            case 8 -> "BASH_ENV=rc.sh bash -c " + s;
            case 9 -> "env BASH_ENV=rc.sh bash -c " + s;
            case 10 -> "export BASH_ENV=rc.sh; bash -c " + s;
            case 11 -> "BASH_ENV=rc.sh sh -c " + s;
            case 12 -> "ENV=rc.sh sh -i -c " + s;
            case 13 -> "ENV=rc.sh bash --posix -i -c " + s;
            case 14 -> "bash --norc -i -c " + s;
            case 15 -> "bash --noprofile --norc -l -c " + s;
            case 16 -> "bash --rcfile rc.sh -c " + s;
            case 17 -> "sh -l -c " + s;
            case 18 -> "BASH_ENV=rc.sh " + pick(r, "timeout 5 ", "nice ", "xargs ", "nohup ") + "bash -c " + s;
            default -> "bash -o posix -i -c " + s;
        };
    }

    // ---- class 10: wrapper option spellings -----------------------------------------------------------------------

    private String wrapperOption(Random r) {
        String b = bare(r), p = plain(r);
        if (r.nextInt(3) == 0) {
            return pick(r, "env -S'" + p + "'", "env --split-string='" + p + "'", "env --spl='" + p + "'",
                    "env -iS'" + p + "'", "env -S '" + p + "'", "timeout --sig=KILL 5 " + b, "timeout --s KILL 5 " + b,
                    "timeout -sKILL 5 " + b, "timeout -k1 5 " + b, "nice --adj=1 " + b, "nice --adj 1 " + b,
                    "nice -n1 " + b, "nice -1 " + b, "nice --5 " + b, "stdbuf --out=L " + b, "stdbuf --o L " + b,
                    "stdbuf -oL -eL " + b, "echo a | xargs --no-run " + b, "echo a | xargs --eof " + b,
                    "echo a | xargs --eof=a " + b, "echo a | xargs -E a " + b, "echo a | xargs -e " + b,
                    "echo a | xargs --max-lines " + b, "echo a | xargs -l " + b, "echo a | xargs -L 1 " + b,
                    "echo a | xargs -- " + b, "timeout -- 5 " + b, "nice -- " + b, "env -- " + b,
                    "env -u X -C sub " + b, "env --chdir=sub " + b, "env -i PATH=0 " + b, "env PATH=0 " + b,
                    "nohup -- " + b, "echo a | xargs -d, " + b, "echo a | xargs -0 " + b);
        }
        String w = pick(r, "timeout", "nice", "stdbuf", "xargs", "env", "nohup");
        StringBuilder pre = new StringBuilder();
        String opts = spellings.options(w, r, pre);
        String body = switch (w) {
            case "timeout" -> "timeout " + opts + pick(r, "5", "1s") + " " + b;
            case "xargs" -> "echo a | xargs " + opts + b;
            default -> w + " " + opts + b;
        };
        return pre + body;
    }

    // ---- class 11: paths resolved by the process that opens them ------------------------------------------------

    private String processPath(Random r) {
        String secret = pick(r, outside + "/secret.txt", outsideAbsolute + "/secret.txt", "link-out");
        String reader = pick(r, "cat", "head -n1", "wc -l", "sort", "grep x", "sed -n 1p");
        String p = plain(r);
        return switch (r.nextInt(22)) {
            case 0 -> "echo x 1<" + secret + " >/dev/stdout";
            case 1 -> "echo x >/dev/stdout 1<" + secret;
            case 2 -> "echo x 2<" + secret + " >/dev/stderr";
            case 3 -> "echo x 2<" + secret + " 1>/dev/fd/2";
            case 4 -> "echo x 3<" + secret + " >/dev/fd/3";
            case 5 -> "echo x 3<a.txt >/dev/fd/3";
            case 6 -> reader + " /dev/fd/3 3<" + secret;
            case 7 -> reader + " /dev/stdin < " + secret;
            case 8 -> reader + " /proc/self/fd/3 3<" + secret;
            case 9 -> reader + " /proc/self/cwd/" + outside + "/secret.txt";
            case 10 -> reader + " /proc/self/root" + outsideAbsolute + "/secret.txt";
            case 11 -> reader + " /proc/$$/cwd/a.txt";
            case 12 -> reader + " /dev/fd/0 < a.txt";
            case 13 -> pick(r, "bash", "sh", "source", ".") + " /dev/fd/3 3<script.sh";
            case 14 -> pick(r, "bash", "source", ".") + " /proc/self/fd/0 < script.sh";
            case 15 -> pick(r, "bash", "sh", "source", ".") + " /dev/stdin <<< '" + p + "'";
            case 16 -> "exec 3<" + secret + "; " + reader + " /dev/fd/3";
            case 17 -> "cd sub && " + reader + " /proc/self/cwd/../a.txt";
            case 18 -> reader + " /dev/fd/4 4<" + pick(r, "link-out", "a.txt");
            case 19 -> "exec 1<>a.txt; echo x >/dev/stdout";
            case 20 -> "echo x 1<" + secret + " | " + reader + " /dev/stdin";
            default -> "echo x >/dev/stdout 2>/dev/stderr 1<>" + pick(r, "a.txt", secret);
        };
    }

    // ---- class 12: a working directory inside .git or .claude -----------------------------------------------------

    private String protectedCwd(Random r) {
        String dir = pick(r, ".git", ".git/hooks", ".claude", "./.git", "sub/../.git", ".git/", "-P .git", "-- .git",
                ".git/hooks/..", ".git/..", "sub", ".claude/");
        String write = pick(r, "echo x > hooks/pre-commit", "echo x > config", "echo x >> f", "touch hooks/post-checkout",
                "touch f", "printf x > settings.json", "cat a.txt > f", "echo x >| f", "echo x &> f", "echo x > ./f",
                "echo x > ../.git/f", "touch ../f");
        return switch (r.nextInt(8)) {
            case 0, 1 -> "cd " + dir + " && " + write;
            case 2 -> "cd " + dir + "; " + write;
            case 3 -> "(cd " + dir + " && " + write + ")";
            case 4 -> "pushd " + dir + " >/dev/null && " + write;
            case 5 -> "{ cd " + dir + "; " + write + "; }";
            case 6 -> "for d in " + dir.replace("-P ", "").replace("-- ", "") + "; do cd \"$d\" && " + write + "; done";
            default -> "cd " + dir + " && { " + write + "; }";
        };
    }

    // ---- class 13: global options of git, npm, make under deny rules ----------------------------------------------

    static final String[] GIT_GLOBALS = {"-C sub", "-C .", "-c k=v", "-c push.default=x", "--git-dir=.git",
            "--git-dir .git", "--work-tree=.", "--work-tree .", "--no-pager", "-p", "--paginate", "-P", "--bare",
            "--namespace=x", "--namespace x", "--no-optional-locks", "--literal-pathspecs", "--exec-path=.",
            "--config-env=k=V", "--no-replace-objects", "--icase-pathspecs"};

    private String globalOption(Random r) {
        StringBuilder g = new StringBuilder();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) g.append(pick(r, GIT_GLOBALS)).append(' ');
        String sub = r.nextInt(5) == 0 ? pick(r, "status", "log") : "push";
        String git = "git " + g + sub + pick(r, "", " origin", " -f origin main");
        return switch (r.nextInt(10)) {
            case 0 -> pick(r, "timeout 5 ", "env ", "nice ", "command ") + git;
            case 1 -> "echo x | xargs " + git;
            case 2 -> "echo \"$(" + git + ")\"";
            case 3 -> pick(r, "npm --prefix sub install", "npm -C sub install", "npm -g install", "npm --silent install",
                    "make -C sub install", "make --directory=sub install", "make -f x install", "make -s install");
            case 4 -> "git -c push=1 status";
            default -> git;
        };
    }

    // ---- class 14: constants propagated into deny matching --------------------------------------------------------

    private String constant(Random r) {
        boolean git = r.nextBoolean();
        String a = git ? "push" : name(r), b = git ? "status" : name(r);
        String run = git ? "git " : "";
        String tail = git ? pick(r, "", " origin") : " " + PLAIN_ARGS[r.nextInt(PLAIN_ARGS.length)];
        return switch (r.nextInt(20)) {
            case 0, 1 -> "x=" + a + "; " + run + "$x" + tail;
            case 2 -> "x=" + a + "; " + run + "\"$x\"" + tail;
            case 3 -> "x='" + run + a + "'; $x" + tail;
            case 4 -> "declare x=" + a + "; " + run + "$x" + tail;
            case 5 -> "readonly x=" + a + "; " + run + "$x" + tail;
            case 6 -> "export x=" + a + "; " + run + "$x" + tail;
            case 7 -> "f() { local x=" + a + "; " + run + "$x" + tail + "; }; f";
            case 8 -> "x=" + a.substring(0, 2) + "; " + run + "${x}" + a.substring(2) + tail;
            case 9 -> "x=" + a + "; y=$x; " + run + "$y" + tail;
            case 10 -> "x=" + a + "; x=" + b + "; " + run + "$x" + tail;
            case 11 -> "x=" + a + "; (x=" + b + "); " + run + "$x" + tail;
            case 12 -> "x=" + a + "; { x=" + b + "; }; " + run + "$x" + tail;
            case 13 -> "x=" + a + "; echo | x=" + b + "; " + run + "$x" + tail;
            case 14 -> "x=" + a + "; " + run + "${x:-" + b + "}" + tail;
            case 15 -> "x=; " + run + "${x:-" + a + "}" + tail;
            case 16 -> "x=" + a + "; unset x; " + run + "${x-" + b + "}" + tail;
            case 17 -> "set -- " + a + "; " + run + "$1" + tail;
            case 18 -> "x=(" + a + "); " + run + "${x[0]}" + tail;
            default -> "x=" + a + " y=" + b + "; " + run + "$x" + tail;
        };
    }

    // ---- the working-directory boundary: reads and writes outside it ----------------------------------------------

    private String boundary(Random r) {
        String in = pick(r, outside + "/secret.txt", outsideAbsolute + "/secret.txt", "sub/../" + outside
                + "/secret.txt", "link-out", "~/.bashrc", "$HOME/.profile", outside + "/*.txt", "/etc/hostname",
                "./" + outside + "/secret.txt", outside + "/shared/f.txt", "a.txt", "sub/b.txt");
        String out = pick(r, outside + "/o.txt", outsideAbsolute + "/o.txt", "link-out", "/tmp/o.txt", "o.txt",
                "sub/o.txt", outside + "/shared/o.txt", "~/o.txt");
        String reader = pick(r, "cat", "head -n1", "wc -l", "sort", "grep x", "sed -n 1p", "ls", "jq .");
        return switch (r.nextInt(16)) {
            case 0, 1 -> reader + " " + in;
            case 2 -> reader + " < " + in;
            case 3 -> "x=$(< " + in + ")";
            case 4 -> "read l < " + in;
            case 5 -> "while read l; do :; done < " + in;
            case 6 -> "echo x > " + out;
            case 7 -> "echo x >> " + out;
            case 8 -> "touch " + out;
            case 9 -> "cd " + outside + " && " + reader + " secret.txt";
            case 10 -> "(cd .. && " + reader + " outside/secret.txt)";
            case 11 -> "cd sub; " + reader + " ../a.txt";
            case 12 -> "find " + pick(r, outside, outsideAbsolute, ".", "sub") + " -name x";
            case 13 -> pick(r, "source ", ". ") + pick(r, outside + "/script.sh", "~/.bashrc", "script.sh");
            case 14 -> reader + " " + in + " > " + out;
            default -> "(cd sub && echo x > " + pick(r, "o.txt", "../o.txt", "../" + outside + "/o.txt") + ")";
        };
    }

    // ---- rules ----------------------------------------------------------------------------------------------------

    /** A random rule set: allow and deny rules over the names, exact or with {@code *}, and some wrappers. */
    PermissionSettings rules(Random r) {
        return rules(r, BASE, List.of());
    }

    /**
     * A random rule set for a command of the class: allow and deny rules over the names, exact or with {@code *},
     * wrappers, and for the git classes deny rules over git's subcommands; sometimes an additional directory.
     */
    PermissionSettings rules(Random r, String cls, List<String> additional) {
        List<String> allow = new ArrayList<>(), deny = new ArrayList<>();
        for (String n : NAMES) {
            int k = r.nextInt(10);
            if (k < 4) allow.add("Bash(" + n + " *)");
            else if (k == 4) allow.add("Bash(" + n + ")");
            else if (k == 5) allow.add("Bash(" + n + " " + ARGS[r.nextInt(ARGS.length)].replace("'", "") + ")");
            else if (k == 6) deny.add("Bash(" + n + " *)");
        }
        for (String w : new String[]{"xargs *", "find *", "timeout *", "nice *", "sh *", "nohup *", "diff *"}) {
            if (r.nextInt(3) > 0) allow.add("Bash(" + w + ")");
        }
        if (!cls.equals(BASE)) {
            for (String w : new String[]{"bash *", "env *", "stdbuf *", "script *", "flock *", "source *", ". *",
                    "cd *", "pushd *", "echo *", "printf *"}) {
                if (r.nextInt(2) > 0) allow.add("Bash(" + w + ")");
            }
        }
        if (cls.equals(GLOBAL_OPTION) || cls.equals(CONSTANT) || cls.equals(BRACE) || r.nextInt(10) == 0) {
            deny.removeIf(d -> d.startsWith("Bash(git "));
            if (r.nextInt(5) > 0) deny.add(pick(r, "Bash(git push *)", "Bash(git push)", "Bash(git push:*)"));
            if (r.nextBoolean()) {
                allow.removeIf(a -> a.startsWith("Bash(git "));
                allow.add("Bash(git *)");
            }
            if (r.nextBoolean()) deny.add(pick(r, "Bash(npm install *)", "Bash(make install)", "Bash(make install *)"));
            if (r.nextBoolean()) allow.add(pick(r, "Bash(npm *)", "Bash(make *)"));
        }
        return new PermissionSettings(allow, List.of(), deny, additional, List.of(), List.of());
    }

    /** Counts of each class in a list of generated commands, in class order. */
    Map<String, Integer> census(List<Generated> gs) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (String c : classNames()) out.put(c, 0);
        for (Generated g : gs) out.merge(g.cls(), 1, Integer::sum);
        return out;
    }
}
