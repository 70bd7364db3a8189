package dev.compoundbash.fuzz;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Fuzz inputs for the parser and the whole evaluation: scripts generated from a bash grammar (lists, pipelines,
 * compound commands, functions, coproc, here-documents, redirections, every quoting form and expansion of the Bash
 * Reference Manual §3.1.2 and §3.5), and mutations of real commands (the parser's differential corpus and the
 * adversarial corpus): deleted, inserted, duplicated and truncated text, unbalanced quotes and brackets, NUL and
 * non-ASCII characters, deep nesting and inputs of 100 KB.
 */
public final class ScriptGenerator {
    static final String[] NAMES = {"ls", "rm", "curl", "git", "echo", "cat", "xargs", "find", "timeout", "nice",
            "nohup", "stdbuf", "env", "sudo", "bash", "sh", "eval", "exec", "cd", "printf", "read", "hash", "trap",
            "command", "builtin", "source", ".", "true", ":", "[", "test", "wc", "grep", "sed", "npm", "/bin/rm",
            "./x.sh", "$CMD", "${C:-rm}", "\"$x\"", "{rm,-rf}", "r\"\"m", "$'\\x72m'", "\\rm", "*"};
    static final String[] ARGS = {"-rf", "x", "-la", ".", "{}", "\\;", "+", "-exec", "-delete", "-name", "'*.o'",
            "-c", "-n", "5", "-I{}", "--", "-0", "status", "push", "--force", "a b", "é", "日本", "~", "~/x",
            "$HOME", "*.txt", "[ab]", "?", "@(a|b)", "a=b", "-p", "PATH"};
    static final String[] SEP = {" && ", " || ", "; ", " | ", " |& ", " & ", "\n", ";\n", " &&\n"};
    static final String[] REDIR = {" > out.txt", " >> /etc/x", " 2>&1", " < in", " &> /dev/null", " >| f",
            " <> f", " >&2", " 3>&-", " > $F", " > ~/f", " > .git/x", " <<< \"$(%s)\"", " {fd}> o", " > >(%s)",
            " < <(%s)"};

    private final List<String> seeds;

    /** A generator whose mutations start from {@code seeds}. */
    public ScriptGenerator(List<String> seeds) {
        this.seeds = List.copyOf(seeds);
    }

    /**
     * The generator seeded from the repository's corpora: {@code src/test/resources/shell/corpus.txt} and every
     * {@code src/test/resources/adversarial/*.jsonl} command.
     *
     * @throws UncheckedIOException when a corpus cannot be read
     */
    public static ScriptGenerator fromRepository() {
        List<String> seeds = new ArrayList<>();
        try {
            for (String line : Files.readAllLines(Path.of("src/test/resources/shell/corpus.txt"))) {
                if (line.isBlank() || line.startsWith(";;;") || line.startsWith("==>") || line.startsWith("@@@")) {
                    continue;
                }
                seeds.add(line);
            }
            try (var s = Files.list(Path.of("src/test/resources/adversarial"))) {
                for (Path p : s.filter(f -> f.toString().endsWith(".jsonl")).sorted().toList()) {
                    for (var c : dev.compoundbash.audit.DecisionCases.read(p)) seeds.add(c.command());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new ScriptGenerator(seeds);
    }

    /** One input: about half grammar-generated, half mutated seeds, with rare huge or deeply nested ones. */
    public String next(Random r) {
        int k = r.nextInt(100);
        if (k < 45) return script(r, 3);
        if (k < 90) return mutate(r, seeds.get(r.nextInt(seeds.size())));
        if (k < 94) return deep(r);
        if (k < 97) return huge(r, 1_000 + r.nextInt(9_000));
        if (k < 98) return huge(r, 100_000);
        return randomBytes(r);
    }

    /** A script from the grammar, nested up to {@code depth}. */
    public String script(Random r, int depth) {
        int n = 1 + r.nextInt(3);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            if (i > 0) b.append(pick(r, SEP));
            b.append(command(r, depth));
        }
        return b.toString();
    }

    private String command(Random r, int depth) {
        if (depth <= 0) return simple(r, 0);
        String inner = script(r, depth - 1);
        return switch (r.nextInt(16)) {
            case 0 -> "( " + inner + " )";
            case 1 -> "{ " + inner + "; }";
            case 2 -> "if " + simple(r, depth - 1) + "; then " + inner + "; fi";
            case 3 -> "while " + simple(r, depth - 1) + "; do " + inner + "; done";
            case 4 -> "for f in " + word(r, depth - 1) + "; do " + inner + "; done";
            case 5 -> "case " + word(r, depth - 1) + " in a|b) " + inner + " ;; *) ;; esac";
            case 6 -> pick(r, NAMES).replaceAll("[^a-z]", "") + "f() { " + inner + "; }";
            case 7 -> "coproc " + (r.nextBoolean() ? "N { " + inner + "; }" : simple(r, depth - 1));
            case 8 -> "cat <<" + (r.nextBoolean() ? "EOF" : "'EOF'") + "\n" + word(r, depth - 1) + "\nEOF\n"
                    + simple(r, 0);
            case 9 -> "(( " + word(r, depth - 1) + " ))";
            case 10 -> "[[ -n " + word(r, depth - 1) + " ]]";
            case 11 -> "! " + simple(r, depth - 1);
            default -> simple(r, depth - 1);
        };
    }

    private String simple(Random r, int depth) {
        StringBuilder b = new StringBuilder();
        if (r.nextInt(5) == 0) b.append(pick(r, new String[]{"PATH=/tmp ", "FOO=", "a[$(ls)]=1 ", "x=(1 2) ",
                "BASH_ENV=x ", "IFS=, "})).append(r.nextBoolean() ? word(r, depth) + " " : "");
        b.append(pick(r, NAMES));
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) b.append(' ').append(r.nextBoolean() ? pick(r, ARGS) : word(r, depth));
        if (r.nextInt(4) == 0) {
            String redir = pick(r, REDIR);
            b.append(redir.contains("%s") ? String.format(redir, simple(r, Math.max(0, depth - 1))) : redir);
        }
        return b.toString();
    }

    private String word(Random r, int depth) {
        String a = pick(r, ARGS);
        int k = r.nextInt(depth > 0 ? 18 : 11);
        return switch (k) {
            case 0 -> "'" + a + "'";
            case 1 -> "\"" + a + " $x\"";
            case 2 -> "$'\\x" + Integer.toHexString(0x61 + r.nextInt(26)) + "\\n\\t\\u00e9'";
            case 3 -> "$\"" + a + "\"";
            case 4 -> "\\" + a;
            case 5 -> "${" + "x" + pick(r, new String[]{":-", "#", "%%", "/", ":1:", "@Q", "^^"}) + a + "}";
            case 6 -> "{" + a + "," + pick(r, ARGS) + "}";
            case 7 -> a + "\\\n" + a;
            case 8 -> "$((" + r.nextInt(9) + "+x[1]))";
            case 9 -> a + "#" + a;
            case 10 -> "~" + a;
            case 11 -> "$(" + script(r, depth - 1) + ")";
            case 12 -> "`" + simple(r, depth - 1).replace("`", "") + "`";
            case 13 -> "\"$(" + script(r, depth - 1) + ")\"";
            case 14 -> "<(" + script(r, depth - 1) + ")";
            case 15 -> ">(" + simple(r, depth - 1) + ")";
            case 16 -> "${x:-$(" + simple(r, depth - 1) + ")}";
            default -> "$((" + "$(" + simple(r, depth - 1) + ")))";
        };
    }

    /** {@code s} after one to four random edits. */
    public String mutate(Random r, String s) {
        StringBuilder b = new StringBuilder(s);
        int edits = 1 + r.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = b.length() == 0 ? 0 : r.nextInt(b.length() + 1);
            switch (r.nextInt(9)) {
                case 0 -> { if (b.length() > 0 && at < b.length()) b.deleteCharAt(at); }
                case 1 -> b.insert(at, pick(r, new String[]{"'", "\"", "`", "$(", ")", "(", "{", "}", "[[", "]]",
                        "$'", "\\", "<<", "<<EOF\n", "\nEOF\n", "#", "&&", "|", ";", ";;", "\n", "\u0000", "é",
                        "\uFFFD", "\uD83D\uDE00", "\u00a0", "\r", "\t", "$((", "))", "${", "<(", ">("}));
                case 2 -> {
                    int to = Math.min(b.length(), at + r.nextInt(20));
                    if (at < to) b.insert(at, b.substring(at, to));
                }
                case 3 -> b.setLength(Math.min(b.length(), at));
                case 4 -> b.insert(at, script(r, 2));
                case 5 -> b.insert(0, "$(").append(')');
                case 6 -> b.insert(at, (char) r.nextInt(0x80));
                case 7 -> b.insert(at, (char) (0x80 + r.nextInt(0x3000)));
                default -> {
                    if (b.length() > 0) {
                        int i = r.nextInt(b.length()), j = r.nextInt(b.length());
                        char c = b.charAt(i);
                        b.setCharAt(i, b.charAt(j));
                        b.setCharAt(j, c);
                    }
                }
            }
        }
        return b.toString();
    }

    /** Deeply nested input of one construct, balanced or not. */
    public String deep(Random r) {
        String[][] forms = {{"$(", ")"}, {"( ", " )"}, {"{ ", "; }"}, {"\"$(", ")\""}, {"`", "`"}, {"<(", ")"},
                {"${x:-", "}"}, {"$((", "))"}, {"if true; then ", "; fi"}, {"[[ ", " ]]"}, {"((", "))"}};
        String[] f = forms[r.nextInt(forms.length)];
        int n = 10 + r.nextInt(r.nextBoolean() ? 100 : 2_000);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) b.append(f[0]);
        b.append(r.nextBoolean() ? "ls" : "curl x");
        int close = r.nextInt(4) == 0 ? r.nextInt(n + 1) : n;
        for (int i = 0; i < close; i++) b.append(f[1]);
        return b.toString();
    }

    /** A long input of roughly {@code size} characters made of generated scripts and seeds. */
    public String huge(Random r, int size) {
        StringBuilder b = new StringBuilder(size + 100);
        while (b.length() < size) {
            b.append(r.nextBoolean() ? script(r, 2) : seeds.get(r.nextInt(seeds.size())));
            b.append(pick(r, SEP));
        }
        return b.toString();
    }

    /** Random bytes decoded as UTF-8 (malformed sequences become U+FFFD) or ISO-8859-1. */
    public String randomBytes(Random r) {
        byte[] bytes = new byte[r.nextInt(200)];
        r.nextBytes(bytes);
        return new String(bytes, r.nextBoolean() ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1);
    }

    private static String pick(Random r, String[] a) {
        return a[r.nextInt(a.length)];
    }
}
