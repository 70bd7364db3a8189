package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * One clause of a {@link Command.Case}: its patterns (alternatives joined by {@code |}), its body and its
 * terminator: {@code ";;"}, {@code ";&"}, {@code ";;&"} or {@code ""} when the clause ends at {@code esac}.
 */
public record CaseItem(Span span, List<Word> patterns, CommandList body, String terminator) implements Node {
    @Override
    public List<Node> children() {
        List<Node> out = new ArrayList<>(patterns);
        out.add(body);
        return out;
    }
}
