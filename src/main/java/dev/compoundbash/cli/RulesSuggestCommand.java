package dev.compoundbash.cli;

import dev.compoundbash.audit.DecisionLog;
import dev.compoundbash.audit.RuleSuggester;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.UserRules;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.settings.SettingsLoader;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;

/**
 * {@code compound-bash rules suggest [--since AGE] [--broad] [--apply N[,N...]] [--dry-run] [--user|--project]
 * [LOG...]}: prints the permission rules that would have approved the logged calls that deferred or asked for lack
 * of an allow rule ({@link RuleSuggester}), ranked by how many calls each approves, each with those calls; with
 * {@code --apply}, adds the chosen ones to {@code permissions.allow} of the user's or the project's
 * {@code settings.json} the way {@code install} edits it ({@link HookInstaller}: backup, idempotent, diff with
 * {@code --dry-run}). Exit status: 0, or 2 on an error.
 */
@Command(name = "suggest", mixinStandardHelpOptions = true,
        description = {"Suggest Claude Code permission rules (Bash(...)) from the decision log: the sub-commands that "
                + "made calls defer or ask for lack of an allow rule, grouped into the narrowest rules, each replayed "
                + "against your current settings plus that rule and ranked by how many past calls it approves.",
                "Without LOG, reads ~/.claude/logs/compound-bash.jsonl and its rotated generations."})
public final class RulesSuggestCommand implements Callable<Integer> {
    static PrintStream out = System.out;

    @Option(names = "--since", paramLabel = "AGE",
            description = "Only calls at or after AGE: 7d, 12h, 30m, 2w, or a date or time as for replay.")
    String since;

    @Option(names = "--broad", description = "Also suggest bare program-wide rules for programs that run other "
            + "programs or delete (Bash(rm *), Bash(bash *), Bash(xargs *), Bash(find *), interpreters).")
    boolean broad;

    @Option(names = "--apply", paramLabel = "N", split = ",(?=\\s*(?:\\d|Bash))",
            description = "Add suggestions N to settings.json: numbers of the listing this run prints first, or rules "
                    + "as printed (Bash(git diff *)); comma-separated or repeated.")
    List<String> apply = new ArrayList<>();

    @Option(names = "--dry-run", description = "With --apply: print the diff instead of writing.")
    boolean dryRun;

    @ArgGroup(exclusive = true)
    InstallCommand.Scope scope;

    @Option(names = "--rules", paramLabel = "DIR", description = "Judge with DIR/*.drl instead of your rules directory.")
    Path rulesDir;

    @Option(names = "--cwd", paramLabel = "DIR",
            description = "Working directory for calls that record none (the text log); default: the current one.")
    Path cwd;

    @Option(names = "--show", paramLabel = "N", description = "Calls shown per suggestion (default 8).")
    int show = 8;

    @Parameters(arity = "0..*", paramLabel = "LOG", description = "Decision logs (JSONL or text), oldest first.")
    List<Path> logs = new ArrayList<>();

    /**
     * Reads the logs, prints the suggestions, and applies the chosen ones.
     *
     * @return 0, or 2 on an error (bad arguments, unreadable log, rules that do not compile, unwritable settings)
     */
    @Override
    public Integer call() {
        Map<String, String> env = System.getenv();
        try {
            OffsetDateTime from = since == null ? null : ReplayCommand.parseSince(since, OffsetDateTime.now());
            List<Path> files = logs.isEmpty() ? defaultLogs(env) : logs;
            if (files.isEmpty()) {
                System.err.println("compound-bash rules suggest: no decision log at " + DecisionLog.resolvePath(env));
                return 2;
            }
            for (Path f : files) {
                if (!Files.isReadable(f)) {
                    System.err.println("compound-bash rules suggest: cannot read " + f);
                    return 2;
                }
            }
            RuleEngine engine = RuleEngine.load(rulesDir != null ? UserRules.drlFiles(rulesDir) : UserRules.files(env));
            if (!engine.compileErrors().isEmpty()) {
                engine.compileErrors().forEach(System.err::println);
                System.err.println("compound-bash rules suggest: the rules do not compile; every call would ask");
                return 2;
            }
            List<RuleSuggester.LoggedCall> calls = RuleSuggester.read(files, from);
            Path target = InstallCommand.settingsFile(scope, env);
            boolean project = scope != null && scope.project;
            if (project) {
                Path dir = target.getParent().getParent().toAbsolutePath().normalize();
                calls = calls.stream().filter(c -> c.cwd() != null && Path.of(c.cwd()).normalize().startsWith(dir)).toList();
            }
            String defaultCwd = (cwd != null ? cwd : Path.of("")).toAbsolutePath().toString();
            RuleSuggester.Result r = new RuleSuggester(engine, currentSettings(env), defaultCwd, env.get("TMPDIR"), broad)
                    .suggest(calls);
            print(r, files, project ? target.getParent().getParent() : null);
            if (apply.isEmpty()) return 0;
            List<String> chosen = new ArrayList<>();
            for (String a : apply) {
                String t = a.strip();
                if (t.matches("\\d+")) {
                    int n = Integer.parseInt(t);
                    if (n < 1 || n > r.suggestions().size()) {
                        System.err.println("compound-bash rules suggest: no suggestion " + n + " (there are "
                                + r.suggestions().size() + ")");
                        return 2;
                    }
                    chosen.add(r.suggestions().get(n - 1).rule());
                } else if (dev.compoundbash.rules.BashPattern.innerPattern(t) != null) {
                    chosen.add(t);
                } else {
                    System.err.println("compound-bash rules suggest: --apply takes a number or a Bash(...) rule: " + t);
                    return 2;
                }
            }
            HookInstaller.Edit edit = HookInstaller.addPermissionRules(target, "allow", chosen);
            out.println();
            InstallCommand.out = out;
            return InstallCommand.finish(edit, dryRun, "adding " + String.join(", ", chosen));
        } catch (IllegalArgumentException | IllegalStateException | IOException e) {
            System.err.println("compound-bash rules suggest: " + e.getMessage());
            return 2;
        }
    }

    /** The decision log and its rotated generations, oldest first, those that exist. */
    static List<Path> defaultLogs(Map<String, String> env) {
        Path log = DecisionLog.resolvePath(env);
        List<Path> out = new ArrayList<>();
        if (log == null) return out;
        for (int i = DecisionLog.KEEP; i >= 1; i--) {
            Path g = log.resolveSibling(log.getFileName() + "." + i);
            if (Files.isRegularFile(g)) out.add(g);
        }
        if (Files.isRegularFile(log)) out.add(log);
        return out;
    }

    /** The settings the hook would load for a call made in {@code cwd} (as replay loads them), cached per directory. */
    static Function<String, PermissionSettings> currentSettings(Map<String, String> env) {
        Map<String, PermissionSettings> cache = new HashMap<>();
        return c -> cache.computeIfAbsent(c == null ? "" : c, dir -> {
            Map<String, String> e = new HashMap<>(env);
            if (!dir.isEmpty()) e.put("CLAUDE_PROJECT_DIR", dir);
            return SettingsLoader.load(e);
        });
    }

    private void print(RuleSuggester.Result r, List<Path> files, Path project) {
        out.println(r.calls() + " call(s) in " + files.size() + " log(s)" + (since != null ? " since " + since : "")
                + (project != null ? " made in " + project : "") + ": " + r.unapproved()
                + " defer or ask for lack of an allow rule");
        if (r.note() != null) {
            out.println(r.note());
            return;
        }
        if (r.suggestions().isEmpty()) out.println("no rule to suggest");
        for (RuleSuggester.Suggestion s : r.suggestions()) {
            out.println();
            out.printf("%2d. %-40s approves %d call(s)%n", s.number(), s.rule(), s.approved().size());
            Map<String, List<String>> flags = new LinkedHashMap<>();
            Map<String, Integer> counts = RuleSuggester.byCommand(s);
            for (RuleSuggester.Approved a : s.approved()) flags.putIfAbsent(a.call().command(), a.flags());
            int shown = 0;
            for (Map.Entry<String, Integer> e : counts.entrySet()) {
                if (shown++ == show) {
                    out.println("      ... and " + (counts.size() - show) + " more command(s)");
                    break;
                }
                List<String> f = flags.get(e.getKey());
                out.println("      " + HookLog.escape(e.getKey()) + (e.getValue() > 1 ? "  (" + e.getValue() + "x)" : "")
                        + (f.isEmpty() ? "" : "    [also: " + String.join(", ", f) + "]"));
            }
        }
        if (!r.rejected().isEmpty()) {
            out.println();
            out.println("not suggested:");
            for (RuleSuggester.Rejected x : r.rejected()) out.println("  " + x.rule() + "  " + x.why());
        }
        if (!r.suggestions().isEmpty() && apply.isEmpty()) {
            out.println();
            out.println("apply: compound-bash rules suggest --apply 1[,2...] [--project] [--dry-run]"
                    + (since != null ? " --since " + since : "") + "; then compound-bash replay shows the calls that change");
        }
    }
}
