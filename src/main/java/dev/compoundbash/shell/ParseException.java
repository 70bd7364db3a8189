package dev.compoundbash.shell;

/**
 * The only exception {@link Parser#parse(String)} throws: the input is not a complete bash script, or it nests
 * deeper than {@link Parser#MAX_DEPTH}. Carries the 1-based line and column where parsing stopped.
 */
public final class ParseException extends Exception {
    private final int line;
    private final int column;
    /** Thrown inside text bash reads only while expanding it: no other reading of the construct applies. */
    private final boolean inExpansion;

    /** Creates an exception for {@code message} at the given 1-based {@code line} and {@code column}. */
    public ParseException(String message, int line, int column) {
        // No stack trace: the parser throws and catches these while it backtracks ($(( as arithmetic, then as a
        // command substitution) at every nesting level, where filling a deep stack each time roughly doubled the
        // cost of unbalanced nested input (issue 8 fuzzing; bench/RESULTS.md).
        this(message, line, column, false);
    }

    private ParseException(String message, int line, int column, boolean inExpansion) {
        super(line + ":" + column + ": " + message, null, false, false);
        this.line = line;
        this.column = column;
        this.inExpansion = inExpansion;
    }

    /**
     * The same error, found in text that bash parses only while expanding it (a quoted region of arithmetic text,
     * decoded {@code $'...'} text): bash has already accepted the construct around it, so the parser must not
     * back off to another reading of that construct ({@code $((} as a command substitution).
     */
    ParseException inExpansion() {
        return inExpansion ? this : new ParseException(getMessage().substring(getMessage().indexOf(": ") + 2), line,
                column, true);
    }

    /** Whether this error was found in text bash parses only while expanding it (see {@link #inExpansion()}). */
    boolean isInExpansion() {
        return inExpansion;
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
