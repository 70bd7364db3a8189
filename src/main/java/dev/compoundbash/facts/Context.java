package dev.compoundbash.facts;

/**
 * Labels for where a {@link SubCommand} stands. A command is top-level when Claude Code's own splitter sees it:
 * joined to others by {@code && || ; | |& &} or newlines at the top of the script, with {@code !} and
 * {@code time} prefixes. Everything else is nested inside one or more of these constructs (Bash Reference Manual
 * §3.2.5 compound commands, §3.3 functions, §3.5 expansions, §3.6 redirections).
 */
public final class Context {
    public static final String TOP_LEVEL = "top-level";
    public static final String COMMAND_SUBSTITUTION = "command substitution";
    public static final String BACKTICKS = "backticks";
    public static final String PROCESS_SUBSTITUTION = "process substitution";
    public static final String SUBSHELL = "subshell";
    public static final String GROUP = "group";
    public static final String LOOP = "loop";
    public static final String IF = "if";
    public static final String CASE = "case";
    public static final String FUNCTION_BODY = "function body";
    public static final String HEREDOC_BODY = "here-document body";
    public static final String ASSIGNMENT = "assignment value";
    public static final String ARRAY_SUBSCRIPT = "array subscript";
    public static final String ARITHMETIC = "arithmetic";
    public static final String TEST_EXPRESSION = "test expression";
    public static final String REDIRECTION_TARGET = "redirection target";
    public static final String PARAMETER_EXPANSION = "parameter expansion";
    public static final String COPROCESS = "coprocess";
    public static final String INLINE_SCRIPT = "inline script";
    /** Code written inside a variable's static value, which arithmetic or indirection may evaluate later. */
    public static final String STORED_CODE = "code stored in a variable";
    /** A value expanded as a prompt string ({@code ${x@P}}), which runs the command substitutions in it. */
    public static final String PROMPT_EXPANSION = "prompt expansion of a value";
    /** A variable name given at run time to a builtin that evaluates its subscript ({@code read "a[$x]"}). */
    public static final String EVALUATED_NAME = "variable name evaluated at run time";

    private Context() {
    }
}
