package dev.compoundbash.shell;

import java.util.List;

/** An expression inside {@code [[ ]]} (Bash Reference Manual §6.4 "Bash Conditional Expressions"). */
public sealed interface TestExpr extends Node {

    /** A word used as an operand (a string, file name, pattern, or the regex right of {@code =~}). */
    record Operand(Span span, Word word) implements TestExpr {
        @Override
        public List<Node> children() {
            return List.of(word);
        }
    }

    /** A unary test such as {@code -f file} or {@code -n str}; {@code operator} as written. */
    /** Binary operators that evaluate both operands as arithmetic expressions (bash(1) "CONDITIONAL EXPRESSIONS"). */
    java.util.Set<String> ARITHMETIC_OPERATORS = java.util.Set.of("-eq", "-ne", "-lt", "-le", "-gt", "-ge");

    record Unary(Span span, String operator, TestExpr operand) implements TestExpr {
        @Override
        public List<Node> children() {
            return List.of(operand);
        }
    }

    /** A binary test ({@code == != =~ < > -eq -nt ...}) or a logical {@code &&}/{@code ||}. */
    record Binary(Span span, String operator, TestExpr left, TestExpr right) implements TestExpr {
        @Override
        public List<Node> children() {
            return List.of(left, right);
        }
    }

    /** {@code ! expr}. */
    record Not(Span span, TestExpr operand) implements TestExpr {
        @Override
        public List<Node> children() {
            return List.of(operand);
        }
    }

    /** {@code ( expr )}. */
    record Paren(Span span, TestExpr inner) implements TestExpr {
        @Override
        public List<Node> children() {
            return List.of(inner);
        }
    }
}
