package dev.compoundbash.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.facts.CallContext;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Decision cases in the JSONL form of {@code ../shared/cases} (fields {@code id command allow ask deny
 * additionalDirectories cwd expected why}, and {@code permission_mode} as in the hook input; {@code expected} is one
 * outcome or a list of acceptable ones; {@code shell} {@code bash} or {@code zsh}, the shell Claude Code runs the
 * command in, else the one it would pick in the environment given, {@link dev.compoundbash.settings.ClaudeCodeShell}),
 * run in
 * process through the same {@link Decider#decide} the hook uses, each in a fresh empty working directory unless
 * the case names one. A case may carry {@code files}: relative path to content, or to {@code "-> TARGET"} for a
 * symbolic link; they are made under a fresh directory whose {@code work} subdirectory is the working directory (so
 * {@code ../outside/x} is a file outside it), then removed.
 */
public final class DecisionCases {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One case as read from a file. */
    public record Case(String file, int line, String id, String command, List<String> allow, List<String> ask,
                       List<String> deny, List<String> additionalDirectories, String cwd, List<String> expected,
                       String why, String permissionMode, Map<String, String> files, String shell) {
        /** A case that names no shell (the environment's is used). */
        public Case(String file, int line, String id, String command, List<String> allow, List<String> ask,
                    List<String> deny, List<String> additionalDirectories, String cwd, List<String> expected,
                    String why, String permissionMode, Map<String, String> files) {
            this(file, line, id, command, allow, ask, deny, additionalDirectories, cwd, expected, why, permissionMode,
                    files, null);
        }

        /** A case without a file tree. */
        public Case(String file, int line, String id, String command, List<String> allow, List<String> ask,
                    List<String> deny, List<String> additionalDirectories, String cwd, List<String> expected,
                    String why, String permissionMode) {
            this(file, line, id, command, allow, ask, deny, additionalDirectories, cwd, expected, why, permissionMode,
                    null);
        }
    }

    /** The outcome of one case: {@code passed} is null when the case states no expectation. */
    public record Result(Case testCase, String actual, String reason, Boolean passed) {
    }

    private DecisionCases() {
    }

    /** The outcomes a case may expect: the hook's four answers. */
    public static final java.util.Set<String> OUTCOMES = java.util.Set.of("allow", "ask", "deny", "defer");
    /** The shells a case may name. */
    public static final java.util.Set<String> SHELLS = java.util.Set.of("bash", "zsh");
    /** The fields of a case; see the class comment. */
    public static final List<String> FIELDS = List.of("id", "command", "allow", "ask", "deny",
            "additionalDirectories", "cwd", "expected", "why", "permission_mode", "files", "shell");
    /**
     * Fields the case files of the e2e tools carry ({@code claude-e2e}, {@code src/test/e2e}: what Claude Code did
     * natively and with the hook, set-up commands, ...): accepted and not used here.
     */
    public static final List<String> OTHER_TOOLS_FIELDS = List.of("native", "with_hook", "native_reason",
            "with_allow_hook", "prompt_removed", "setup", "hook_start", "runs");

    /**
     * One thing wrong in a case file: where, and what, in one line.
     *
     * @param file    the file
     * @param line    the 1-based line, or 0 for the file as a whole
     * @param message what is wrong and what is allowed
     */
    public record Problem(Path file, int line, String message) {
        @Override
        public String toString() {
            return file + (line > 0 ? ":" + line : "") + ": " + message;
        }
    }

    /**
     * Every case of a file, every problem found reading it (the cases are usable only when there is none), and
     * warnings: what is valid but likely a slip ({@code permission_mode} no mode of Claude Code's: the hook reads
     * such a mode as {@code default}, which a case may test on purpose).
     */
    public record CaseFile(List<Case> cases, List<Problem> problems, List<Problem> warnings) {
    }

    /**
     * Reads every case of a JSONL file; blank lines and lines starting with {@code #} are skipped.
     *
     * @throws IOException when the file cannot be read or a line is not a valid case ({@link #check}): the
     *                     message is the first problem, as {@code file:line: message}
     */
    public static List<Case> read(Path file) throws IOException {
        CaseFile f = check(file);
        if (!f.problems().isEmpty()) throw new IOException(f.problems().get(0).toString());
        return f.cases();
    }

    /**
     * Reads and validates a JSONL case file, line by line: each line a JSON object; {@code command} a string (and
     * required); {@code id}, {@code cwd}, {@code why} strings; {@code allow}, {@code ask}, {@code deny},
     * {@code additionalDirectories} lists of strings; {@code expected} one of {@code allow ask deny defer} or a
     * non-empty list of them; {@code permission_mode} a string (a warning when it is none of Claude Code's modes,
     * {@link CallContext#KNOWN_MODES} and {@code manual});
     * {@code files} an object of strings; no other field but those of the e2e tools ({@link #OTHER_TOOLS_FIELDS}),
     * so a misspelt field is an error rather than a case that silently checks nothing.
     *
     * @param file the file
     * @return the cases, one problem per bad line (or one for the file when it cannot be read), and the warnings;
     *         never throws
     */
    public static CaseFile check(Path file) {
        List<Case> out = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        List<Problem> warnings = new ArrayList<>();
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            problems.add(new Problem(file, 0, "no such file"));
            return new CaseFile(out, problems, warnings);
        } catch (java.nio.charset.MalformedInputException e) {
            problems.add(new Problem(file, 0, "not UTF-8 text"));
            return new CaseFile(out, problems, warnings);
        } catch (IOException e) {
            problems.add(new Problem(file, 0, "cannot read: " + e.getMessage()));
            return new CaseFile(out, problems, warnings);
        }
        for (int n = 1; n <= lines.size(); n++) {
            String t = lines.get(n - 1).strip();
            if (t.isEmpty() || t.startsWith("#")) continue;
            JsonNode o;
            try {
                o = JSON.readTree(t);
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                com.fasterxml.jackson.core.JsonLocation at = e.getLocation();
                problems.add(new Problem(file, n, "not JSON" + (at != null && at.getColumnNr() > 0
                        ? " (column " + at.getColumnNr() + ")" : "") + ": " + firstLine(e.getOriginalMessage())));
                continue;
            } catch (IOException e) {
                problems.add(new Problem(file, n, "not JSON: " + firstLine(e.getMessage())));
                continue;
            }
            String why = invalid(o);
            if (why != null) {
                problems.add(new Problem(file, n, why));
                continue;
            }
            JsonNode mode = o.get("permission_mode");
            java.util.Set<String> modes = new java.util.TreeSet<>(CallContext.KNOWN_MODES);
            modes.add("manual"); // Claude Code's documented alias of default (CallContext reads it so)
            if (mode != null && mode.isTextual() && !modes.contains(mode.asText())) {
                warnings.add(new Problem(file, n, "\"permission_mode\" is \"" + oneLine(mode.asText())
                        + "\", no mode of Claude Code's (" + String.join(", ", modes) + "): the hook reads it as default"));
            }
            List<String> expected = new ArrayList<>();
            JsonNode e = o.path("expected");
            if (e.isTextual()) expected.add(e.asText());
            else if (e.isArray()) e.forEach(x -> expected.add(x.asText()));
            out.add(new Case(file.toString(), n, o.path("id").asText("line" + n), o.path("command").asText(),
                    strings(o.path("allow")), strings(o.path("ask")), strings(o.path("deny")),
                    strings(o.path("additionalDirectories")), o.hasNonNull("cwd") ? o.path("cwd").asText() : null,
                    expected, o.path("why").asText(""),
                    o.hasNonNull("permission_mode") ? o.path("permission_mode").asText() : null,
                    files(o.path("files")), o.hasNonNull("shell") ? o.path("shell").asText() : null));
        }
        return new CaseFile(out, problems, warnings);
    }

    /** Why {@code o} is not a valid case, in one line; null when it is. */
    private static String invalid(JsonNode o) {
        if (!o.isObject()) return "a case is a JSON object, not " + kind(o);
        for (var it = o.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!FIELDS.contains(f) && !OTHER_TOOLS_FIELDS.contains(f)) {
                return "unknown field \"" + oneLine(f) + "\" (a case has " + String.join(", ", FIELDS) + ")";
            }
        }
        if (!o.has("command")) return "no \"command\": a case needs the Bash command as a string";
        for (String f : List.of("id", "command", "cwd", "why")) {
            JsonNode v = o.get(f);
            if (v != null && !v.isTextual() && !(v.isNull() && !f.equals("command"))) {
                return "\"" + f + "\" must be a string, not " + kind(v);
            }
        }
        for (String f : List.of("allow", "ask", "deny", "additionalDirectories")) {
            JsonNode v = o.get(f);
            if (v == null || v.isNull()) continue;
            if (!v.isArray()) return "\"" + f + "\" must be a list of strings, not " + kind(v);
            for (JsonNode x : v) if (!x.isTextual()) return "\"" + f + "\" must hold only strings, not " + kind(x);
        }
        JsonNode e = o.get("expected");
        if (e != null && !e.isNull()) {
            String allowed = "allow, ask, deny or defer";
            if (e.isTextual()) {
                if (!OUTCOMES.contains(e.asText())) {
                    return "\"expected\" is \"" + oneLine(e.asText()) + "\": it must be " + allowed + " (or a list of them)";
                }
            } else if (e.isArray()) {
                if (e.isEmpty()) return "\"expected\" is an empty list: name at least one of " + allowed;
                for (JsonNode x : e) {
                    if (!x.isTextual()) return "\"expected\" must hold only strings, not " + kind(x);
                    if (!OUTCOMES.contains(x.asText())) {
                        return "\"expected\" holds \"" + oneLine(x.asText()) + "\": each must be " + allowed;
                    }
                }
            } else {
                return "\"expected\" must be " + allowed + " or a list of them, not " + kind(e);
            }
        }
        JsonNode m = o.get("permission_mode");
        if (m != null && !m.isNull() && !m.isTextual()) return "\"permission_mode\" must be a string, not " + kind(m);
        JsonNode sh = o.get("shell");
        if (sh != null && !sh.isNull() && !(sh.isTextual() && SHELLS.contains(sh.asText()))) {
            return "\"shell\" must be \"bash\" or \"zsh\", not " + (sh.isTextual() ? "\"" + oneLine(sh.asText()) + "\"" : kind(sh));
        }
        JsonNode files = o.get("files");
        if (files != null && !files.isNull()) {
            if (!files.isObject()) return "\"files\" must be an object of path: content, not " + kind(files);
            for (var it = files.fields(); it.hasNext(); ) {
                var f = it.next();
                if (!f.getValue().isTextual()) {
                    return "\"files\": the content of \"" + oneLine(f.getKey()) + "\" must be a string, not " + kind(f.getValue());
                }
                Path p = Path.of("/root").resolve(f.getKey()).normalize();
                if (f.getKey().startsWith("/") || !p.startsWith("/root")) {
                    return "\"files\": \"" + oneLine(f.getKey()) + "\" must be a relative path inside the case's directory";
                }
            }
        }
        return null;
    }

    /** What a JSON value is, for a message: {@code a number (3)}, {@code a list}, ... */
    private static String kind(JsonNode v) {
        if (v.isTextual()) return "a string";
        if (v.isNumber()) return "a number (" + v.asText() + ")";
        if (v.isBoolean()) return v.asText();
        if (v.isNull()) return "null";
        if (v.isArray()) return "a list";
        if (v.isObject()) return "an object";
        return v.getNodeType().toString().toLowerCase();
    }

    /** {@code s} on one line, cut to 60 characters, control characters shown as {@code ?}. */
    private static String oneLine(String s) {
        String t = s.length() > 60 ? s.substring(0, 57) + "..." : s;
        return t.replaceAll("\\p{Cntrl}", "?");
    }

    /** The first line of a parser's message, without the parser's note on where in its input it was. */
    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        String t = nl >= 0 ? s.substring(0, nl) : s;
        return t.replaceFirst("\\s*\\(start marker at \\[Source.*$", "").replaceFirst("\\s*at \\[Source.*$", "");
    }

    private static Map<String, String> files(JsonNode n) {
        if (!n.isObject()) return null;
        Map<String, String> out = new java.util.LinkedHashMap<>();
        n.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        return out;
    }

    /** Makes a case's file tree under {@code root}: each entry a file with that content, or a link. */
    static void makeTree(Path root, Map<String, String> files) throws IOException {
        Files.createDirectories(root.resolve("work"));
        Files.createDirectories(root.resolve("outside"));
        for (Map.Entry<String, String> e : files.entrySet()) {
            Path p = root.resolve(e.getKey()).normalize();
            if (!p.startsWith(root)) throw new IOException("a case file outside its tree: " + e.getKey());
            Files.createDirectories(p.getParent());
            if (e.getValue().startsWith("-> ")) {
                Files.createSymbolicLink(p, Path.of(e.getValue().substring(3)));
            } else if (e.getKey().endsWith("/")) {
                Files.createDirectories(p);
            } else {
                Files.writeString(p, e.getValue());
            }
        }
    }

    private static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n.isArray()) n.forEach(x -> out.add(x.asText()));
        return out;
    }

    /**
     * Runs one case.
     *
     * @param c      the case
     * @param engine the rules to judge with
     * @param env    the environment the hook would see ({@code TMPDIR}, {@code HOME}, and {@code SHELL},
     *               {@code CLAUDE_CODE_SHELL}, {@code PATH} for the shell Claude Code runs are read, unless the
     *               case names its shell)
     * @return the result
     */
    public static Result run(Case c, RuleEngine engine, Map<String, String> env) {
        Path tmp = null;
        try {
            String cwd = c.cwd();
            if (c.files() != null) {
                tmp = Files.createTempDirectory("compound-bash-case-").toRealPath();
                makeTree(tmp, c.files());
                cwd = tmp.resolve("work").toString();
            } else if (cwd == null) {
                tmp = Files.createTempDirectory("compound-bash-case-");
                cwd = tmp.toString();
            }
            PermissionSettings settings = new PermissionSettings(c.allow(), c.ask(), c.deny(),
                    c.additionalDirectories(), List.of(), List.of());
            Decider.Verdict v = Decider.decideOrDefer(new Decider.Call(c.command(), cwd, c.permissionMode(), settings,
                    env.get("TMPDIR"), env.get("HOME"),
                    c.shell() != null ? c.shell() : dev.compoundbash.settings.ClaudeCodeShell.of(env).kind()),
                    engine);
            Boolean passed = c.expected().isEmpty() ? null : c.expected().contains(v.outcome());
            return new Result(c, v.outcome(), v.reason(), passed);
        } catch (IOException e) {
            return new Result(c, "error", "cannot make a working directory: " + e.getMessage(),
                    c.expected().isEmpty() ? null : false);
        } finally {
            if (tmp != null) deleteTree(tmp);
        }
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // A leftover empty temp directory is harmless.
        }
    }
}
