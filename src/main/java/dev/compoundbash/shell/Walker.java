package dev.compoundbash.shell;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;

/**
 * Walks a syntax tree depth-first, in source order, reaching every node through {@link Node#children()}:
 * words inside parameter expansions, subscripts, arithmetic, test expressions, here-document bodies, redirection
 * targets, assignment values, case patterns and {@code for} items included. Iterative, so deep trees cannot
 * overflow the stack.
 */
public final class Walker {
    /** Orders nodes by start offset. */
    public static final Comparator<Node> BY_POSITION = Comparator.comparingInt(n -> n.span().start());

    /** Receives each node with the chain of its ancestors (outermost first, not including the node). */
    @FunctionalInterface
    public interface Visitor {
        /**
         * Called once per node before its children.
         *
         * @return false to skip the node's children
         */
        boolean enter(Node node, List<Node> ancestors);
    }

    private Walker() {
    }

    /** Visits {@code root} and every node below it in pre-order. */
    public static void walk(Node root, Visitor visitor) {
        // Explicit stack of (node, depth); ancestors rebuilt from a parallel path list.
        Deque<Object[]> stack = new ArrayDeque<>();
        List<Node> path = new ArrayList<>();
        stack.push(new Object[]{root, 0});
        while (!stack.isEmpty()) {
            Object[] top = stack.pop();
            Node node = (Node) top[0];
            int depth = (Integer) top[1];
            while (path.size() > depth) path.remove(path.size() - 1);
            if (!visitor.enter(node, List.copyOf(path))) continue;
            path.add(node);
            List<Node> kids = node.children();
            for (int i = kids.size() - 1; i >= 0; i--) stack.push(new Object[]{kids.get(i), depth + 1});
        }
    }

    /** Every node below and including {@code root}, in pre-order. */
    public static List<Node> all(Node root) {
        List<Node> out = new ArrayList<>();
        walk(root, (n, a) -> out.add(n));
        return out;
    }

    /** Every node of type {@code type} below and including {@code root}, in pre-order. */
    public static <T extends Node> List<T> all(Node root, Class<T> type) {
        List<T> out = new ArrayList<>();
        walk(root, (n, a) -> {
            if (type.isInstance(n)) out.add(type.cast(n));
            return true;
        });
        return out;
    }

    static List<Node> concat(Collection<? extends Node> a, Collection<? extends Node> b) {
        List<Node> out = new ArrayList<>(a.size() + b.size());
        out.addAll(a);
        out.addAll(b);
        return out;
    }
}
