package dev.compoundbash.cli;

import dev.compoundbash.hook.UserRules;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code compound-bash install [--user|--project] [--dry-run] [--command CMD] [--agent AGENT]} and
 * {@code uninstall}: add or remove the PreToolUse hook entry in the user's {@code settings.json}
 * ({@code $CLAUDE_CONFIG_DIR} or {@code $HOME/.claude}) or the project's ({@code $CLAUDE_PROJECT_DIR}, else the
 * current directory, {@code .claude/settings.json}), through {@link HookInstaller}; with {@code --agent codex|gemini|
 * copilot}, that agent's hook configuration instead ({@link AgentInstaller}).
 */
public final class InstallCommand {
    static PrintStream out = System.out;

    private InstallCommand() {
    }

    /** Which settings file: the user's (default) or the project's. */
    static final class Scope {
        @Option(names = "--user", description = "Edit your own settings.json (default).")
        boolean user;

        @Option(names = "--project", description = "Edit the project's .claude/settings.json.")
        boolean project;
    }

    static Path settingsFile(Scope scope, Map<String, String> env) {
        if (scope != null && scope.project) {
            String p = env.get("CLAUDE_PROJECT_DIR");
            Path dir = p != null && !p.isEmpty() ? Path.of(p) : Path.of("").toAbsolutePath();
            return dir.resolve(".claude").resolve("settings.json");
        }
        Path config = UserRules.configDirectory(env);
        if (config == null) throw new IllegalStateException("neither HOME nor CLAUDE_CONFIG_DIR is set");
        return config.resolve("settings.json");
    }

    /**
     * The hook command of this installation: {@code $COMPOUND_BASH_HOME/bin/compound-bash hook} (the launcher sets
     * it), else the launcher beside the running jar ({@code <root>/target/compound-bash.jar}); null when unknown.
     */
    static String defaultCommand(Map<String, String> env) {
        String home = env.get("COMPOUND_BASH_HOME");
        Path root = null;
        if (home != null && !home.isEmpty()) {
            root = Path.of(home);
        } else {
            try {
                Path jar = Path.of(InstallCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                if (jar.getParent() != null && jar.getParent().getParent() != null) root = jar.getParent().getParent();
            } catch (Exception e) {
                return null;
            }
        }
        if (root == null) return null;
        Path launcher = root.toAbsolutePath().normalize().resolve("bin").resolve("compound-bash");
        if (!Files.isRegularFile(launcher)) return null;
        String s = launcher.toString();
        return (s.matches("[A-Za-z0-9_./+-]+") ? s : "'" + s.replace("'", "'\\''") + "'") + " hook";
    }

    static int finish(HookInstaller.Edit edit, boolean dryRun, String what) throws IOException {
        if (!edit.changes()) {
            out.println(edit.file() + ": " + what + " already done, nothing changed");
            return 0;
        }
        if (dryRun) {
            out.print(edit.diff());
            return 0;
        }
        Path backup = HookInstaller.apply(edit);
        out.println(edit.file() + ": " + what + " done" + (backup != null ? " (backup: " + backup + ")" : ""));
        return 0;
    }

    /**
     * Installs or removes the hook of another agent ({@link AgentInstaller}): every edit's diff with
     * {@code --dry-run}, else each file written after a backup.
     *
     * @return the exit status: 0, or 2 when a file cannot be edited
     */
    static int agentEdits(String what, String agent, Scope scope, boolean dryRun, Map<String, String> env,
                          String command) throws IOException {
        try {
            AgentInstaller.Files2 f = AgentInstaller.files(agent, scope != null && scope.project, env,
                    Path.of("").toAbsolutePath());
            java.util.List<HookInstaller.Edit> edits = what.equals("install")
                    ? AgentInstaller.install(agent, f, command) : AgentInstaller.uninstall(agent, f);
            boolean any = edits.stream().anyMatch(HookInstaller.Edit::changes);
            if (!any) {
                out.println(f.hooks() + ": " + what + " (" + agent + ") already done, nothing changed");
                return 0;
            }
            for (HookInstaller.Edit e : edits) {
                if (!e.changes()) continue;
                if (dryRun) {
                    out.print(e.diff());
                    continue;
                }
                Path backup = AgentInstaller.apply(e);
                out.println(e.file() + ": " + what + " (" + agent + ") done"
                        + (backup != null ? " (backup: " + backup + ")" : ""));
            }
            if (!dryRun && what.equals("install") && agent.equals("codex")) {
                out.println(f.trust() + ": the hooks are trusted (Codex runs a hook only once it is trusted; "
                        + "/hooks in Codex lists them)");
            }
            return 0;
        } catch (IOException | IllegalStateException | IllegalArgumentException e) {
            System.err.println("compound-bash " + what + ": " + e.getMessage());
            return 2;
        }
    }

    /** {@code compound-bash install}. */
    @Command(name = "install", mixinStandardHelpOptions = true,
            description = "Add the compound-bash PreToolUse hook to settings.json (never twice; backup first).")
    public static final class Install implements Callable<Integer> {
        @ArgGroup(exclusive = true)
        Scope scope;

        @Option(names = "--dry-run", description = "Print the diff instead of writing.")
        boolean dryRun;

        @Option(names = "--command", paramLabel = "CMD",
                description = "The hook command (default: this checkout's bin/compound-bash hook).")
        String command;

        @Option(names = "--agent", paramLabel = "AGENT",
                description = "Install into another agent instead of Claude Code: codex, gemini or copilot "
                        + "(docs/AGENTS.md).")
        String agent;

        @Override
        public Integer call() throws IOException {
            Map<String, String> env = System.getenv();
            String cmd = command != null ? command : defaultCommand(env);
            if (cmd == null) {
                System.err.println("compound-bash install: cannot find bin/compound-bash; pass --command");
                return 2;
            }
            if (agent != null) {
                if (command == null) cmd = cmd + " --agent " + agent;
                return agentEdits("install", agent, scope, dryRun, env, cmd);
            }
            try {
                return finish(HookInstaller.install(settingsFile(scope, env), cmd), dryRun, "install");
            } catch (IOException | IllegalStateException e) {
                System.err.println("compound-bash install: " + e.getMessage());
                return 2;
            }
        }
    }

    /** {@code compound-bash uninstall}. */
    @Command(name = "uninstall", mixinStandardHelpOptions = true,
            description = "Remove the compound-bash PreToolUse hook from settings.json (backup first).")
    public static final class Uninstall implements Callable<Integer> {
        @ArgGroup(exclusive = true)
        Scope scope;

        @Option(names = "--dry-run", description = "Print the diff instead of writing.")
        boolean dryRun;

        @Option(names = "--agent", paramLabel = "AGENT",
                description = "Remove the hook from another agent: codex, gemini or copilot.")
        String agent;

        @Override
        public Integer call() throws IOException {
            if (agent != null) return agentEdits("uninstall", agent, scope, dryRun, System.getenv(), null);
            try {
                return finish(HookInstaller.uninstall(settingsFile(scope, System.getenv())), dryRun, "uninstall");
            } catch (IOException | IllegalStateException e) {
                System.err.println("compound-bash uninstall: " + e.getMessage());
                return 2;
            }
        }
    }
}
