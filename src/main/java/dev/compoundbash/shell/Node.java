package dev.compoundbash.shell;

import java.util.List;

/**
 * A node of the bash syntax tree built by {@link Parser}. Every node knows its source {@link Span} and its
 * direct children in source order; {@link Walker} uses {@link #children()} to reach every node.
 */
public sealed interface Node permits Script, Command, CommandList, ListItem, Word, WordPart, Redirection,
        HereDoc, Assignment, ArrayElement, CaseItem, IfClause, TestExpr, Arithmetic {

    /** The source span of this node. */
    Span span();

    /** Direct child nodes, in source order; never null, never containing null. */
    List<Node> children();
}
