package dev.compoundbash.cli;

import dev.compoundbash.hook.HookRunner;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;

/**
 * Entry point. With no arguments and stdin not a terminal, or with the single argument {@code hook}, it runs the
 * PreToolUse hook without loading picocli (start-up cost); {@code hook --agent codex|gemini|copilot} runs another
 * agent's hook the same way. Everything else goes to the picocli commands of
 * {@link Cli}. In hook mode only the decision JSON reaches stdout: {@code System.out} is pointed at stderr before
 * anything else runs, so no library can write to the real stdout.
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
            System.setOut(System.err);
            int rc = new HookRunner(hookEnvironment(System.getenv(), agentHook ? args[2] : null), Version.get())
                    .run(System.in, realOut);
            realOut.flush();
            System.exit(rc);
        }
        if (args.length == 0) {
            System.err.println("usage: compound-bash [hook | explain | replay | rules | doctor | install | uninstall | generate-completion] [--help | --version]\n  hook reads Claude Code's PreToolUse JSON on stdin; see compound-bash --help");
            System.exit(2);
        }
        System.exit(Cli.run(args, realOut));
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
