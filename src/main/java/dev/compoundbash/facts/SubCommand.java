package dev.compoundbash.facts;

import java.util.List;

/**
 * A command bash would run: one simple command of the script, or the payload a wrapper forwards to (xargs, find
 * -exec, timeout, ...). A Drools fact: DRL reads it through its getters.
 *
 * <p>Roles: {@code "command"} an ordinary simple command; {@code "wrapper"} a wrapper command as written (judged
 * through its payloads, never approved by an allow rule on its own name); {@code "payload"} the command a wrapper
 * runs ({@link #getWrapperId()} names the {@link Wrapper}).
 */
public final class SubCommand {
    /** What the program does with its words: the other lines it reads as ({@link ProgramKnowledge}). */
    private static final ProgramKnowledge KNOWLEDGE = ProgramKnowledge.builtIn();
    private final int id;
    private final List<String> argv;
    private final List<Arg> args;
    private final String raw;
    private final boolean dynamicName;
    private final boolean dynamicArgs;
    private final boolean topLevel;
    private final List<String> contextPath;
    private final String role;
    private final int wrapperId;
    private final boolean argumentsAppended;
    private final List<String> assignmentNames;
    private final List<String> assignments;
    private final int privilegeId;
    /** {@link #getLine()}, {@link #getBaseLine()} and {@link #getPrefixedLine()}, computed once: rules read them often. */
    private final String line;
    private final String baseLine;
    private final String prefixedLine;
    private final List<String> matchLines;
    private final List<String> shapeLines;

    /**
     * @param id                unique among the facts of one evaluation
     * @param argv              word values after quote removal; a dynamic word is given as its source text
     * @param raw               the source text of the command (for a payload, its words joined by spaces)
     * @param dynamicName       argv[0] contains an expansion, so the command that runs is unknown
     * @param dynamicArgs       some argument contains an expansion
     * @param topLevel          true when Claude Code's own splitter sees this command (see {@link Context})
     * @param contextPath       the nesting from outermost to innermost, as {@link Context} labels; empty at top level
     * @param role              {@code "command"}, {@code "wrapper"} or {@code "payload"}
     * @param wrapperId         id of the {@link Wrapper} this payload came through, or -1
     * @param argumentsAppended true when the wrapper appends unseen arguments at run time (plain xargs)
     * @param assignmentNames   names of the variable assignments written before the command ({@code FOO=1 cmd})
     */
    public SubCommand(int id, List<String> argv, String raw, boolean dynamicName, boolean dynamicArgs,
                      boolean topLevel, List<String> contextPath, String role, int wrapperId,
                      boolean argumentsAppended, List<String> assignmentNames) {
        this(id, argv.stream().map(Arg::literal).toList(), raw, dynamicName, dynamicArgs, topLevel, contextPath,
                role, wrapperId, argumentsAppended, assignmentNames, assignmentNames, -1);
    }

    /**
     * The full constructor. A SubCommand is final once made: the extractor decides its role before it makes it.
     *
     * @param args        the words as bash expands them ({@link Arg}); {@code argv} is their texts
     * @param assignments the environment prefix as written, one {@code NAME=VALUE} word per assignment (the
     *                    names of {@code assignmentNames}, with their values); used to match rules written with
     *                    the prefix
     * @param privilegeId id of the innermost {@code sudo}/{@code doas} command this one runs under, or -1
     * @see #SubCommand(int, List, String, boolean, boolean, boolean, List, String, int, boolean, List)
     */
    public SubCommand(int id, List<Arg> args, String raw, boolean dynamicName, boolean dynamicArgs,
                      boolean topLevel, List<String> contextPath, String role, int wrapperId,
                      boolean argumentsAppended, List<String> assignmentNames, List<String> assignments,
                      int privilegeId) {
        this(id, args, raw, dynamicName, dynamicArgs, topLevel, contextPath, role, wrapperId, argumentsAppended,
                assignmentNames, assignments, privilegeId, List.of());
    }

    /**
     * The full constructor, with the other ways the command may read.
     *
     * @param alternatives other argument vectors this command may run as, which deny and ask rules match too:
     *                     its words with the constants and loop words the command itself assigned substituted
     *                     ({@code x=push; git $x} runs {@code git push})
     * @see #SubCommand(int, List, String, boolean, boolean, boolean, List, String, int, boolean, List, List, int)
     */
    public SubCommand(int id, List<Arg> args, String raw, boolean dynamicName, boolean dynamicArgs,
                      boolean topLevel, List<String> contextPath, String role, int wrapperId,
                      boolean argumentsAppended, List<String> assignmentNames, List<String> assignments,
                      int privilegeId, List<List<String>> alternatives) {
        this.id = id;
        this.args = List.copyOf(args);
        this.argv = this.args.stream().map(Arg::text).toList();
        this.raw = raw;
        this.dynamicName = dynamicName;
        this.dynamicArgs = dynamicArgs;
        this.topLevel = topLevel;
        this.contextPath = List.copyOf(contextPath);
        this.role = role;
        this.wrapperId = wrapperId;
        this.argumentsAppended = argumentsAppended;
        this.assignmentNames = List.copyOf(assignmentNames);
        this.assignments = List.copyOf(assignments);
        this.privilegeId = privilegeId;
        this.line = String.join(" ", this.argv);
        String base = getBaseName();
        this.baseLine = base.equals(this.argv.get(0)) ? line : base + line.substring(this.argv.get(0).length());
        this.prefixedLine = this.assignments.isEmpty() ? line : String.join(" ", this.assignments) + " " + line;
        java.util.LinkedHashSet<String> more = new java.util.LinkedHashSet<>();
        List<List<String>> forms = new java.util.ArrayList<>();
        forms.add(this.argv);
        forms.addAll(alternatives);
        for (List<String> form : forms) {
            if (form != this.argv) more.add(String.join(" ", form));
            List<String> stripped = KNOWLEDGE.withoutGlobalOptions(form);
            if (stripped != null) more.add(String.join(" ", stripped));
            for (List<String> reading : KNOWLEDGE.readings(form)) more.add(String.join(" ", reading));
            for (List<String> canonical : KNOWLEDGE.canonicalForms(form)) {
                more.add(String.join(" ", canonical));
                for (List<String> reading : KNOWLEDGE.readings(canonical)) more.add(String.join(" ", reading));
            }
        }
        if (!base.equals(this.argv.get(0))) {
            for (String m : List.copyOf(more)) {
                if (m.startsWith(this.argv.get(0))) more.add(base + m.substring(this.argv.get(0).length()));
            }
        }
        more.remove(line);
        this.matchLines = List.copyOf(more);
        this.shapeLines = shapes(this.args, argumentsAppended);
    }

    /**
     * The shapes of the command ({@link Arg#shape()} joined), for deny and ask rules: as written, with the name's
     * directory removed, with the program's global options removed and in its other readings
     * ({@link ProgramReadings}); empty when every word is known (the lines then say it all).
     */
    private static List<String> shapes(List<Arg> args, boolean appended) {
        boolean unknown = appended;
        List<String> words = new java.util.ArrayList<>(args.size() + 1);
        for (Arg a : args) {
            words.add(a.shape());
            unknown |= a.shape().indexOf(Arg.UNKNOWN) >= 0;
        }
        if (appended) words.add(String.valueOf(Arg.UNKNOWN));
        java.util.LinkedHashSet<String> out = new java.util.LinkedHashSet<>();
        List<List<String>> forms = new java.util.ArrayList<>();
        forms.add(words);
        String name = words.get(0);
        int slash = name.lastIndexOf('/');
        // /usr/bin/[r]m: bash globs the name (§3.5.8), and a glob never matches a '/', so the name's base is what
        // the shape after its last '/' may be (an expansion there holding a '/' only leaves a suffix of it)
        if (slash >= 0 && slash < name.length() - 1) {
            List<String> base = new java.util.ArrayList<>(words);
            base.set(0, name.substring(slash + 1));
            forms.add(base);
        }
        for (List<String> form : List.copyOf(forms)) {
            List<String> stripped = KNOWLEDGE.withoutGlobalOptions(form);
            if (stripped != null) forms.add(stripped);
            forms.addAll(KNOWLEDGE.canonicalForms(form));
        }
        for (List<String> form : forms) {
            out.add(joinShape(form));
            for (List<String> reading : KNOWLEDGE.readings(form)) out.add(joinShape(reading));
        }
        if (!unknown) {
            // every word is known: only a reading in which the program may run any command adds a shape
            out.removeIf(l -> l.indexOf(Arg.UNKNOWN) < 0);
        }
        return List.copyOf(out);
    }

    /**
     * Joins word shapes by single spaces; a word that is all unknown may also be no word at all (an unquoted
     * expansion that is empty, {@code "$@"} with no parameters), so its space is unknown too.
     */
    static String joinShape(List<String> words) {
        StringBuilder sb = new StringBuilder();
        String any = String.valueOf(Arg.UNKNOWN);
        for (int i = 0; i < words.size(); i++) {
            String w = words.get(i);
            if (i > 0 && !w.equals(any)) sb.append(' ');
            sb.append(w);
        }
        return sb.toString();
    }

    public int getId() { return id; }

    /** The argument vector; argv[0] is the command name. Never empty. */
    public List<String> getArgv() { return argv; }

    /**
     * The words as bash expands them, argv[0]'s included: static or not, literal prefix, whether one may become
     * several words or an option ({@link Arg}). Option grammars and tier checks read these.
     */
    public List<Arg> getArgs() { return args; }

    /** argv[0] as written (after quote removal). */
    public String getName() { return argv.get(0); }

    /** argv[0] with any directory part removed ({@code /bin/rm} gives {@code rm}). */
    public String getBaseName() {
        String n = argv.get(0);
        int slash = n.lastIndexOf('/');
        return slash >= 0 && slash < n.length() - 1 ? n.substring(slash + 1) : n;
    }

    /** The argv joined by single spaces: what permission rules are matched against. */
    public String getLine() { return line; }

    /**
     * The line with argv[0]'s directory removed ({@code /bin/rm -rf x} gives {@code rm -rf x}): deny and ask rules
     * match it too, so a path does not slip past them; allow rules do not.
     */
    public String getBaseLine() { return baseLine; }

    /**
     * The line with its environment prefix as written in front ({@code FOO=1 make test}); equal to
     * {@link #getLine()} when there is no prefix.
     */
    public String getPrefixedLine() { return prefixedLine; }

    /**
     * Other lines this command may run as, which deny and ask rules match as well as {@link #getLine()} (never allow
     * rules): the line with the program's global options removed ({@code git -C dir push} as {@code git push};
     * {@link GlobalOptions}) and with the constants and loop words the command assigned substituted
     * ({@code x=push; git $x origin} as {@code git push origin}).
     */
    public List<String> getMatchLines() { return matchLines; }

    /**
     * What the command may run as when some of its words are only known at run time, for deny and ask rules
     * ({@code BashPattern.mayMatch}): its words' {@link Arg#shape()}s joined by spaces, where {@link Arg#UNKNOWN}
     * stands for any text ({@code git p$x origin} is {@code "git p\0 origin"}), arguments xargs appends as one
     * more unknown, also with the name's directory removed, the global options removed and in the program's other
     * readings ({@link ProgramReadings}). Empty when every word is known.
     */
    public List<String> getShapeLines() { return shapeLines; }

    /** The arguments after the name joined by single spaces, or "" when there are none. */
    public String getArgsLine() { return String.join(" ", argv.subList(1, argv.size())); }

    public String getRaw() { return raw; }
    public boolean isDynamicName() { return dynamicName; }
    public boolean isDynamicArgs() { return dynamicArgs; }
    public boolean isTopLevel() { return topLevel; }
    public List<String> getContextPath() { return contextPath; }

    /** The innermost context label, or {@code "top-level"}. */
    public String getContext() { return contextPath.isEmpty() ? Context.TOP_LEVEL : contextPath.get(contextPath.size() - 1); }

    public String getRole() { return role; }
    public int getWrapperId() { return wrapperId; }
    public boolean isArgumentsAppended() { return argumentsAppended; }
    /** Names of the variables set for this command: its own prefix, and any a wrapper or {@code env} set. */
    public List<String> getAssignmentNames() { return assignmentNames; }

    /** The environment prefix as {@code NAME=VALUE} words, in the order of {@link #getAssignmentNames()}. */
    public List<String> getAssignments() { return assignments; }

    /** Id of the innermost {@code sudo}/{@code doas} command this one runs under, or -1. */
    public int getPrivilegeId() { return privilegeId; }

    /** True when this command runs under {@code sudo} or {@code doas}: no allow rule for it counts on its own. */
    public boolean isPrivileged() { return privilegeId != -1; }

    @Override
    public String toString() {
        return "SubCommand#" + id + "[" + getLine() + "]";
    }
}
