package dev.compoundbash.facts;

/**
 * One entry of {@link ProgramTable}, as a Drools fact: a program whose path operands Claude Code checks against
 * the working directories. {@code boundary.drl} joins it with the {@link PathOperand}s of a command.
 */
public final class PathCheckedProgram {
    private final String name;
    private final String access;
    private final String operands;
    private final String verb;

    /**
     * @param name     the program's name
     * @param access   {@code read}, {@code write} or {@code create}
     * @param operands how its path words are found ({@link ProgramTable#operands})
     * @param verb     Claude Code's wording for what it does with them ("concatenate files from")
     */
    public PathCheckedProgram(String name, String access, String operands, String verb) {
        this.name = name;
        this.access = access;
        this.operands = operands;
        this.verb = verb;
    }

    public String getName() { return name; }
    public String getAccess() { return access; }
    public String getOperands() { return operands; }
    public String getVerb() { return verb; }

    @Override
    public String toString() {
        return "PathCheckedProgram[" + name + "]";
    }
}
