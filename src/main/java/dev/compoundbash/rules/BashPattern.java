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
