package dev.compoundbash.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.audit.ParallelReplay;
import dev.compoundbash.facts.Environment;
import dev.compoundbash.facts.FactExtractor;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.shell.ParseException;
import dev.compoundbash.shell.Parser;
import dev.compoundbash.shell.Script;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * CPU time per command (thread CPU time, not wall time), so the figures hold on a loaded machine where JMH's wall
 * clock does not: parse, extract and the whole decision over {@code bench/corpus.jsonl}, after warm-up rounds;
 * prints the median and p99 of per-command CPU time, and the replay rate this implies per core.
 *
 * <p>Run: {@code mvn -Pbench -B compile exec:exec@cputime}.
 */
public final class CpuTime {
    private CpuTime() {
    }

    /**
     * @param args optional: the corpus path, then the number of measured rounds
     * @throws Exception when the corpus cannot be read
     */
    public static void main(String[] args) throws Exception {
        Path corpus = Path.of(args.length > 0 ? args[0] : "bench/corpus.jsonl");
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        ObjectMapper json = new ObjectMapper();
        List<String> commands = new ArrayList<>();
        for (String line : Files.readAllLines(corpus)) {
            if (!line.isBlank()) commands.add(json.readTree(line).get("command").asText());
        }
        RuleEngine engine = RuleEngine.load(List.of());
        PermissionSettings settings = new PermissionSettings(List.of("Bash(git *)", "Bash(npm test:*)",
                "Bash(npm run *)", "Bash(mvn *)", "Bash(docker ps:*)", "Bash(kubectl get *)"), List.of(),
                List.of("Bash(git push --force *)", "Bash(rm -rf /*)"), List.of(), List.of(), List.of());
        String cwd = Files.createTempDirectory("compound-bash-bench").toString();
        Environment env = Environment.of(Path.of(cwd), List.of(), null);
        HookLog quiet = HookLog.open(Map.of(), "bench");
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        int warm = 10;
        long[] parse = new long[commands.size() * rounds];
        long[] extract = new long[commands.size() * rounds];
        long[] decide = new long[commands.size() * rounds];
        int np = 0, ne = 0, nd = 0;
        for (int round = 0; round < warm + rounds; round++) {
            boolean measure = round >= warm;
            for (String c : commands) {
                long t0 = mx.getCurrentThreadCpuTime();
                Script s;
                try {
                    s = Parser.parse(c);
                } catch (ParseException e) {
                    s = null;
                }
                long t1 = mx.getCurrentThreadCpuTime();
                if (s != null) FactExtractor.extract(s, env);
                long t2 = mx.getCurrentThreadCpuTime();
                HookRunner.decide(c, cwd, settings, engine, null, quiet);
                long t3 = mx.getCurrentThreadCpuTime();
                if (measure) {
                    parse[np++] = t1 - t0;
                    if (s != null) extract[ne++] = t2 - t1;
                    decide[nd++] = t3 - t2;
                }
            }
        }
        print("parse", Arrays.copyOf(parse, np));
        print("extract", Arrays.copyOf(extract, ne));
        print("decide", Arrays.copyOf(decide, nd));
        long total = 0;
        for (int i = 0; i < nd; i++) total += decide[i];
        double mean = total / (double) nd / 1000.0;
        System.out.printf("decide mean %.1f us CPU -> %.0f commands/s per core%n", mean, 1e6 / mean);
        // One replay pass on all cores, for the record (wall time; meaningful only on a quiet machine).
        int threads = Runtime.getRuntime().availableProcessors();
        long w0 = System.nanoTime();
        ParallelReplay.decideAll(commands, cwd, settings, engine, null, threads);
        long w1 = System.nanoTime();
        System.out.printf("replay wall: %d commands on %d threads in %.1f ms = %.0f commands/s%n", commands.size(),
                threads, (w1 - w0) / 1e6, commands.size() / ((w1 - w0) / 1e9));
    }

    private static void print(String name, long[] ns) {
        Arrays.sort(ns);
        System.out.printf("%-8s n=%d median %.1f us, p90 %.1f us, p99 %.1f us CPU%n", name, ns.length,
                ns[ns.length / 2] / 1000.0, ns[(int) (ns.length * 0.9)] / 1000.0, ns[(int) (ns.length * 0.99)] / 1000.0);
    }
}
