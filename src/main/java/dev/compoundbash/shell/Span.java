package dev.compoundbash.shell;

/**
 * Where a node stands in the source text.
 *
 * @param start  offset of the first character (0-based, in UTF-16 chars of the input string)
 * @param end    offset one past the last character (exclusive); {@code end >= start}
 * @param line   1-based line of {@code start}
 * @param column 1-based column of {@code start} (in chars)
 */
public record Span(int start, int end, int line, int column) {
    /** A span covering {@code from} through {@code to}: start, line and column of {@code from}, end of {@code to}. */
    public static Span join(Span from, Span to) {
        return new Span(from.start, Math.max(from.end, to.end), from.line, from.column);
    }

    /** True when {@code other} lies inside this span (bounds inclusive). */
    public boolean contains(Span other) {
        return other.start >= start && other.end <= end;
    }

    /** The text this span covers in {@code source}. */
    public String text(String source) {
        return source.substring(start, end);
    }
}
