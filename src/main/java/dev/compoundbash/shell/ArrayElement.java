package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;

/** One element of a compound array assignment: {@code value} or {@code [index]=value}; {@code index} may be null. */
public record ArrayElement(Span span, Word index, Word value) implements Node {
    @Override
    public List<Node> children() {
        List<Node> out = new ArrayList<>();
        if (index != null) out.add(index);
        out.add(value);
        return out;
    }
}
