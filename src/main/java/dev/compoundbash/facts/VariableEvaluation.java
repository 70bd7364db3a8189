package dev.compoundbash.facts;

/**
 * A variable whose value bash evaluates again, as code: arithmetically ({@code $((x))}, {@code (( x ))},
 * {@code [[ x -eq 1 ]]}, a subscript, {@code let}) or as a variable name ({@code ${!x}}). bash evaluates the value
 * as an expression, so a value holding an array subscript runs its command substitutions (Bash Reference Manual
 * §6.5 "Shell Arithmetic", §3.5.3 indirection). A Drools fact; {@code variables.drl} joins it with a
 * {@link VariableWrite} whose value is only known at run time.
 */
public final class VariableEvaluation {
    private final String name;
    private final String how;

    /**
     * @param name the variable referenced
     * @param how  {@code arithmetic} or {@code indirection}
     */
    public VariableEvaluation(String name, String how) {
        this.name = name;
        this.how = how;
    }

    public String getName() { return name; }
    public String getHow() { return how; }

    @Override
    public boolean equals(Object o) {
        return o instanceof VariableEvaluation v && v.name.equals(name) && v.how.equals(how);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + how.hashCode();
    }

    @Override
    public String toString() {
        return "VariableEvaluation[" + name + " by " + how + "]";
    }
}
