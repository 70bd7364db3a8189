package dev.compoundbash.facts;

/**
 * The outcome of one evaluation, inserted by {@code outcome.drl}: {@code allow}, {@code ask}, {@code deny} or
 * {@code defer} (no opinion: Claude Code decides as usual), with a reason naming the subject and the rule.
 */
public final class Decision {
    private final String outcome;
    private final String reason;
    private final String ruleName;

    public Decision(String outcome, String reason, String ruleName) {
        this.outcome = outcome;
        this.reason = reason;
        this.ruleName = ruleName;
    }

    public String getOutcome() { return outcome; }
    public String getReason() { return reason; }
    public String getRuleName() { return ruleName; }

    @Override
    public String toString() {
        return outcome + ": " + reason;
    }
}
