package dev.compoundbash.shell;

import java.util.List;

/**
 * An arithmetic expression (§6.5) as found in {@code (( ))}, {@code $(( ))}, {@code $[ ]} and {@code for (( ))}.
 * It is kept as its raw text plus the parts bash expands before evaluating it: literals and the parameter,
 * command and arithmetic expansions inside (so {@code $(( $(cmd) + 1 ))} reaches {@code cmd}).
 */
public record Arithmetic(Span span, String raw, List<WordPart> parts) implements Node {
    @Override
    public List<Node> children() {
        return List.copyOf(parts);
    }
}
