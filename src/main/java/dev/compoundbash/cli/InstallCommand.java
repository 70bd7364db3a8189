package dev.compoundbash.cli;

import dev.compoundbash.audit.DecisionLog;
import dev.compoundbash.daemon.Protocol;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.UserRules;
import dev.compoundbash.settings.SettingsLoader;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.LinkOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

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

    /**
     * The settings files Claude Code reads for this environment (the project: {@code CLAUDE_PROJECT_DIR}, else the
     * current directory, as when Claude Code starts here).
     */
    static List<Path> settingsRead(Map<String, String> env) {
        return settingsLoaded(env).filesRead();
    }

    /** The settings Claude Code reads for this environment, as {@link #settingsRead} finds them. */
    static dev.compoundbash.settings.PermissionSettings settingsLoaded(Map<String, String> env) {
        Map<String, String> e = new HashMap<>(env);
        if (e.get("CLAUDE_PROJECT_DIR") == null || e.get("CLAUDE_PROJECT_DIR").isEmpty()) {
            e.put("CLAUDE_PROJECT_DIR", Path.of("").toAbsolutePath().toString());
        }
        return SettingsLoader.load(e);
    }

    /**
     * Warns on stderr of every settings file Claude Code reads here that the hook cannot read in whole (invalid
     * JSON, named with its line and column): until it is fixed, the hook asks before every call.
     */
    static void warnUnreadable(String what, Map<String, String> env) {
        for (String u : settingsLoaded(env).unreadable()) {
            System.err.println("compound-bash " + what + ": warning: " + u + " (until it is fixed, the hook asks "
                    + "before every Bash call: its deny rules may be missing)");
        }
    }

    /** The launcher Claude Code runs for a plugin (its first recorded root), for messages. */
    static String launcherOf(Registrations.Plugin p) {
        return p.roots().isEmpty() ? "<plugin directory>/bin/compound-bash"
                : p.roots().get(0).dir().resolve("bin").resolve("compound-bash").toString();
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
        out.println(edit.file() + ": " + what + " done" + (edit.removes() ? "; the file held nothing else and is "
                + "removed (install had created it)" : "") + (backup != null ? " (backup: " + backup + ")" : ""));
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
            // the plugin route already runs the hook: a settings entry would run it a second time on every call
            Registrations.Found found = Registrations.find(settingsRead(env), env);
            if (found.pluginActive()) {
                Registrations.Plugin p = found.plugins().get(0);
                System.err.println("compound-bash install: the plugin " + p.key() + " is enabled (" + p.file()
                        + "): it already runs the hook on every Bash call, and a settings entry would run it a "
                        + "second time. Nothing changed.");
                System.err.println("compound-bash install: to use the settings entry instead, turn the plugin off "
                        + "first: " + Registrations.disableAdvice(p.key()) + "; to keep the plugin, you need no "
                        + "install (" + launcherOf(p) + " warm --wait makes its first call warm).");
                return 1;
            }
            try {
                int rc = finish(HookInstaller.install(settingsFile(scope, env), cmd), dryRun, "install");
                warnUnreadable("install", env);
                return rc;
            } catch (IOException | IllegalStateException e) {
                System.err.println("compound-bash install: " + e.getMessage());
                return 2;
            }
        }
    }

    /** {@code compound-bash uninstall}. */
    @Command(name = "uninstall", mixinStandardHelpOptions = true,
            description = {"Remove the compound-bash hook entries from settings.json (backup first) and stop the "
                    + "evaluator.",
                    "--purge also removes what compound-bash keeps under your home: the cache (compiled rules, "
                            + "class-data archives), the evaluator's runtime directory and the logs. Your own rules "
                            + "and the settings backups are kept (uninstall says where)."})
    public static final class Uninstall implements Callable<Integer> {
        @ArgGroup(exclusive = true)
        Scope scope;

        @Option(names = "--dry-run", description = "Print the diff (and, with --purge, what would be removed) instead of writing.")
        boolean dryRun;

        @Option(names = "--purge", description = "Also remove the cache, the runtime directory and the logs.")
        boolean purge;

        @Option(names = "--agent", paramLabel = "AGENT",
                description = "Remove the hook from another agent: codex, gemini or copilot.")
        String agent;

        @Override
        public Integer call() throws IOException {
            if (agent != null) return agentEdits("uninstall", agent, scope, dryRun, System.getenv(), null);
            Map<String, String> env = System.getenv();
            int rc;
            try {
                rc = finish(HookInstaller.uninstall(settingsFile(scope, env)), dryRun, "uninstall");
            } catch (IOException | IllegalStateException e) {
                System.err.println("compound-bash uninstall: " + e.getMessage());
                return 2;
            }
            Path runtime = runtimeDirectory(env);
            if (!dryRun && runtime != null) {
                // a running evaluator would keep serving a hook nobody runs, for up to its idle timeout
                if (Protocol.stop(runtime, 5_000)) out.println("stopped the evaluator (" + runtime + ")");
            } else if (runtime != null && Protocol.running(runtime).isPresent()) {
                out.println("would stop the evaluator (" + runtime + ")");
            }
            if (purge) rc = Math.max(rc, purge(env, runtime));
            Registrations.Found left = Registrations.find(settingsRead(env), env);
            for (Registrations.Plugin p : left.plugins()) {
                out.println("note: the plugin " + p.key() + " is still enabled (" + p.file() + ") and runs the hook; "
                        + "to remove it: claude plugin uninstall " + p.key() + " (or /plugin in a session)");
            }
            for (Registrations.Entry e : left.entries()) {
                out.println("note: " + e.file() + " still runs the hook (" + e.command() + ")"
                        + (e.file().equals(settingsFile(scope, env)) ? "" : "; uninstall "
                        + (scope != null && scope.project ? "--user" : "--project") + " removes it"));
            }
            return rc;
        }

        /**
         * {@code --purge}: removes what compound-bash keeps under the user's home, each path printed: the cache
         * ({@code ~/.claude/compound-bash/cache}, and {@code $CLAUDE_CONFIG_DIR/compound-bash/cache}: compiled user
         * rules and class-data archives, made again on demand), the runtime directory, and the logs (the human log
         * and the decision log, with their rotated files and locks). It keeps the user's rules directory and the
         * settings backups, and says so.
         */
        private int purge(Map<String, String> env, Path runtime) {
            List<Path> targets = new ArrayList<>();
            String home = env.get("HOME");
            if (home != null && !home.isEmpty()) targets.add(Path.of(home, ".claude", "compound-bash", "cache"));
            Path cache = UserRules.cacheDirectory(env);
            if (cache != null && !targets.contains(cache)) targets.add(cache);
            if (runtime != null) targets.add(runtime);
            for (Path log : new Path[]{HookLog.resolvePath(env), DecisionLog.resolvePath(env)}) {
                if (log == null) continue;
                targets.add(log);
                for (String suffix : List.of(".lock", ".1", ".2", ".3", ".1.lock")) {
                    targets.add(log.resolveSibling(log.getFileName() + suffix));
                }
            }
            int rc = 0;
            for (Path t : targets) {
                if (!Files.exists(t, LinkOption.NOFOLLOW_LINKS)) continue;
                if (dryRun) {
                    out.println("would remove " + t);
                    continue;
                }
                try {
                    deleteTree(t);
                    out.println("removed " + t);
                } catch (IOException e) {
                    System.err.println("compound-bash uninstall: cannot remove " + t + ": " + e.getMessage());
                    rc = 1;
                }
            }
            Path rules = UserRules.directory(env);
            if (rules != null && Files.isDirectory(rules)) {
                long n;
                try (Stream<Path> s = Files.list(rules)) {
                    n = s.count();
                } catch (IOException e) {
                    n = -1;
                }
                out.println("kept your rules: " + rules + (n >= 0 ? " (" + n + " file(s))" : "")
                        + "; remove the directory yourself if you no longer want them");
            } else if (rules != null && !dryRun) {
                // nothing of the user's is left in compound-bash/: remove the empty directory
                try {
                    Files.deleteIfExists(rules.getParent());
                } catch (IOException e) {
                    // not empty: leave it
                }
            }
            try {
                Path settings = settingsFile(scope, env);
                try (Stream<Path> s = Files.list(settings.getParent())) {
                    long backups = s.filter(p -> p.getFileName().toString().matches(
                            java.util.regex.Pattern.quote(settings.getFileName().toString()) + "\\.[0-9-]+\\.bak")).count();
                    if (backups > 0) {
                        out.println("kept " + backups + " backup(s) of " + settings + " (" + settings.getFileName()
                                + ".*.bak)");
                    }
                }
            } catch (IOException | IllegalStateException e) {
                // no settings directory: no backups
            }
            return rc;
        }
    }

    /** The evaluator's runtime directory: the launcher's ({@code COMPOUND_BASH_RUNTIME_DIR}), else the protocol's. */
    static Path runtimeDirectory(Map<String, String> env) {
        String d = env.get("COMPOUND_BASH_RUNTIME_DIR");
        return d != null && !d.isEmpty() ? Path.of(d) : Protocol.runtimeDirectory(env);
    }

    /** Removes a file, a link (not what it points to) or a directory tree. */
    static void deleteTree(Path p) throws IOException {
        if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
            try (Stream<Path> s = Files.list(p)) {
                for (Path c : s.toList()) deleteTree(c);
            }
        }
        Files.deleteIfExists(p);
    }
}
