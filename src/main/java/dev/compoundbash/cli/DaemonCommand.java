package dev.compoundbash.cli;

import dev.compoundbash.daemon.Evaluator;
import dev.compoundbash.daemon.Protocol;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code compound-bash daemon run|status|stop}: the warm evaluator ({@link Evaluator}). {@code bin/compound-bash}
 * starts {@code run} in the background by itself; {@code status} and {@code stop} are for users.
 */
@Command(name = "daemon", description = "The warm evaluator behind the hook: run, status, stop.",
        subcommands = {DaemonCommand.Run.class, DaemonCommand.Status.class, DaemonCommand.Stop.class})
final class DaemonCommand {
    static PrintStream out = System.out;

    /** The runtime directory from {@code --dir} or the environment. */
    static Path directory(Path given) {
        if (given != null) return given;
        Path d = Protocol.runtimeDirectory(System.getenv());
        if (d == null) throw new IllegalStateException("neither XDG_RUNTIME_DIR nor HOME is set");
        return d;
    }

    /** {@code daemon run}: serve hook calls until stopped, idle, or upgraded. */
    @Command(name = "run", description = "Run the evaluator in the foreground (the hook starts it by itself).")
    static final class Run implements Callable<Integer> {
        @Option(names = "--dir", description = "Runtime directory (default: $XDG_RUNTIME_DIR/compound-bash or ~/.claude/compound-bash/run).")
        Path dir;
        @Option(names = "--jar", description = "The hook jar; the evaluator exits when it changes.")
        Path jar;
        @Option(names = "--idle-minutes", description = "Exit after this many idle minutes (default: $COMPOUND_BASH_IDLE_MINUTES or 30).")
        Double idleMinutes;
        @Option(names = "--threads", description = "Worker threads (default: 2 x cores, at least 4).")
        Integer threads;

        @Override
        public Integer call() throws Exception {
            double minutes = idleMinutes != null ? idleMinutes : envMinutes();
            int n = threads != null ? threads : Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
            return new Evaluator(directory(dir), jar, Duration.ofMillis((long) (minutes * 60_000)), Version.get(), n)
                    .run();
        }

        private static double envMinutes() {
            try {
                String v = System.getenv("COMPOUND_BASH_IDLE_MINUTES");
                return v == null || v.isEmpty() ? 30 : Double.parseDouble(v);
            } catch (NumberFormatException e) {
                return 30;
            }
        }
    }

    /** {@code daemon status}: is an evaluator running, which version, since when. */
    @Command(name = "status", description = "Show whether the evaluator is running (exit 0) or not (exit 3).")
    static final class Status implements Callable<Integer> {
        @Option(names = "--dir", description = "Runtime directory.")
        Path dir;

        @Override
        public Integer call() {
            Path d = directory(dir);
            Optional<List<String>> info = Protocol.running(d);
            if (info.isEmpty()) {
                out.println("not running (" + d + ")");
                return 3;
            }
            out.println("running: pid " + info.get().get(0).trim() + " (" + d + ")");
            for (String line : info.get().subList(1, info.get().size())) out.println("  " + line);
            return 0;
        }
    }

    /** {@code daemon stop}: ask the evaluator to exit. */
    @Command(name = "stop", description = "Stop the evaluator; the next hook call starts it again.")
    static final class Stop implements Callable<Integer> {
        @Option(names = "--dir", description = "Runtime directory.")
        Path dir;

        @Override
        public Integer call() throws Exception {
            Path d = directory(dir);
            out.println(Protocol.stop(d, 5_000) ? "stopped (" + d + ")" : "not running (" + d + ")");
            return 0;
        }
    }
}
