package dev.compoundbash.shell;

import java.util.List;

/** One {@code if}/{@code elif} arm of a {@link Command.If}: the condition list and the {@code then} body. */
public record IfClause(Span span, CommandList condition, CommandList body) implements Node {
    @Override
    public List<Node> children() {
        return List.of(condition, body);
    }
}
