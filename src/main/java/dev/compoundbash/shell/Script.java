package dev.compoundbash.shell;

import java.util.List;

/**
 * A whole parsed input: the top-level command list plus the source text it came from.
 * Bash Reference Manual §3.2.4 "Lists of Commands".
 */
public record Script(Span span, CommandList body, String source) implements Node {
    @Override
    public List<Node> children() {
        return List.of(body);
    }
}
