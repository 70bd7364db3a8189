package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Scans an awk program (POSIX awk, "Lexical Conventions" and "Output Statements"/"Input"; the gawk 5 manual, "I/O
 * redirection", "Built-in functions", "Indirect function calls", "@include/@load") into tokens and finds what it does
 * beyond reading its input and printing to standard output:
 * <ul>
 *   <li>commands it runs: {@code system("CMD")}, {@code print ... | "CMD"}, {@code "CMD" | getline}, gawk's
 *       {@code |&} coprocesses: a single string literal is static text, anything else is only known at run
 *       time;</li>
 *   <li>files it writes ({@code print > "F"}, {@code print >> "F"}, {@code printf ... > "F"}) and reads
 *       ({@code getline < "F"}): a string literal is a file name, an expression an unknown path; gawk's special
 *       files {@code /dev/stdout}, {@code /dev/stderr}, {@code /dev/stdin}, {@code /dev/fd/N} and {@code -} are no
 *       file;</li>
 *   <li>anything outside the known world: a function that is neither built in (the harmless list) nor defined in
 *       the program, {@code @include}, {@code @load}, an indirect call {@code @f()}, {@code extension()}, a
 *       {@code /inet/} socket, an assignment to {@code ARGV} or {@code ARGC} (it changes which files are read),
 *       an unterminated string or regular expression.</li>
 * </ul>
 */
final class AwkProgram {
    /** Built-in functions that only compute, or close and flush streams (POSIX awk and gawk 5). */
    private static final Set<String> BUILTINS = Set.of("length", "substr", "index", "split", "sub", "gsub", "gensub",
            "match", "sprintf", "sin", "cos", "atan2", "exp", "log", "sqrt", "int", "rand", "srand", "tolower",
            "toupper", "strftime", "systime", "mktime", "asort", "asorti", "patsplit", "isarray", "typeof", "and",
            "or", "xor", "lshift", "rshift", "compl", "strtonum", "close", "fflush", "mkbool", "bindtextdomain",
            "dcgettext", "dcngettext");
    /** Keywords; a regular expression may follow those that are not {@code getline}. */
    private static final Set<String> KEYWORDS = Set.of("BEGIN", "END", "BEGINFILE", "ENDFILE", "function", "func",
            "if", "else", "while", "for", "do", "break", "continue", "next", "nextfile", "exit", "return", "delete",
            "in", "getline", "print", "printf", "switch", "case", "default");
    /** Output that is no file: gawk's and mawk's special file names. */
    private static final Set<String> STREAMS = Set.of("/dev/stdout", "/dev/stderr", "/dev/stdin", "-", "/dev/fd/0",
            "/dev/fd/1", "/dev/fd/2");
    private static final Set<String> ASSIGNMENTS = Set.of("=", "+=", "-=", "*=", "/=", "%=", "^=", "**=", "++", "--");

    private enum Kind { NAME, NUMBER, STRING, REGEX, OP, NEWLINE, DIRECTIVE }

    private record Token(Kind kind, String text, boolean spaceBefore) {
        boolean is(String t) {
            return (kind == Kind.OP || kind == Kind.NAME) && text.equals(t);
        }

        /** True when an expression may end with this token (a following {@code /} divides). */
        boolean endsOperand() {
            return switch (kind) {
                case NUMBER, STRING, REGEX -> true;
                case NAME -> !KEYWORDS.contains(text) || text.equals("getline");
                case OP -> text.equals(")") || text.equals("]") || text.equals("$") || text.equals("++")
                        || text.equals("--");
                default -> false;
            };
        }

        /** True when an expression cannot continue across this token to its left. */
        boolean boundary() {
            return kind == Kind.NEWLINE || kind == Kind.OP && Set.of("{", "}", ";", "(", ",", "&&", "||", "!", "?",
                    ":", "=", "+=", "-=", "*=", "/=", "%=", "^=").contains(text)
                    || kind == Kind.NAME && KEYWORDS.contains(text) && !text.equals("getline");
        }
    }

    private final ProgramText.Found found = new ProgramText.Found();

    private AwkProgram() {
    }

    /**
     * Scans one program (the {@code -e} pieces joined by newlines).
     *
     * @param program the program text
     * @return what it reads, writes, runs, and what is not understood
     */
    static ProgramText.Found read(String program) {
        AwkProgram a = new AwkProgram();
        List<Token> tokens = a.tokens(program);
        if (tokens != null) a.analyse(tokens);
        return a.found;
    }

    // ---- tokens -------------------------------------------------------------------------------------------------

    private List<Token> tokens(String s) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        boolean space = false;
        while (i < s.length()) {
            char c = s.charAt(i);
            if (c == ' ' || c == '\t' || c == '\r') {
                i++;
                space = true;
                continue;
            }
            if (c == '\\' && i + 1 < s.length() && (s.charAt(i + 1) == '\n'
                    || s.charAt(i + 1) == '\r' && i + 2 < s.length() && s.charAt(i + 2) == '\n')) {
                i += s.charAt(i + 1) == '\n' ? 2 : 3;
                space = true;
                continue;
            }
            if (c == '#') {
                while (i < s.length() && s.charAt(i) != '\n') i++;
                continue;
            }
            if (c == '\n') {
                out.add(new Token(Kind.NEWLINE, "\n", space));
                i++;
                space = false;
                continue;
            }
            Token prev = out.isEmpty() ? null : out.get(out.size() - 1);
            if (c == '"') {
                StringBuilder v = new StringBuilder();
                int k = i + 1;
                boolean closed = false;
                while (k < s.length()) {
                    char d = s.charAt(k++);
                    if (d == '\\' && k < s.length()) {
                        char e = s.charAt(k++);
                        switch (e) {
                            case 'n' -> v.append('\n');
                            case 't' -> v.append('\t');
                            case '\n' -> { }
                            case '"', '\\', '/' -> v.append(e);
                            default -> {
                                // an escape whose value the scanner does not compute: the text is not known
                                v.append('\\').append(e);
                                if ("abfrv0123456789x".indexOf(e) >= 0) v.append('\u0000');
                            }
                        }
                    } else if (d == '"') {
                        closed = true;
                        break;
                    } else if (d == '\n') {
                        break;
                    } else {
                        v.append(d);
                    }
                }
                if (!closed) {
                    found.unknown("an unterminated string");
                    return null;
                }
                out.add(new Token(Kind.STRING, v.toString(), space));
                i = k;
            } else if (c == '/' && (prev == null || !prev.endsOperand())) {
                int k = i + 1;
                boolean bracket = false;
                boolean closed = false;
                while (k < s.length()) {
                    char d = s.charAt(k++);
                    if (d == '\\' && k < s.length()) {
                        k++;
                    } else if (d == '\n') {
                        break;
                    } else if (bracket) {
                        if (d == ']') bracket = false;
                    } else if (d == '[') {
                        bracket = true;
                        if (k < s.length() && s.charAt(k) == '^') k++;
                        if (k < s.length() && s.charAt(k) == ']') k++;
                    } else if (d == '/') {
                        closed = true;
                        break;
                    }
                }
                if (!closed) {
                    found.unknown("an unterminated regular expression");
                    return null;
                }
                out.add(new Token(Kind.REGEX, s.substring(i, k), space));
                i = k;
            } else if (Character.isLetter(c) || c == '_') {
                int k = i;
                while (k < s.length() && (Character.isLetterOrDigit(s.charAt(k)) || s.charAt(k) == '_'
                        || s.charAt(k) == ':' && k + 1 < s.length() && s.charAt(k + 1) == ':'
                        && k + 2 < s.length() && (Character.isLetter(s.charAt(k + 2)) || s.charAt(k + 2) == '_'))) {
                    k += s.charAt(k) == ':' ? 2 : 1;
                }
                out.add(new Token(Kind.NAME, s.substring(i, k), space));
                i = k;
            } else if (Character.isDigit(c) || c == '.' && i + 1 < s.length() && Character.isDigit(s.charAt(i + 1))) {
                int k = i;
                while (k < s.length() && (Character.isLetterOrDigit(s.charAt(k)) || s.charAt(k) == '.')) k++;
                out.add(new Token(Kind.NUMBER, s.substring(i, k), space));
                i = k;
            } else if (c == '@') {
                int k = i + 1;
                while (k < s.length() && (Character.isLetterOrDigit(s.charAt(k)) || s.charAt(k) == '_'
                        || s.charAt(k) == ':')) k++;
                out.add(new Token(Kind.DIRECTIVE, s.substring(i + 1, k), space));
                i = k;
            } else {
                String op = null;
                for (String o : List.of("**=", "|&", "||", "&&", ">>", ">=", "<=", "==", "!=", "!~", "++", "--",
                        "+=", "-=", "*=", "/=", "%=", "^=", "**")) {
                    if (s.startsWith(o, i)) {
                        op = o;
                        break;
                    }
                }
                if (op == null) op = String.valueOf(c);
                out.add(new Token(Kind.OP, op, space));
                i += op.length();
            }
            space = false;
        }
        return out;
    }

    // ---- analysis -----------------------------------------------------------------------------------------------

    private void analyse(List<Token> t) {
        Set<String> defined = new HashSet<>();
        for (int i = 0; i + 1 < t.size(); i++) {
            if ((t.get(i).is("function") || t.get(i).is("func")) && t.get(i + 1).kind == Kind.NAME) {
                defined.add(t.get(i + 1).text);
            }
        }
        // the paren depth at which the current print statement started, or -1 outside one
        int printDepth = -1;
        int depth = 0;
        for (int i = 0; i < t.size(); i++) {
            Token k = t.get(i);
            Token next = i + 1 < t.size() ? t.get(i + 1) : null;
            if (k.kind == Kind.NEWLINE || k.is(";") || k.is("}") || k.is("{")) {
                if (k.kind != Kind.NEWLINE || printDepth < 0 || depth <= printDepth) printDepth = -1;
            }
            if (k.is("(") || k.is("[")) depth++;
            if (k.is(")") || k.is("]")) depth = Math.max(0, depth - 1);
            switch (k.kind) {
                case DIRECTIVE -> {
                    if (k.text.equals("namespace")) break;
                    if (k.text.isEmpty() || k.text.equals("include") || k.text.equals("load")
                            || k.text.equals("nsinclude")) {
                        found.unknown("@" + k.text + (next != null && next.kind == Kind.STRING
                                ? " \"" + next.text + "\"" : "") + ", which loads code from another file");
                    } else {
                        found.unknown("an indirect call @" + k.text + "(), whose function is only known at run"
                                + " time");
                    }
                }
                case STRING -> {
                    if (k.text.startsWith("/inet")) found.unknown("the network socket \"" + k.text + "\"");
                }
                case NAME -> {
                    String n = k.text;
                    boolean call = next != null && next.is("(");
                    if (n.equals("print") || n.equals("printf")) {
                        printDepth = depth;
                    } else if (n.equals("system")) {
                        String cmd = literalArgument(t, i + 1);
                        // system("") only flushes output (gawk manual, "Input/Output Functions"); an empty
                        // command does nothing where a shell is started (mawk)
                        if (cmd != null && !cmd.isBlank()) found.command(cmd);
                        else if (cmd == null) found.hidden("system() runs a command only known at run time");
                    } else if (n.equals("getline")) {
                        getline(t, i);
                    } else if (n.equals("ARGV") || n.equals("ARGC")) {
                        int j = i + 1;
                        if (j < t.size() && t.get(j).is("[")) j = closing(t, j, "[", "]") + 1;
                        boolean assigned = j < t.size() && t.get(j).kind == Kind.OP && ASSIGNMENTS.contains(t.get(j).text)
                                || i > 0 && (t.get(i - 1).is("++") || t.get(i - 1).is("--"));
                        if (assigned) {
                            // the files it then reads are only known at run time
                            found.read(null);
                            found.unknown("an assignment to " + n + ", which changes the files read");
                        }
                    } else if (n.equals("extension")) {
                        found.unknown("extension(), which loads code");
                    } else if (call && !next.spaceBefore && !KEYWORDS.contains(n) && !BUILTINS.contains(n)
                            && !defined.contains(n) && (i == 0 || !t.get(i - 1).is("function")
                            && !t.get(i - 1).is("func"))) {
                        found.unknown("the function " + n + "(), neither built in nor defined in the program");
                    }
                }
                case OP -> {
                    if ((k.is(">") || k.is(">>")) && printDepth >= 0 && depth == printDepth) {
                        String file = literalTarget(t, i + 1);
                        if (file == null) found.write(null);
                        else if (!STREAMS.contains(file) && !file.startsWith("/inet")) found.write(file);
                    } else if (k.is("|") || k.is("|&")) {
                        if (next != null && next.is("getline")) {
                            Token prev = i > 0 ? t.get(i - 1) : null;
                            Token before = i > 1 ? t.get(i - 2) : null;
                            if (prev != null && prev.kind == Kind.STRING && (before == null || before.boundary())
                                    && prev.text.indexOf('\u0000') < 0) {
                                found.command(prev.text);
                            } else {
                                found.hidden("a command piped into getline, only known at run time");
                            }
                        } else {
                            String cmd = literalTarget(t, i + 1);
                            if (cmd != null) found.command(cmd);
                            else found.hidden("output piped into a command only known at run time");
                        }
                    }
                }
                default -> {
                }
            }
        }
    }

    /** {@code getline [var] < FILE}: the file read. */
    private void getline(List<Token> t, int i) {
        int j = i + 1;
        if (j < t.size() && t.get(j).kind == Kind.NAME && !KEYWORDS.contains(t.get(j).text)) {
            j++;
            if (j < t.size() && t.get(j).is("[")) j = closing(t, j, "[", "]") + 1;
        } else if (j < t.size() && t.get(j).is("$")) {
            j++;
            if (j < t.size()) j++;
        }
        if (j < t.size() && t.get(j).is("<")) {
            Token f = j + 1 < t.size() ? t.get(j + 1) : null;
            Token after = j + 2 < t.size() ? t.get(j + 2) : null;
            boolean literal = f != null && f.kind == Kind.STRING && f.text.indexOf('\u0000') < 0
                    && (after == null || after.kind == Kind.NEWLINE || after.kind == Kind.OP
                    && Set.of(";", "}", ")", ",", ">", "<", ">=", "<=", "==", "!=", "&&", "||").contains(after.text));
            if (!literal) found.read(null);
            else if (f.text.startsWith("/inet")) found.unknown("the network socket \"" + f.text + "\"");
            else if (!STREAMS.contains(f.text)) found.read(f.text);
        }
    }

    /** {@code ( "TEXT" )} from {@code at}: the text, or null when the argument is anything else. */
    private static String literalArgument(List<Token> t, int at) {
        if (at + 2 < t.size() && t.get(at).is("(") && t.get(at + 1).kind == Kind.STRING && t.get(at + 2).is(")")
                && t.get(at + 1).text.indexOf('\u0000') < 0) {
            return t.get(at + 1).text;
        }
        return null;
    }

    /** A string literal alone up to the end of the statement, or null. */
    private static String literalTarget(List<Token> t, int at) {
        if (at >= t.size() || t.get(at).kind != Kind.STRING || t.get(at).text.indexOf('\u0000') >= 0) return null;
        Token after = at + 1 < t.size() ? t.get(at + 1) : null;
        if (after == null || after.kind == Kind.NEWLINE || after.is(";") || after.is("}")) return t.get(at).text;
        return null;
    }

    private static int closing(List<Token> t, int open, String o, String c) {
        int d = 0;
        for (int j = open; j < t.size(); j++) {
            if (t.get(j).is(o)) d++;
            else if (t.get(j).is(c) && --d == 0) return j;
        }
        return t.size() - 1;
    }
}
