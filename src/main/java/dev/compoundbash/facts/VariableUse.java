package dev.compoundbash.facts;

import java.util.Objects;

/**
 * A variable a command reads, as a Drools fact: a parameter expansion ({@code $NAME}, {@code ${#NAME}},
 * {@code ${NAME:+x}}, ...) in any word, redirection, here-string or here-document body, {@code [[ ]]} operand,
 * {@code case} subject or pattern, loop word or assignment value; a name bash evaluates arithmetically
 * ({@code $((NAME))}, {@code (( NAME ))}, {@code [[ NAME -eq 0 ]]}, a subscript of an indexed array, a substring
 * offset, {@code let}, the value of an integer variable; Bash Reference Manual §6.5 "Shell Arithmetic": "a shell
 * variable that is null or unset evaluates to 0 when referenced by name", and its value "is evaluated as an
 * arithmetic expression", recursively); a variable named by another's value ({@code ${!x}}, §3.5.3); or a
 * variable tested for being set ({@code [[ -v NAME ]]}). bash prints a value that is not a number in its
 * arithmetic error message and a number as the result, so each of these shows the value. When the variable is one
 * the command did not set itself, reading it may reveal the environment (an API key), which Claude Code does not
 * run without asking (measured, 2.1.328: "A variable in this command can't be checked before it runs"; only
 * {@code $HOME} is known). {@code variables.drl} judges it against the {@code known-values} list.
 */
public final class VariableUse {
    /** {@link #getHow()}: the variable is expanded ({@code $NAME}). */
    public static final String EXPANSION = "expansion";
    /** {@link #getHow()}: the variable is referenced by name in an arithmetic expression. */
    public static final String ARITHMETIC = "arithmetic";
    /** {@link #getHow()}: the variable is named by another variable's value ({@code ${!x}}). */
    public static final String INDIRECTION = "indirection";
    /** {@link #getHow()}: the command tests whether the variable is set ({@code [[ -v NAME ]]}). */
    public static final String SET_TEST = "set test";

    private final int commandId;
    private final String name;
    private final boolean nameKnown;
    private final boolean setInCommand;
    private final String how;
    private final String via;

    /**
     * An expansion of a variable whose name is written in the command.
     *
     * @param commandId    as for {@link #VariableUse(int, String, boolean, boolean, String, String)}
     * @param name         the variable's name
     * @param setInCommand as for the full constructor
     */
    public VariableUse(int commandId, String name, boolean setInCommand) {
        this(commandId, name, true, setInCommand, EXPANSION, null);
    }

    /**
     * @param commandId    the {@link SubCommand} whose words, redirections or here-document read it; -1 when no
     *                     simple command does (a compound command's own words: {@code [[ ]]}, {@code (( ))},
     *                     {@code case}, {@code for}; an assignment statement): the rules judge the whole call
     * @param name         the variable's name ({@code 1}, {@code @}, {@code ?} for special parameters); when the
     *                     name is only known at run time, the text that makes it ({@code ${!x}}, {@code ${x}ECRET})
     * @param nameKnown    false when the name is only known at run time (a value only known at run time evaluated
     *                     arithmetically or used as a variable name, a name built from an expansion)
     * @param setInCommand the command set it earlier, on every path to this point, to a value not taken from the
     *                     environment (a loop over static words, an assignment of static text or of a command's
     *                     output, {@code read}, an arithmetic assignment), or it is a special or positional
     *                     parameter
     * @param how          {@link #EXPANSION}, {@link #ARITHMETIC}, {@link #INDIRECTION} or {@link #SET_TEST}
     * @param via          the variable whose value named this one (the {@code x} of {@code x=SECRET; $((x))} or of
     *                     {@code ${!x}}), or null when the command names it itself
     */
    public VariableUse(int commandId, String name, boolean nameKnown, boolean setInCommand, String how, String via) {
        this.commandId = commandId;
        this.name = Objects.requireNonNull(name);
        this.nameKnown = nameKnown;
        this.setInCommand = setInCommand;
        this.how = Objects.requireNonNull(how);
        this.via = via;
    }

    public int getCommandId() { return commandId; }
    public String getName() { return name; }
    public boolean isNameKnown() { return nameKnown; }
    public boolean isSetInCommand() { return setInCommand; }
    public String getHow() { return how; }
    public String getVia() { return via; }

    /** The use in words, for a reason: "expands $SECRET", "evaluates SECRET arithmetically (the value of x)". */
    public String describe() {
        String v = via == null ? "" : " (named by the value of " + via + ")";
        if (!nameKnown) {
            return "reads a variable whose name is only known at run time (" + name + ", " + how + ")";
        }
        return switch (how) {
            case ARITHMETIC -> "evaluates " + name + " arithmetically" + v
                    + " (bash prints a value that is not a number in its error message)";
            case INDIRECTION -> "reads " + name + " indirectly" + v;
            case SET_TEST -> "tests whether " + name + " is set";
            default -> "expands $" + name + v;
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof VariableUse u && u.commandId == commandId && u.name.equals(name)
                && u.nameKnown == nameKnown && u.setInCommand == setInCommand && u.how.equals(how)
                && Objects.equals(u.via, via);
    }

    @Override
    public int hashCode() {
        return Objects.hash(commandId, name, nameKnown, setInCommand, how, via);
    }

    @Override
    public String toString() {
        return "VariableUse[" + commandId + " " + (nameKnown ? name : "?" + name) + " by " + how
                + (via != null ? " via " + via : "") + (setInCommand ? ", set in the command" : "") + "]";
    }
}
