package dev.compoundbash.shell;

import java.util.ArrayList;
import java.util.List;

/**
 * A command in the sense of the Bash Reference Manual §3.2 "Shell Commands": a simple command, a pipeline,
 * an AND-OR list, or one of the compound commands of §3.2.5 and §3.3 (function definitions) and §3.2.6
 * (coprocesses). Records are immutable; list fields are never null unless documented.
 */
public sealed interface Command extends Node {

    /** A compound command, which may carry redirections after its closing keyword or bracket (§3.6). */
    sealed interface Compound extends Command {
        /** Redirections written after the compound command, in source order. */
        List<Redirection> redirections();
    }

    /**
     * A simple command (§3.2.2): leading variable assignments, then words, with redirections anywhere.
     * {@code words} may be empty (an assignment-only or redirection-only command). For declaration builtins
     * ({@code declare local export readonly typeset}) an argument written as an assignment stays a {@link Word};
     * a compound value {@code a=(x y)} appears in it as a {@link WordPart.ArrayLiteral} part.
     */
    record Simple(Span span, List<Assignment> assignments, List<Word> words, List<Redirection> redirections)
            implements Command {
        @Override
        public List<Node> children() {
            List<Node> out = new ArrayList<>(assignments);
            out.addAll(words);
            out.addAll(redirections);
            out.sort(Walker.BY_POSITION);
            return out;
        }
    }

    /**
     * A pipeline (§3.2.3): one or more commands joined by {@code |} or {@code |&}, optionally prefixed by
     * {@code time [-p]} and/or {@code !}. {@code operators.size() == commands.size() - 1}. {@code commands} is
     * empty only for a bare {@code time}.
     */
    record Pipeline(Span span, List<Command> commands, List<String> operators, boolean negated, boolean timed,
                    boolean timePosix) implements Command {
        @Override
        public List<Node> children() {
            return List.copyOf(commands);
        }
    }

    /**
     * An AND-OR list (§3.2.4): pipelines joined by {@code &&} and {@code ||}, evaluated left to right.
     * {@code operators.size() == commands.size() - 1}; {@code commands.size() >= 2}.
     */
    record AndOrList(Span span, List<Command> commands, List<String> operators) implements Command {
        @Override
        public List<Node> children() {
            return List.copyOf(commands);
        }
    }

    /** {@code ( list )}: the list runs in a subshell (§3.2.5.3). */
    record Subshell(Span span, CommandList body, List<Redirection> redirections) implements Compound {
        @Override
        public List<Node> children() {
            return Walker.concat(List.of(body), redirections);
        }
    }

    /** {@code { list; }}: a group command run in the current shell (§3.2.5.3). */
    record Group(Span span, CommandList body, List<Redirection> redirections) implements Compound {
        @Override
        public List<Node> children() {
            return Walker.concat(List.of(body), redirections);
        }
    }

    /** {@code if c; then b; [elif c; then b;]... [else b;] fi} (§3.2.5.2); {@code elseBody} may be null. */
    record If(Span span, List<IfClause> clauses, CommandList elseBody, List<Redirection> redirections)
            implements Compound {
        @Override
        public List<Node> children() {
            List<Node> out = new ArrayList<>(clauses);
            if (elseBody != null) out.add(elseBody);
            out.addAll(redirections);
            return out;
        }
    }

    /**
     * {@code for NAME [in WORDS]; do list; done} or {@code select NAME [in WORDS]; do list; done}
     * (§3.2.5.1, §3.2.5.2). {@code items} is null when there is no {@code in} clause (iterates "$@").
     */
    record For(Span span, boolean select, Word variable, List<Word> items, CommandList body,
               List<Redirection> redirections) implements Compound {
        @Override
        public List<Node> children() {
            List<Node> out = new ArrayList<>();
            out.add(variable);
            if (items != null) out.addAll(items);
            out.add(body);
            out.addAll(redirections);
            return out;
        }
    }

    /** {@code for (( init; test; step )); do list; done} (§3.2.5.1); each expression may be null. */
    record ArithFor(Span span, Arithmetic init, Arithmetic test, Arithmetic step, CommandList body,
                    List<Redirection> redirections) implements Compound {
        @Override
        public List<Node> children() {
            List<Node> out = new ArrayList<>();
            if (init != null) out.add(init);
            if (test != null) out.add(test);
            if (step != null) out.add(step);
            out.add(body);
            out.addAll(redirections);
            return out;
        }
    }

    /** {@code while list; do list; done}, or {@code until ...} when {@code until} is true (§3.2.5.1). */
    record While(Span span, boolean until, CommandList condition, CommandList body,
                 List<Redirection> redirections) implements Compound {
        @Override
        public List<Node> children() {
            return Walker.concat(List.of(condition, body), redirections);
        }
    }

    /** {@code case WORD in [[(] PATTERN [| PATTERN]...) list ;;]... esac} (§3.2.5.2). */
    record Case(Span span, Word subject, List<CaseItem> items, List<Redirection> redirections)
            implements Compound {
        @Override
        public List<Node> children() {
            List<Node> out = new ArrayList<>();
            out.add(subject);
            out.addAll(items);
            out.addAll(redirections);
            return out;
        }
    }

    /** {@code [[ expression ]]}, the conditional command (§3.2.5.2, §6.4). */
    record Conditional(Span span, TestExpr expression, List<Redirection> redirections) implements Compound {
        @Override
        public List<Node> children() {
            return Walker.concat(List.of(expression), redirections);
        }
    }

    /** {@code (( expression ))}, the arithmetic command (§3.2.5.2, §6.5). */
    record ArithmeticCommand(Span span, Arithmetic expression, List<Redirection> redirections)
            implements Compound {
        @Override
        public List<Node> children() {
            return Walker.concat(List.of(expression), redirections);
        }
    }

    /**
     * A function definition (§3.3): {@code name () compound-command [redirections]} or
     * {@code function name [()] compound-command [redirections]} ({@code keyword} true). The redirections of the
     * definition are those of {@code body}.
     */
    record FunctionDef(Span span, String name, Span nameSpan, boolean keyword, Command body) implements Command {
        @Override
        public List<Node> children() {
            return List.of(body);
        }
    }

    /** {@code coproc [NAME] command} (§3.2.6); {@code name} is null when not given. */
    record Coproc(Span span, String name, Command body) implements Command {
        @Override
        public List<Node> children() {
            return List.of(body);
        }
    }
}
