package dev.compoundbash.shell;

/**
 * The only exception {@link Parser#parse(String)} throws: the input is not a complete bash script, or it nests
 * deeper than {@link Parser#MAX_DEPTH}. Carries the 1-based line and column where parsing stopped.
 */
public final class ParseException extends Exception {
    private final int line;
    private final int column;

    /** Creates an exception for {@code message} at the given 1-based {@code line} and {@code column}. */
    public ParseException(String message, int line, int column) {
        // No stack trace: the parser throws and catches these while it backtracks ($(( as arithmetic, then as a
        // command substitution) at every nesting level, where filling a deep stack each time roughly doubled the
        // cost of unbalanced nested input (issue 8 fuzzing; bench/RESULTS.md).
        super(line + ":" + column + ": " + message, null, false, false);
        this.line = line;
        this.column = column;
    }

    /** 1-based line where the error was found. */
    public int line() {
        return line;
    }

    /** 1-based column where the error was found. */
    public int column() {
        return column;
    }
}
