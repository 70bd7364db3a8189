package dev.compoundbash.audit;

import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * Decides many commands on several threads with one shared KieBase, for replaying logged calls (issue 7, part 4).
 * Each command goes through {@link HookRunner#decide} exactly as a hook call would, with logging off; a
 * {@link RuleEngine} is safe to share because each evaluation uses its own KieSession.
 */
public final class ParallelReplay {
    private ParallelReplay() {
    }

    /**
     * Decides {@code commands} under one set of settings and rules.
     *
     * @param commands the Bash commands, in order
     * @param cwd      the working directory every call is judged in
     * @param settings the permission settings
     * @param engine   the rules, shared by all threads
     * @param tmpDir   {@code $TMPDIR}; may be null
     * @param threads  worker threads (at least 1); e.g. {@code Runtime.getRuntime().availableProcessors()}
     * @return one verdict per command, in input order; an internal error in one command is its {@code defer}
     *         verdict, never an exception
     * @throws IllegalStateException when the worker pool is interrupted
     */
    public static List<HookRunner.Verdict> decideAll(List<String> commands, String cwd, PermissionSettings settings,
                                                     RuleEngine engine, String tmpDir, int threads) {
        HookRunner.Verdict[] out = new HookRunner.Verdict[commands.size()];
        ForkJoinPool pool = new ForkJoinPool(Math.max(1, threads));
        try {
            pool.submit(() -> IntStream.range(0, commands.size()).parallel().forEach(i -> {
                HookLog quiet = HookLog.open(Map.of(), "replay");
                try {
                    out[i] = HookRunner.decide(commands.get(i), cwd, settings, engine, tmpDir, quiet);
                } catch (RuntimeException e) {
                    out[i] = new HookRunner.Verdict("defer", "internal error: " + e, null);
                }
            })).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        } finally {
            pool.shutdown();
        }
        return Arrays.asList(out);
    }
}
