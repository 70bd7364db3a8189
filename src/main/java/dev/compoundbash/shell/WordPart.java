package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * One piece of a {@link Word}: literal text, a quoted string, or an expansion (Bash Reference Manual §3.1.2
 * "Quoting" and §3.5 "Shell Expansions").
 */
public sealed interface WordPart extends Node {

    /**
     * Unquoted literal text. {@code raw} is the source text; {@code value} has backslash escapes and line
     * continuations removed (§3.1.2.1). Brace expansion and glob characters are kept as literal text.
     */
    record Literal(Span span, String raw, String value) implements WordPart {
        @Override
        public List<Node> children() {
            return List.of();
        }
    }

    /** {@code '...'} (§3.1.2.2); {@code value} is the text between the quotes. */
    record SingleQuoted(Span span, String value) implements WordPart {
        @Override
        public List<Node> children() {
            return List.of();
        }
    }

    /** {@code $'...'} ANSI-C quoting (§3.1.2.4); {@code raw} is the text between the quotes, {@code value} decoded. */
    record AnsiCQuoted(Span span, String raw, String value) implements WordPart {
        @Override
        public List<Node> children() {
            return List.of();
        }
    }

    /**
     * {@code "..."} (§3.1.2.3), or {@code $"..."} locale translation (§3.1.2.5) when {@code localized}.
     * Its parts are {@link Literal}s (escapes removed) and expansions.
     */
    record DoubleQuoted(Span span, List<WordPart> parts, boolean localized) implements WordPart {
        @Override
        public List<Node> children() {
            return List.copyOf(parts);
        }
    }

    /**
     * A parameter expansion (§3.5.3): {@code $name}, {@code $1}, {@code $@}, or {@code ${...}} ({@code braced}).
     *
     * @param prefix   {@code "#"} (length), {@code "!"} (indirection / names) or {@code ""}
     * @param name     the parameter name, number or special character
     * @param index    the array subscript word for {@code ${a[i]}}, or null
     * @param operator the operator after the name, as written ({@code ":-" "-" ":=" "=" ":?" "?" ":+" "+" "#" "##"
     *                 "%" "%%" "/" "//" "/#" "/%" "^" "^^" "," ",," "@" ":"}, or {@code "*"}/{@code "@"} after a
     *                 {@code !prefix}), or null
     * @param operands the words after the operator (a pattern and a replacement, an offset and a length, ...)
     */
    record ParamExpansion(Span span, boolean braced, String prefix, String name, Word index, String operator,
                          List<Word> operands) implements WordPart {
        @Override
        public List<Node> children() {
            List<Node> out = new ArrayList<>();
            if (index != null) out.add(index);
            out.addAll(operands);
            return out;
        }
    }

    /** {@code $( list )}, or {@code `list`} when {@code backquoted} (§3.5.4). */
    record CommandSubstitution(Span span, CommandList body, boolean backquoted) implements WordPart {
        @Override
        public List<Node> children() {
            return List.of(body);
        }
    }

    /** {@code $(( expr ))}, or the deprecated {@code $[ expr ]} when {@code bracket} (§3.5.5). */
    record ArithExpansion(Span span, Arithmetic expression, boolean bracket) implements WordPart {
        @Override
        public List<Node> children() {
            return List.of(expression);
        }
    }

    /** {@code <( list )}, or {@code >( list )} when {@code output} (§3.5.6). */
    record ProcessSubstitution(Span span, boolean output, CommandList body) implements WordPart {
        @Override
        public List<Node> children() {
            return List.of(body);
        }
    }

    /**
     * An extended glob {@code ?(..) *(..) +(..) @(..) !(..)} (§3.5.8.1); {@code operator} is its first character
     * and {@code pattern} the text between the parentheses, parsed as a word so expansions in it are reached.
     */
    record ExtGlob(Span span, String operator, Word pattern) implements WordPart {
        @Override
        public List<Node> children() {
            return List.of(pattern);
        }
    }

    /** A tilde prefix {@code ~} or {@code ~user} at the start of a word or after {@code =}/{@code :} in an assignment (§3.5.2). */
    record Tilde(Span span, String user) implements WordPart {
        @Override
        public List<Node> children() {
            return List.of();
        }
    }

    /** The compound value {@code (elements)} of an assignment-shaped argument to a declaration builtin. */
    record ArrayLiteral(Span span, List<ArrayElement> elements) implements WordPart {
        @Override
        public List<Node> children() {
            return List.copyOf(elements);
        }
    }
}
