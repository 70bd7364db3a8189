package dev.compoundbash.hook;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.compoundbash.audit.DecisionLog;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.AgentSettings;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;

/**
 * The hook of a coding agent other than Claude Code ({@code compound-bash hook --agent codex|gemini|copilot}), start
 * to end: read the agent's input ({@link AgentProtocol#read}), load the rules for that agent ({@link AgentSettings})
 * and the DRL rules, judge the command with the one decision function ({@link Decider}, through
 * {@link HookRunner#decide}, which logs each step), answer in the agent's format ({@link AgentProtocol#answer}).
 * Every failure answers nothing (exit 0, empty stdout): the agent decides as usual. Only the answer reaches stdout.
 */
public final class AgentHook {
    /** The environment variable naming the agent for the warm path (bin/compound-bash sends it to the evaluator). */
    public static final String AGENT_ENV = "COMPOUND_BASH_AGENT";

    private static final ObjectMapper READER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();
    private static final ObjectMapper WRITER = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

    private final String agent;
    private final Map<String, String> env;
    private final String version;
    private final HookRunner.EngineSource engines;

    /**
     * @param agent   {@code codex}, {@code gemini} or {@code copilot}
     * @param env     the hook's environment ({@code HOME}, the agents' homes, compound-bash's settings file)
     * @param version the version written on each log line
     * @param engines where the rules come from
     * @throws IllegalArgumentException for an agent {@link AgentProtocol#of} does not know
     */
    public AgentHook(String agent, Map<String, String> env, String version, HookRunner.EngineSource engines) {
        if (AgentProtocol.of(agent) == null) throw new IllegalArgumentException("unknown agent: " + agent);
        this.agent = agent;
        this.env = env;
        this.version = version;
        this.engines = engines;
    }

    /**
     * Runs the hook once.
     *
     * @param in  the agent's input JSON
     * @param out where the answer goes
     * @return the exit status (0: the answers are JSON on stdout)
     */
    public int run(InputStream in, PrintStream out) {
        long start = System.nanoTime();
        HookLog log = HookLog.open(env, version);
        DecisionLog decisions = DecisionLog.open(env, version);
        int rc = 0;
        try {
            AgentProtocol.Answer a = decide(in, log, decisions, start);
            if (a.stdout() != null) {
                out.write((a.stdout() + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
            rc = a.exitCode();
        } catch (Throwable t) {
            log.log("DEFER: internal error: " + t);
        } finally {
            log.close();
            decisions.close();
        }
        return rc;
    }

    private AgentProtocol.Answer decide(InputStream in, HookLog log, DecisionLog decisions, long start) {
        JsonNode root;
        try {
            byte[] bytes = in.readNBytes(HookInput.MAX_INPUT_BYTES + 1);
            if (bytes.length > HookInput.MAX_INPUT_BYTES) throw new IOException("input too large");
            root = READER.readTree(bytes);
            if (root == null || !root.isObject()) throw new IOException("not a JSON object");
        } catch (IOException | RuntimeException e) {
            log.log("DEFER: unreadable " + agent + " hook input: " + e.getMessage());
            return AgentProtocol.Answer.NONE;
        }
        AgentProtocol protocol = AgentProtocol.of(agent);
        AgentProtocol.Call call = protocol.read(root, env);
        if (call == null) {
            log.log("DEFER: not a shell call of " + agent + ": " + AgentProtocol.text(root.get("hook_event_name"))
                    + " " + AgentProtocol.text(root.has("tool_name") ? root.get("tool_name") : root.get("toolName")));
            return AgentProtocol.Answer.NONE;
        }
        Path cwd = call.cwd() == null ? null : Decider.workingDirectory(call.cwd());
        AgentSettings.Loaded loaded = AgentSettings.load(agent, env, cwd);
        if (agent.equals("gemini") && "ask".equals(loaded.option("agents.gemini.ask"))) {
            protocol = new GeminiProtocol(true);
        }
        log.log("agent: " + agent + " " + call.event() + " (" + call.toolName() + ", shell " + call.shell() + ")");
        for (String note : UserRules.notes(env)) log.log("rules: " + note);
        RuleEngine engine = engines.engine(UserRules.files(env), env);
        for (String e : engine.compileErrors()) log.log("rules: user rules do not compile: " + e);
        Decider.Verdict v = HookRunner.decide(call(call, call.command(), loaded), engine, log);
        for (String other : call.commands().subList(1, call.commands().size())) {
            if (v.outcome().equals("deny")) break;
            Decider.Verdict w = Decider.decideOrDefer(call(call, other, loaded), engine);
            if (w.outcome().equals("deny")) {
                log.log("DENY: the form " + agent + " runs is denied: " + HookLog.escape(other));
                v = w;
            }
        }
        decisions.record(call.sessionId(), call.cwd(), call.permissionMode(), call.command(), v,
                (System.nanoTime() - start) / 1000);
        AgentProtocol.Answer a = protocol.answer(call, v);
        log.log("answer to " + agent + ": " + (a.stdout() == null ? "(nothing)" : a.stdout()));
        return a;
    }

    private Decider.Call call(AgentProtocol.Call c, String command, AgentSettings.Loaded loaded) {
        return new Decider.Call(command, c.cwd(), c.permissionMode(), loaded.settings(), env.get("TMPDIR"),
                env.get("HOME"), agent, c.shell(), c.decisionEvent());
    }

    /**
     * A JSON node as one line of ASCII (non-ASCII as <code>&#92;uXXXX</code>), as {@link HookOutput} writes.
     *
     * @param node the node
     * @return the JSON text
     */
    static String json(JsonNode node) {
        try {
            return WRITER.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
