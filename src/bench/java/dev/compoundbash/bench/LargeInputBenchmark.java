package dev.compoundbash.bench;

import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The slowest shapes of input up to 10,000 characters (issue 8's 50 ms bound on one evaluation): one operation is
 * one whole {@link HookRunner#decide} of the shape, with a warm KieBase and JIT. Shapes: {@code colons} 4,999
 * {@code :;} (the most sub-commands per character), {@code lsLines} 3,333 lines of {@code ls}, {@code unknown}
 * 2,499 unknown commands (each a defer finding), {@code substitutions} 909 {@code echo $(ls);}, {@code quotedDepth}
 * 299 nested {@code "$(echo ...)"} (the parser's depth limit), {@code redirects} 1,428 {@code ls > f;}, {@code nestedArithmetic} 1,400 nested
 * {@code $((...))} (each level's text holds the levels inside it: scanning each would be quadratic). Run with the launcher's
 * thread stack (-Xss4m), as the hook runs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Fork(value = 1, jvmArgsAppend = {"-Xss4m"})
public class LargeInputBenchmark {
    @Param({"colons", "lsLines", "unknown", "substitutions", "quotedDepth", "redirects", "nestedArithmetic"})
    public String shape;

    String command;
    RuleEngine engine;
    PermissionSettings settings;
    HookLog quiet;

    @Setup(Level.Trial)
    public void load() {
        command = switch (shape) {
            case "colons" -> ":;".repeat(4_999);
            case "lsLines" -> "ls\n".repeat(3_333);
            case "unknown" -> "foo;".repeat(2_499);
            case "substitutions" -> "echo $(ls);".repeat(909);
            case "quotedDepth" -> "echo " + "\"$(echo ".repeat(299) + "a" + ")\"".repeat(299);
            case "redirects" -> "ls > f;".repeat(1_428);
            case "nestedArithmetic" -> "$((".repeat(1_400) + "ls" + "))".repeat(1_400);
            default -> throw new IllegalArgumentException(shape);
        };
        if (command.length() > dev.compoundbash.rules.Decider.MAX_COMMAND_CHARS) throw new IllegalStateException(shape + " too long");
        engine = RuleEngine.load(List.of());
        settings = new PermissionSettings(List.of("Bash(git *)"), List.of(), List.of("Bash(rm *)"), List.of(),
                List.of(), List.of());
        quiet = HookLog.open(Map.of(), "bench");
        HookRunner.Verdict v = decide();
        if (v.judgement() == null) throw new IllegalStateException(shape + " was not evaluated: " + v.reason());
    }

    @Benchmark
    public HookRunner.Verdict decide() {
        return HookRunner.decide(command, "/tmp", settings, engine, null, quiet);
    }
}
