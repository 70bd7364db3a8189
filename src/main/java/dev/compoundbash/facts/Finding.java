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

    /**
     * @param kind      one of {@link #APPROVE}, {@link #ASK}, {@link #DENY}, {@link #DEFER}
     * @param subjectId id of the fact judged, or -1 for the call as a whole
     * @param subject   a short text naming the subject (a command line, a redirect)
     * @param reason    why, for a person
     * @param ruleName  the DRL rule that inserted it
     */
    public Finding(String kind, int subjectId, String subject, String reason, String ruleName) {
        this.kind = kind;
        this.subjectId = subjectId;
        this.subject = subject;
        this.reason = reason;
        this.ruleName = ruleName;
    }

    public String getKind() { return kind; }
    public int getSubjectId() { return subjectId; }
    public String getSubject() { return subject; }
    public String getReason() { return reason; }
    public String getRuleName() { return ruleName; }

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
