package dev.compoundbash.audit;

import dev.compoundbash.rules.Decider;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class DecisionLogTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static RuleEngine engine;

    @TempDir
    Path tmp;

    @BeforeAll
    static void load() {
        engine = RuleEngine.load(List.of());
    }

    Decider.Verdict decide(String command) {
        PermissionSettings s = new PermissionSettings(List.of("Bash(git status)"), List.of(), List.of("Bash(rm *)"),
                List.of(), List.of(), List.of());
        return HookRunner.decide(new Decider.Call(command, tmp.toString(), null, s, null), engine, HookLog.open(Map.of(), "t"));
    }

    @Test
    void pathDefaultsUnderHomeAndIsOverridable() {
        assertThat(DecisionLog.resolvePath(Map.of("HOME", "/h"))).isEqualTo(Path.of("/h/.claude/logs/compound-bash.jsonl"));
        assertThat(DecisionLog.resolvePath(Map.of("HOME", "/h", DecisionLog.PATH_ENV, "/x/d.jsonl"))).isEqualTo(Path.of("/x/d.jsonl"));
        assertThat(DecisionLog.resolvePath(Map.of())).isNull();
    }

    @Test
    void oneEntryHoldsEveryField() throws Exception {
        Path file = tmp.resolve("logs/d.jsonl");
        Clock clock = Clock.fixed(Instant.parse("2026-11-30T10:00:00Z"), ZoneOffset.UTC);
        DecisionLog log = DecisionLog.open(Map.of(DecisionLog.PATH_ENV, file.toString()), "9.9", clock, System.err);
        log.record("sess", "/w", "git status && echo $(rm -rf x) > out", decide("git status && echo $(rm -rf x) > out"), 1234);
        log.close();
        List<String> lines = Files.readAllLines(file);
        assertThat(lines).hasSize(1);
        JsonNode o = JSON.readTree(lines.get(0));
        assertThat(o.get("time").asText()).isEqualTo("2026-11-30T10:00:00.000Z");
        assertThat(o.get("version").asText()).isEqualTo("9.9");
        assertThat(o.get("session_id").asText()).isEqualTo("sess");
        assertThat(o.get("cwd").asText()).isEqualTo("/w");
        assertThat(o.get("decision").asText()).isEqualTo("deny");
        assertThat(o.get("reason").asText()).contains("rm -rf x");
        assertThat(o.get("duration_us").asLong()).isEqualTo(1234);
        JsonNode subs = o.get("subcommands");
        assertThat(subs).hasSize(3);
        assertThat(subs.get(0).get("argv").toString()).isEqualTo("[\"git\",\"status\"]");
        assertThat(subs.get(0).get("verdict").asText()).isEqualTo("approve");
        assertThat(subs.get(2).get("verdict").asText()).isEqualTo("deny");
        assertThat(subs.get(2).get("top_level").asBoolean()).isFalse();
        assertThat(subs.get(2).get("context").asText()).isEqualTo("command substitution");
        assertThat(subs.get(2).get("rule").asText()).isEqualTo("deny rule matches sub-command");
        assertThat(o.get("redirects").get(0).get("text").asText()).contains("out");
        assertThat(o.get("rules_fired").findValuesAsText("name")).contains("deny rule matches sub-command", "a deny finding denies the call");
        assertThat(o.get("rules_fired").findValuesAsText("file")).contains("rules/patterns.drl", "rules/outcome.drl");
    }

    @Test
    void aParseErrorIsLoggedWithoutSubCommands() throws Exception {
        Path file = tmp.resolve("d.jsonl");
        DecisionLog log = DecisionLog.open(Map.of(DecisionLog.PATH_ENV, file.toString()), "1");
        log.record(null, null, "echo 'x", decide("echo 'x"), 5);
        log.close();
        JsonNode o = JSON.readTree(Files.readString(file));
        assertThat(o.get("decision").asText()).isEqualTo("defer");
        assertThat(o.get("session_id").isNull()).isTrue();
        assertThat(o.get("subcommands")).isEmpty();
    }

    @Test
    void rotatesPastTheSizeLimitKeepingThreeGenerations() throws Exception {
        Path file = tmp.resolve("d.jsonl");
        Map<String, String> env = Map.of(DecisionLog.PATH_ENV, file.toString(), DecisionLog.MAX_BYTES_ENV, "2000");
        Decider.Verdict v = decide("git status");
        int written = 40;
        for (int i = 0; i < written; i++) {
            DecisionLog log = DecisionLog.open(env, "1");
            log.record("s" + i, "/w", "git status", v, i);
            log.close();
        }
        assertThat(Files.size(file)).isLessThan(2000 + 2000);
        assertThat(LockedAppend.generation(file, 1)).exists();
        assertThat(LockedAppend.generation(file, 3)).exists();
        assertThat(LockedAppend.generation(file, 4)).doesNotExist();
        List<Long> seen = new ArrayList<>();
        for (Path p : List.of(LockedAppend.generation(file, 3), LockedAppend.generation(file, 2),
                LockedAppend.generation(file, 1), file)) {
            for (String line : Files.readAllLines(p)) seen.add(JSON.readTree(line).get("duration_us").asLong());
        }
        // Newest entries survive, in order, none torn.
        assertThat(seen).isSorted();
        assertThat(seen.get(seen.size() - 1)).isEqualTo(written - 1);
    }

    @Test
    void threadsNeverTearLines() throws Exception {
        Path file = tmp.resolve("d.jsonl");
        Map<String, String> env = Map.of(DecisionLog.PATH_ENV, file.toString(), DecisionLog.MAX_BYTES_ENV, "50000");
        Decider.Verdict v = decide("git status && ls");
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread th0 = new Thread(() -> {
                for (int i = 0; i < 50; i++) {
                    DecisionLog log = DecisionLog.open(env, "1");
                    log.record("s", "/w", "git status && ls", v, i);
                    log.close();
                }
            });
            th0.start();
            threads.add(th0);
        }
        for (Thread th : threads) th.join();
        int total = 0;
        for (int g = 0; g <= DecisionLog.KEEP; g++) {
            Path p = g == 0 ? file : LockedAppend.generation(file, g);
            if (!Files.exists(p)) continue;
            for (String line : Files.readAllLines(p)) {
                assertThat(JSON.readTree(line).get("command").asText()).isEqualTo("git status && ls");
                total++;
            }
        }
        assertThat(total).isLessThanOrEqualTo(400).isGreaterThan(0);
        assertThat(Files.readAllLines(file)).allSatisfy(l -> assertThat(l).startsWith("{").endsWith("}"));
    }
}
