package dev.compoundbash.facts;

import java.util.Objects;

/**
 * Why a {@link SubCommand} may not be approved by any rule, inserted logically by the rules that find a reason (an
 * earlier write of a variable that changes what runs, a value only known at run time evaluated as code, a
 * construct the model does not cover, ...). The rule that derives {@link Approvable} requires that none stands;
 * the unapproved command then defers (top level) or asks (nested) with this reason.
 */
public final class NotApprovable {
    private final int subjectId;
    private final String reason;
    private final String ruleName;

    /**
     * @param subjectId the sub-command's id
     * @param reason    why, for a person
     * @param ruleName  the rule that found it
     */
    public NotApprovable(int subjectId, String reason, String ruleName) {
        this.subjectId = subjectId;
        this.reason = reason;
        this.ruleName = ruleName;
    }

    public int getSubjectId() { return subjectId; }
    public String getReason() { return reason; }
    public String getRuleName() { return ruleName; }

    @Override
    public boolean equals(Object o) {
        return o instanceof NotApprovable n && n.subjectId == subjectId && n.reason.equals(reason)
                && n.ruleName.equals(ruleName);
    }

    @Override
    public int hashCode() {
        return Objects.hash(subjectId, reason, ruleName);
    }

    @Override
    public String toString() {
        return "NotApprovable[" + subjectId + ": " + reason + "]";
    }
}
