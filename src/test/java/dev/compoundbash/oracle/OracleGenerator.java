package dev.compoundbash.oracle;

import dev.compoundbash.settings.PermissionSettings;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Commands of the shapes agents write (pipelines, {@code &&} chains, substitutions, loops, here-documents, wrappers,
 * inline {@code sh -c} scripts, redirections, quoting tricks), built only from names the oracle shims or runs for
 * real, and random rule sets over those names. Control flow never skips a command ({@code false}, {@code ||} and
 * functions are defined and called in one group), so a denied command in the text is one bash reaches.
 */
final class OracleGenerator {
    static final String[] NAMES = ExecutionOracleTest.SHIMMED;
    static final boolean INLINE = !"false".equals(System.getProperty("oracle.inlineScripts"));
    static final String[] ARGS = {"status", "-la", "x", "'a b'", "\"q\"", "-rf", "foo.txt", "'*.txt'", "*.txt",
            "-n", "1", "--", "a\\ b", "$'\\x41'", "push", "build", "."};

    String command(Random r) {
        int n = 1 + r.nextInt(3);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) b.append(new String[]{" && ", "; ", " | ", "\n", " |& "}[r.nextInt(5)]);
            b.append(shape(r, 2));
        }
        return b.toString();
    }

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

    private static String name(Random r) {
        return NAMES[r.nextInt(NAMES.length)];
    }

    private static String arg(Random r) {
        return ARGS[r.nextInt(ARGS.length)];
    }

    /** A random rule set: allow and deny rules over the names, exact or with {@code *}, and some wrappers. */
    PermissionSettings rules(Random r) {
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
        return new PermissionSettings(allow, List.of(), deny, List.of(), List.of(), List.of());
    }
}
