package dev.compoundbash.facts;

import java.util.List;

/**
 * Text bash evaluates as code at run time whose commands cannot be read before it runs, as a Drools fact: a value
 * expanded as a prompt string ({@code ${x@P}} runs the command substitutions in the value), a variable name built at
 * run time given to a builtin that evaluates its subscript ({@code test -v "a[$x]"}, {@code printf -v "$n"},
 * {@code read "$n"}, {@code [[ -v $n ]]}), or stored code assembled at run time. {@code variables.drl} judges it.
 *
 * @see Context#PROMPT_EXPANSION
 * @see Context#EVALUATED_NAME
 * @see Context#STORED_CODE
 */
public final class RunTimeCode {
    private final int id;
    private final String text;
    private final List<String> contextPath;

    /**
     * @param id          unique among the facts of one evaluation
     * @param text        the source text evaluated
     * @param contextPath where it stands, outermost first; its last label says how it is evaluated
     */
    public RunTimeCode(int id, String text, List<String> contextPath) {
        this.id = id;
        this.text = text;
        this.contextPath = List.copyOf(contextPath);
    }

    public int getId() { return id; }
    public String getText() { return text; }
    public List<String> getContextPath() { return contextPath; }

    /** The innermost context label: how the text is evaluated. */
    public String getContext() {
        return contextPath.isEmpty() ? Context.TOP_LEVEL : contextPath.get(contextPath.size() - 1);
    }

    @Override
    public String toString() {
        return "RunTimeCode#" + id + "[" + text + " (" + getContext() + ")]";
    }
}
