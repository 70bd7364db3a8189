package dev.compoundbash.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Verifies the adversarial corpus cases that say what bash runs ({@code "runs"}: the argv lists bash 5.2 runs for
 * the command, issue 14): each command is run by the real bash in the execution oracle's sandbox (shims for every
 * name, decoys in {@code ./0/} and the descriptor-number directories {@code ./10/ ./11/ ./12/}, a work directory holding {@code a.txt}), and every listed argv must be recorded. When
 * the case expects {@code allow}, every recorded argv must also be one the hook approved, as in the execution
 * oracle. So each expected decision rests on what bash really does, not on the model.
 */
class CorpusRunsTest {
    @TempDir
    Path tmp;

    @Test
    void everyCaseRunsWhatItSaysUnderBash() throws Exception {
        Assumptions.assumeTrue(ExecutionOracleTest.bwrapWorks(), "bubblewrap cannot run here");
        ObjectMapper json = new ObjectMapper();
        List<JsonNode> cases = new ArrayList<>();
        for (String line : Files.readAllLines(Path.of("src/test/resources/adversarial/corpus.jsonl"))) {
            if (line.isBlank() || line.startsWith("#")) continue;
            JsonNode n = json.readTree(line);
            // adv-opt cases run under the real wrapper programs, with their files and a root sandbox for su:
            // WrapperOptionOracleTest checks their runs field
            if (n.has("runs") && !n.path("id").asText().startsWith("adv-opt-")) cases.add(n);
        }
        assertThat(cases).as("cases with a runs field").isNotEmpty();
        Path shims = Files.createDirectories(tmp.resolve("shims"));
        for (String name : ExecutionOracleTest.SHIMMED) ExecutionOracleTest.recorder(shims.resolve(name), "");
        Path real = Files.createDirectories(tmp.resolve("real"));
        for (String n : ExecutionOracleTest.WRAPPERS) {
            Path target = Path.of(n.equals("sh") || n.equals("bash") ? "/bin" : "/usr/bin", n);
            if (!Files.exists(target)) target = Path.of("/bin", n);
            Files.createSymbolicLink(real.resolve(n), target);
        }
        RuleEngine engine = RuleEngine.load(List.of());
        HookLog quiet = HookLog.open(Map.of(), "oracle");
        List<String> problems = new ArrayList<>();
        for (int i = 0; i < cases.size(); i++) {
            JsonNode c = cases.get(i);
            String id = c.path("id").asText();
            String command = c.path("command").asText();
            Path work = Files.createDirectories(tmp.resolve("work-" + i));
            Files.writeString(work.resolve("a.txt"), "one\n");
            // decoys where a changed PATH leads: 0 (PATH=0), and the descriptor numbers {PATH}> assigns
            for (String d : ExecutionOracleTest.DECOY_DIRS) {
                Files.createDirectories(work.resolve(d));
                for (String n : ExecutionOracleTest.SHIMMED) ExecutionOracleTest.recorder(work.resolve(d).resolve(n), "alt-");
            }
            Path recs = Files.createDirectories(tmp.resolve("rec-" + i));
            Process p = new ProcessBuilder("bwrap", "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--dev", "/dev",
                    "--proc", "/proc", "--bind", work.toString(), work.toString(), "--bind", recs.toString(),
                    recs.toString(), "--ro-bind", shims.toString(), shims.toString(), "--ro-bind", real.toString(),
                    real.toString(), "--unshare-all", "--die-with-parent", "--new-session", "--chdir",
                    work.toString(), "/usr/bin/env", "-i", "PATH=/usr/bin:/bin", "HOME=/nonexistent-home",
                    "ORACLE_REC=" + recs, "/bin/bash", "-c", ExecutionOracleTest.WAITGROUP
                    + "PATH=\"$2\" /usr/bin/timeout -s KILL 10 /bin/bash -c \"$1\" </dev/null & g=$!; wait $g; "
                    + "waitgroup $g", "driver", command, shims + ":" + real)
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            List<List<String>> wanted = new ArrayList<>();
            for (JsonNode want : c.path("runs")) {
                List<String> argv = new ArrayList<>();
                want.forEach(a -> argv.add(a.asText()));
                String name = argv.get(0);
                if (name.startsWith("decoy:")) argv.set(0, ExecutionOracleTest.DECOY + name.substring(6));
                wanted.add(argv);
            }
            // the driver waited for every process of the case's process group (process substitutions included)
            List<List<String>> recorded = ExecutionOracleTest.recordings(recs);
            for (List<String> argv : wanted) {
                if (!recorded.contains(argv)) problems.add(id + ": bash did not run " + argv + "; ran " + recorded);
            }
            if (c.path("expected").asText().equals("allow")) {
                PermissionSettings ps = new PermissionSettings(strings(c.path("allow")), strings(c.path("ask")),
                        strings(c.path("deny")), List.of(), List.of(), List.of(), false);
                Decider.Verdict v = HookRunner.decide(new Decider.Call(command, work.toString(), null, ps, null), engine,
                        quiet);
                String problem = ExecutionOracleTest.checkAllow(new ExecutionOracleTest.Case(i, command, ps, v),
                        recorded);
                if (problem != null) problems.add(id + ": " + problem);
            }
        }
        Files.writeString(Path.of("target/corpus-runs.txt"), cases.size() + " cases run under bash\n"
                + String.join("\n", problems) + "\n", StandardCharsets.UTF_8);
        assertThat(problems).isEmpty();
    }

    private static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.forEach(x -> out.add(x.asText()));
        return out;
    }
}
