package dev.compoundbash.facts;

/**
 * A word of a command that its program's schema does not list (docs/PROGRAMS.md "The closed world"): an option, a
 * subcommand, a configuration key, an environment variable of the program, a variable definition, or a word only
 * known at run time where one of those may stand. A Drools fact: {@code schema.drl} makes the command
 * {@link NotApprovable} with a reason naming the word, and asks while deny or ask rules are in force when the word
 * may choose what the program runs.
 */
public final class UnknownWord {
    private final int id;
    private final int commandId;
    private final String program;
    private final String word;
    private final String what;
    private final boolean choosesWhatRuns;

    /**
     * @param id              unique among the facts of one evaluation
     * @param commandId       the {@link SubCommand} it is a word of
     * @param program         the program whose schema read it
     * @param word            the word as written
     * @param what            what it stands for ({@code option}, {@code subcommand}, {@code configuration key
     *                        trailer.x.cmd}, ...)
     * @param choosesWhatRuns it may choose what the program runs: the program runs commands, or the option runs code
     */
    public UnknownWord(int id, int commandId, String program, String word, String what, boolean choosesWhatRuns) {
        this.id = id;
        this.commandId = commandId;
        this.program = program;
        this.word = word;
        this.what = what;
        this.choosesWhatRuns = choosesWhatRuns;
    }

    public int getId() { return id; }
    public int getCommandId() { return commandId; }
    public String getProgram() { return program; }
    public String getWord() { return word; }
    public String getWhat() { return what; }
    public boolean isChoosesWhatRuns() { return choosesWhatRuns; }

    /** For a person: {@code "--v=0" (an option the schema of kubectl does not list)}. */
    /** The {@code what} of the words a program runs as code or a command that its schema does not read. */
    public static final String UNREAD = "unread payload";

    public String describe() {
        if (what.equals(UNREAD)) return "\"" + word + "\" (code or a command " + program + " runs, which its schema does not read)";
        return "\"" + word + "\" (" + (what.startsWith("option that") ? "an " + what
                : "a" + ("aeiou".indexOf(what.charAt(0)) >= 0 ? "n " : " ") + what + " the schema of " + program
                + " does not list") + ")";
    }

    @Override
    public String toString() {
        return "UnknownWord#" + id + "[" + commandId + ": " + word + ", " + what + "]";
    }
}
