package dev.compoundbash.facts;

import java.util.List;

/**
 * A pipeline or a list (Bash Reference Manual §3.2.3 "Pipelines", §3.2.4 "Lists of Commands") as the text a
 * permission rule written across control operators is matched against ({@code Bash(curl * | sh)},
 * {@code Bash(git fetch && git push)}): its commands joined by their operators, at any depth (inside
 * {@code $(...)}, a loop, a function, {@code bash -c}, {@code eval}, ...). A Drools fact; made by
 * {@link PipelinesAndLists}.
 *
 * <p>The text is a sequence of <em>parts</em>; each part is a set of alternative texts, one of which stands there:
 * for a command, its words after quote removal joined by single spaces in each form deny and ask rules match (as
 * written, the name's directory removed, with its environment prefix, the program's global options removed, the
 * command a wrapper runs); for an operator, its canonical spelling ({@code " | "}, {@code " && "}, {@code " || "},
 * {@code "; "} for {@code ;} and a newline, {@code " & "}; {@code |&} also as {@code " | "}). The body of a subshell
 * or a group command stands in its place. The <em>elements</em> are the pipeline's commands or the list's
 * members; a rule may match the text of any run of two or more consecutive elements.
 */
public final class JoinedCommands {
    /**
     * In a shape, a command the hook cannot render as one text (a loop, an if, a case, a call of a function the
     * command defines): any commands, operators included. ({@link Arg#UNKNOWN} in a command's shape is part of its
     * words, which no operator can come from.)
     */
    public static final char ANY_COMMANDS = '\u0001';

    private final int id;
    private final String text;
    private final boolean topLevel;
    private final List<String> contextPath;
    private final List<List<String>> parts;
    private final List<List<String>> shapes;
    private final List<Integer> starts;
    private final List<Integer> ends;
    private final List<Integer> subCommandIds;

    /**
     * @param id            unique among the facts of one evaluation
     * @param text          the source text, one line, for reasons
     * @param topLevel      true when Claude Code's own splitter sees it (not nested)
     * @param contextPath   the nesting, outermost first ({@link Context} labels); empty at top level
     * @param parts         the joined text's parts, each a non-empty set of alternatives when every command is
     *                      known; a part whose command cannot be rendered is an empty set (no run through it matches)
     * @param shapes        the same parts where words or commands only known at run time are
     *                      {@link Arg#UNKNOWN}; empty when every part is known
     * @param starts        the index of each element's first part
     * @param ends          the index after each element's last part
     * @param subCommandIds the sub-commands it joins, in order
     */
    public JoinedCommands(int id, String text, boolean topLevel, List<String> contextPath, List<List<String>> parts,
                          List<List<String>> shapes, List<Integer> starts, List<Integer> ends,
                          List<Integer> subCommandIds) {
        this.id = id;
        this.text = text;
        this.topLevel = topLevel;
        this.contextPath = List.copyOf(contextPath);
        this.parts = parts.stream().map(List::copyOf).toList();
        this.shapes = shapes.stream().map(List::copyOf).toList();
        this.starts = List.copyOf(starts);
        this.ends = List.copyOf(ends);
        this.subCommandIds = List.copyOf(subCommandIds);
    }

    public int getId() { return id; }

    /** The source text of the pipeline or list, on one line. */
    public String getText() { return text; }

    public boolean isTopLevel() { return topLevel; }

    public List<String> getContextPath() { return contextPath; }

    /** The innermost context label, or {@code "top-level"}. */
    public String getContext() { return contextPath.isEmpty() ? Context.TOP_LEVEL : contextPath.get(contextPath.size() - 1); }

    /** The parts of the joined text, each a set of alternatives (see the class comment). */
    public List<List<String>> getParts() { return parts; }

    /** The parts with run-time words as {@link Arg#UNKNOWN}; empty when every word and command is known. */
    public List<List<String>> getShapes() { return shapes; }

    /** Index of each element's first part. */
    public List<Integer> getStarts() { return starts; }

    /** Index after each element's last part. */
    public List<Integer> getEnds() { return ends; }

    public List<Integer> getSubCommandIds() { return subCommandIds; }

    @Override
    public String toString() {
        return "JoinedCommands#" + id + "[" + text + "]";
    }
}
