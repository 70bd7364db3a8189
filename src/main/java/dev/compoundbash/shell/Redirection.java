package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * A redirection (Bash Reference Manual §3.6).
 *
 * @param fd       the explicit file descriptor as written: a number ({@code "2"}), a named fd ({@code "{fd}"}),
 *                 or null when none was written
 * @param operator one of {@code < > >> >| <> <& >& &> &>> << <<- <<<}
 * @param target   the word after the operator: a file name, an fd number or {@code -} for duplications,
 *                 the delimiter for a here-document, the string for a here-string
 * @param hereDoc  the here-document body for {@code <<} and {@code <<-}, else null
 */
public record Redirection(Span span, String fd, String operator, Word target, HereDoc hereDoc) implements Node {

    /** True for operators that open a file for writing: {@code > >> >| &> &>> <>}, and {@code >&} to a non-fd word. */
    public boolean isOutput() {
        return switch (operator) {
            case ">", ">>", ">|", "&>", "&>>", "<>", ">&" -> true;
            default -> false;
        };
    }

    @Override
    public List<Node> children() {
        List<Node> out = new ArrayList<>();
        out.add(target);
        if (hereDoc != null) out.add(hereDoc);
        return out;
    }
}
