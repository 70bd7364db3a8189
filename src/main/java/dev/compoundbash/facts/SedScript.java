package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads a sed script the way GNU sed 4.9 compiles it ({@code sed/compile.c}; the GNU sed manual, "sed scripts"; POSIX
 * sed "Editing Commands in sed"): commands separated by newlines or {@code ;}, each with up to two addresses
 * ({@code N}, {@code first~step}, {@code $}, {@code /re/I M}, {@code \cREc}, {@code addr,+N}, {@code addr,~N}) and
 * {@code !}, blocks {@code { }}, comments. It finds what the script does beyond printing text:
 * <ul>
 *   <li>the files it reads ({@code r FILE}, {@code R FILE}) and writes ({@code w FILE}, {@code W FILE},
 *       {@code s///w FILE}); {@code /dev/stdin}, {@code /dev/stdout} and {@code /dev/stderr} are GNU sed's own
 *       streams, no file;</li>
 *   <li>the shell commands it runs: {@code e COMMAND} (static text), and {@code e} alone or the {@code s///e} flag,
 *       which run the pattern space (text only known at run time);</li>
 *   <li>anything it does not understand (a command or flag outside the known list, an unterminated {@code s},
 *       a missing file name): unknown, never harmless.</li>
 * </ul>
 * The known commands are the harmless ones and those above: {@code p P d D s y = l q Q n N g G h H x b t T : { } !
 * a i c z F v #} and the file commands. BSD sed's commands are a subset of these spellings.
 */
final class SedScript {
    /** GNU sed's own output streams ({@code compile.c} {@code get_openfile}): no file is opened. */
    private static final java.util.Set<String> STREAMS = java.util.Set.of("/dev/stdout", "/dev/stderr");
    private final String s;
    private int pos;
    private final ProgramText.Found found = new ProgramText.Found();

    private SedScript(String script) {
        this.s = script;
    }

    /**
     * Reads one script (the {@code -e} pieces joined by newlines, as GNU sed joins them).
     *
     * @param script the script text
     * @return what it reads, writes, runs, and what is not understood
     */
    static ProgramText.Found read(String script) {
        SedScript r = new SedScript(script);
        r.script();
        return r.found;
    }

    private boolean eof() {
        return pos >= s.length();
    }

    private char peek() {
        return s.charAt(pos);
    }

    private void blanks() {
        while (!eof() && (peek() == ' ' || peek() == '\t')) pos++;
    }

    private void script() {
        int depth = 0;
        while (true) {
            while (!eof() && (Character.isWhitespace(peek()) || peek() == ';')) pos++;
            if (eof()) break;
            char c = peek();
            if (c == '#') {
                toLineEnd();
                continue;
            }
            boolean addressed = address();
            if (found.stopped()) return;
            if (addressed) {
                blanks();
                if (!eof() && peek() == ',') {
                    pos++;
                    blanks();
                    if (!secondAddress()) {
                        found.unknown("an address it cannot read");
                        return;
                    }
                }
            }
            blanks();
            while (!eof() && peek() == '!') {
                pos++;
                blanks();
            }
            if (eof()) {
                found.unknown("a missing command");
                return;
            }
            char cmd = s.charAt(pos++);
            switch (cmd) {
                case '{' -> {
                    depth++;
                    continue;
                }
                case '}' -> {
                    if (--depth < 0) {
                        found.unknown("an unmatched }");
                        return;
                    }
                }
                case ':' -> {
                    blanks();
                    if (label().isEmpty() || addressed) {
                        found.unknown("a label it cannot read");
                        return;
                    }
                    continue;
                }
                case 'b', 't', 'T' -> {
                    // GNU sed 4.9 ends a branch's label at a semicolon, blank or } too (measured: {ba} jumps to a)
                    blanks();
                    while (!eof() && peek() != '\n' && peek() != ';' && peek() != '}' && peek() != ' '
                            && peek() != '\t') pos++;
                }
                case '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F' -> {
                }
                case 'l', 'L', 'q', 'Q' -> {
                    blanks();
                    while (!eof() && Character.isDigit(peek())) pos++;
                }
                case 'v' -> {
                    blanks();
                    label();
                    continue;
                }
                case 'a', 'i', 'c' -> {
                    text();
                    continue;
                }
                case 'r', 'R', 'w', 'W' -> {
                    String file = fileName();
                    if (file.isEmpty()) {
                        found.unknown("the " + cmd + " command without a file name");
                        return;
                    }
                    if (cmd == 'r' || cmd == 'R') {
                        if (!file.equals("/dev/stdin")) found.read(file);
                    } else if (!STREAMS.contains(file)) {
                        found.write(file);
                    }
                    continue;
                }
                case 'e' -> {
                    blanks();
                    int start = pos;
                    toLineEnd();
                    String command = s.substring(start, pos).strip();
                    if (command.isEmpty()) found.hidden("e runs the pattern space as a command");
                    else found.command(command);
                    continue;
                }
                case 's' -> {
                    if (!substitute()) return;
                    continue;
                }
                case 'y' -> {
                    if (eof() || peek() == '\n' || peek() == '\\') {
                        found.unknown("a y command it cannot read");
                        return;
                    }
                    char d = s.charAt(pos++);
                    if (!delimited(d) || !delimited(d)) {
                        found.unknown("an unterminated y command");
                        return;
                    }
                }
                default -> {
                    found.unknown("the command " + cmd);
                    return;
                }
            }
            if (!commandEnd()) return;
        }
        if (depth != 0) found.unknown("an unmatched {");
    }

    /** After a command: blanks, then the end, {@code ;}, a newline, {@code }} or a comment. */
    private boolean commandEnd() {
        blanks();
        if (eof()) return true;
        char c = peek();
        if (c == ';' || c == '\n' || c == '}' || c == '#') return true;
        found.unknown("extra characters after a command");
        return false;
    }

    /** One address, if any: true when one was read. */
    private boolean address() {
        if (eof()) return false;
        char c = peek();
        if (Character.isDigit(c)) {
            while (!eof() && Character.isDigit(peek())) pos++;
            if (!eof() && peek() == '~') {
                pos++;
                while (!eof() && Character.isDigit(peek())) pos++;
            }
            return true;
        }
        if (c == '$') {
            pos++;
            return true;
        }
        if (c == '/' || c == '\\') {
            pos++;
            char d = '/';
            if (c == '\\') {
                if (eof() || peek() == '\n' || peek() == '\\') {
                    found.unknown("an address it cannot read");
                    return false;
                }
                d = s.charAt(pos++);
            }
            if (!delimited(d)) {
                found.unknown("an unterminated address");
                return false;
            }
            while (!eof() && (peek() == 'I' || peek() == 'M')) pos++;
            return true;
        }
        return false;
    }

    private boolean secondAddress() {
        if (eof()) return false;
        char c = peek();
        if (c == '+' || c == '~') {
            pos++;
            int start = pos;
            while (!eof() && Character.isDigit(peek())) pos++;
            return pos > start;
        }
        return address();
    }

    /**
     * Text up to an unescaped {@code d}, which is consumed; false when unterminated. A backslash escapes the next
     * character, a newline included; an unescaped newline that is not {@code d} ends the command unterminated. Serves
     * the regular expression and the replacement of {@code s} alike.
     */
    private boolean delimited(char d) {
        while (!eof()) {
            char c = s.charAt(pos++);
            if (c == '\\') {
                if (eof()) return false;
                pos++;
            } else if (c == d) {
                return true;
            } else if (c == '\n') {
                return false;
            }
        }
        return false;
    }

    /** {@code s/RE/REPLACEMENT/FLAGS}, after the {@code s}. */
    private boolean substitute() {
        if (eof() || peek() == '\n' || peek() == '\\') {
            found.unknown("an s command it cannot read");
            return false;
        }
        char d = s.charAt(pos++);
        if (!delimited(d) || !delimited(d)) {
            found.unknown("an unterminated s command");
            return false;
        }
        while (!eof()) {
            char f = peek();
            if (f == 'g' || f == 'p' || f == 'i' || f == 'I' || f == 'm' || f == 'M' || Character.isDigit(f)) {
                pos++;
            } else if (f == 'e') {
                pos++;
                found.hidden("the s///e flag runs the pattern space as a command");
            } else if (f == 'w') {
                pos++;
                String file = fileName();
                if (file.isEmpty()) {
                    found.unknown("the s///w flag without a file name");
                    return false;
                }
                if (!STREAMS.contains(file)) found.write(file);
                return true;
            } else {
                break;
            }
        }
        return commandEnd();
    }

    /** A label or version: up to a newline or {@code ;}, trimmed. */
    private String label() {
        int start = pos;
        while (!eof() && peek() != '\n' && peek() != ';') pos++;
        return s.substring(start, pos).strip();
    }

    /** A file name: after blanks, to the end of the line (GNU sed: {@code read_filename}). */
    private String fileName() {
        blanks();
        int start = pos;
        toLineEnd();
        return s.substring(start, pos);
    }

    /** The text of {@code a}, {@code i}, {@code c}: lines, each ending in a backslash continuing it. */
    private void text() {
        blanks();
        if (!eof() && peek() == '\\') {
            pos++;
            blanks();
            if (!eof() && peek() == '\n') pos++;
        }
        while (!eof()) {
            char c = s.charAt(pos++);
            if (c == '\\') {
                if (!eof()) pos++;
            } else if (c == '\n') {
                return;
            }
        }
    }

    private void toLineEnd() {
        while (!eof() && peek() != '\n') pos++;
    }
}
