package dev.compoundbash.oracle;

import java.util.EnumMap;
import java.util.Map;
import java.util.Random;

/**
 * Words for the word-expansion oracle ({@link WordOracleTest}), from a grammar of bash's quoting forms and
 * expansions (Bash Reference Manual §3.1.2 "Quoting", §3.5 "Shell Expansions"), to be placed in every context bash
 * expands words in ({@link Context}).
 *
 * <p>A word is a sequence of atoms; each atom is one {@link Form}: literal text, a backslash escape, {@code '...'},
 * {@code "..."} (with {@code \$ \` \" \\ \newline} inside), {@code $'...'} (every escape, including ones that
 * decode to {@code $(}, quotes and braces), {@code $"..."}, a tilde prefix, parameter expansions with every operator,
 * {@code $(( ))}, {@code $[ ]}, substrings, subscripts, command and process substitutions, brace expansions (static
 * and not), globs and extended globs. Quoted text is itself made of atoms of the forms allowed where it stands, so
 * every form appears inside every other one that can hold it. Embedded commands are {@code c0}..{@code c9}, which the
 * sandbox shims; a command bash runs while expanding a word is therefore always recorded.
 */
final class WordGenerator {

    /** The contexts a word is expanded in; each has its own template in {@link WordOracleTest}. */
    enum Context {
        /** an argument of a simple command: brace expansion, tilde, parameter, command, arithmetic, globs */
        ARGUMENT,
        /** the command name position (what runs is the first word after brace expansion) */
        COMMAND_NAME,
        /** the value of an assignment statement: no brace expansion, tilde after = and : */
        ASSIGNMENT,
        /** an argument of a declaration builtin ({@code declare v=WORD}) */
        DECLARATION,
        /** an element of a compound array assignment */
        ARRAY_ELEMENT,
        /**
         * a subscripted element {@code [SUB]=WORD} of a compound assignment to an indexed or associative array (by
         * an assignment statement, {@code +=}, {@code declare -a/-A}, {@code local}), a key-value list
         * ({@code declare -A b=(k v)}), and an associative array's subscript in an assignment and an expansion:
         * bash expands an indexed array's subscript twice, an associative array's key once
         */
        KEYED_ELEMENT,
        /** inside double quotes */
        DOUBLE_QUOTED,
        /** a here-string ({@code <<< WORD}) */
        HERE_STRING,
        /** the body of an unquoted here-document */
        HEREDOC_BODY,
        /** the body of an unquoted {@code <<-} here-document (leading tabs stripped) */
        HEREDOC_BODY_TABS,
        /** the delimiter word of a here-document and the line that ends it */
        HEREDOC_DELIMITER,
        /** a here-document inside a command substitution, closed by a line holding the delimiter and ')' */
        HEREDOC_IN_SUBSTITUTION,
        /** arithmetic text: $(( )), (( )), for (( )), $[ ], subscripts, offsets, unquoted and double-quoted */
        ARITHMETIC,
        /** an operand of ${x OP word}, with every operator, unquoted and double-quoted, x set, empty or unset */
        PARAMETER_OPERAND
    }

    /** The quoting and expansion forms of the grammar. */
    enum Form {
        LITERAL, ESCAPE, SINGLE_QUOTED, DOUBLE_QUOTED, ANSI_C, LOCALE, TILDE, PARAMETER, PARAMETER_OPERATOR,
        SUBSTRING, SUBSCRIPT, ARITHMETIC, BRACKET_ARITHMETIC, COMMAND_SUBSTITUTION, BACKQUOTE, PROCESS_SUBSTITUTION,
        BRACE_LIST, BRACE_SEQUENCE, BRACE_LITERAL, GLOB, EXTGLOB, LINE_CONTINUATION
    }

    /** How often each form was produced, for the coverage report. */
    final Map<Form, Integer> formCounts = new EnumMap<>(Form.class);
    /** The forms the case being generated holds (cleared by the caller before each case). */
    final java.util.Set<Form> current = java.util.EnumSet.noneOf(Form.class);

    private static final String LIT = "abcxyz019._-/=:@%+,^#";
    private static final String[] ANSI_ESCAPES = {"\\n", "\\t", "\\x41", "\\x24", "\\x28", "\\x29", "\\x7b",
            "\\x7d", "\\x2c", "\\x27", "\\x22", "\\x5c", "\\x60", "\\u00e9", "\\U0001F600", "\\101", "\\044", "\\c?",
            "\\cA", "\\'", "\\\\", "\\\"", "\\e", "\\a", "\\q", "\\x", "\\0", "\\x24(c3 d)", "\\x24{x}", "\\x7e",
            // bytes: parts of one UTF-8 character, bytes that are none, \x{...}, octal
            "\\xc3\\xa9", "\\xc3", "\\xa9", "\\xbb", "\\xff", "\\303\\251", "\\351", "\\x{41}", "\\x{24}(c2)",
            "\\x{}", "\\xe2\\x82", "\\xac", "\\u20ac", "\\U0010FFFF", "\\uD800", "\\c\\\\"};
    private static final String[] PARAM_OPS = {":-", "-", ":=", "=", ":+", "+", ":?", "?", "#", "##", "%", "%%",
            "/", "//", "/#", "/%", "^", "^^", ",", ",,"};

    private void count(Form f) {
        formCounts.merge(f, 1, Integer::sum);
        current.add(f);
    }

    private String counted(Form f, String text) {
        count(f);
        return text;
    }

    /** An embedded command: a shim name and maybe an argument. */
    String command(Random r) {
        String name = "c" + r.nextInt(10);
        return switch (r.nextInt(4)) {
            case 0 -> name;
            case 1 -> name + " a";
            case 2 -> name + " 'q r'";
            default -> name + " -x";
        };
    }

    /** An embedded command without quote characters (for inside {@code '...'}). */
    String plainCommand(Random r) {
        return "c" + r.nextInt(10) + (r.nextBoolean() ? " a" : "");
    }

    private String literal(Random r) {
        count(Form.LITERAL);
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) b.append(LIT.charAt(r.nextInt(LIT.length())));
        return b.toString();
    }

    /** An unquoted word: 1..4 atoms. {@code depth} bounds nesting. */
    String word(Random r, int depth) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) b.append(atom(r, depth, i == 0));
        return b.toString();
    }

    /** A word that holds no expansion, so the hook must know its value exactly. */
    String staticWord(Random r, int depth) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(4);
        for (int i = 0; i < n; i++) b.append(staticAtom(r, depth));
        return b.toString();
    }

    private String staticAtom(Random r, int depth) {
        return switch (r.nextInt(depth > 0 ? 12 : 8)) {
            case 0, 1 -> literal(r);
            case 2 -> escape(r);
            case 3 -> singleQuoted(r, depth);
            case 4 -> "\"" + staticDqContent(r) + "\"";
            case 5 -> ansiC(r);
            case 6 -> {
                count(Form.LINE_CONTINUATION);
                yield "\\\n";
            }
            case 7 -> glob(r);
            case 8, 9 -> braceList(r, depth - 1, true);
            case 10 -> braceSequence(r);
            default -> braceLiteral(r, depth - 1);
        };
    }

    private String atom(Random r, int depth, boolean first) {
        if (depth <= 0) return staticAtom(r, 0);
        return switch (r.nextInt(24)) {
            case 0, 1, 2 -> literal(r);
            case 3 -> escape(r);
            case 4, 5 -> singleQuoted(r, depth);
            case 6, 7 -> doubleQuoted(r, depth - 1);
            case 8, 9 -> ansiC(r);
            case 10 -> {
                count(Form.LOCALE);
                yield "$\"" + dqContent(r, depth - 1) + "\"";
            }
            case 11 -> tilde(r, first);
            case 12 -> parameter(r, depth - 1, false);
            case 13 -> arithmeticExpansion(r, depth - 1);
            case 14 -> commandSubstitution(r, depth - 1);
            case 15 -> {
                count(Form.PROCESS_SUBSTITUTION);
                yield "<(" + command(r) + ")";
            }
            case 16, 17 -> braceList(r, depth - 1, false);
            case 18 -> braceSequence(r);
            case 19 -> braceLiteral(r, depth - 1);
            case 20 -> glob(r);
            case 21 -> {
                count(Form.EXTGLOB);
                yield "@(" + literal(r) + "|" + literal(r) + ")";
            }
            case 22 -> {
                count(Form.LINE_CONTINUATION);
                yield "\\\n";
            }
            default -> "=" + tilde(r, false);
        };
    }

    private String escape(Random r) {
        count(Form.ESCAPE);
        String chars = "a$`\"'\\{},*? ~#=:[]&;|<>()!x\t";
        return "\\" + chars.charAt(r.nextInt(chars.length()));
    }

    private String singleQuoted(Random r, int depth) {
        count(Form.SINGLE_QUOTED);
        StringBuilder b = new StringBuilder("'");
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            b.append(switch (r.nextInt(8)) {
                case 0 -> literal(r);
                case 1 -> "$(" + plainCommand(r) + ")";
                case 2 -> "\\";
                case 3 -> "\"";
                case 4 -> "{a,b}";
                case 5 -> "\n";
                case 6 -> "${x}";
                default -> " ";
            });
        }
        return b.append("'").toString();
    }

    private String ansiC(Random r) {
        count(Form.ANSI_C);
        StringBuilder b = new StringBuilder("$'");
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            b.append(r.nextBoolean() ? ANSI_ESCAPES[r.nextInt(ANSI_ESCAPES.length)] : literal(r));
        }
        return b.append("'").toString();
    }

    private String tilde(Random r, boolean first) {
        count(Form.TILDE);
        return switch (r.nextInt(8)) {
            case 0 -> "~";
            case 1 -> "~/";
            case 2 -> "~root";
            case 3 -> "~nosuchuser/x";
            case 4 -> "~-";
            case 5 -> "~+/x";
            case 6 -> "~0";
            default -> "~+";
        };
    }

    private String glob(Random r) {
        count(Form.GLOB);
        return switch (r.nextInt(5)) {
            case 0 -> "*";
            case 1 -> "?";
            case 2 -> "[ab]";
            case 3 -> "[!x]";
            default -> "*.q";
        };
    }

    private String braceList(Random r, int depth, boolean staticOnly) {
        count(Form.BRACE_LIST);
        StringBuilder b = new StringBuilder("{");
        int n = 2 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            if (i > 0) b.append(',');
            if (r.nextInt(5) > 0) {
                b.append(depth > 0 ? (staticOnly ? staticAtom(r, depth) : atom(r, depth, false)) : literal(r));
            }
        }
        return b.append("}").toString();
    }

    private String braceSequence(Random r) {
        count(Form.BRACE_SEQUENCE);
        return switch (r.nextInt(9)) {
            case 0 -> "{a..e}";
            case 1 -> "{1..4}";
            case 2 -> "{01..10..3}";
            case 3 -> "{5..1}";
            case 4 -> "{-2..2}";
            case 5 -> "{z..u..2}";
            case 6 -> "{1..3..0}";
            case 7 -> "{x..3}";
            default -> "{1..2..}";
        };
    }

    private String braceLiteral(Random r, int depth) {
        count(Form.BRACE_LITERAL);
        return switch (r.nextInt(8)) {
            case 0 -> "{a}";
            case 1 -> "{}";
            case 2 -> "'{'a,b}";
            case 3 -> "{a\\,b}";
            case 4 -> "\"{a,b}\"";
            case 5 -> "{$,}";
            case 6 -> "}";
            default -> "{";
        };
    }

    /** Content for inside {@code "..."}: literal text, DQ escapes, expansions. */
    String dqContent(Random r, int depth) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            if (depth <= 0) {
                b.append(staticDqAtom(r));
                continue;
            }
            b.append(switch (r.nextInt(12)) {
                case 0, 1, 2 -> staticDqAtom(r);
                case 3 -> parameter(r, depth - 1, true);
                case 4 -> commandSubstitution(r, depth - 1);
                case 5 -> arithmeticExpansion(r, depth - 1);
                case 6 -> counted(Form.ANSI_C, "$'" + literal(r) + "'");
                case 7 -> counted(Form.SINGLE_QUOTED, "'" + literal(r) + "'");
                case 8 -> counted(Form.BRACE_LIST, "{a,b}");
                case 9 -> counted(Form.TILDE, "~");
                case 10 -> switch (r.nextInt(6)) {
                    case 0 -> counted(Form.GLOB, "*");
                    case 1 -> counted(Form.BRACE_SEQUENCE, "{a..c}");
                    case 2 -> counted(Form.BRACE_LITERAL, "{a}");
                    case 3 -> counted(Form.EXTGLOB, "@(a|b)");
                    case 4 -> counted(Form.PROCESS_SUBSTITUTION, "<(" + command(r) + ")");
                    default -> counted(Form.LOCALE, "$\"");
                };
                default -> counted(Form.PARAMETER, "$" + (r.nextBoolean() ? "x" : "y"));
            });
        }
        return b.toString();
    }

    private String staticDqContent(Random r) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) b.append(staticDqAtom(r));
        return b.toString();
    }

    private String staticDqAtom(Random r) {
        return switch (r.nextInt(10)) {
            case 0 -> counted(Form.ESCAPE, "\\$");
            case 1 -> counted(Form.ESCAPE, "\\`");
            case 2 -> counted(Form.ESCAPE, "\\\"");
            case 3 -> counted(Form.ESCAPE, "\\\\");
            case 4 -> counted(Form.LINE_CONTINUATION, "\\\n");
            case 5 -> counted(Form.ESCAPE, "\\x");
            case 6 -> counted(Form.LITERAL, "'");
            case 7 -> counted(Form.LITERAL, "$");
            case 8 -> counted(Form.LITERAL, " \n");
            default -> literal(r);
        };
    }

    /** {@code "..."}: counted as the double-quoted form. */
    String doubleQuoted(Random r, int depth) {
        count(Form.DOUBLE_QUOTED);
        return "\"" + dqContent(r, depth) + "\"";
    }

    private String commandSubstitution(Random r, int depth) {
        if (r.nextBoolean()) {
            count(Form.BACKQUOTE);
            return "`" + command(r) + "`";
        }
        count(Form.COMMAND_SUBSTITUTION);
        return "$(" + command(r) + (depth > 0 && r.nextInt(3) == 0 ? " " + word(r, depth - 1) : "") + ")";
    }

    /** A parameter expansion with any operator; {@code dq}: it stands inside double quotes. */
    String parameter(Random r, int depth, boolean dq) {
        String name = new String[]{"x", "y", "e", "s", "u"}[r.nextInt(5)];
        switch (r.nextInt(10)) {
            case 0 -> {
                count(Form.PARAMETER);
                return r.nextBoolean() ? "$" + name : "${" + name + "}";
            }
            case 8 -> {
                // indirection, names by prefix, whole arrays, their keys and slices, negative offsets
                count(Form.PARAMETER);
                return new String[]{"${!" + name + "}", "${!s*}", "${!y@}", "${a[@]}", "${a[*]}", "${#a[@]}",
                        "${!a[@]}", "${a[@]:1:1}", "${s: -2}", "${s:(-2):1}", "${a[-1]}", "${!a[*]}", "$@", "$*",
                        "$#", "$?", "$-", "${#}", "${x@Q}", "${a[@]@Q}"}[r.nextInt(20)];
            }
            case 9 -> {
                count(Form.PARAMETER_OPERATOR);
                String op = PARAM_OPS[r.nextInt(PARAM_OPS.length)];
                String base = new String[]{"a[@]", "a[*]", "a[1]", "@", "*", "!y"}[r.nextInt(6)];
                return "${" + base + op + operand(r, depth, dq) + "}";
            }
            case 1 -> {
                count(Form.PARAMETER);
                return "${#" + name + "}";
            }
            case 2 -> {
                count(Form.SUBSTRING);
                return "${" + name + ":" + arithmetic(r, depth) + (r.nextBoolean() ? ":" + arithmetic(r, depth) : "")
                        + "}";
            }
            case 3 -> {
                count(Form.SUBSCRIPT);
                return "${a[" + arithmetic(r, depth) + "]}";
            }
            default -> {
                count(Form.PARAMETER_OPERATOR);
                String op = PARAM_OPS[r.nextInt(PARAM_OPS.length)];
                return "${" + name + op + operand(r, depth, dq) + "}";
            }
        }
    }

    /** The word of ${x OP word}: as written inside or outside double quotes. */
    String operand(Random r, int depth, boolean dq) {
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(4);
        for (int i = 0; i < n; i++) {
            if (depth <= 0) {
                b.append(literal(r));
                continue;
            }
            b.append(switch (r.nextInt(11)) {
                case 0, 1 -> literal(r);
                case 2 -> ansiC(r);
                case 3 -> singleQuoted(r, depth);
                case 4 -> counted(Form.DOUBLE_QUOTED, "\"" + dqContent(r, depth - 1) + "\"");
                case 5 -> commandSubstitution(r, depth - 1);
                case 6 -> parameter(r, depth - 1, dq);
                case 7 -> arithmeticExpansion(r, depth - 1);
                case 8 -> dq ? staticDqAtom(r) : escape(r);
                case 9 -> counted(Form.LOCALE, "$\"" + literal(r) + "\"");
                default -> switch (r.nextInt(7)) {
                    case 0 -> counted(Form.TILDE, "~");
                    case 1 -> braceList(r, 0, true);
                    case 2 -> braceSequence(r);
                    case 3 -> glob(r);
                    case 4 -> counted(Form.EXTGLOB, "@(a|b)");
                    case 5 -> counted(Form.PROCESS_SUBSTITUTION, "<(" + command(r) + ")");
                    default -> counted(Form.LINE_CONTINUATION, "\\\n");
                };
            });
        }
        return b.toString();
    }

    private String arithmeticExpansion(Random r, int depth) {
        if (r.nextInt(4) == 0) {
            count(Form.BRACKET_ARITHMETIC);
            return "$[" + arithmetic(r, depth) + "]";
        }
        count(Form.ARITHMETIC);
        return "$((" + arithmetic(r, depth) + "))";
    }

    /** Arithmetic text: operands joined by operators, operands in every quoting form. */
    String arithmetic(Random r, int depth) {
        StringBuilder b = new StringBuilder(" ");
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            if (i > 0) b.append(new String[]{" + ", " - ", " * ", " , ", " == ", " ? 1 : "}[r.nextInt(6)]);
            b.append(arithmeticOperand(r, depth));
        }
        return b.append(' ').toString();
    }

    private String arithmeticOperand(Random r, int depth) {
        if (depth <= 0) return r.nextBoolean() ? "1" : "x";
        return switch (r.nextInt(17)) {
            case 0 -> counted(Form.LITERAL, "1");
            case 1 -> counted(Form.LITERAL, "x");
            case 2 -> counted(Form.SINGLE_QUOTED, "'" + (r.nextBoolean() ? "$(" + command(r) + ")" : "1") + "'");
            case 3 -> counted(Form.DOUBLE_QUOTED, "\"" + arithmeticOperand(r, depth - 1) + "\"");
            case 4 -> counted(Form.ANSI_C, "$'" + (r.nextBoolean() ? "\\x24(" + command(r) + ")" : "1") + "'");
            case 5 -> counted(Form.LOCALE, "$\"1\"");
            case 6 -> counted(Form.ESCAPE, "\\$(" + command(r) + ")");
            case 7 -> counted(Form.COMMAND_SUBSTITUTION, "$(" + command(r) + ")");
            case 8 -> counted(Form.BACKQUOTE, "`" + command(r) + "`");
            case 9 -> "(" + arithmetic(r, depth - 1) + ")";
            case 10 -> counted(Form.SUBSCRIPT, "a[" + arithmeticOperand(r, depth - 1) + "]");
            case 11 -> counted(Form.PARAMETER, "$x");
            case 12 -> counted(Form.PARAMETER_OPERATOR, "${x:-" + operand(r, depth - 1, false) + "}");
            case 13 -> arithmeticExpansion(r, depth - 1);
            case 14 -> counted(Form.SUBSCRIPT, "b['$(" + command(r) + ")']");
            case 15 -> switch (r.nextInt(6)) {
                // forms that are operators or plain text in arithmetic
                case 0 -> counted(Form.TILDE, "~1");
                case 1 -> counted(Form.LINE_CONTINUATION, "1\\\n");
                case 2 -> counted(Form.BRACE_LIST, "{1,2}");
                case 3 -> counted(Form.GLOB, "2*3");
                case 4 -> counted(Form.SUBSTRING, "${s:1:" + (depth > 1 ? arithmetic(r, 0) : "1") + "}");
                default -> counted(Form.PROCESS_SUBSTITUTION, "<(" + command(r) + ")");
            };
            default -> counted(Form.ANSI_C, "$'\\x24'(" + command(r) + ")");
        };
    }

    /** A here-document delimiter word: letters in every quoting form a delimiter may use. */
    String delimiterWord(Random r) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            b.append(switch (r.nextInt(12)) {
                case 0, 1 -> counted(Form.LITERAL, "E" + (char) ('A' + r.nextInt(26)));
                case 2 -> counted(Form.ESCAPE, "\\" + (char) ('A' + r.nextInt(26)));
                case 3 -> counted(Form.SINGLE_QUOTED, "'" + "Q" + (r.nextBoolean() ? "\\" : "") + "'");
                case 4 -> counted(Form.DOUBLE_QUOTED, "\"D"
                        + new String[]{"\\$", "\\\\", "\\\"", "\\x", "", "$'x'"}[r.nextInt(6)] + "\"");
                case 5 -> counted(Form.ANSI_C, "$'"
                        + new String[]{"\\x41", "\\101", "\\u0042", "C", "\\'", "\\\\", "\\x5c"}[r.nextInt(7)] + "'");
                case 6 -> counted(Form.LOCALE, "$\"L\"");
                case 7 -> counted(Form.LINE_CONTINUATION, "\\\n");
                case 8 -> counted(Form.PARAMETER, "$x");
                case 9 -> counted(Form.LITERAL, "-");
                case 10 -> atom(r, 1, i == 0); // any form: a delimiter is never expanded
                default -> counted(Form.SINGLE_QUOTED, "'" + "'");
            });
        }
        return b.toString();
    }

    /** Counts of the contexts produced, for the report. */
    final Map<Context, Integer> contextCounts = new EnumMap<>(Context.class);
}
