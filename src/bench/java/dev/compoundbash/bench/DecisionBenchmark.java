package dev.compoundbash.bench;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.audit.ParallelReplay;
import dev.compoundbash.facts.Environment;
import dev.compoundbash.facts.FactExtractor;
import dev.compoundbash.facts.Facts;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.shell.ParseException;
import dev.compoundbash.shell.Parser;
import dev.compoundbash.shell.Script;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * In-process figures over {@code bench/corpus.jsonl} (issue 7): one operation = one command of the corpus, taken in
 * turn. {@code parse}: {@link Parser}; {@code extract}: {@link FactExtractor} on a parsed tree; {@code decide}: the
 * whole {@link HookRunner#decide} with a warm KieBase (parse, facts, a new KieSession, the outcome);
 * {@code replay}: the whole corpus through {@link ParallelReplay} on {@code threads} threads.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DecisionBenchmark {
    /** Commands in the corpus file. */
    List<String> commands;
    List<Script> parsed;
    RuleEngine engine;
    PermissionSettings settings;
    Environment environment;
    String cwd;
    HookLog quiet;
    int next;

    /** Commands in bench/corpus.jsonl; {@link #replay} counts one operation per command. */
    public static final int CORPUS_SIZE = 1272;

    @Param({"1"})
    public int threads;

    @Setup(Level.Trial)
    public void load() throws IOException {
        Path corpus = Path.of(System.getProperty("bench.corpus", "bench/corpus.jsonl"));
        ObjectMapper json = new ObjectMapper();
        commands = new ArrayList<>();
        for (String line : Files.readAllLines(corpus)) {
            if (line.isBlank()) continue;
            JsonNode n = json.readTree(line);
            commands.add(n.get("command").asText());
        }
        if (commands.size() != CORPUS_SIZE) {
            throw new IllegalStateException(corpus + " has " + commands.size() + " commands; update CORPUS_SIZE");
        }
        parsed = new ArrayList<>();
        for (String c : commands) {
            try {
                parsed.add(Parser.parse(c));
            } catch (ParseException e) {
                // extraction is measured on commands that parse
            }
        }
        engine = RuleEngine.load(List.of());
        settings = new PermissionSettings(List.of("Bash(git *)", "Bash(npm test:*)", "Bash(npm run *)",
                "Bash(mvn *)", "Bash(docker ps:*)", "Bash(kubectl get *)"), List.of(),
                List.of("Bash(git push --force *)", "Bash(rm -rf /*)"), List.of(), List.of(), List.of());
        cwd = Files.createTempDirectory("compound-bash-bench").toString();
        environment = Environment.of(Path.of(cwd), List.of(), null);
        quiet = HookLog.open(Map.of(), "bench");
    }

    private int nextIndex(int size) {
        int i = next++;
        if (next >= size) next = 0;
        return i;
    }

    @Benchmark
    public Object parse() {
        try {
            return Parser.parse(commands.get(nextIndex(commands.size())));
        } catch (ParseException e) {
            return e;
        }
    }

    @Benchmark
    public Facts extract() {
        return FactExtractor.extract(parsed.get(nextIndex(parsed.size())), environment);
    }

    @Benchmark
    public HookRunner.Verdict decide() {
        return HookRunner.decide(commands.get(nextIndex(commands.size())), cwd, settings, engine, null, quiet);
    }

    /** The whole corpus per invocation; the score is per command (divide 1 by it for commands per µs). */
    @Benchmark
    @OperationsPerInvocation(CORPUS_SIZE)
    public List<HookRunner.Verdict> replay() {
        return ParallelReplay.decideAll(commands, cwd, settings, engine, null, threads);
    }
}
