package dev.compoundbash.facts;

/**
 * The derived mark that Claude Code path-checks a sub-command itself (measured, 2.1.328): a top-level command, or the
 * payload of a wrapper it looks through ({@code timeout nice nohup time stdbuf env command builtin noglob}); not
 * the payloads of {@code xargs}, {@code sudo}, {@code find -exec} or {@code bash -c}. Inserted logically by
 * {@code boundary.drl}, whose write and directory-change boundaries hold where it stands.
 */
public final class CheckedByClaudeCode {
    private final int subjectId;

    /** @param subjectId the sub-command's id */
    public CheckedByClaudeCode(int subjectId) {
        this.subjectId = subjectId;
    }

    public int getSubjectId() { return subjectId; }

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckedByClaudeCode c && c.subjectId == subjectId;
    }

    @Override
    public int hashCode() {
        return subjectId;
    }

    @Override
    public String toString() {
        return "CheckedByClaudeCode[" + subjectId + "]";
    }
}
