package dev.compoundbash.shell;

import java.util.List;

/**
 * A shell word (Bash Reference Manual §3.1.2, §3.5): a sequence of adjacent parts with no unquoted blank between
 * them. {@link WordValue#of(Word, String)} gives its value after quote removal, or marks it dynamic.
 */
public record Word(Span span, List<WordPart> parts) implements Node {
    @Override
    public List<Node> children() {
        return List.copyOf(parts);
    }
}
