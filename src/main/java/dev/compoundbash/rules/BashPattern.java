package dev.compoundbash.rules;

/**
 * Claude Code's {@code Bash(...)} permission-rule pattern syntax.
 *
 * <p>Follows Claude Code docs: "Configure permissions" / Identity and Access Management, section
 * "Permission rule syntax" and "Bash" (wildcards, word boundary before a trailing {@code *}, legacy
 * {@code :*} suffix). Matching is done by a hand-written two-pointer glob matcher: no regular
 * expression is compiled, and the worst case is O(pattern length x command length), so patterns such
 * as {@code *a*a*a*a*b} cannot blow up.
 *
 * <p>All methods are pure, thread-safe and never throw on any non-null input.
 */
public final class BashPattern {

    private static final String TOOL = "Bash";

    private BashPattern() {
    }

    /**
     * Extracts the pattern of a {@code Bash} rule as written in a settings file.
     *
     * <ul>
     *   <li>{@code Bash} and {@code Bash(*)} give {@code *} (every command);</li>
     *   <li>{@code Bash(npm run build)} gives {@code npm run build} (the text between the first
     *       {@code (} and the final {@code )}, unchanged);</li>
     *   <li>{@code Bash()} gives {@code ""}, which only matches the empty command line;</li>
     *   <li>a rule for any other tool ({@code Read(./x)}, {@code WebFetch}, {@code mcp__x}), a
     *       malformed rule ({@code Bash(ls}) or {@code null} gives {@code null}: the rule is ignored.</li>
     * </ul>
     * Whitespace around the whole rule is tolerated; the tool name is case-sensitive, as in Claude Code.
     *
     * <p>Source: Claude Code docs, Identity and Access Management / permission rules ("Tool" or
     * "Tool(specifier)"; {@code Bash(*)} is equivalent to {@code Bash}).
     *
     * @param rule a raw rule string from {@code permissions.allow|ask|deny}; may be null
     * @return the inner pattern, or {@code null} when the rule is not a (well-formed) Bash rule
     */
    public static String innerPattern(String rule) {
        if (rule == null) {
            return null;
        }
        String r = rule.strip();
        if (r.equals(TOOL)) {
            return "*";
        }
        if (!r.startsWith(TOOL + "(") || !r.endsWith(")")) {
            return null;
        }
        return r.substring(TOOL.length() + 1, r.length() - 1);
    }

    /**
     * Tells whether a Bash rule pattern matches one sub-command.
     *
     * <ul>
     *   <li>A pattern without {@code *} must equal the command line exactly.</li>
     *   <li>Every {@code *} matches any sequence of characters (spaces and {@code /} included),
     *       possibly empty; several {@code *} are allowed.</li>
     *   <li>When the pattern ends with a space followed by {@code *}, that space is a word boundary:
     *       {@code ls *} matches {@code ls} and {@code ls -la} but not {@code lsof}; {@code ls*} matches
     *       all three.</li>
     *   <li>The legacy suffix {@code :*} (only at the very end of the pattern) is read as {@code " *"}:
     *       {@code git:*} equals {@code git *}. A {@code :} elsewhere is literal.</li>
     * </ul>
     * There is no escape syntax: a {@code *} in the pattern is always a wildcard.
     *
     * <p>Source: Claude Code docs, Identity and Access Management / permission rules, "Bash"
     * wildcard matching.
     *
     * @param pattern     an inner pattern as returned by {@link #innerPattern(String)}
     * @param commandLine the sub-command's argv values joined by single spaces
     * @return true when the pattern matches; false when it does not or either argument is null
     */
    public static boolean matches(String pattern, String commandLine) {
        if (pattern == null || commandLine == null) {
            return false;
        }
        String p = normalize(pattern);
        int n = p.length();
        if (n >= 2 && p.charAt(n - 1) == '*' && p.charAt(n - 2) == ' ') {
            // "ls *": matches "ls <anything>" (via the glob) or "ls" alone (word boundary).
            return glob(p, n, commandLine) || glob(p, n - 2, commandLine);
        }
        return glob(p, n, commandLine);
    }

    /**
     * Tells whether a Bash rule pattern may match a command line only partly known before it runs: whether some
     * text the {@code shape} may stand for is matched by {@code pattern} as {@link #matches} reads it. In the shape,
     * {@link dev.compoundbash.facts.Arg#UNKNOWN} stands for any text (an expansion, a glob, text a wrapper splices
     * in; spaces and several words included), every other character for itself ({@code *} included). A shape
     * without {@code UNKNOWN} may match exactly when it matches.
     *
     * <p>Decided as the emptiness of the intersection of two patterns whose only wildcard matches any text: a
     * table over (pattern position, shape position), O(pattern length x shape length). Source: Claude Code docs,
     * Identity and Access Management / permission rules, "Bash" wildcard matching (as for {@link #matches}).
     *
     * @param pattern an inner pattern as returned by {@link #innerPattern(String)}
     * @param shape   a sub-command's words joined by single spaces, unknown text as {@code UNKNOWN}
     * @return true when some value of the unknown text makes the pattern match; false when none does or either
     *         argument is null
     */
    public static boolean mayMatch(String pattern, String shape) {
        if (pattern == null || shape == null) {
            return false;
        }
        String p = normalize(pattern);
        int n = p.length();
        if (n >= 2 && p.charAt(n - 1) == '*' && p.charAt(n - 2) == ' ') {
            return intersects(p, n, shape) || intersects(p, n - 2, shape);
        }
        return intersects(p, n, shape);
    }

    /**
     * {@link #mayMatch} against any of several shapes.
     *
     * @param pattern an inner pattern
     * @param shapes  shapes, e.g. {@code SubCommand#getShapeLines()}
     * @return true when the pattern may match one of them
     */
    public static boolean mayMatchAnyOf(String pattern, java.util.List<String> shapes) {
        for (String s : shapes) if (mayMatch(pattern, s)) return true;
        return false;
    }

    /**
     * Whether some text matches both {@code p[0, plen)} ({@code *} any text) and {@code s} ({@code UNKNOWN} any
     * text). {@code m[i][j]}: some text matches both p[i..] and s[j..]; filled from the ends.
     */
    private static boolean intersects(String p, int plen, String s) {
        final char any = dev.compoundbash.facts.Arg.UNKNOWN;
        int slen = s.length();
        boolean[] next = new boolean[slen + 1];
        boolean[] cur = new boolean[slen + 1];
        // row i = plen: only a rest of the shape made of UNKNOWNs matches the empty rest of the pattern
        next[slen] = true;
        for (int j = slen - 1; j >= 0; j--) next[j] = s.charAt(j) == any && next[j + 1];
        for (int i = plen - 1; i >= 0; i--) {
            char pc = p.charAt(i);
            for (int j = slen; j >= 0; j--) {
                boolean v;
                if (pc == '*') {
                    // the star ends here, or takes the shape's next character (a whole UNKNOWN included)
                    v = next[j] || (j < slen && cur[j + 1]);
                } else if (j < slen && s.charAt(j) == any) {
                    // the UNKNOWN ends here, or takes the pattern's next character
                    v = cur[j + 1] || next[j];
                } else {
                    v = j < slen && s.charAt(j) == pc && next[j + 1];
                }
                cur[j] = v;
            }
            boolean[] t = next;
            next = cur;
            cur = t;
        }
        return next[0];
    }

    /**
     * {@link #matches} against any of several lines.
     *
     * @param pattern      the pattern inside {@code Bash(...)}
     * @param commandLines lines, e.g. {@code SubCommand#getMatchLines()}
     * @return true when one matches
     */
    public static boolean matchesAnyOf(String pattern, java.util.List<String> commandLines) {
        for (String l : commandLines) if (matches(pattern, l)) return true;
        return false;
    }

    /**
     * True when {@link #matches} holds for any of {@code commandLines}: deny and ask rules try a sub-command as
     * written, with its name's directory stripped and with its environment prefix.
     *
     * @param pattern      an inner pattern
     * @param commandLines the forms of one sub-command
     * @return true when one of them matches
     */
    public static boolean matchesAny(String pattern, String... commandLines) {
        for (String line : commandLines) if (matches(pattern, line)) return true;
        return false;
    }

    /**
     * Tells whether arbitrary extra arguments appended to a command that matches this pattern
     * still match it, i.e. whether the pattern (after legacy {@code :*} normalisation) ends with
     * {@code *}: true for {@code rm *}, {@code rm /tmp/x*}, {@code *}, {@code git:*}; false for exact
     * patterns such as {@code rm -rf build} and for {@code ""}. Used for payloads (xargs, find -exec)
     * whose trailing arguments are unknown.
     *
     * <p>Source: Claude Code docs, Identity and Access Management / permission rules.
     *
     * @param pattern an inner pattern; may be null (gives false)
     * @return true when the pattern ends with a wildcard
     */
    public static boolean toleratesTrailingArguments(String pattern) {
        if (pattern == null) {
            return false;
        }
        String p = normalize(pattern);
        return !p.isEmpty() && p.charAt(p.length() - 1) == '*';
    }

    /**
     * Tells whether a pattern is written across control operators ({@code curl * | sh}, {@code git fetch && git
     * push}, {@code a; b}): whether it holds {@code |}, {@code &&} or {@code ;} (Bash Reference Manual §3.2.3,
     * §3.2.4). Such a rule names a pipeline or a list, which no single sub-command's line is; it is matched against
     * each pipeline and list ({@link #matchesJoined}).
     *
     * @param pattern an inner pattern; may be null (gives false)
     * @return true when the pattern spans control operators
     */
    public static boolean spansOperators(String pattern) {
        return pattern != null && (pattern.indexOf('|') >= 0 || pattern.contains("&&") || pattern.indexOf(';') >= 0);
    }

    /**
     * Tells whether a pattern spans the pipe and and-or operators ({@code |}, {@code |&}, {@code &&},
     * {@code ||}): text that only an operator can make, never a word's value. ({@code ;} may be a word too:
     * {@code find -exec rm {} ;}.)
     *
     * @param pattern an inner pattern; may be null (gives false)
     * @return true when the pattern holds {@code |} or {@code &&}
     */
    public static boolean spansPipesOrAndOr(String pattern) {
        return pattern != null && (pattern.indexOf('|') >= 0 || pattern.contains("&&"));
    }

    /**
     * A pattern with its control operators spelled as {@link dev.compoundbash.facts.JoinedCommands} spells them:
     * {@code " | "}, {@code " |& "}, {@code " && "}, {@code " || "}, {@code "; "}, whatever the spaces around them
     * ({@code curl *|sh} reads as {@code curl * | sh}); a {@code ;} after a backslash stays as written.
     *
     * @param pattern an inner pattern (legacy {@code :*} already read)
     * @return the pattern in joined form
     */
    static String joinedForm(String pattern) {
        StringBuilder out = new StringBuilder(pattern.length() + 8);
        int n = pattern.length();
        for (int i = 0; i < n; ) {
            char c = pattern.charAt(i);
            String op = null;
            if (c == '|') op = i + 1 < n && pattern.charAt(i + 1) == '|' ? "||" : i + 1 < n && pattern.charAt(i + 1) == '&' ? "|&" : "|";
            else if (c == '&' && i + 1 < n && pattern.charAt(i + 1) == '&') op = "&&";
            else if (c == ';' && (i == 0 || pattern.charAt(i - 1) != '\\')) op = ";";
            if (op == null) {
                out.append(c);
                i++;
                continue;
            }
            while (out.length() > 0 && out.charAt(out.length() - 1) == ' ') out.setLength(out.length() - 1);
            out.append(op.equals(";") ? "; " : " " + op + " ");
            i += op.length();
            while (i < n && pattern.charAt(i) == ' ') i++;
        }
        return out.toString();
    }

    /**
     * Tells whether a pattern written across control operators matches the text of a run of consecutive elements
     * of a pipeline or list: the elements' parts joined, where each part is one of its alternative texts
     * ({@link dev.compoundbash.facts.JoinedCommands#getParts()}). {@code *} matches any text, operators included,
     * as Claude Code reads the whole command text; the pattern's operators are read in {@link #joinedForm}; a
     * trailing {@code " *"} is a word boundary as in {@link #matches}. A run of one element counts too (the body of
     * a subshell is one element). In a shape ({@link dev.compoundbash.facts.JoinedCommands#getShapes()}),
     * {@link dev.compoundbash.facts.Arg#UNKNOWN} stands for any words and
     * {@link dev.compoundbash.facts.JoinedCommands#ANY_COMMANDS} for any commands, so the same call answers whether
     * the rule may match for some value of what is only known at run time.
     *
     * <p>Decided in one pass over the parts with the set of pattern positions reached (an NFA of the glob), a fresh
     * start at each element's first part, acceptance at each element's end: O(pattern length x text length x
     * alternatives). Source: Claude Code's whole-command matching, measured (docs/CLAUDE-CODE.md, "Rules across
     * control operators").
     *
     * @param pattern an inner pattern
     * @param parts   the parts, each a set of alternative texts (an empty set matches nothing)
     * @param starts  each element's first part index
     * @param ends    the index after each element's last part
     * @return true when some run of elements matches; false when none does or an argument is null
     */
    public static boolean matchesJoined(String pattern, java.util.List<java.util.List<String>> parts,
                                        java.util.List<Integer> starts, java.util.List<Integer> ends) {
        if (pattern == null || parts == null || parts.isEmpty() || starts == null || ends == null) return false;
        String p = joinedForm(normalize(pattern));
        int n = p.length();
        if (n >= 2 && p.charAt(n - 1) == '*' && p.charAt(n - 2) == ' ') {
            return joined(p, n, parts, starts, ends) || joined(p, n - 2, parts, starts, ends);
        }
        return joined(p, n, parts, starts, ends);
    }

    /** {@link #matchesJoined} for the pattern prefix {@code p[0, plen)}. */
    private static boolean joined(String p, int plen, java.util.List<java.util.List<String>> parts,
                                  java.util.List<Integer> starts, java.util.List<Integer> ends) {
        java.util.Set<Integer> startAt = new java.util.HashSet<>(starts);
        java.util.Set<Integer> endAt = new java.util.HashSet<>(ends);
        boolean[] state = new boolean[plen + 1];
        boolean any = false;
        for (int k = 0; k < parts.size(); k++) {
            if (startAt.contains(k)) {
                state[0] = true;
                any = true;
            }
            if (!any) continue;
            closure(p, plen, state);
            boolean[] next = new boolean[plen + 1];
            for (String alt : parts.get(k)) {
                boolean[] s = state.clone();
                for (int i = 0; i < alt.length(); i++) s = step(p, plen, s, alt.charAt(i));
                for (int i = 0; i <= plen; i++) next[i] |= s[i];
            }
            state = next;
            any = false;
            for (boolean b : state) any |= b;
            if (endAt.contains(k + 1) && any) {
                closure(p, plen, state);
                if (state[plen]) return true;
            }
        }
        return false;
    }

    /** Adds the positions past each {@code *} reached (a star may match nothing). */
    private static void closure(String p, int plen, boolean[] s) {
        for (int i = 0; i < plen; i++) if (s[i] && p.charAt(i) == '*') s[i + 1] = true;
    }

    /**
     * The positions reached from {@code s} (closed) by one character. {@code JoinedCommands.ANY_COMMANDS} is any
     * text; {@code UNKNOWN}, a word's value, is any text without a control operator: it cannot pass an operator
     * the pattern writes ({@code |}, {@code ;}, {@code &}).
     */
    private static boolean[] step(String p, int plen, boolean[] s, char c) {
        boolean[] t = new boolean[plen + 1];
        if (c == dev.compoundbash.facts.JoinedCommands.ANY_COMMANDS || c == dev.compoundbash.facts.Arg.UNKNOWN) {
            boolean words = c == dev.compoundbash.facts.Arg.UNKNOWN;
            boolean reached = false;
            for (int i = 0; i <= plen; i++) {
                reached |= s[i];
                t[i] = reached;
                if (words && i < plen && "|;&".indexOf(p.charAt(i)) >= 0) reached = false;
            }
            return t;
        }
        closure(p, plen, s);
        for (int i = 0; i < plen; i++) {
            if (!s[i]) continue;
            char pc = p.charAt(i);
            if (pc == '*') t[i] = true;
            else if (pc == c) t[i + 1] = true;
        }
        closure(p, plen, t);
        return t;
    }

    /** Rewrites a trailing legacy {@code :*} into {@code " *"}. */
    static String normalize(String pattern) {
        if (pattern.endsWith(":*")) {
            return pattern.substring(0, pattern.length() - 2) + " *";
        }
        return pattern;
    }

    /**
     * Classic two-pointer wildcard match of {@code p[0, plen)} against the whole of {@code s}, where
     * {@code *} matches any (possibly empty) sequence. Only the last star is remembered for
     * backtracking, which is sufficient for a single wildcard kind and keeps the run time
     * O(plen * s.length()) in the worst case.
     */
    private static boolean glob(String p, int plen, String s) {
        int slen = s.length();
        int pi = 0;
        int si = 0;
        int star = -1;
        int mark = 0;
        while (si < slen) {
            if (pi < plen) {
                char pc = p.charAt(pi);
                if (pc == '*') {
                    star = pi++;
                    mark = si;
                    continue;
                }
                if (pc == s.charAt(si)) {
                    pi++;
                    si++;
                    continue;
                }
            }
            if (star < 0) {
                return false;
            }
            pi = star + 1;
            si = ++mark;
        }
        while (pi < plen && p.charAt(pi) == '*') {
            pi++;
        }
        return pi == plen;
    }
}
