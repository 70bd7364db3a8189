package dev.compoundbash.shell;

import java.util.List;

/**
 * A shell word (Bash Reference Manual §3.1.2, §3.5): a sequence of adjacent parts with no unquoted blank between
 * them. {@link WordValue#of(Word, String)} gives its value after quote removal, or marks it dynamic;
 * {@link BraceExpansion#of(Word, String)} gives the words bash makes of it by brace expansion.
 *
 * @param text the word as the parser read it, when that differs from its source text: inside a backquoted command
 *             substitution (whose backslash escapes are removed before its body is parsed) or a here-document body
 *             (whose line continuations are joined first); null when the word is the source text of its span
 */
public record Word(Span span, List<WordPart> parts, String text) implements Node {

    /** A word whose text is its source text. */
    public Word(Span span, List<WordPart> parts) {
        this(span, parts, null);
    }

    /** The word as the parser read it: {@link #text()}, or else the source text of its span in {@code source}. */
    public String text(String source) {
        return text != null ? text : span.text(source);
    }

    @Override
    public List<Node> children() {
        return List.copyOf(parts);
    }
}
