package dev.compoundbash.facts;

/**
 * A shell variable the command sets, as a Drools fact: by an assignment statement, a {@code for}/{@code select}
 * loop, a builtin that assigns by name ({@code read}, {@code printf -v}, {@code getopts}, {@code mapfile},
 * {@code wait -p}, {@code unset}, the declaration builtins), an assignment inside arithmetic or a subscript, a
 * {@code ${NAME:=word}} expansion, or a redirection that assigns a descriptor number ({@code {NAME}>file}). Follows
 * bash(1) "PARAMETERS", "SHELL BUILTIN COMMANDS", "ARITHMETIC EVALUATION" and "REDIRECTION". {@code variables.drl}
 * judges it; an environment prefix ({@code FOO=1 cmd}) is not a write of the shell's variable and is on the
 * {@link SubCommand} instead.
 *
 * @see NameList the lists of variables that change what runs
 */
public final class VariableWrite {
    private final int id;
    private final String name;
    private final int position;
    private final boolean anywhere;
    private final boolean runTimeValue;
    private final String how;
    private final int commandId;

    /**
     * @param id           unique among the facts of one evaluation
     * @param name         the variable's name (a subscripted name's base name), or null when the name is only known
     *                     at run time ({@code read "$n"}, {@code (( $n = 1 ))}, {@code declare -n})
     * @param position     the write comes before every fact whose id is greater ({@link SubCommand#getId()})
     * @param anywhere     true when the order is not tracked (arithmetic, {@code ${x:=y}}): the write counts for
     *                     every command of the call
     * @param runTimeValue the value is only known at run time (an expansion, {@code read}, a loop over expansions)
     * @param how          what writes it, for a person: {@code assignment}, {@code for loop}, {@code read}, ...
     * @param commandId    the sub-command that writes it, or -1 (an assignment statement, arithmetic)
     */
    public VariableWrite(int id, String name, int position, boolean anywhere, boolean runTimeValue, String how,
                         int commandId) {
        this.id = id;
        this.name = name;
        this.position = position;
        this.anywhere = anywhere;
        this.runTimeValue = runTimeValue;
        this.how = how;
        this.commandId = commandId;
    }

    public int getId() { return id; }

    /** The name written, or null when it is only known at run time. */
    public String getName() { return name; }

    /** True when the name is known. */
    public boolean isNameKnown() { return name != null; }

    public int getPosition() { return position; }
    public boolean isAnywhere() { return anywhere; }
    public boolean isRunTimeValue() { return runTimeValue; }
    public String getHow() { return how; }
    public int getCommandId() { return commandId; }

    /**
     * @param subCommandId a {@link SubCommand}'s id
     * @return true when this write may be in effect when that command runs
     */
    public boolean precedes(int subCommandId) {
        return anywhere || position < subCommandId;
    }

    /** The name for a person: the name, or "a variable named only at run time". */
    public String describe() {
        return name != null ? name : "a variable named only at run time";
    }

    @Override
    public String toString() {
        return "VariableWrite#" + id + "[" + describe() + " by " + how + (anywhere ? ", anywhere" : " @" + position)
                + (runTimeValue ? ", run-time value" : "") + "]";
    }
}
