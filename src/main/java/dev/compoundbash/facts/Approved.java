package dev.compoundbash.facts;

import java.util.Objects;

/**
 * An approval that counts, inserted logically by {@code outcome.drl}: a {@link Finding} of kind approve about a
 * sub-command that carries the {@link Approvable} mark (or a wrapper approved through its payloads by a rule marked
 * {@code @wrapperApproval}). Every rule that asks "is this command approved?" reads this fact, never the approve
 * finding itself, so an approval the safety rule voids changes nothing.
 */
public final class Approved {
    private final int subjectId;
    private final String ruleName;
    private final boolean knownSafe;

    /**
     * @param subjectId the sub-command's id
     * @param ruleName  the rule whose approval counts
     * @param knownSafe that rule is one of the known-safe tiers (rule attribute {@code @knownSafe})
     */
    public Approved(int subjectId, String ruleName, boolean knownSafe) {
        this.subjectId = subjectId;
        this.ruleName = ruleName;
        this.knownSafe = knownSafe;
    }

    public int getSubjectId() { return subjectId; }
    public String getRuleName() { return ruleName; }
    public boolean isKnownSafe() { return knownSafe; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Approved a && a.subjectId == subjectId && a.ruleName.equals(ruleName)
                && a.knownSafe == knownSafe;
    }

    @Override
    public int hashCode() {
        return Objects.hash(subjectId, ruleName, knownSafe);
    }

    @Override
    public String toString() {
        return "Approved[" + subjectId + " by " + ruleName + "]";
    }
}
