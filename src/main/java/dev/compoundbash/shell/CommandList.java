package dev.compoundbash.shell;

import java.util.List;

/**
 * A list: AND-OR lists separated by {@code ;}, {@code &} or newlines (Bash Reference Manual §3.2.4).
 * Used for a script's top level and for every compound command's body.
 */
public record CommandList(Span span, List<ListItem> items) implements Node {
    @Override
    public List<Node> children() {
        return List.copyOf(items);
    }
}
