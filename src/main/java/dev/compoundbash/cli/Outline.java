package dev.compoundbash.cli;

import dev.compoundbash.shell.Command;
import dev.compoundbash.shell.Node;
import dev.compoundbash.shell.Redirection;
import dev.compoundbash.shell.Script;
import dev.compoundbash.shell.Walker;
import dev.compoundbash.shell.WordPart;

import java.util.ArrayList;
import java.util.List;

/**
 * A readable outline of a parsed command: one line per command, expansion that runs commands, and redirection,
 * indented by nesting, named with the Bash manual's terms.
 */
final class Outline {
    private Outline() {
    }

    /** The outline lines of {@code script}, each indented two spaces per level. */
    static List<String> of(Script script) {
        List<String> out = new ArrayList<>();
        String src = script.source();
        Walker.walk(script, (node, ancestors) -> {
            String label = label(node, src);
            if (label != null) {
                int depth = 0;
                for (Node a : ancestors) if (label(a, src) != null) depth++;
                out.add("  ".repeat(depth) + label);
            }
            return true;
        });
        return out;
    }

    private static String label(Node n, String src) {
        if (n instanceof Command.Simple s) {
            return s.words().isEmpty() ? "assignment: " + clip(s.span().text(src)) : "simple command: " + clip(s.span().text(src));
        }
        if (n instanceof Command.Pipeline p) {
            if (p.commands().size() < 2 && !p.negated() && !p.timed()) return null;
            return "pipeline" + (p.negated() ? " (!)" : "") + (p.timed() ? " (time)" : "");
        }
        if (n instanceof Command.AndOrList a) return "and-or list " + a.operators();
        if (n instanceof Command.Subshell) return "subshell ( )";
        if (n instanceof Command.Group) return "group { }";
        if (n instanceof Command.If) return "if";
        if (n instanceof Command.For f) return f.select() ? "select" : "for";
        if (n instanceof Command.ArithFor) return "for (( ))";
        if (n instanceof Command.While w) return w.until() ? "until" : "while";
        if (n instanceof Command.Case) return "case";
        if (n instanceof Command.Conditional) return "conditional [[ ]]";
        if (n instanceof Command.ArithmeticCommand) return "arithmetic (( ))";
        if (n instanceof Command.FunctionDef f) return "function " + f.name();
        if (n instanceof Command.Coproc) return "coproc";
        if (n instanceof WordPart.CommandSubstitution c) return c.backquoted() ? "backticks ` `" : "command substitution $( )";
        if (n instanceof WordPart.ProcessSubstitution p) return "process substitution " + (p.output() ? ">( )" : "<( )");
        if (n instanceof WordPart.ArithExpansion) return "arithmetic expansion $(( ))";
        if (n instanceof Redirection r) {
            return "redirection " + (r.fd() == null ? "" : r.fd()) + r.operator() + " " + clip(r.target().span().text(src))
                    + (r.hereDoc() != null ? (r.hereDoc().quoted() ? " (here-document, literal)" : " (here-document, expanded)") : "");
        }
        return null;
    }

    private static String clip(String s) {
        String one = s.replace("\n", "\\n");
        return one.length() > 100 ? one.substring(0, 97) + "..." : one;
    }
}
