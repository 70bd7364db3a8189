package dev.compoundbash.settings;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;

import java.nio.file.Path;

/**
 * Where a JSON file breaks, in the form compilers use: {@code FILE:LINE:COLUMN} (jackson's
 * {@link JsonProcessingException#getLocation()}: line and column from 1, the column counted in characters), so the
 * hook's reason, {@code doctor} and {@code install} name the place to fix (issue 20, a new user's settings file with
 * a JSON error).
 */
public final class JsonErrors {
    private JsonErrors() {
    }

    /**
     * The place of a parse error.
     *
     * @param file the file that was parsed
     * @param e    jackson's error
     * @return {@code FILE:LINE:COLUMN}, or {@code FILE} when jackson gives no location
     */
    public static String at(Path file, JsonProcessingException e) {
        JsonLocation l = e.getLocation();
        if (l == null || l.getLineNr() < 1) return String.valueOf(file);
        return file + ":" + l.getLineNr() + (l.getColumnNr() > 0 ? ":" + l.getColumnNr() : "");
    }

    /**
     * One line for a user: {@code FILE:LINE:COLUMN: invalid JSON: MESSAGE}, the message without jackson's source
     * excerpt.
     *
     * @param file the file that was parsed
     * @param e    jackson's error
     * @return the line
     */
    public static String describe(Path file, JsonProcessingException e) {
        return at(file, e) + ": invalid JSON: " + message(e);
    }

    /**
     * Jackson's message on one line, without its source excerpt: a location inside it ({@code [Source: REDACTED
     * ...; line: 2, column: 5]}, the start of an unclosed array) becomes {@code line 2, column 5}.
     *
     * @param e jackson's error
     * @return the message
     */
    public static String message(JsonProcessingException e) {
        String m = e.getOriginalMessage() == null ? "" : e.getOriginalMessage();
        m = m.replaceAll("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]", "line $1, column $2");
        return m.replaceAll("\\s+", " ").strip();
    }
}
