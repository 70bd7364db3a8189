package dev.compoundbash.cli;

import dev.compoundbash.hook.HookRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** The picocli command tree: {@code compound-bash hook | explain | replay | rules | doctor | install | uninstall | generate-completion}. */
@Command(name = "compound-bash", mixinStandardHelpOptions = true, versionProvider = Cli.VersionProvider.class,
        description = "A Claude Code PreToolUse hook that parses Bash commands and decides with Drools rules.",
        subcommands = {Cli.Hook.class, ExplainCommand.class, DaemonCommand.class, CommandLine.HelpCommand.class,
                ReplayCommand.class, RulesCommand.class, DoctorCommand.class, InstallCommand.Install.class, InstallCommand.Uninstall.class,
                picocli.AutoComplete.GenerateCompletion.class})
public final class Cli {

    /**
     * Runs {@code args} through picocli.
     *
     * @param args    the command line
     * @param realOut the process's real stdout
     * @return the exit status
     */
    public static int run(String[] args, PrintStream realOut) {
        CommandLine cl = new CommandLine(new Cli());
        cl.setOut(new PrintWriter(realOut, true));
        cl.setErr(new PrintWriter(System.err, true));
        ExplainCommand.out = realOut;
        Hook.out = realOut;
        ReplayCommand.out = realOut;
        RulesCommand.out = realOut;
        RulesSuggestCommand.out = realOut;
        InstallCommand.out = realOut;
        DaemonCommand.out = realOut;
        DoctorCommand.out = realOut;
        cl.setExecutionExceptionHandler(Cli::failure);
        return cl.execute(args);
    }

    /**
     * What an unexpected failure of a subcommand prints: one line, {@code compound-bash SUBCOMMAND: what went wrong},
     * on stderr, exit status 1; the Java stack trace only with {@code COMPOUND_BASH_DEBUG=1}. (Hook mode never gets
     * here: it catches everything and defers.)
     */
    static int failure(Exception e, CommandLine command, CommandLine.ParseResult parsed) {
        String what = e.getMessage() == null || e.getMessage().isBlank() ? e.getClass().getSimpleName()
                : e.getMessage().lines().findFirst().orElse("");
        if (e instanceof java.nio.file.NoSuchFileException) what = "no such file: " + e.getMessage();
        else if (e instanceof java.nio.file.AccessDeniedException) what = "permission denied: " + e.getMessage();
        command.getErr().println(command.getCommandSpec().qualifiedName() + ": " + what);
        if ("1".equals(System.getenv("COMPOUND_BASH_DEBUG"))) e.printStackTrace(command.getErr());
        return 1;
    }

    /** Supplies {@code --version}. */
    static final class VersionProvider implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[]{"compound-bash " + Version.get()};
        }
    }

    /** {@code compound-bash hook}: the PreToolUse hook entrypoint (reads the call's JSON on stdin). */
    @Command(name = "hook", description = "Run as the Claude Code PreToolUse hook: JSON in on stdin, decision out.")
    static final class Hook implements Callable<Integer> {
        static PrintStream out = System.out;

        @picocli.CommandLine.Option(names = "--agent", paramLabel = "AGENT",
                description = "Speak another agent's hook protocol: codex, gemini or copilot (docs/AGENTS.md).")
        String agent;

        @Override
        public Integer call() {
            PrintStream real = out;
            System.setOut(System.err);
            return new HookRunner(Main.hookEnvironment(System.getenv(), agent), Version.get()).run(System.in, real);
        }
    }
}
