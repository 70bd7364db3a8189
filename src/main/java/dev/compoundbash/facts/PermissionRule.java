package dev.compoundbash.facts;

/**
 * One Claude Code permission rule for the Bash tool, as a Drools fact: its kind ({@code allow}, {@code ask},
 * {@code deny}), the pattern inside {@code Bash(...)} and the rule as written. Follows Claude Code docs,
 * "Identity and Access Management: permission rules".
 */
public final class PermissionRule {
    private final String kind;
    private final String pattern;
    private final String rule;

    public PermissionRule(String kind, String pattern, String rule) {
        this.kind = kind;
        this.pattern = pattern;
        this.rule = rule;
    }

    public String getKind() { return kind; }
    public String getPattern() { return pattern; }
    public String getRule() { return rule; }

    @Override
    public String toString() {
        return kind + " " + rule;
    }
}
