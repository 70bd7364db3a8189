package dev.compoundbash.cli;

import dev.compoundbash.shell.Arithmetic;
import dev.compoundbash.shell.CaseItem;
import dev.compoundbash.shell.Command;
import dev.compoundbash.shell.CommandList;
import dev.compoundbash.shell.IfClause;
import dev.compoundbash.shell.ListItem;
import dev.compoundbash.shell.Node;
import dev.compoundbash.shell.Redirection;
import dev.compoundbash.shell.Script;
import dev.compoundbash.shell.Walker;
import dev.compoundbash.shell.Word;
import dev.compoundbash.shell.WordPart;

import java.util.ArrayList;
import java.util.List;

/**
 * A readable outline of a parsed command: one line per command, expansion that runs commands, and redirection,
 * indented by nesting, named with the Bash Reference Manual's terms (§3.2 "Shell Commands": simple commands,
 * pipelines, lists, the compound commands of §3.2.5 with their header, §3.2.6 coprocesses, §3.3 functions). A
 * compound command's parts are labelled: a loop's condition and body, an if's conditions and branches, a case's
 * patterns.
 */
final class Outline {
    private Outline() {
    }

    /**
     * The outline lines of {@code script}, each indented two spaces per level.
     *
     * @param script a parsed command
     * @return the lines, in source order; empty for an empty script
     */
    static List<String> of(Script script) {
        List<String> out = new ArrayList<>();
        String src = script.source();
        Walker.walk(script, (node, ancestors) -> {
            String label = label(node, ancestors, ancestors.size(), src);
            if (label != null) {
                int depth = 0;
                for (int i = 0; i < ancestors.size(); i++) {
                    if (label(ancestors.get(i), ancestors, i, src) != null) depth++;
                }
                out.add("  ".repeat(depth) + label);
            }
            return true;
        });
        return out;
    }

    /**
     * The line for {@code n}, whose ancestors are {@code ancestors.subList(0, depth)} (outermost first), or null
     * when it gets none.
     */
    private static String label(Node n, List<Node> ancestors, int depth, String src) {
        if (n instanceof Command.Simple s) {
            return s.words().isEmpty() ? "assignment: " + clip(s.span().text(src)) : "simple command: " + clip(s.span().text(src));
        }
        if (n instanceof CommandList l) {
            return part(l, depth > 0 ? ancestors.get(depth - 1) : null, depth > 1 ? ancestors.get(depth - 2) : null);
        }
        if (n instanceof ListItem i) return i.background() ? "asynchronous (&): runs in the background" : null;
        if (n instanceof IfClause) return null;
        if (n instanceof CaseItem c) {
            List<String> patterns = new ArrayList<>();
            for (Word w : c.patterns()) patterns.add(w.span().text(src));
            return "pattern " + clip(String.join(" | ", patterns)) + ")"
                    + (c.terminator().equals(";&") ? " (falls through: ;&)"
                    : c.terminator().equals(";;&") ? " (tests the next patterns: ;;&)" : "");
        }
        if (n instanceof Command.Pipeline p) {
            if (p.commands().size() < 2 && !p.negated() && !p.timed()) return null;
            return "pipeline" + (p.operators().isEmpty() ? "" : " " + String.join(" ", p.operators()))
                    + (p.negated() ? " (! negates its status)" : "") + (p.timed() ? " (timed)" : "");
        }
        if (n instanceof Command.AndOrList a) return "and-or list " + String.join(" ", a.operators());
        if (n instanceof Command.Subshell) return "subshell ( ): runs in a child shell";
        if (n instanceof Command.Group) return "group command { }: runs in the current shell";
        if (n instanceof Command.If) return "if command";
        if (n instanceof Command.For f) {
            String items;
            if (f.items() == null) {
                items = " (over the positional parameters \"$@\")";
            } else {
                List<String> words = new ArrayList<>();
                for (Word w : f.items()) words.add(w.span().text(src));
                items = " in " + String.join(" ", words);
            }
            return (f.select() ? "select command: select " : "for loop: for ") + clip(f.variable().span().text(src) + items);
        }
        if (n instanceof Command.ArithFor f) {
            return "for loop: for (( " + arith(f.init()) + "; " + arith(f.test()) + "; " + arith(f.step()) + " ))";
        }
        if (n instanceof Command.While w) return w.until() ? "until loop" : "while loop";
        if (n instanceof Command.Case c) return "case command: case " + clip(c.subject().span().text(src)) + " in";
        if (n instanceof Command.Conditional c) return "conditional command: " + clip(c.span().text(src));
        if (n instanceof Command.ArithmeticCommand a) return "arithmetic command: (( " + clip(a.expression().raw().strip()) + " ))";
        if (n instanceof Command.FunctionDef f) return "function definition: " + f.name() + " (its body runs where it is called)";
        if (n instanceof Command.Coproc c) return "coprocess" + (c.name() == null ? "" : " " + c.name()) + ": runs asynchronously in a child shell";
        if (n instanceof WordPart.CommandSubstitution c) return c.backquoted() ? "backticks ` `" : "command substitution $( )";
        if (n instanceof WordPart.ProcessSubstitution p) return "process substitution " + (p.output() ? ">( )" : "<( )");
        if (n instanceof WordPart.ArithExpansion) return "arithmetic expansion $(( ))";
        if (n instanceof Redirection r) {
            return "redirection " + (r.fd() == null ? "" : r.fd()) + r.operator() + " " + clip(r.target().span().text(src))
                    + (r.hereDoc() != null ? (r.hereDoc().quoted() ? " (here-document, literal)" : " (here-document, expanded)") : "");
        }
        return null;
    }

    /** The label of a list that is one part of a compound command, by its place in the parent; null elsewhere. */
    private static String part(CommandList l, Node parent, Node grandparent) {
        if (parent instanceof Command.While w) return l == w.condition() ? (w.until() ? "condition (until it succeeds):" : "condition (while it succeeds):") : "body (do ... done):";
        if (parent instanceof Command.For || parent instanceof Command.ArithFor) return "body (do ... done):";
        if (parent instanceof IfClause c) {
            boolean first = grandparent instanceof Command.If i && !i.clauses().isEmpty() && i.clauses().get(0) == c;
            return l == c.condition() ? (first ? "condition:" : "elif condition:") : "then:";
        }
        if (parent instanceof Command.If) return "else:";
        return null;
    }

    private static String arith(Arithmetic a) {
        return a == null ? "" : clip(a.raw().strip());
    }

    private static String clip(String s) {
        String one = s.replace("\n", "\\n");
        return one.length() > 100 ? one.substring(0, 97) + "..." : one;
    }
}
