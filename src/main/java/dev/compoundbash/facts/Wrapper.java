package dev.compoundbash.facts;

/**
 * A command that runs another command: xargs, find -exec/-execdir/-ok/-okdir, timeout, nice, nohup, stdbuf, env,
 * command, builtin, exec, sudo, doas, ionice, chrt, taskset, setsid, flock, watch, unbuffer, caffeinate, script,
 * time, and the shells' {@code -c SCRIPT} and {@code eval} (one Wrapper per command of the script).
 * Links the wrapper as written ({@link #getCommandId()}) to its payload ({@link #getPayloadId()}, -1 when there is
 * none or it cannot be read). One find may hold several Wrapper facts, one per -exec. A Drools fact.
 */
public final class Wrapper {
    private final int id;
    private final String kind;
    private final int commandId;
    private final int payloadId;
    private final boolean appendsArguments;
    private final boolean replaceMode;
    private final boolean payloadReadable;
    private final boolean privileged;
    private final boolean ownRuleRequired;
    private final boolean changesDirectory;
    private final boolean runner;

    /**
     * @param kind             the wrapper's name: {@code xargs}, {@code find}, {@code timeout}, {@code nice}, ...
     * @param appendsArguments true when unseen arguments are appended to the payload (xargs without -I)
     * @param replaceMode      xargs -I/-J/-i/--replace: arguments substituted at a placeholder
     * @param payloadReadable  false when the payload is missing or malformed ({@code find -exec} with no command)
     */
    public Wrapper(int id, String kind, int commandId, int payloadId, boolean appendsArguments, boolean replaceMode,
                   boolean payloadReadable) {
        this(id, kind, commandId, payloadId, appendsArguments, replaceMode, payloadReadable, false, false, false);
    }

    /**
     * The full constructor.
     *
     * @param privileged      {@code sudo}/{@code doas}: the payload runs as another user, so only an allow rule
     *                        matching the wrapper as written approves it
     * @param ownRuleRequired {@code eval}: the wrapper needs its own allow rule besides approved payloads
     * @param changesDirectory the payload runs in another directory ({@code env -C DIR}, {@code sudo -D DIR})
     * @see #Wrapper(int, String, int, int, boolean, boolean, boolean)
     */
    public Wrapper(int id, String kind, int commandId, int payloadId, boolean appendsArguments, boolean replaceMode,
                   boolean payloadReadable, boolean privileged, boolean ownRuleRequired,
                   boolean changesDirectory) {
        this(id, kind, commandId, payloadId, appendsArguments, replaceMode, payloadReadable, privileged,
                ownRuleRequired, changesDirectory, false);
    }

    /**
     * The full form.
     *
     * @param runner the wrapper is a runner ({@code npx}, {@code ssh}, {@code docker exec}, {@code parallel}): an
     *               allow rule for it as written approves the commands it runs that no rule denies or asks
     */
    public Wrapper(int id, String kind, int commandId, int payloadId, boolean appendsArguments, boolean replaceMode,
                   boolean payloadReadable, boolean privileged, boolean ownRuleRequired,
                   boolean changesDirectory, boolean runner) {
        this.runner = runner;
        this.id = id;
        this.kind = kind;
        this.commandId = commandId;
        this.payloadId = payloadId;
        this.appendsArguments = appendsArguments;
        this.replaceMode = replaceMode;
        this.payloadReadable = payloadReadable;
        this.privileged = privileged;
        this.ownRuleRequired = ownRuleRequired;
        this.changesDirectory = changesDirectory;
    }

    public int getId() { return id; }
    public String getKind() { return kind; }
    public int getCommandId() { return commandId; }
    public int getPayloadId() { return payloadId; }
    public boolean isAppendsArguments() { return appendsArguments; }
    public boolean isReplaceMode() { return replaceMode; }
    public boolean isPayloadReadable() { return payloadReadable; }
    public boolean isPrivileged() { return privileged; }
    public boolean isOwnRuleRequired() { return ownRuleRequired; }
    public boolean isChangesDirectory() { return changesDirectory; }
    /** True for a runner's payload link (see the full constructor). */
    public boolean isRunner() { return runner; }

    @Override
    public String toString() {
        return "Wrapper#" + id + "[" + kind + " cmd=" + commandId + " payload=" + payloadId + "]";
    }
}
