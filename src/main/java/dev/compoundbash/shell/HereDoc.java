package dev.compoundbash.shell;

import java.util.List;

/**
 * The body of a here-document (§3.6.6). When the delimiter was quoted, {@code body} holds one
 * {@link WordPart.Literal} with the text as is; otherwise its parts hold the expansions bash performs on it
 * (parameter expansion, command substitution, arithmetic expansion). For {@code <<-} leading tabs are already
 * stripped from every line. The span covers the body lines, not the closing delimiter line.
 */
public record HereDoc(Span span, String delimiter, boolean quoted, boolean stripTabs, Word body) implements Node {
    @Override
    public List<Node> children() {
        return List.of(body);
    }
}
