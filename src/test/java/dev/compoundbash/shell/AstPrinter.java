package dev.compoundbash.shell;

import java.util.List;

/** Prints a syntax tree as a compact s-expression, so parser tests can state expected shapes in one line. */
final class AstPrinter {
    private AstPrinter() {
    }

    static String print(Node n) {
        StringBuilder sb = new StringBuilder();
        node(n, sb);
        return sb.toString();
    }

    static String parse(String src) throws ParseException {
        return print(Parser.parse(src).body());
    }

    private static void list(List<? extends Node> nodes, StringBuilder sb) {
        for (int i = 0; i < nodes.size(); i++) {
            if (i > 0) sb.append(' ');
            node(nodes.get(i), sb);
        }
    }

    private static void node(Node n, StringBuilder sb) {
        if (n == null) {
            return;
        } else if (n instanceof Script s) {
            node(s.body(), sb);
        } else if (n instanceof CommandList l) {
            sb.append('{');
            for (int i = 0; i < l.items().size(); i++) {
                ListItem it = l.items().get(i);
                if (i > 0) sb.append(' ');
                node(it.command(), sb);
                if (!it.separator().isEmpty()) sb.append(it.separator().equals("\n") ? "\\n" : it.separator());
            }
            sb.append('}');
        } else if (n instanceof ListItem it) {
            node(it.command(), sb);
        } else if (n instanceof Command.Simple c) {
            sb.append("(cmd");
            List<Node> kids = c.children();
            for (Node k : kids) {
                sb.append(' ');
                node(k, sb);
            }
            sb.append(')');
        } else if (n instanceof Command.Pipeline p) {
            sb.append("(pipe");
            if (p.timed()) sb.append(p.timePosix() ? " time-p" : " time");
            if (p.negated()) sb.append(" !");
            for (int i = 0; i < p.commands().size(); i++) {
                if (i > 0) sb.append(' ').append(p.operators().get(i - 1));
                sb.append(' ');
                node(p.commands().get(i), sb);
            }
            sb.append(')');
        } else if (n instanceof Command.AndOrList p) {
            sb.append("(andor");
            for (int i = 0; i < p.commands().size(); i++) {
                if (i > 0) sb.append(' ').append(p.operators().get(i - 1));
                sb.append(' ');
                node(p.commands().get(i), sb);
            }
            sb.append(')');
        } else if (n instanceof Command.Subshell c) {
            compound("(sub ", c.body(), c.redirections(), sb);
        } else if (n instanceof Command.Group c) {
            compound("(group ", c.body(), c.redirections(), sb);
        } else if (n instanceof Command.If c) {
            sb.append("(if");
            for (IfClause cl : c.clauses()) {
                sb.append(' ');
                node(cl.condition(), sb);
                sb.append(' ');
                node(cl.body(), sb);
            }
            if (c.elseBody() != null) {
                sb.append(" else ");
                node(c.elseBody(), sb);
            }
            redirs(c.redirections(), sb);
            sb.append(')');
        } else if (n instanceof Command.For c) {
            sb.append(c.select() ? "(select " : "(for ");
            node(c.variable(), sb);
            if (c.items() != null) {
                sb.append(" in [");
                list(c.items(), sb);
                sb.append(']');
            }
            sb.append(' ');
            node(c.body(), sb);
            redirs(c.redirections(), sb);
            sb.append(')');
        } else if (n instanceof Command.ArithFor c) {
            sb.append("(for((");
            sb.append(c.init() == null ? "" : c.init().raw()).append(';');
            sb.append(c.test() == null ? "" : c.test().raw()).append(';');
            sb.append(c.step() == null ? "" : c.step().raw()).append(")) ");
            node(c.body(), sb);
            redirs(c.redirections(), sb);
            sb.append(')');
        } else if (n instanceof Command.While c) {
            sb.append(c.until() ? "(until " : "(while ");
            node(c.condition(), sb);
            sb.append(' ');
            node(c.body(), sb);
            redirs(c.redirections(), sb);
            sb.append(')');
        } else if (n instanceof Command.Case c) {
            sb.append("(case ");
            node(c.subject(), sb);
            for (CaseItem it : c.items()) {
                sb.append(" [");
                for (int i = 0; i < it.patterns().size(); i++) {
                    if (i > 0) sb.append('|');
                    node(it.patterns().get(i), sb);
                }
                sb.append(") ");
                node(it.body(), sb);
                sb.append(' ').append(it.terminator()).append(']');
            }
            redirs(c.redirections(), sb);
            sb.append(')');
        } else if (n instanceof Command.Conditional c) {
            sb.append("[[ ");
            node(c.expression(), sb);
            sb.append(" ]]");
            redirs(c.redirections(), sb);
        } else if (n instanceof Command.ArithmeticCommand c) {
            sb.append("((").append(c.expression().raw()).append("))");
            redirs(c.redirections(), sb);
        } else if (n instanceof Command.FunctionDef f) {
            sb.append("(func ").append(f.name()).append(f.keyword() ? " kw " : " ");
            node(f.body(), sb);
            sb.append(')');
        } else if (n instanceof Command.Coproc c) {
            sb.append("(coproc ").append(c.name() == null ? "-" : c.name()).append(' ');
            node(c.body(), sb);
            sb.append(')');
        } else if (n instanceof Redirection r) {
            if (r.fd() != null) sb.append(r.fd());
            sb.append(r.operator());
            node(r.target(), sb);
            if (r.hereDoc() != null) {
                sb.append("<<[");
                node(r.hereDoc().body(), sb);
                sb.append(']');
            }
        } else if (n instanceof HereDoc h) {
            node(h.body(), sb);
        } else if (n instanceof Assignment a) {
            sb.append(a.name());
            if (a.index() != null) {
                sb.append('[');
                node(a.index(), sb);
                sb.append(']');
            }
            sb.append(a.append() ? "+=" : "=");
            if (a.value() != null) node(a.value(), sb);
            if (a.array() != null) {
                sb.append('(');
                list(a.array(), sb);
                sb.append(')');
            }
        } else if (n instanceof ArrayElement e) {
            if (e.index() != null) {
                sb.append('[');
                node(e.index(), sb);
                sb.append("]=");
            }
            node(e.value(), sb);
        } else if (n instanceof CaseItem it) {
            sb.append("?");
        } else if (n instanceof IfClause it) {
            sb.append("?");
        } else if (n instanceof Arithmetic a) {
            sb.append(a.raw());
        } else if (n instanceof Word w) {
            if (w.parts().isEmpty()) sb.append("''");
            for (WordPart p : w.parts()) node(p, sb);
        } else if (n instanceof WordPart.Literal l) {
            sb.append(l.value());
        } else if (n instanceof WordPart.SingleQuoted q) {
            sb.append('\'').append(q.value()).append('\'');
        } else if (n instanceof WordPart.AnsiCQuoted q) {
            sb.append("$'").append(q.value()).append('\'');
        } else if (n instanceof WordPart.DoubleQuoted d) {
            sb.append(d.localized() ? "$\"" : "\"");
            for (WordPart p : d.parts()) node(p, sb);
            sb.append('"');
        } else if (n instanceof WordPart.ParamExpansion p) {
            if (!p.braced()) {
                sb.append('$').append(p.name());
            } else {
                sb.append("${").append(p.prefix()).append(p.name());
                if (p.index() != null) {
                    sb.append('[');
                    node(p.index(), sb);
                    sb.append(']');
                }
                if (p.operator() != null) {
                    sb.append('<').append(p.operator()).append('>');
                    for (int i = 0; i < p.operands().size(); i++) {
                        if (i > 0) sb.append('|');
                        node(p.operands().get(i), sb);
                    }
                }
                sb.append('}');
            }
        } else if (n instanceof WordPart.CommandSubstitution c) {
            sb.append(c.backquoted() ? "`" : "$(");
            node(c.body(), sb);
            sb.append(c.backquoted() ? "`" : ")");
        } else if (n instanceof WordPart.ArithExpansion a) {
            sb.append(a.bracket() ? "$[" : "$((");
            sb.append(a.expression().raw());
            sb.append(a.bracket() ? "]" : "))");
        } else if (n instanceof WordPart.ProcessSubstitution p) {
            sb.append(p.output() ? ">(" : "<(");
            node(p.body(), sb);
            sb.append(')');
        } else if (n instanceof WordPart.ExtGlob g) {
            sb.append(g.operator()).append('(');
            node(g.pattern(), sb);
            sb.append(')');
        } else if (n instanceof WordPart.Tilde t) {
            sb.append("~{").append(t.user()).append('}');
        } else if (n instanceof WordPart.ArrayLiteral a) {
            sb.append('(');
            list(a.elements(), sb);
            sb.append(')');
        } else if (n instanceof TestExpr.Operand o) {
            node(o.word(), sb);
        } else if (n instanceof TestExpr.Unary u) {
            sb.append('(').append(u.operator()).append(' ');
            node(u.operand(), sb);
            sb.append(')');
        } else if (n instanceof TestExpr.Binary b) {
            sb.append('(');
            node(b.left(), sb);
            sb.append(' ').append(b.operator()).append(' ');
            node(b.right(), sb);
            sb.append(')');
        } else if (n instanceof TestExpr.Not x) {
            sb.append("(! ");
            node(x.operand(), sb);
            sb.append(')');
        } else if (n instanceof TestExpr.Paren x) {
            sb.append("(paren ");
            node(x.inner(), sb);
            sb.append(')');
        }
    }

    private static void compound(String head, CommandList body, List<Redirection> r, StringBuilder sb) {
        sb.append(head);
        node(body, sb);
        redirs(r, sb);
        sb.append(')');
    }

    private static void redirs(List<Redirection> r, StringBuilder sb) {
        for (Redirection x : r) {
            sb.append(' ');
            node(x, sb);
        }
    }
}
