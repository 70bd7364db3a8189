package dev.compoundbash.facts;

/**
 * Something about the call as a whole that keeps the command from being judged normally, as a Drools fact:
 * decided before (or instead of) reading the command, and judged by named rules in {@code call.drl} like every
 * other verdict.
 *
 * <p>Kinds: {@link #EMPTY}, {@link #TOO_LONG}, {@link #PARSE_ERROR} (the command is not valid bash),
 * {@link #EXTRACTION_ERROR} (the command could not be read whole), {@link #RULE_FILE_ERROR} (a user DRL file does
 * not compile: it may hold a deny rule), {@link #RULE_ERROR} (a user rule failed or did not stop while
 * evaluating; the built-in rules were evaluated alone), {@link #SETTINGS_UNREADABLE} (a settings file could not be
 * read in whole), {@link #UNMODELLED} (the closed-world guard: a construct the
 * model does not cover; the facts of the rest are still extracted, so deny rules see them).
 */
public final class CallProblem {
    public static final String EMPTY = "empty";
    public static final String TOO_LONG = "too long";
    public static final String PARSE_ERROR = "parse error";
    public static final String EXTRACTION_ERROR = "extraction error";
    public static final String RULE_FILE_ERROR = "rule file error";
    public static final String RULE_ERROR = "rule error";
    /**
     * A settings file the hook needs exists (or may) but could not be read in whole: its deny rules may be missing,
     * so nothing is approved on that partial view (issue 20, finding 1).
     */
    public static final String SETTINGS_UNREADABLE = "settings unreadable";
    /** The command holds a construct, option or context the extractor does not model: nothing in it is approved. */
    public static final String UNMODELLED = "unmodelled";
    /** The command holds Unicode whitespace, which can make it read differently from how it looks. */
    public static final String UNICODE_WHITESPACE = "unicode whitespace";
    /**
     * Claude Code runs the command in zsh and it holds a form zsh reads differently from bash
     * ({@link ZshDifferences}): nothing in it is approved, and under a deny or ask rule it asks.
     */
    public static final String ZSH_READS_OTHERWISE = "zsh reads otherwise";

    /**
     * The command changes the state of Claude Code's shell (an alias, an option, history, a trap, a function named
     * like a command, a prompt variable: {@link ShellStateChanges}) in a way the hook does not follow: nothing in it
     * is approved, and under a deny or ask rule it asks (issue 19).
     */
    public static final String SHELL_STATE = "shell state";

    private final String kind;
    private final String message;

    /**
     * @param kind    one of the kinds above
     * @param message what went wrong, for a person ({@code file:line:col: message} for a rule file)
     */
    public CallProblem(String kind, String message) {
        this.kind = kind;
        this.message = message;
    }

    public String getKind() { return kind; }
    public String getMessage() { return message; }

    @Override
    public String toString() {
        return "CallProblem[" + kind + ": " + message + "]";
    }
}
