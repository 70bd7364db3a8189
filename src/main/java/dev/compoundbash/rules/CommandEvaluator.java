package dev.compoundbash.rules;

import dev.compoundbash.facts.CallContext;
import dev.compoundbash.facts.Environment;
import dev.compoundbash.facts.FactExtractor;
import dev.compoundbash.facts.Facts;
import dev.compoundbash.facts.PermissionRule;
import dev.compoundbash.shell.ParseException;
import dev.compoundbash.shell.Parser;
import dev.compoundbash.shell.Script;

import java.util.ArrayList;
import java.util.List;

/**
 * One whole judgement of a command string: parse ({@link Parser}), extract facts ({@link FactExtractor}), evaluate
 * the rules ({@link RuleEngine}). The hook, {@code explain} and audit replay all go through here, so they decide
 * alike.
 */
public final class CommandEvaluator {
    private final RuleEngine engine;

    /** A judgement: the tree, the facts, and the rules' evaluation. */
    public record Judgement(Script script, Facts facts, RuleEngine.Evaluation evaluation) {
    }

    /** Uses {@code engine} for every judgement. */
    public CommandEvaluator(RuleEngine engine) {
        this.engine = engine;
    }

    /** The engine behind this evaluator. */
    public RuleEngine engine() {
        return engine;
    }

    /**
     * Judges {@code command}.
     *
     * @param command the Bash tool's command string
     * @param env     working directory and allowed directories
     * @param rules   the Bash permission rules
     * @return the judgement
     * @throws ParseException when the command is not valid bash
     */
    public Judgement judge(String command, Environment env, List<PermissionRule> rules) throws ParseException {
        return judge(command, env, rules, CallContext.defaultMode());
    }

    /**
     * Judges {@code command} in a given call context (the session's permission mode, see {@code rules/modes.drl}).
     *
     * @param command the Bash tool's command string
     * @param env     working directory and allowed directories
     * @param rules   the Bash permission rules
     * @param context the call's context; null is the default mode
     * @return the judgement
     * @throws ParseException when the command is not valid bash
     */
    public Judgement judge(String command, Environment env, List<PermissionRule> rules, CallContext context)
            throws ParseException {
        Script script = Parser.parse(command);
        Facts facts = FactExtractor.extract(script, env);
        return new Judgement(script, facts, engine.evaluate(facts, rules, context));
    }

    /**
     * Turns settings' rule strings into Bash permission-rule facts; rules for other tools are dropped.
     *
     * @param allow {@code permissions.allow} entries as written
     * @param ask   {@code permissions.ask} entries
     * @param deny  {@code permissions.deny} entries
     * @return one fact per Bash rule, deny first
     */
    public static List<PermissionRule> permissionRules(List<String> allow, List<String> ask, List<String> deny) {
        List<PermissionRule> out = new ArrayList<>();
        add(out, "deny", deny);
        add(out, "ask", ask);
        add(out, "allow", allow);
        return out;
    }

    private static void add(List<PermissionRule> out, String kind, List<String> rules) {
        for (String r : rules) {
            String pattern = BashPattern.innerPattern(r);
            if (pattern != null) out.add(new PermissionRule(kind, pattern, r.trim()));
        }
    }
}
