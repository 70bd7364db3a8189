package dev.compoundbash.settings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Codex CLI's exec-policy rules ({@code $CODEX_HOME/rules/*.rules}, {@code CODEX_HOME} defaulting to
 * {@code ~/.codex}) read as Claude Code permission rules.
 *
 * <p>A rules file is Starlark holding calls such as
 * {@code prefix_rule(pattern = ["git", ["push", "fetch"]], decision = "forbidden", justification = "...")}: a command
 * whose words start with the pattern (a list entry being alternatives) is allowed ({@code allow}), prompted for
 * ({@code prompt}) or refused ({@code forbidden}, the default when no decision is given). Each pattern becomes the
 * Bash rules {@code Bash(git push)} and {@code Bash(git push *)} of the matching kind (allow, ask, deny), which the
 * hook applies at any depth and through every wrapper, where Codex matches the commands it splits out of a simple
 * script only.
 *
 * <p>Closed world: a file or a call this reader cannot read whole (Starlark beyond calls with literal arguments, a
 * function other than {@code prefix_rule}, a pattern token holding {@code *}, which a Bash rule would read as a
 * wildcard) may hold a {@code forbidden} or {@code prompt} rule the hook cannot see, so it becomes the ask rule
 * {@code Bash(*)} (every command asks; a warning names the file and line); an allow rule that cannot be read exactly
 * is dropped.
 *
 * <p>Source: Codex docs "Rules" ({@code prefix_rule}, {@code pattern}, {@code decision}); {@code codex-rs/execpolicy}.
 */
public final class CodexRules {
    /** What the rules read as. */
    public record Read(List<String> allow, List<String> ask, List<String> deny, List<Path> files,
                       List<String> warnings) {
    }

    private CodexRules() {
    }

    /**
     * Codex's home: {@code $CODEX_HOME}, else {@code $HOME/.codex}.
     *
     * @param env the environment
     * @return the directory, or null when neither is set
     */
    public static Path home(Map<String, String> env) {
        String h = env.get("CODEX_HOME");
        if (h != null && !h.isEmpty()) return Path.of(h);
        String home = env.get("HOME");
        return home == null || home.isEmpty() ? null : Path.of(home, ".codex");
    }

    /**
     * Reads every {@code *.rules} file of {@code $CODEX_HOME/rules}, in name order.
     *
     * @param env the environment
     * @return the rules; never null, never throws
     */
    public static Read load(Map<String, String> env) {
        Read out = new Read(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>(),
                new ArrayList<>());
        Path home = home(env);
        if (home == null) return out;
        Path dir = home.resolve("rules");
        if (!Files.isDirectory(dir)) return out;
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.getFileName().toString().endsWith(".rules")).sorted().toList();
        } catch (IOException e) {
            out.warnings().add(dir + ": cannot list: " + e.getMessage() + "; every command asks");
            out.ask().add("Bash(*)");
            return out;
        }
        for (Path f : files) {
            try {
                String text = Files.readString(f, StandardCharsets.UTF_8);
                out.files().add(f);
                read(f.toString(), text, out);
            } catch (IOException | RuntimeException e) {
                out.warnings().add(f + ": cannot read: " + e.getMessage() + "; every command asks");
                if (!out.ask().contains("Bash(*)")) out.ask().add("Bash(*)");
            }
        }
        return out;
    }

    /**
     * Reads one rules file's text into {@code out}.
     *
     * @param name the file's name, for warnings
     * @param text its text
     * @param out  where the rules go
     */
    static void read(String name, String text, Read out) {
        Parser p = new Parser(text);
        while (true) {
            p.skipSpace();
            if (p.atEnd()) break;
            int line = p.line();
            Object stmt;
            try {
                stmt = p.statement();
            } catch (IllegalArgumentException e) {
                unknown(out, name + ":" + line + ": " + e.getMessage());
                return;
            }
            Call call = (Call) stmt;
            if (!call.name.equals("prefix_rule")) {
                unknown(out, name + ":" + line + ": " + call.name + "(...) is not a prefix_rule");
                continue;
            }
            rule(name + ":" + line, call, out);
        }
    }

    private static void rule(String where, Call c, Read out) {
        Object decisionValue = c.kwargs.getOrDefault("decision", "forbidden");
        Object pattern = c.kwargs.containsKey("pattern") ? c.kwargs.get("pattern") : c.args.isEmpty() ? null
                : c.args.get(0);
        String decision = decisionValue instanceof String s ? s : null;
        String kind = decision == null ? null : switch (decision) {
            case "allow" -> "allow";
            case "prompt" -> "ask";
            case "forbidden" -> "deny";
            default -> null;
        };
        List<String> lines = pattern instanceof List<?> l && !l.isEmpty() ? expand(l) : null;
        if (kind == null || lines == null) {
            if (!"allow".equals(decision)) unknown(out, where + ": a prefix_rule whose "
                    + (kind == null ? "decision" : "pattern") + " cannot be read");
            else out.warnings().add(where + ": an allow prefix_rule whose pattern cannot be read is not used");
            return;
        }
        List<String> target = kind.equals("allow") ? out.allow() : kind.equals("ask") ? out.ask() : out.deny();
        for (String l : lines) {
            for (String r : List.of("Bash(" + l + ")", "Bash(" + l + " *)")) {
                if (!target.contains(r)) target.add(r);
            }
        }
    }

    /** The word lines a pattern's alternatives spell, or null when a token cannot be a literal Bash rule word. */
    private static List<String> expand(List<?> pattern) {
        List<String> lines = new ArrayList<>(List.of(""));
        for (Object token : pattern) {
            List<String> alts = new ArrayList<>();
            if (token instanceof String s) {
                alts.add(s);
            } else if (token instanceof List<?> l && !l.isEmpty()) {
                for (Object o : l) {
                    if (!(o instanceof String s)) return null;
                    alts.add(s);
                }
            } else {
                return null;
            }
            for (String a : alts) {
                if (a.isEmpty() || a.contains("*") || a.contains(")") || a.chars().anyMatch(Character::isWhitespace)) {
                    return null;
                }
            }
            List<String> next = new ArrayList<>();
            for (String prefix : lines) {
                for (String a : alts) next.add(prefix.isEmpty() ? a : prefix + " " + a);
            }
            if (next.size() > 4096) return null;
            lines = next;
        }
        return lines;
    }

    private static void unknown(Read out, String why) {
        out.warnings().add(why + ": it may hold a forbidden or prompt rule, so every command asks");
        if (!out.ask().contains("Bash(*)")) out.ask().add("Bash(*)");
    }

    private record Call(String name, List<Object> args, Map<String, Object> kwargs) {
    }

    /** The Starlark subset of rules files: top-level calls whose arguments are strings, lists, bools, numbers. */
    private static final class Parser {
        private final String s;
        private int i;

        Parser(String s) {
            this.s = s;
        }

        boolean atEnd() {
            return i >= s.length();
        }

        int line() {
            int n = 1;
            for (int k = 0; k < i && k < s.length(); k++) if (s.charAt(k) == '\n') n++;
            return n;
        }

        void skipSpace() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == '#') {
                    while (i < s.length() && s.charAt(i) != '\n') i++;
                } else if (Character.isWhitespace(c) || c == ';') {
                    i++;
                } else {
                    break;
                }
            }
        }

        Object statement() {
            String name = ident();
            skipSpace();
            if (!take('(')) throw new IllegalArgumentException("only calls such as prefix_rule(...) are read");
            return call(name);
        }

        private Call call(String name) {
            List<Object> args = new ArrayList<>();
            Map<String, Object> kwargs = new LinkedHashMap<>();
            skipSpace();
            while (!take(')')) {
                int save = i;
                String key = null;
                if (i < s.length() && Character.isLetter(s.charAt(i)) || i < s.length() && s.charAt(i) == '_') {
                    String id = ident();
                    skipSpace();
                    if (take('=')) {
                        key = id;
                    } else {
                        i = save;
                    }
                }
                skipSpace();
                Object v = value();
                if (key != null) kwargs.put(key, v); else args.add(v);
                skipSpace();
                if (take(')')) break;
                if (!take(',')) throw new IllegalArgumentException("expected , or ) in " + name + "(...)");
                skipSpace();
            }
            return new Call(name, args, kwargs);
        }

        private Object value() {
            skipSpace();
            if (atEnd()) throw new IllegalArgumentException("unexpected end of file");
            char c = s.charAt(i);
            if (c == '"' || c == '\'') return string();
            if (c == '[' || c == '(') {
                char close = c == '[' ? ']' : ')';
                i++;
                List<Object> out = new ArrayList<>();
                skipSpace();
                while (!take(close)) {
                    out.add(value());
                    skipSpace();
                    if (take(close)) break;
                    if (!take(',')) throw new IllegalArgumentException("expected , or " + close);
                    skipSpace();
                }
                return out;
            }
            if (Character.isDigit(c) || c == '-') {
                int start = i++;
                while (i < s.length() && Character.isDigit(s.charAt(i))) i++;
                return s.substring(start, i);
            }
            String id = ident();
            return switch (id) {
                case "True" -> Boolean.TRUE;
                case "False" -> Boolean.FALSE;
                case "None" -> null;
                default -> throw new IllegalArgumentException("the value " + id + " is not a literal");
            };
        }

        private String string() {
            char q = s.charAt(i);
            boolean triple = s.startsWith(String.valueOf(q).repeat(3), i);
            i += triple ? 3 : 1;
            StringBuilder b = new StringBuilder();
            while (true) {
                if (atEnd()) throw new IllegalArgumentException("unterminated string");
                char c = s.charAt(i);
                if (triple ? s.startsWith(String.valueOf(q).repeat(3), i) : c == q) {
                    i += triple ? 3 : 1;
                    return b.toString();
                }
                if (c == '\n' && !triple) throw new IllegalArgumentException("unterminated string");
                if (c == '\\' && i + 1 < s.length()) {
                    char n = s.charAt(i + 1);
                    i += 2;
                    switch (n) {
                        case 'n' -> b.append('\n');
                        case 't' -> b.append('\t');
                        case '\\', '\'', '"' -> b.append(n);
                        case '\n' -> { }
                        default -> throw new IllegalArgumentException("the escape \\" + n + " is not read");
                    }
                    continue;
                }
                b.append(c);
                i++;
            }
        }

        private String ident() {
            int start = i;
            while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) i++;
            if (start == i) {
                throw new IllegalArgumentException("unexpected " + (atEnd() ? "end of file" : "'" + s.charAt(i) + "'"));
            }
            return s.substring(start, i);
        }

        private boolean take(char c) {
            if (i < s.length() && s.charAt(i) == c) {
                i++;
                return true;
            }
            return false;
        }
    }
}
