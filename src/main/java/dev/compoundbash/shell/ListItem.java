package dev.compoundbash.shell;

import java.util.List;

/**
 * One element of a {@link CommandList}: a command (usually an {@link Command.AndOrList} or a
 * {@link Command.Pipeline}) and the separator that ended it: {@code ";"}, {@code "&"}, {@code "\n"} or
 * {@code ""} (end of list). {@code "&"} runs it asynchronously (Bash Reference Manual §3.2.4).
 */
public record ListItem(Span span, Command command, String separator) implements Node {
    /** True when the command is run in the background ({@code &}). */
    public boolean background() {
        return "&".equals(separator);
    }

    @Override
    public List<Node> children() {
        return List.of(command);
    }
}
