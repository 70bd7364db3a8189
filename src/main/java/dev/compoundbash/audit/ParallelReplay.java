package dev.compoundbash.audit;

import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.IntStream;

/**
 * Decides many commands on several threads with one shared KieBase, for replaying logged calls (issue 7, part 4).
 * Each command goes through {@link Decider#decide} exactly as a hook call would; a
 * {@link RuleEngine} is safe to share because each evaluation uses its own KieSession.
 */
public final class ParallelReplay {
    private ParallelReplay() {
    }

    /**
     * One call to decide: the command, the working directory it is judged in, the settings it is judged under, and
     * the permission mode it was made in (null: default).
     */
    public record Call(String command, String cwd, PermissionSettings settings, String permissionMode, String shell) {
        /** A call run by bash. */
        public Call(String command, String cwd, PermissionSettings settings, String permissionMode) {
            this(command, cwd, settings, permissionMode, null);
        }

        /** A call in the default permission mode. */
        public Call(String command, String cwd, PermissionSettings settings) {
            this(command, cwd, settings, null);
        }
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
    public static List<Decider.Verdict> decideAll(List<String> commands, String cwd, PermissionSettings settings,
                                                     RuleEngine engine, String tmpDir, int threads) {
        return decideCalls(commands.stream().map(c -> new Call(c, cwd, settings)).toList(), engine, tmpDir, threads);
    }

    /**
     * Decides {@code calls}, each under its own working directory and settings.
     *
     * @param calls   the calls, in order
     * @param engine  the rules, shared by all threads
     * @param tmpDir  {@code $TMPDIR}; may be null
     * @param threads worker threads (at least 1)
     * @return one verdict per call, in input order; an internal error in one call is its {@code defer} verdict
     * @throws IllegalStateException when the worker pool is interrupted
     */
    public static List<Decider.Verdict> decideCalls(List<Call> calls, RuleEngine engine, String tmpDir,
                                                       int threads) {
        return decideCalls(calls, engine, tmpDir, null, threads);
    }

    /**
     * Decides {@code calls} with a known home directory ({@code ~} and {@code $HOME} in paths).
     *
     * @param home {@code $HOME}; may be null
     * @see #decideCalls(List, RuleEngine, String, int)
     */
    public static List<Decider.Verdict> decideCalls(List<Call> calls, RuleEngine engine, String tmpDir, String home,
                                                       int threads) {
        Decider.Verdict[] out = new Decider.Verdict[calls.size()];
        ForkJoinPool pool = new ForkJoinPool(Math.max(1, threads));
        try {
            pool.submit(() -> IntStream.range(0, calls.size()).parallel().forEach(i -> {
                Call c = calls.get(i);
                out[i] = Decider.decideOrDefer(new Decider.Call(c.command(), c.cwd(), c.permissionMode(), c.settings(),
                        tmpDir, home, c.shell()), engine);
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

    /**
     * {@link Decider#decideOrDefer}: an internal error is that call's {@code defer} verdict, as it is for the hook.
     *
     * @param permissionMode the call's permission mode; null is the default
     * @return the verdict; never null
     */
    static Decider.Verdict decideOrDefer(String command, String cwd, String permissionMode,
                                         PermissionSettings settings, RuleEngine engine, String tmpDir) {
        return Decider.decideOrDefer(new Decider.Call(command, cwd, permissionMode, settings, tmpDir), engine);
    }
}
