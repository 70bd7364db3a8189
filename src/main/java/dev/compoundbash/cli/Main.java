package dev.compoundbash.cli;

import dev.compoundbash.hook.HookRunner;

import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.PrintStream;

/**
 * Entry point. With no arguments and stdin not a terminal, or with the single argument {@code hook}, it runs the
 * PreToolUse hook without loading picocli (start-up cost). Everything else goes to the picocli commands of
 * {@link Cli}. In hook mode only the decision JSON reaches stdout: {@code System.out} is pointed at stderr before
 * anything else runs, so no library can write to the real stdout.
 */
public final class Main {
    private Main() {
    }

    /** Runs the command line {@code args} and exits with its status. */
    public static void main(String[] args) {
        PrintStream realOut = new PrintStream(new FileOutputStream(FileDescriptor.out), true);
        boolean hook = (args.length == 1 && args[0].equals("hook"))
                || (args.length == 0 && !stdinIsTerminal());
        if (hook) {
            System.setOut(System.err);
            int rc = new HookRunner(System.getenv(), Version.get()).run(System.in, realOut);
            realOut.flush();
            System.exit(rc);
        }
        if (args.length == 0) {
            System.err.println("usage: compound-bash [hook | explain | replay | rules | doctor | install | uninstall | generate-completion] [--help | --version]\n  hook reads Claude Code's PreToolUse JSON on stdin; see compound-bash --help");
            System.exit(2);
        }
        System.exit(Cli.run(args, realOut));
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
