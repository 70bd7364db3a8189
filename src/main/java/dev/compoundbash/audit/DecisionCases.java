package dev.compoundbash.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;

import java.io.BufferedReader;
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
 * outcome or a list of acceptable ones), run in
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
                       String why, String permissionMode, Map<String, String> files) {
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

    /**
     * Reads every case of a JSONL file; blank lines and lines starting with {@code #} are skipped.
     *
     * @throws IOException when the file cannot be read or a line is not a case object
     */
    public static List<Case> read(Path file) throws IOException {
        List<Case> out = new ArrayList<>();
        try (BufferedReader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int n = 0;
            while ((line = r.readLine()) != null) {
                n++;
                String t = line.strip();
                if (t.isEmpty() || t.startsWith("#")) continue;
                JsonNode o;
                try {
                    o = JSON.readTree(t);
                } catch (IOException e) {
                    throw new IOException(file + ":" + n + ": not JSON: " + e.getMessage());
                }
                if (!o.isObject() || !o.path("command").isTextual()) {
                    throw new IOException(file + ":" + n + ": a case needs an object with a string \"command\"");
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
                        files(o.path("files"))));
            }
        }
        return out;
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
     *               {@code CLAUDE_CODE_SHELL}, {@code PATH} for the shell Claude Code runs are read)
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
                    env.get("TMPDIR"), env.get("HOME"), dev.compoundbash.settings.ClaudeCodeShell.of(env).kind()),
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
