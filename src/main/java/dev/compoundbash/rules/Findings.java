package dev.compoundbash.rules;

import dev.compoundbash.facts.Finding;
import org.kie.api.definition.rule.Rule;
import org.kie.api.runtime.rule.RuleContext;

import java.util.Set;

/**
 * Builds {@link Finding}s in a rule's consequence, named after the rule and carrying its metadata attributes
 * ({@code @hookPrompt}, {@code @knownSafe}, {@code @wrapperApproval}, {@code @pastPrefix}, {@code @underPrivilege};
 * Drools reads them into {@code Rule.getMetaData()}). In DRL:
 * {@code insert(Findings.ask(drools, $s.getId(), $s.getLine(), "why"))}. What a mode or the reduction does with a
 * finding is then decided by the attributes of the rule that made it, never by its name.
 */
public final class Findings {
    private Findings() {
    }

    /**
     * A finding of {@code kind} by the rule now firing.
     *
     * @param drools    the consequence's {@code drools} context
     * @param kind      {@link Finding#APPROVE}, {@link Finding#ASK}, {@link Finding#DENY} or {@link Finding#DEFER}
     * @param subjectId id of the fact judged
     * @param subject   short text naming it
     * @param reason    why, for a person
     * @return the finding, to insert
     */
    public static Finding of(RuleContext drools, String kind, int subjectId, String subject, String reason) {
        Rule r = drools.getRule();
        return new Finding(kind, subjectId, subject, reason, r.getName(), attributes(r));
    }

    /**
     * The metadata attributes a finding of rule {@code r} carries. The attributes that grant an exception to the
     * approval preconditions ({@link Finding#EXCEPTIONS}: {@code @knownSafe}, {@code @wrapperApproval},
     * {@code @pastPrefix}, {@code @underPrivilege}) count only in the built-in rules (package
     * {@link RuleEngine#BUILT_IN_PACKAGE}, which user DRL may not declare); a user or project rule that claims one
     * has it ignored (issue 20, finding 2). Other attributes ({@code @hookPrompt}, {@code @lackOfAllow}) only weaken
     * or describe the rule's own finding and are kept.
     *
     * @param r the rule
     * @return the attribute names
     */
    public static Set<String> attributes(Rule r) {
        Set<String> names = r.getMetaData().keySet();
        if (RuleEngine.BUILT_IN_PACKAGE.equals(r.getPackageName())) return Set.copyOf(names);
        java.util.Set<String> kept = new java.util.HashSet<>(names);
        kept.removeAll(Finding.EXCEPTIONS);
        return Set.copyOf(kept);
    }

    /** An approve finding; see {@link #of}. */
    public static Finding approve(RuleContext drools, int subjectId, String subject, String reason) {
        return of(drools, Finding.APPROVE, subjectId, subject, reason);
    }

    /** An ask finding; see {@link #of}. */
    public static Finding ask(RuleContext drools, int subjectId, String subject, String reason) {
        return of(drools, Finding.ASK, subjectId, subject, reason);
    }

    /** A deny finding; see {@link #of}. */
    public static Finding deny(RuleContext drools, int subjectId, String subject, String reason) {
        return of(drools, Finding.DENY, subjectId, subject, reason);
    }

    /** A defer finding; see {@link #of}. */
    public static Finding defer(RuleContext drools, int subjectId, String subject, String reason) {
        return of(drools, Finding.DEFER, subjectId, subject, reason);
    }
}
