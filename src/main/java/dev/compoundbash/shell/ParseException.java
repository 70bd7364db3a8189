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
        super(line + ":" + column + ": " + message);
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
