package dev.compoundbash.hook;

import dev.compoundbash.facts.CallContext;
import dev.compoundbash.audit.DecisionLog;
import dev.compoundbash.facts.Environment;
import dev.compoundbash.facts.Finding;
import dev.compoundbash.facts.PermissionRule;
import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.rules.CommandEvaluator;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.settings.SettingsLoader;
import dev.compoundbash.shell.ParseException;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The PreToolUse hook, start to end: read Claude Code's input JSON, load settings and rules, judge the command,
 * write the decision JSON, log each step. Follows Claude Code docs, "Hooks reference": PreToolUse input and
 * {@code hookSpecificOutput.permissionDecision}. Every failure defers: exit 0 with nothing on stdout.
 */
public final class HookRunner {
    /** Commands longer than this many characters are not judged (defer). */
    public static final int MAX_COMMAND_CHARS = 10_000;

    private final Map<String, String> env;
    private final String version;
    private final EngineSource engines;

    /**
     * Where a run gets its KieBase for the user DRL files of its environment. The cold path loads one per process;
     * the warm evaluator ({@code dev.compoundbash.daemon}) keeps them loaded while the files are unchanged.
     */
    @FunctionalInterface
    public interface EngineSource {
        /**
         * @param userFiles the user's DRL files ({@link UserRules#files})
         * @param env       the requester's environment
         * @return the engine for exactly these files as they are now
         */
        RuleEngine engine(List<Path> userFiles, Map<String, String> env);
    }

    /** The cold path's source: built-in rules precompiled at build time, user DRL through the private cache. */
    public static final EngineSource LOAD = (files, env) -> RuleEngine.load(files, UserRules.cacheDirectory(env));

    /**
     * @param env     the process environment ({@code HOME}, {@code CLAUDE_PROJECT_DIR}, {@code CLAUDE_CONFIG_DIR},
     *                {@code CLAUDE_COMPOUND_LOG}, {@code CLAUDE_COMPOUND_DECISION_LOG}); the JVM's {@code user.home} is never used
     * @param version the version written on each log line
     */
    public HookRunner(Map<String, String> env, String version) {
        this(env, version, LOAD);
    }

    /**
     * @param env     the requester's environment, as for {@link #HookRunner(Map, String)}
     * @param version the version written on each log line
     * @param engines where the rules come from
     */
    public HookRunner(Map<String, String> env, String version, EngineSource engines) {
        this.env = env;
        this.version = version;
        this.engines = engines;
    }

    /**
     * Runs the hook once.
     *
     * @param in  Claude Code's input JSON
     * @param out where the decision JSON goes (nothing is written to defer)
     * @return the exit code: always 0
     */
    public int run(InputStream in, PrintStream out) {
        long start = System.nanoTime();
        HookLog log = HookLog.open(env, version);
        DecisionLog decisions = DecisionLog.open(env, version);
        try {
            String json = decide(in, log, decisions, start);
            if (json != null) {
                out.write((json + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (Throwable t) {
            // Any internal error defers: the hook never approves what it could not read.
            log.log("DEFER: internal error: " + t);
        } finally {
            log.close();
            decisions.close();
        }
        return 0;
    }

    /** The decision JSON, or null to defer. */
    private String decide(InputStream in, HookLog log, DecisionLog decisions, long start) {
        HookInput input;
        try {
            input = HookInput.read(in);
        } catch (Exception e) {
            log.log("DEFER: unreadable hook input: " + e.getMessage());
            return null;
        }
        if (!input.isBash()) {
            log.log("Bash".equals(input.toolName()) ? "DEFER: Bash call without a string tool_input.command"
                    : "DEFER: not a Bash call: " + input.toolName());
            return null;
        }
        PermissionSettings settings = SettingsLoader.load(env);
        for (String note : UserRules.notes(env)) log.log("rules: " + note);
        RuleEngine engine = engines.engine(UserRules.files(env), env);
        Verdict v = decide(input.command(), input.cwd(), input.permissionMode(), settings, engine, env.get("TMPDIR"),
                log);
        decisions.record(input.sessionId(), input.cwd(), input.permissionMode(), input.command(), v, (System.nanoTime() - start) / 1000);
        return v.json();
    }

    /**
     * The outcome of one call: {@code allow}, {@code ask}, {@code deny} or {@code defer}, with its reason and, when
     * the command was judged by the rules, the judgement.
     */
    public record Verdict(String outcome, String reason, CommandEvaluator.Judgement judgement) {
        /** The hook's stdout for this verdict: the decision JSON, or null to defer. */
        public String json() {
            return switch (outcome) {
                case "allow" -> HookOutput.json(HookOutput.ALLOW, reason);
                case "ask" -> HookOutput.json(HookOutput.ASK, reason);
                case "deny" -> HookOutput.json(HookOutput.DENY, reason);
                default -> null;
            };
        }
    }

    /**
     * Decides one Bash call under given settings and rules; the hook, {@code rules test} and audit replay share it.
     *
     * @param command  the Bash tool's command (null or blank defers)
     * @param cwd      the hook input's working directory (null: the process's own)
     * @param settings the permission settings
     * @param engine   the loaded rules
     * @param tmpDir   {@code $TMPDIR}, for macOS's /tmp aliases; may be null
     * @param log      where each step is logged
     * @return the verdict; never null
     * @throws RuntimeException only from a defect in the rules (the caller defers)
     */
    public static Verdict decide(String command, String cwd, PermissionSettings settings, RuleEngine engine,
                                 String tmpDir, HookLog log) {
        return decide(command, cwd, null, settings, engine, tmpDir, log);
    }

    /**
     * Decides one Bash call under given settings and rules in the session's permission mode; what each mode changes
     * is in {@code rules/modes.drl} and README ("Permission modes").
     *
     * @param command        the Bash tool's command (null or blank defers)
     * @param cwd            the hook input's working directory (null: the process's own)
     * @param permissionMode the hook input's {@code permission_mode} (null or unknown: {@code default})
     * @param settings       the permission settings
     * @param engine         the loaded rules
     * @param tmpDir         {@code $TMPDIR}, for macOS's /tmp aliases; may be null
     * @param log            where each step is logged
     * @return the verdict; never null
     * @throws RuntimeException only from a defect in the rules (the caller defers)
     */
    public static Verdict decide(String command, String cwd, String permissionMode, PermissionSettings settings,
                                 RuleEngine engine, String tmpDir, HookLog log) {
        if (command == null || command.isBlank()) {
            log.log("DEFER: empty command");
            return new Verdict("defer", "empty command", null);
        }
        if (command.length() > MAX_COMMAND_CHARS) {
            log.log("DEFER: command of " + command.length() + " characters is over " + MAX_COMMAND_CHARS);
            return new Verdict("defer", "command over " + MAX_COMMAND_CHARS + " characters", null);
        }
        for (String w : settings.warnings()) log.log("settings: " + w);
        log.log(HookLog.loadedMessage(settings.allow().size(), settings.ask().size(), settings.deny().size(),
                settings.filesRead()));
        CallContext context = new CallContext(permissionMode);
        if (settings.managedRulesOnly()) log.log("settings: allowManagedPermissionRulesOnly: only managed rules count");
        if (permissionMode != null) log.log("permission mode: " + context.getPermissionMode()
                + (permissionMode.equals(context.getPermissionMode()) ? ""
                : " (input said \"" + printable(permissionMode) + "\")"));
        log.log(HookLog.evaluatingMessage(command));
        if (!engine.compileErrors().isEmpty()) {
            String errors = String.join("; ", engine.compileErrors());
            log.log("ASK: user rules do not compile: " + errors);
            return new Verdict("ask", "compound-bash: your DRL rules do not compile, fix them: " + errors, null);
        }
        Environment environment = Environment.of(workingDirectory(cwd), settings.additionalDirectories(), tmpDir);
        List<PermissionRule> rules = CommandEvaluator.permissionRules(settings.allow(), settings.ask(),
                settings.deny());
        CommandEvaluator.Judgement j;
        try {
            j = new CommandEvaluator(engine).judge(command, environment, rules, context);
        } catch (ParseException e) {
            log.log("DEFER: parse error: " + e.getMessage());
            return new Verdict("defer", "parse error: " + e.getMessage(), null);
        } catch (StackOverflowError e) {
            // The parser bounds nesting (Parser.MAX_DEPTH), but a caller's thread stack may be smaller than the
            // launcher's: what could not be read whole defers.
            log.log("DEFER: command nests too deeply for this thread's stack");
            return new Verdict("defer", "command nests too deeply to evaluate", null);
        }
        logJudgement(j, log);
        return new Verdict(j.evaluation().decision().getOutcome(),
                "compound-bash: " + j.evaluation().decision().getReason(), j);
    }

    /** {@code s} cut to 40 characters with control characters shown as {@code ?}, for one log line. */
    private static String printable(String s) {
        String t = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return t.replaceAll("\\p{Cntrl}", "?");
    }

    private static Path workingDirectory(String cwd) {
        if (cwd != null && !cwd.isEmpty()) {
            try {
                Path p = Path.of(cwd);
                if (p.isAbsolute()) return p;
            } catch (RuntimeException e) {
                // fall through to the process's own directory
            }
        }
        return Path.of("").toAbsolutePath();
    }

    private static void logJudgement(CommandEvaluator.Judgement j, HookLog log) {
        List<SubCommand> subs = j.facts().subCommands();
        log.log(HookLog.parsedMessage(subs.size()));
        java.util.Map<Integer, Finding> strongest = Finding.strongestBySubject(j.evaluation().findings());
        for (SubCommand s : subs) {
            Finding verdict = strongest.get(s.getId());
            if (verdict == null) continue;
            switch (verdict.getKind()) {
                case Finding.APPROVE -> log.log("  ok [" + s.getName() + "]: " + verdict.getReason());
                case Finding.DEFER -> log.log(HookLog.deferMessage(s.getName(), s.getLine()));
                case Finding.ASK -> log.log(HookLog.askMessage(s.getName(), verdict.getReason()));
                default -> log.log(HookLog.denyMessage(s.getName(), verdict.getReason()));
            }
        }
        String outcome = j.evaluation().decision().getOutcome();
        if (outcome.equals("allow")) log.log(HookLog.allowMessage(subs.size()));
        else log.log(outcome.toUpperCase() + ": " + j.evaluation().decision().getReason());
    }
}
