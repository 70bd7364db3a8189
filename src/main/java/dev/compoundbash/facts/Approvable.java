package dev.compoundbash.facts;

import java.util.Objects;

/**
 * The derived mark that a {@link SubCommand} may be approved at all, inserted logically by one built-in rule
 * ({@code approval.drl}, "a sub-command may be approved"): it is not a wrapper as written, its name is static, and no
 * {@link NotApprovable} stands against it. Tier rules, allow rules and user rules approve only what carries the mark
 * (usually {@code Approvable( subjectId == $s.id, plain == true )}), and {@code outcome.drl} voids any approval of a
 * command without it (the Drools idiom of a derived fact, as the bus-pass example's {@code IsChild}).
 *
 * <p>Two preconditions are fields rather than part of the mark, because two deliberate exceptions pass them
 * explicitly: an allow rule written with the environment prefix ({@code Bash(FOO=1 make test)}) approves past an
 * unsafe prefix, and a command under an approved {@code sudo}/{@code doas} is approved through it.
 */
public final class Approvable {
    private final int subjectId;
    private final boolean unsafePrefix;
    private final boolean privileged;

    /**
     * @param subjectId    the sub-command's id
     * @param unsafePrefix its environment prefix sets a variable off the {@link NameList#SAFE_ENVIRONMENT} list
     * @param privileged   it runs under {@code sudo}/{@code doas}
     */
    public Approvable(int subjectId, boolean unsafePrefix, boolean privileged) {
        this.subjectId = subjectId;
        this.unsafePrefix = unsafePrefix;
        this.privileged = privileged;
    }

    public int getSubjectId() { return subjectId; }
    public boolean isUnsafePrefix() { return unsafePrefix; }
    public boolean isPrivileged() { return privileged; }

    /** True when neither exception is needed: any approving rule may approve it. */
    public boolean isPlain() { return !unsafePrefix && !privileged; }

    @Override
    public boolean equals(Object o) {
        return o instanceof Approvable a && a.subjectId == subjectId && a.unsafePrefix == unsafePrefix
                && a.privileged == privileged;
    }

    @Override
    public int hashCode() {
        return Objects.hash(subjectId, unsafePrefix, privileged);
    }

    @Override
    public String toString() {
        return "Approvable[" + subjectId + (unsafePrefix ? ", unsafe prefix" : "") + (privileged ? ", privileged" : "")
                + "]";
    }
}
