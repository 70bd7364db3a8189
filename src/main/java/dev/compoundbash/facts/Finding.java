package dev.compoundbash.facts;

/**
 * What a DRL rule concluded about one subject (a {@link SubCommand}, {@link Redirect} or the whole call). Kinds:
 * {@code approve}, {@code ask}, {@code deny}, {@code defer}. Rules insert Findings; the outcome rules reduce them
 * to one {@link Decision} with precedence deny &gt; ask &gt; defer &gt; allow.
 */
public final class Finding {
    public static final String APPROVE = "approve";
    public static final String ASK = "ask";
    public static final String DENY = "deny";
    public static final String DEFER = "defer";

    private final String kind;
    private final int subjectId;
    private final String subject;
    private final String reason;
    private final String ruleName;
    private final java.util.Set<String> attributes;
    private final long seq = SEQUENCE.incrementAndGet();
    private static final java.util.concurrent.atomic.AtomicLong SEQUENCE = new java.util.concurrent.atomic.AtomicLong();

    /** Rule attribute: the finding is a prompt the hook adds on its own (a hazard Claude Code's check cannot see). */
    public static final String HOOK_PROMPT = "hookPrompt";
    /** Rule attribute: the approval comes from a known-safe tier (plan mode keeps only these). */
    public static final String KNOWN_SAFE = "knownSafe";
    /** Rule attribute: the approval of a wrapper through its payloads (a wrapper carries no {@link Approvable}). */
    public static final String WRAPPER_APPROVAL = "wrapperApproval";
    /** Rule attribute: the approval passes an unsafe environment prefix (a rule written with the prefix). */
    public static final String PAST_PREFIX = "pastPrefix";
    /** Rule attribute: the finding says only that no allow rule approves the command ({@code rules suggest} reads it). */
    public static final String LACK_OF_ALLOW = "lackOfAllow";
    /** Rule attribute: the approval of a command under an approved sudo/doas. */
    public static final String UNDER_PRIVILEGE = "underPrivilege";

    /**
     * The attributes that grant an exception to the approval preconditions: honoured only in the built-in rules
     * ({@code dev.compoundbash.rules.Findings#attributes}).
     */
    public static final java.util.Set<String> EXCEPTIONS = java.util.Set.of(KNOWN_SAFE, WRAPPER_APPROVAL,
            PAST_PREFIX, UNDER_PRIVILEGE);

    /**
     * @param kind      one of {@link #APPROVE}, {@link #ASK}, {@link #DENY}, {@link #DEFER}
     * @param subjectId id of the fact judged, or -1 for the call as a whole
     * @param subject   a short text naming the subject (a command line, a redirect)
     * @param reason    why, for a person
     * @param ruleName  the DRL rule that inserted it
     */
    public Finding(String kind, int subjectId, String subject, String reason, String ruleName) {
        this(kind, subjectId, subject, reason, ruleName, java.util.Set.of());
    }

    /**
     * A finding with the attributes of the rule that inserted it (its DRL metadata, e.g. {@code @hookPrompt}); built
     * by {@code dev.compoundbash.rules.Findings} from {@code drools.getRule()}.
     *
     * @param attributes the names of the rule's metadata attributes ({@link #HOOK_PROMPT}, {@link #KNOWN_SAFE}, ...)
     */
    public Finding(String kind, int subjectId, String subject, String reason, String ruleName,
                   java.util.Set<String> attributes) {
        this.kind = kind;
        this.subjectId = subjectId;
        this.subject = subject;
        this.reason = reason;
        this.ruleName = ruleName;
        this.attributes = java.util.Set.copyOf(attributes);
    }

    public String getKind() { return kind; }
    public int getSubjectId() { return subjectId; }
    public String getSubject() { return subject; }
    public String getReason() { return reason; }
    public String getRuleName() { return ruleName; }

    /** The metadata attribute names of the rule that inserted it. */
    public java.util.Set<String> getAttributes() { return attributes; }

    /** Insertion order within the process: ties between findings about one subject are broken by it. */
    public long getSeq() { return seq; }

    /** The rule that inserted it is marked {@code @hookPrompt}. */
    public boolean isHookPrompt() { return attributes.contains(HOOK_PROMPT); }

    /** The rule that inserted it is marked {@code @knownSafe}. */
    public boolean isKnownSafe() { return attributes.contains(KNOWN_SAFE); }

    /** The rule that inserted it is marked {@code @wrapperApproval}. */
    public boolean isWrapperApproval() { return attributes.contains(WRAPPER_APPROVAL); }

    /** The rule that inserted it is marked {@code @pastPrefix}. */
    public boolean isPastPrefix() { return attributes.contains(PAST_PREFIX); }

    /** The rule that inserted it is marked {@code @underPrivilege}. */
    public boolean isUnderPrivilege() { return attributes.contains(UNDER_PRIVILEGE); }

    /**
     * @param other another finding
     * @return true when this one comes first in the reduction's order: smaller subject id, then earlier insertion
     */
    public boolean before(Finding other) {
        return subjectId != other.subjectId ? subjectId < other.subjectId : seq < other.seq;
    }

    /**
     * For every subject, the finding about it that weighs most: deny &gt; ask &gt; defer &gt; approve (the first of
     * equal weight). One pass, so a command of thousands of sub-commands costs linear time.
     *
     * @param findings findings of one evaluation
     * @return subject id to its strongest finding; subjects without findings are absent
     */
    public static java.util.Map<Integer, Finding> strongestBySubject(java.util.List<Finding> findings) {
        java.util.Map<Integer, Finding> out = new java.util.HashMap<>();
        for (Finding f : findings) {
            out.merge(f.subjectId, f, (old, f2) -> weight(f2.kind) > weight(old.kind) ? f2 : old);
        }
        return out;
    }

    private static int weight(String kind) {
        return switch (kind) {
            case DENY -> 3;
            case ASK -> 2;
            case DEFER -> 1;
            default -> 0;
        };
    }

    @Override
    public String toString() {
        return kind + " [" + subject + "]: " + reason + " (rule \"" + ruleName + "\")";
    }
}
