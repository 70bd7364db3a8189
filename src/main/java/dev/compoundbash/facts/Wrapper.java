package dev.compoundbash.facts;

/**
 * A command that runs another command: xargs, find -exec/-execdir/-ok/-okdir, timeout, nice, nohup, stdbuf.
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

    /**
     * @param kind             the wrapper's name: {@code xargs}, {@code find}, {@code timeout}, {@code nice}, ...
     * @param appendsArguments true when unseen arguments are appended to the payload (xargs without -I)
     * @param replaceMode      xargs -I/-J/-i/--replace: arguments substituted at a placeholder
     * @param payloadReadable  false when the payload is missing or malformed ({@code find -exec} with no command)
     */
    public Wrapper(int id, String kind, int commandId, int payloadId, boolean appendsArguments, boolean replaceMode,
                   boolean payloadReadable) {
        this.id = id;
        this.kind = kind;
        this.commandId = commandId;
        this.payloadId = payloadId;
        this.appendsArguments = appendsArguments;
        this.replaceMode = replaceMode;
        this.payloadReadable = payloadReadable;
    }

    public int getId() { return id; }
    public String getKind() { return kind; }
    public int getCommandId() { return commandId; }
    public int getPayloadId() { return payloadId; }
    public boolean isAppendsArguments() { return appendsArguments; }
    public boolean isReplaceMode() { return replaceMode; }
    public boolean isPayloadReadable() { return payloadReadable; }

    @Override
    public String toString() {
        return "Wrapper#" + id + "[" + kind + " cmd=" + commandId + " payload=" + payloadId + "]";
    }
}
