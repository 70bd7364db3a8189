package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * A variable assignment (§3.4 "Shell Parameters"): {@code name=value}, {@code name+=value},
 * {@code name[index]=value} or {@code name=(elements)}.
 *
 * @param index  the subscript as written between the brackets, or null
 * @param append true for {@code +=}
 * @param value  the scalar value (possibly an empty word), or null for an array assignment
 * @param array  the elements of {@code name=( ... )}, or null for a scalar assignment
 */
public record Assignment(Span span, String name, Word index, boolean append, Word value, List<ArrayElement> array)
        implements Node {
    @Override
    public List<Node> children() {
        List<Node> out = new ArrayList<>();
        if (index != null) out.add(index);
        if (value != null) out.add(value);
        if (array != null) out.addAll(array);
        return out;
    }
}
