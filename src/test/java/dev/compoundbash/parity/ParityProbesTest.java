package dev.compoundbash.parity;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Native parity, in process (issue 12): 681 probes measured inside the real Claude Code 2.1.328 (native outcome and
 * reason, and the outcome under a hook that always allows; {@code src/test/resources/parity/probes.jsonl}) are
 * decided by the hook's own decision function in a work directory laid out like the e2e tool's (a git project with
 * symlinks in and out, a file beside it, a home directory). The hook must never answer {@code allow} where Claude
 * Code alone refuses for a reason of its own ({@code reasons.json}) and a hook's allow would make it run. The e2e
 * test inside the real client ({@code src/test/e2e}) confirms a selection of them.
 */
class ParityProbesTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static RuleEngine engine;

    @TempDir
    static Path run;
    static Path work;
    static Path home;

    @BeforeAll
    static void layout() throws IOException {
        engine = RuleEngine.load(List.of());
        work = Files.createDirectories(run.resolve("work"));
        home = Files.createDirectories(run.resolve("home"));
        Files.writeString(run.resolve("outside.txt"), "outside\n");
        Files.writeString(home.resolve(".bashrc"), "");
        for (String f : List.of("README.md", "a.tmp", "b.txt", "file.txt", "files.txt", "notes.md", "x", "x.go",
                "x.json", "x.log", ".env", ".gitignore", "src/main.py", "src/util.py", "sub/notes.txt",
                "build/.keep", "danger/.keep", ".claude/.keep", "sub/.claude/.keep", ".git/HEAD")) {
            Path p = work.resolve(f);
            Files.createDirectories(p.getParent());
            Files.writeString(p, "x\n");
        }
        Files.createSymbolicLink(work.resolve("link-dangling"), Path.of("/nonexistent/x"));
        Files.createSymbolicLink(work.resolve("link-etc-hosts"), Path.of("/etc/hosts"));
        Files.createSymbolicLink(work.resolve("link-inside"), Path.of("file.txt"));
        Files.createSymbolicLink(work.resolve("link-outside"), Path.of("../outside.txt"));
        Files.createSymbolicLink(work.resolve("link-tmp-probe"), Path.of("/tmp/ccr-probe.txt"));
        Files.createSymbolicLink(work.resolve("linkdir-etc"), Path.of("/etc"));
        Files.createSymbolicLink(work.resolve("linkdir-src"), Path.of("src"));
    }

    record Probe(String id, String command, String native_, String reason, String withAllowHook, String mode,
                 PermissionSettings settings, String cwd) {
    }

    static List<Probe> probes() throws IOException {
        List<Probe> out = new ArrayList<>();
        try (InputStream in = ParityProbesTest.class.getResourceAsStream("/parity/probes.jsonl")) {
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                if (line.isBlank() || line.startsWith("#")) continue;
                JsonNode o = JSON.readTree(line);
                String cwd = o.path("cwd").asText("/home/dev/proj");
                out.add(new Probe(o.get("id").asText(), map(o.get("command").asText()), o.path("native").asText(),
                        o.path("native_reason").asText(""), o.path("with_allow_hook").asText(""),
                        o.hasNonNull("permission_mode") ? o.get("permission_mode").asText() : null,
                        new PermissionSettings(list(o, "allow"), list(o, "ask"), list(o, "deny"),
                                list(o, "additionalDirectories"), List.of(), List.of()), map(cwd)));
            }
        }
        return out;
    }

    static String map(String s) {
        return s.replace("/home/dev/proj", work.toString());
    }

    static List<String> list(JsonNode o, String key) {
        List<String> out = new ArrayList<>();
        o.path(key).forEach(x -> out.add(map(x.asText())));
        return out;
    }

    /**
     * Claude Code's reason texts, classified as the e2e test classifies them ({@code src/test/e2e/reasons.json}: first
     * match wins; {@code generic} is its own reason when the command is one of {@code own_commands}; a don't-ask
     * or auto-mode denial takes the reason of the same probe in default mode; a text not listed is its own).
     */
    static final class Reasons {
        final List<JsonNode> reasons = new ArrayList<>();
        final List<Pattern> ownCommands = new ArrayList<>();
        final List<Pattern> matches = new ArrayList<>();

        Reasons() throws IOException {
            JsonNode r = JSON.readTree(Path.of("src/test/e2e/reasons.json").toFile());
            r.get("own_commands").forEach(x -> ownCommands.add(Pattern.compile(x.get("match").asText())));
            r.get("reasons").forEach(x -> {
                reasons.add(x);
                // the file is Python regex syntax: its named groups are (?P<name>...)
                matches.add(Pattern.compile(x.get("match").asText().replace("(?P<", "(?<"), Pattern.DOTALL));
            });
        }

        boolean ownCommand(String command) {
            for (Pattern p : ownCommands) if (p.matcher(command).find()) return true;
            return false;
        }

        boolean own(Probe p, List<Probe> all) {
            String mode = p.mode() == null ? "default" : p.mode();
            for (int i = 0; i < reasons.size(); i++) {
                JsonNode e = reasons.get(i);
                java.util.regex.Matcher m = matches.get(i).matcher(p.reason());
                if (!m.find()) continue;
                if (e.has("modes")) {
                    boolean in = false;
                    for (JsonNode x : e.get("modes")) in |= x.asText().equals(mode);
                    if (!in) continue;
                }
                String kind = e.get("kind").asText();
                if (kind.equals("generic")) return ownCommand(p.command());
                if (e.path("part").asBoolean(false) && m.group("part") != null && ownCommand(m.group("part"))) return true;
                if (kind.equals("dont-ask")) {
                    for (Probe q : all) {
                        if (q != p && q.command().equals(p.command()) && q.settings().equals(p.settings())
                                && (q.mode() == null || q.mode().equals("default")) && !q.reason().isEmpty()) {
                            return own(q, all);
                        }
                    }
                    return false; // no twin to tell: the mode rules of modes.drl stand for it
                }
                return kind.equals("own");
            }
            return !p.reason().isEmpty(); // unclassified: its own, as in the e2e test
        }
    }

    @Test
    void theHookNeverAllowsWhatClaudeCodeRefusesForAReasonOfItsOwn() throws IOException {
        List<String> weaker = new ArrayList<>();
        Map<String, Integer> counts = new TreeMap<>();
        List<String> removed = new ArrayList<>();
        List<Probe> all = probes();
        Reasons reasons = new Reasons();
        for (Probe p : all) {
            Path cwd = Path.of(p.cwd());
            Files.createDirectories(cwd);
            Decider.Verdict v = Decider.decide(new Decider.Call(p.command(), cwd.toString(), p.mode(), p.settings(),
                    null, home.toString()), engine);
            boolean refused = p.native_().equals("refused") || p.native_().equals("denied");
            boolean overridable = p.withAllowHook().equals("ran");
            String key = p.native_() + " -> hook " + v.outcome();
            counts.merge(key, 1, Integer::sum);
            if (v.outcome().equals("allow") && refused && overridable) {
                if (reasons.own(p, all)) {
                    weaker.add(p.id() + ": " + p.command() + "\n    Claude Code: " + p.reason() + "\n    hook: "
                            + v.reason());
                } else {
                    removed.add(p.id());
                }
            }
        }
        StringBuilder report = new StringBuilder("parity probes: " + all.size() + "\n");
        counts.forEach((k, n) -> report.append(String.format("  %-28s %d%n", k, n)));
        report.append("prompts removed (Claude Code cannot read, the hook proves safe): ").append(removed.size())
                .append("\n  ").append(String.join(" ", removed)).append("\n");
        report.append("weaker than Claude Code: ").append(weaker.size()).append("\n");
        for (String w : weaker) report.append("  ").append(w).append("\n");
        Files.createDirectories(Path.of("target"));
        Files.writeString(Path.of("target/parity-probes-report.txt"), report.toString());
        assertThat(weaker).as(report.toString()).isEmpty();
    }
}
