package dev.compoundbash.hook;

import dev.compoundbash.audit.DecisionLog;
import dev.compoundbash.facts.CallContext;
import dev.compoundbash.facts.CallProblem;
import dev.compoundbash.facts.Finding;
import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.settings.ClaudeCodeShell;
import dev.compoundbash.settings.SettingsLoader;

import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The PreToolUse hook, start to end: read Claude Code's input JSON, load settings and rules, judge the command,
 * write the decision JSON, log each step. Follows Claude Code docs, "Hooks reference": PreToolUse input and
 * {@code hookSpecificOutput.permissionDecision}. Every failure defers: exit 0, and on stdout nothing, or, when the
 * call could not be judged for a reason the user should know (input that is not a Bash call's JSON, a command over
 * the length limit, an internal error), one {@code systemMessage} line saying so ({@link HookOutput#message}): still
 * a defer, Claude Code decides as if no hook had answered.
 */
public final class HookRunner {
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
     *                {@code CLAUDE_COMPOUND_LOG}, {@code CLAUDE_COMPOUND_DECISION_LOG}; {@code COMPOUND_BASH_AGENT}
     *                names another agent, whose protocol {@link AgentHook} then speaks); the JVM's {@code user.home}
     *                is never used
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
        String agent = env.get(AgentHook.AGENT_ENV);
        if (agent != null && !agent.isEmpty() && !agent.equals(dev.compoundbash.facts.CallContext.CLAUDE_CODE)) {
            if (AgentProtocol.of(agent) == null) {
                HookLog log = HookLog.open(env, version);
                log.log("DEFER: unknown agent " + HookLog.escape(agent) + " (" + AgentHook.AGENT_ENV + ")");
                log.close();
                return 0;
            }
            return new AgentHook(agent, env, version, engines).run(in, out);
        }
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
            try {
                out.write((HookOutput.message(notJudged("an internal error (" + t.getClass().getSimpleName() + ")"))
                        + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (Throwable ignored) {
                // nothing more can be said
            }
        } finally {
            log.close();
            decisions.close();
        }
        return 0;
    }

    /**
     * The one line that tells the user a call was not judged ({@link HookOutput#message}), naming why and the log.
     *
     * @param why what kept the hook from judging, e.g. {@code the hook input is not JSON}
     */
    private String notJudged(String why) {
        Path logFile = HookLog.resolvePath(env);
        return "compound-bash did not judge this Bash call: " + why + "; Claude Code decides it as usual"
                + (logFile != null ? " (log: " + logFile + ")" : "");
    }

    /** What is wrong with input {@link HookInput#read} refused, in a few words for the user. */
    static String inputProblem(Exception e) {
        String m = String.valueOf(e.getMessage());
        if (m.startsWith("hook input larger than")) return "its input from Claude Code is over " + HookInput.MAX_INPUT_BYTES / 1024 + " KiB";
        if (m.startsWith("empty hook input")) return "its input from Claude Code is empty";
        if (m.startsWith("hook input is not a JSON object")) return "its input from Claude Code is not a JSON object";
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException) return "its input from Claude Code is not JSON";
        return "its input from Claude Code could not be read";
    }

    /** The decision JSON, a message JSON that still defers, or null to defer silently. */
    private String decide(InputStream in, HookLog log, DecisionLog decisions, long start) {
        HookInput input;
        try {
            input = HookInput.read(in);
        } catch (Exception e) {
            log.log("DEFER: unreadable hook input: " + e.getMessage());
            return HookOutput.message(notJudged(inputProblem(e)));
        }
        if (!input.isBash()) {
            if ("Bash".equals(input.toolName())) {
                log.log("DEFER: Bash call without a string tool_input.command");
                return HookOutput.message(notJudged("its input has no command string (tool_input.command)"));
            }
            // another tool (a matcher wider than Bash): not this hook's call, nothing to say
            log.log("DEFER: not a Bash call: " + input.toolName());
            return null;
        }
        PermissionSettings settings = SettingsLoader.load(env);
        for (String note : UserRules.notes(env)) log.log("rules: " + note);
        RuleEngine engine = engines.engine(UserRules.files(env), env);
        for (String e : engine.compileErrors()) log.log("rules: user rules do not compile: " + e);
        ClaudeCodeShell.Choice shell = ClaudeCodeShell.of(env);
        log.log("shell: " + shell.describe());
        Decider.Verdict v = decide(new Decider.Call(input.command(), input.cwd(), input.permissionMode(), settings,
                env.get("TMPDIR"), env.get("HOME"), shell.kind()), engine, log);
        decisions.record(input.sessionId(), input.cwd(), input.permissionMode(), shell.kind(), input.command(), v,
                (System.nanoTime() - start) / 1000);
        if (!v.defers()) return HookOutput.json(v.outcome(), v.reason());
        if (v.judgement() == null) return HookOutput.message(notJudged("an internal error"));
        for (CallProblem p : v.judgement().problems()) {
            if (CallProblem.TOO_LONG.equals(p.getKind())) {
                int n = input.command().length();
                return HookOutput.message(notJudged("the command is " + n + " characters long, "
                        + (n > Decider.MAX_PARSED_CHARS ? "over the " + Decider.MAX_PARSED_CHARS + " it reads"
                        : "over the " + Decider.MAX_COMMAND_CHARS + " it approves")));
            }
        }
        return null;
    }

    /**
     * Decides one call through {@link Decider#decide} and writes its steps to {@code log}: the settings read, the
     * permission mode, the command, each sub-command's strongest finding, and the outcome. {@code rules test},
     * replay and {@code explain} call {@link Decider} directly and log nothing.
     *
     * @param call   the call
     * @param engine the loaded rules
     * @param log    where each step is logged
     * @return the verdict; never null (a defect of the decision function is an internal-error defer)
     */
    public static Decider.Verdict decide(Decider.Call call, RuleEngine engine, HookLog log) {
        PermissionSettings settings = call.settings();
        for (String w : settings.warnings()) log.log("settings: " + w);
        log.log(HookLog.loadedMessage(settings.allow().size(), settings.ask().size(), settings.deny().size(),
                settings.filesRead(), settings.notes()));
        if (settings.managedRulesOnly()) log.log("settings: allowManagedPermissionRulesOnly: only managed rules count");
        String mode = call.permissionMode();
        if (mode != null) {
            String read = new CallContext(mode).getPermissionMode();
            log.log("permission mode: " + read + (mode.equals(read) ? "" : " (input said \"" + printable(mode) + "\")"));
        }
        if (call.command() != null) log.log(HookLog.evaluatingMessage(call.command()));
        Decider.Verdict v = Decider.decideOrDefer(call, engine);
        logJudgement(v, log);
        return v;
    }

    /** {@code s} cut to 40 characters with control characters shown as {@code ?}, for one log line. */
    private static String printable(String s) {
        String t = s.length() > 40 ? s.substring(0, 40) + "..." : s;
        return t.replaceAll("\\p{Cntrl}", "?");
    }

    private static void logJudgement(Decider.Verdict v, HookLog log) {
        Decider.Judgement j = v.judgement();
        if (j != null) {
            for (CallProblem p : j.problems()) log.log("problem: " + p.getKind() + ": " + p.getMessage());
            List<SubCommand> subs = j.facts().subCommands();
            if (j.script() != null) log.log(HookLog.parsedMessage(subs.size()));
            Map<Integer, Finding> strongest = Finding.strongestBySubject(j.evaluation().findings());
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
            if (v.outcome().equals("allow")) {
                log.log(HookLog.allowMessage(subs.size()));
                return;
            }
        }
        log.log(v.outcome().toUpperCase() + ": " + v.reason().replaceFirst("^compound-bash: ", ""));
    }
}
