package dev.compoundbash.facts;

import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;

/**
 * A deny or ask permission rule of Claude Code's file tools ({@code Read(...)}, {@code Edit(...)}, {@code Write(...)},
 * {@code MultiEdit(...)}, {@code NotebookEdit(...)}), with its path pattern made absolute, and a neutral operator
 * that tells whether a path may match it. Claude Code applies these rules to the path operands and redirections of
 * Bash commands it reads itself (measured with the e2e tool: {@code cat file.txt} under {@code Read(./file.txt)}
 * and {@code echo hi > notes.txt} under {@code Edit(./notes.txt)} are denied, also against a hook's allow), but
 * not inside what it cannot read (a loop over the same file ran with the hook's allow): the rules read these facts
 * so that no approval of the hook gets past them.
 *
 * <p>Patterns follow Claude Code's settings documentation ("Read and Edit rules": gitignore-style): {@code //path}
 * is absolute, {@code ~/path} is under the home directory, {@code ./path} and {@code path} are relative to the
 * working directory, and {@code /path} is relative to the settings file's directory (taken here as the working
 * directory, and also as absolute, to be safe). A pattern matches a path and everything below it; {@code *} stays
 * within one path segment and {@code **} spans any number. A pattern with no slash matches the name at any depth.
 */
public final class FileRule {
    private final String kind;
    private final String tool;
    private final String rule;
    private final List<String> patterns;
    private final List<PathMatcher> matchers;
    private final boolean anyDepth;
    /** For a pattern with no slash (any depth): the matcher of its last segment, else null. */
    private final PathMatcher nameMatcher;

    private FileRule(String kind, String tool, String rule, List<String> patterns, boolean anyDepth) {
        this.kind = kind;
        this.tool = tool;
        this.rule = rule;
        this.patterns = List.copyOf(patterns);
        this.anyDepth = anyDepth;
        List<PathMatcher> ms = new ArrayList<>();
        for (String p : patterns) ms.add(FileSystems.getDefault().getPathMatcher("glob:" + escape(p)));
        this.matchers = List.copyOf(ms);
        String first = patterns.get(0);
        this.nameMatcher = anyDepth ? FileSystems.getDefault().getPathMatcher("glob:"
                + escape(first.substring(first.lastIndexOf('/') + 1))) : null;
    }

    /**
     * Reads one rule string.
     *
     * @param kind {@code deny} or {@code ask}
     * @param rule the rule as written in settings ({@code Read(./.env)})
     * @param cwd  the working directory, absolute
     * @param home the home directory, or null when not known
     * @return the rule, or null when it is not a file-tool rule with a pattern
     */
    public static FileRule of(String kind, String rule, Path cwd, String home) {
        if (rule == null) return null;
        String r = rule.strip();
        int open = r.indexOf('(');
        if (open < 0 || !r.endsWith(")")) return null;
        String tool = r.substring(0, open);
        if (!List.of("Read", "Edit", "Write", "MultiEdit", "NotebookEdit").contains(tool)) return null;
        String p = r.substring(open + 1, r.length() - 1).strip();
        if (p.isEmpty()) return null;
        List<String> out = new ArrayList<>();
        boolean anyDepth = false;
        if (p.startsWith("//")) {
            out.add(p.substring(1));
        } else if (p.equals("~") || p.startsWith("~/")) {
            if (home == null) return new FileRule(kind, tool, r, List.of("/**"), false); // unknown: any path
            out.add(home + p.substring(1));
        } else if (p.startsWith("/")) {
            out.add(cwd + p);
            out.add(p);
        } else {
            String rel = p.startsWith("./") ? p.substring(2) : p;
            String trimmed = rel.endsWith("/") ? rel.substring(0, rel.length() - 1) : rel;
            if (!trimmed.contains("/") && !p.startsWith("./")) anyDepth = true; // gitignore: a bare name, any depth
            out.add(cwd + "/" + rel);
        }
        List<String> clean = new ArrayList<>();
        for (String s : out) {
            String t = s.replaceAll("/+", "/");
            if (t.length() > 1 && t.endsWith("/")) t = t.substring(0, t.length() - 1);
            if (t.endsWith("/**")) t = t.substring(0, t.length() - 3); // everything below: what matching does anyway
            List<String> forms = new ArrayList<>(List.of(t.isEmpty() ? "/" : t));
            // gitignore's "**/" also matches no directory at all: a/**/b matches a/b
            for (int k = 0; k < forms.size() && forms.size() < 8; k++) {
                String f = forms.get(k);
                int at = f.indexOf("/**/");
                if (at >= 0) forms.add(f.substring(0, at) + f.substring(at + 3));
            }
            for (String f : forms) {
                clean.add(f);
                String real = realPrefix(f);
                if (real != null && !real.equals(f)) clean.add(real);
            }
        }
        return new FileRule(kind, tool, r, clean, anyDepth);
    }

    public String getKind() { return kind; }
    public String getTool() { return tool; }
    public String getRule() { return rule; }
    public List<String> getPatterns() { return patterns; }

    /** True for {@code Read} rules: they apply to what commands read. */
    public boolean isRead() { return tool.equals("Read"); }

    /**
     * Whether the rule matches a path: the path itself or a directory above it matches a pattern.
     *
     * @param absolutePath an absolute path (symlinks resolved or not: both spellings should be asked); null never
     * @return true when it matches
     */
    public boolean matches(String absolutePath) {
        if (absolutePath == null) return false;
        Path p;
        try {
            p = Path.of(absolutePath).normalize();
        } catch (InvalidPathException e) {
            return true;
        }
        for (Path q = p; q != null; q = q.getParent()) {
            for (PathMatcher m : matchers) if (m.matches(q)) return true;
            if (nameMatcher != null && q.getFileName() != null && nameMatcher.matches(q.getFileName())) return true;
        }
        return false;
    }

    /**
     * Whether the rule may match something inside a directory (a glob there, a recursive read of it).
     *
     * @param directory an absolute directory; null: not known, so it may
     * @return true when a path below it may match
     */
    public boolean mayMatchBelow(String directory) {
        if (directory == null || anyDepth) return true;
        if (matches(directory)) return true;
        String d = directory.endsWith("/") ? directory : directory + "/";
        for (String p : patterns) {
            String literal = p.substring(0, firstGlob(p));
            if (literal.startsWith(d) || d.startsWith(literal)) return true;
        }
        return false;
    }

    private static int firstGlob(String s) {
        for (int i = 0; i < s.length(); i++) if ("*?[{".indexOf(s.charAt(i)) >= 0) return i;
        return s.length();
    }

    /** The pattern's literal directory part with symlinks resolved, the rest kept, or null. */
    private static String realPrefix(String pattern) {
        String literal = pattern.substring(0, firstGlob(pattern));
        int slash = literal.lastIndexOf('/');
        if (slash <= 0) return null;
        try {
            Path dir = Path.of(literal.substring(0, slash));
            if (!Files.exists(dir)) return null;
            return dir.toRealPath() + pattern.substring(slash);
        } catch (Exception e) {
            return null;
        }
    }

    /** Java's glob treats {@code \} and {@code ,} specially only in some places; keep the pattern as written. */
    private static String escape(String p) {
        return p.replace("\\", "\\\\");
    }

    @Override
    public String toString() {
        return kind + " " + rule;
    }
}
