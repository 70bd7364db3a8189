package dev.compoundbash.facts;

import java.util.Objects;

/**
 * A parameter expansion in a command's words, redirections or here-document body ({@code $NAME}, {@code ${NAME}},
 * {@code ${#NAME}}, ...), as a Drools fact. Its value reaches the command: when the variable is one the command did
 * not set itself, expanding it may reveal the environment (an API key in {@code echo $ANTHROPIC_API_KEY}), which
 * Claude Code does not run without asking (measured, 2.1.328: "A variable in this command can't be checked before
 * it runs"; only {@code $HOME} is known). {@code variables.drl} judges it against the {@code known-values} list.
 */
public final class VariableUse {
    private final int commandId;
    private final String name;
    private final boolean setInCommand;

    /**
     * @param commandId    the {@link SubCommand} whose words expand it
     * @param name         the variable's name ({@code 1}, {@code @}, {@code ?} for special parameters)
     * @param setInCommand the command set it earlier to a value not taken from the environment (a loop over static
     *                     words, an assignment of static text or of a command's output, {@code read}), or it is a
     *                     special or positional parameter
     */
    public VariableUse(int commandId, String name, boolean setInCommand) {
        this.commandId = commandId;
        this.name = name;
        this.setInCommand = setInCommand;
    }

    public int getCommandId() { return commandId; }
    public String getName() { return name; }
    public boolean isSetInCommand() { return setInCommand; }

    @Override
    public boolean equals(Object o) {
        return o instanceof VariableUse u && u.commandId == commandId && u.name.equals(name)
                && u.setInCommand == setInCommand;
    }

    @Override
    public int hashCode() {
        return Objects.hash(commandId, name, setInCommand);
    }

    @Override
    public String toString() {
        return "VariableUse[" + commandId + " $" + name + (setInCommand ? ", set in the command" : "") + "]";
    }
}
