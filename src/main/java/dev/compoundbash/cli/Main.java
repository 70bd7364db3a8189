package dev.compoundbash.cli;

import dev.compoundbash.daemon.ClassDataArchive;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.hook.SafeOutcome;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;

/**
 * Entry point. With no arguments and stdin not a terminal, or with the single argument {@code hook}, it runs the
 * PreToolUse hook without loading picocli (start-up cost); {@code hook --agent codex|gemini|copilot} runs another
 * agent's hook the same way. Everything else goes to the picocli commands of
 * {@link Cli}. In hook mode only the decision JSON reaches stdout: {@code System.out} is pointed at stderr before
 * anything else runs, so no library can write to the real stdout.
 *
 * <p>With the system property {@code compoundbash.budgetMillis} (set by {@code bin/compound-bash}), the hook answers
 * within that many milliseconds of this JVM's start: when the verdict is not ready by then (rules compiling on a
 * loaded machine) it prints {@link SafeOutcome} and exits 0 (issue 20).
 */
public final class Main {
    private Main() {
    }

    /** Runs the command line {@code args} and exits with its status. */
    public static void main(String[] args) {
        PrintStream realOut = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        boolean agentHook = args.length == 3 && args[0].equals("hook") && args[1].equals("--agent");
        boolean hook = (args.length == 1 && args[0].equals("hook"))
                || (args.length == 0 && !stdinIsTerminal()) || agentHook;
        if (hook) {
            // The built-in rules load on another core while this thread reads the input, settings and rule files.
            dev.compoundbash.rules.RuleEngine.loadBuiltInAhead();
            // (The program schemas are not loaded ahead on another thread: their class initialisation and the
            // extraction's, run at once on two threads, can deadlock; measured: cold calls hung in WarmPathTest.)
            System.setOut(System.err);
            Map<String, String> env = hookEnvironment(System.getenv(), agentHook ? args[2] : null);
            long budget = Long.getLong("compoundbash.budgetMillis", 0);
            int rc = budget > 0 ? hookWithin(budget, realOut, env) : new HookRunner(env, Version.get())
                    .run(System.in, realOut);
            realOut.flush();
            ClassDataArchive.checkAfterStart();
            System.exit(rc);
        }
        if (args.length == 0) {
            System.err.println("usage: compound-bash [hook | explain | replay | rules | doctor | install | uninstall | generate-completion] [--help | --version]\n  hook reads Claude Code's PreToolUse JSON on stdin; see compound-bash --help");
            System.exit(2);
        }
        int rc = Cli.run(args, realOut);
        ClassDataArchive.checkAfterStart();
        System.exit(rc);
    }

    /**
     * Runs the hook on a worker thread and prints its answer, or the safe outcome when the answer is not ready
     * {@code budgetMillis} after this JVM started; whichever comes first is printed, once.
     */
    private static int hookWithin(long budgetMillis, PrintStream realOut, Map<String, String> env) {
        long started = ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli)
                .orElse(System.currentTimeMillis());
        long deadline = Math.max(started + budgetMillis, System.currentTimeMillis() + 500);
        ByteArrayOutputStream answer = new ByteArrayOutputStream();
        AtomicBoolean printed = new AtomicBoolean();
        Thread worker = new Thread(() -> {
            new HookRunner(env, Version.get()).run(System.in, new PrintStream(answer, true, StandardCharsets.UTF_8));
            if (printed.compareAndSet(false, true)) {
                realOut.write(answer.toByteArray(), 0, answer.size());
                realOut.flush();
            }
        }, "compound-bash-hook");
        worker.setDaemon(true);
        worker.start();
        try {
            worker.join(Math.max(1, deadline - System.currentTimeMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (worker.isAlive() && printed.compareAndSet(false, true)) {
            String why = "it could not judge this call within " + Math.round(budgetMillis / 1000.0)
                    + " s (a cold start on a loaded machine, or your rule files compiling)";
            String json;
            try {
                json = SafeOutcome.json(env, why);
            } catch (RuntimeException e) {
                json = "";
            }
            HookLog log = HookLog.open(env, Version.get());
            log.log("BUDGET: " + why + (json.contains("\"ask\"") ? ": asks" : ": defers"));
            log.close();
            if (!json.isEmpty()) realOut.println(json);
            realOut.flush();
            Runtime.getRuntime().halt(0);
        }
        return 0;
    }

    /**
     * The hook's environment: the process's, with {@code COMPOUND_BASH_AGENT} set to {@code agent} ({@code hook --agent
     * NAME}) or removed (plain {@code hook}: Claude Code's protocol, whatever the environment says).
     *
     * @param env   the process environment
     * @param agent the agent named on the command line, or null
     * @return a copy
     */
    static java.util.Map<String, String> hookEnvironment(java.util.Map<String, String> env, String agent) {
        java.util.Map<String, String> out = new java.util.HashMap<>(env);
        if (agent == null) out.remove(dev.compoundbash.hook.AgentHook.AGENT_ENV);
        else out.put(dev.compoundbash.hook.AgentHook.AGENT_ENV, agent);
        return out;
    }

    private static boolean stdinIsTerminal() {
        // System.console() is null when either stream is redirected; stdin alone decides hook mode here.
        try {
            return new java.io.File("/dev/stdin").getCanonicalPath().startsWith("/dev/pts")
                    || new java.io.File("/dev/stdin").getCanonicalPath().startsWith("/dev/tty");
        } catch (Exception e) {
            return false;
        }
    }
}
