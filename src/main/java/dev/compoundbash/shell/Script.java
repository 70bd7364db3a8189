package dev.compoundbash.shell;

import java.util.List;

/**
 * A whole parsed input: the top-level command list plus the source text it came from.
 * Bash Reference Manual §3.2.4 "Lists of Commands".
 *
 * @param zshForms the forms of zsh's own grammar the parser read ({@link Parser#parse(String, boolean)} for zsh:
 *                 {@code repeat}, {@code foreach}, the short loop forms, anonymous functions, ...), each described;
 *                 empty for bash
 */
public record Script(Span span, CommandList body, String source, List<String> zshForms) implements Node {
    /** A script read as bash: no zsh forms. */
    public Script(Span span, CommandList body, String source) {
        this(span, body, source, List.of());
    }

    @Override
    public List<Node> children() {
        return List.of(body);
    }
}
