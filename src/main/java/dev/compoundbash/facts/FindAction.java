package dev.compoundbash.facts;

/**
 * A find primary that acts: {@code -delete}, {@code -fprint}, {@code -fprint0}, {@code -fprintf}, {@code -fls}
 * (write or remove files: mutating), {@code -ok}/{@code -okdir} (run a command after a prompt the agent answers:
 * mutating), {@code -exec}/{@code -execdir} (run a payload, see {@link Wrapper}). A Drools fact.
 */
public final class FindAction {
    private final int id;
    private final int commandId;
    private final String action;
    private final boolean mutating;
    private final String argument;

    /**
     * @param commandId id of the find {@link SubCommand}
     * @param action    the primary as written, e.g. {@code -delete}
     * @param mutating  true for primaries that write, delete or run commands unchecked
     * @param argument  the primary's file argument ({@code -fprint FILE}), or null
     */
    public FindAction(int id, int commandId, String action, boolean mutating, String argument) {
        this.id = id;
        this.commandId = commandId;
        this.action = action;
        this.mutating = mutating;
        this.argument = argument;
    }

    public int getId() { return id; }
    public int getCommandId() { return commandId; }
    public String getAction() { return action; }
    public boolean isMutating() { return mutating; }
    public String getArgument() { return argument; }

    @Override
    public String toString() {
        return "FindAction#" + id + "[" + action + (argument == null ? "" : " " + argument) + "]";
    }
}
