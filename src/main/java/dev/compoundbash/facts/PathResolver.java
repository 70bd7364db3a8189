package dev.compoundbash.facts;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Resolves a path word the way Claude Code's working-directory boundary does (measured, 2.1.328) and the way bash
 * will open it: {@code ~} and {@code $HOME} are the home directory; symlinks are followed, dangling ones too
 * ({@link RedirectTargets#resolve}); a relative path is taken against the start directory (as Claude Code does)
 * and against every directory an earlier {@code cd}/{@code pushd} of the command may have moved to (as bash does);
 * a glob is judged by the directory before its first glob character and by every entry of that directory its last
 * segment matches; a word only known at run time, {@code ~user}, a brace expansion, and the paths whose meaning
 * depends on the process that opens them ({@code /proc/self/...}, {@code /dev/fd/N}, {@code /dev/stdin}) are
 * unknown. The caller then makes a {@link PathOperand}.
 */
public final class PathResolver {
    /** A directory with more entries than this is not scanned for a glob's matches: the glob is unknown. */
    static final int MAX_GLOB_SCAN = 4096;

    private final RedirectTargets targets;
    private final String home;

    /**
     * @param targets the allowed roots
     * @param home    the home directory, or null when not known
     */
    public PathResolver(RedirectTargets targets, String home) {
        this.targets = targets;
        this.home = home;
    }

    /**
     * The outcome: a {@link PathOperand} status, the path, why when not inside, the {@code .git} or
     * {@code .claude} directory it lies in below an allowed root, if any, and whether the path exists now.
     */
    public record Result(String status, String path, String why, String protectedComponent, boolean exists) {
        Result(String status, String path, String why) {
            this(status, path, why, null, true);
        }

        static Result unknown(String why) {
            return new Result(PathOperand.UNKNOWN, null, why);
        }

        /**
         * The worse of two readings of one word (the directories it may be taken against, the values of a loop
         * variable), keeping a {@code .git} or {@code .claude} directory either reading lands in: after
         * {@code cd .git/hooks} the path {@code ../f} may be outside under the start directory and inside
         * {@code .git} under the new one, and both must be judged.
         */
        Result combine(Result o) {
            Result w = o.worseThan(this) ? o : this;
            Result other = w == this ? o : this;
            if (w.protectedComponent != null || other.protectedComponent == null) return w;
            return new Result(w.status, other.path, w.why, other.protectedComponent, w.exists && other.exists);
        }

        boolean worseThan(Result o) {
            if (rank(status) != rank(o.status)) return rank(status) > rank(o.status);
            if (!exists && o.exists) return true;
            return protectedComponent != null && o.protectedComponent == null;
        }

        private static int rank(String s) {
            return switch (s) {
                case PathOperand.INSIDE -> 0;
                case PathOperand.OUTSIDE -> 1;
                default -> 2;
            };
        }
    }

    /**
     * Resolves one word that holds no loop variable, to its worst reading (a word of loop variables has several:
     * {@link #readings}).
     *
     * @param a      the word
     * @param bases  the directories a relative path may be taken against (the start directory first); null when
     *               an earlier directory change went somewhere only known at run time
     * @return the result; never null
     */
    public Result resolve(Arg a, List<Path> bases) {
        if (a.isStatic()) {
            if (a.brace()) return Result.unknown("a brace expansion");
            return text(a.text(), a.glob(), bases);
        }
        if (a.lead() && (a.text().startsWith("<(") || a.text().startsWith(">(")) && a.text().endsWith(")")) {
            // a process substitution: a pipe to a command judged on its own, no file on disk
            return new Result(PathOperand.INSIDE, null, null);
        }
        if (a.homeSuffix() != null) {
            if (home == null) return Result.unknown("the home directory is not known");
            return text(home + a.homeSuffix(), false, bases);
        }
        if (a.spliced()) return Result.unknown("a wrapper splices a path only known at run time into it");
        return Result.unknown("its path is only known at run time");
    }

    /**
     * Every reading of one word: as {@link #resolve}, but one result per path the word may name (each directory a
     * relative path may be taken against, each value of a loop variable: {@code for f in a .env; do cat "$f"; done}
     * reads {@code a} and {@code .env}), so a file rule is matched against every one of them, not only the worst.
     *
     * @param a     the word
     * @param bases the directories a relative path may be taken against; null when unknown
     * @param loops values of the loop variables in scope, by name
     * @return the readings, at least one (for a word of no loop variable, their worst is {@link #resolve}'s result)
     */
    public List<Result> readings(Arg a, List<Path> bases, Map<String, List<Arg>> loops) {
        if (a.isStatic()) {
            if (a.brace()) return List.of(resolve(a, bases));
            return texts(a.text(), a.glob(), bases);
        }
        if (a.lead() && (a.text().startsWith("<(") || a.text().startsWith(">(")) && a.text().endsWith(")")) {
            return List.of(resolve(a, bases));
        }
        if (a.homeSuffix() != null) {
            if (home == null) return List.of(resolve(a, bases));
            return texts(home + a.homeSuffix(), false, bases);
        }
        if (a.variable() != null && !a.many() && loops.containsKey(a.variable())) {
            List<Result> out = new ArrayList<>();
            for (Arg v : loops.get(a.variable())) {
                if (v.isStatic() && v.glob() && !v.brace()) {
                    // for f in .e?v: bash globs the loop word first, so f is each name it matches (§3.5.8)
                    List<String> words = globWords(v, bases);
                    if (words == null) out.add(Result.unknown("a glob loop word whose matches are not known"));
                    else for (String w : words) out.addAll(texts(w, false, bases));
                } else {
                    out.addAll(readings(v, bases, Map.of()));
                }
            }
            return out;
        }
        if (a.pieces() != null && !a.spliced()) {
            List<String> texts = substituted(a.pieces(), loops, v -> globWords(v, bases));
            if (texts != null) {
                List<Result> out = new ArrayList<>();
                for (String t : texts) out.addAll(texts(t, false, bases));
                return out;
            }
        }
        return List.of(resolve(a, bases));
    }

    /** {@link #text}, one result per directory a relative path may be taken against. */
    private List<Result> texts(String t, boolean glob, List<Path> bases) {
        if (t.isEmpty() || processRelative(t) || bases == null || bases.size() < 2) return List.of(text(t, glob, bases));
        Path p;
        try {
            p = Path.of(t);
        } catch (InvalidPathException e) {
            return List.of(text(t, glob, bases));
        }
        if (p.isAbsolute()) return List.of(text(t, glob, bases));
        List<Result> out = new ArrayList<>();
        for (Path b : bases) out.add(one(b.resolve(p), glob));
        return out;
    }

    /** Beyond this many combinations of loop values, a word of several loop variables is unknown. */
    static final int MAX_SUBSTITUTIONS = 64;

    /**
     * The words a word of static text and loop variables becomes, one per combination of the loops' values
     * ({@code for d in .git; do cp a $d/config; done} writes {@code .git/config}); null when a variable is not a
     * loop variable, a value is not exact, or an unquoted value would be split or globbed (IFS white space or a
     * glob character in it: Bash Reference Manual §3.5.7, §3.5.8), or an empty unquoted value would vanish.
     */
    static List<String> substituted(List<Arg.Piece> pieces, Map<String, List<Arg>> loops) {
        return substituted(pieces, loops, v -> null);
    }

    /**
     * As {@link #substituted(List, Map)}, with a glob loop word ({@code for f in *.txt}) standing for the words
     * {@code globs} gives for it (null: unknown).
     */
    static List<String> substituted(List<Arg.Piece> pieces, Map<String, List<Arg>> loops,
                                    java.util.function.Function<Arg, List<String>> globs) {
        List<String> out = new ArrayList<>();
        out.add("");
        for (Arg.Piece p : pieces) {
            List<String> values = new ArrayList<>();
            if (p.variable() == null) {
                values.add(p.text());
            } else {
                List<Arg> vs = loops.get(p.variable());
                if (vs == null) return null;
                for (Arg v : vs) {
                    List<String> words;
                    if (v.known()) {
                        words = List.of(v.prefix());
                    } else if (v.isStatic() && v.glob() && !v.brace()) {
                        words = globs.apply(v);
                        if (words == null) return null;
                    } else {
                        return null;
                    }
                    for (String t : words) {
                        if (!p.quoted() && (t.isEmpty() || t.chars().anyMatch(c -> " \t\n*?[".indexOf(c) >= 0))) {
                            return null;
                        }
                        values.add(t);
                    }
                }
            }
            List<String> next = new ArrayList<>();
            for (String o : out) {
                for (String v : values) {
                    if (next.size() >= MAX_SUBSTITUTIONS) return null;
                    next.add(o + v);
                }
            }
            out = next;
        }
        return out;
    }

    private Result text(String t, boolean glob, List<Path> bases) {
        if (t.isEmpty()) return Result.unknown("an empty path");
        if (processRelative(t)) return Result.unknown("its meaning depends on the process that opens it");
        if (t.startsWith("/proc/") && t.endsWith("/environ")) {
            return new Result(PathOperand.OUTSIDE, t, "it may expose the environment's secrets");
        }
        Path p;
        try {
            p = Path.of(t);
        } catch (InvalidPathException e) {
            return Result.unknown("not a path");
        }
        if (p.isAbsolute()) return one(p, glob);
        if (bases == null) return Result.unknown(AFTER_UNKNOWN_DIRECTORY);
        Result worst = null;
        for (Path b : bases) {
            Result r = one(b.resolve(p), glob);
            worst = worst == null ? r : worst.combine(r);
        }
        return worst;
    }

    /** Why a relative path is unknown once a directory change went somewhere only known at run time. */
    static final String AFTER_UNKNOWN_DIRECTORY = "a relative path after a directory change only known at run time";

    /**
     * The words a glob loop word becomes (Bash Reference Manual §3.5.8): the entries of its directory its last
     * segment matches (over-matching: dot files too), or the word itself when none does; null when the glob is
     * before the last segment, the directory is not one known directory, or it has too many entries.
     *
     * @param v     a static word with a glob character
     * @param bases the directories a relative word may be taken against
     * @return the words, or null when unknown
     */
    public List<String> globWords(Arg v, List<Path> bases) {
        String t = v.text();
        int g = firstGlob(t);
        int slash = t.lastIndexOf('/', g);
        if (t.indexOf('/', g) >= 0) return null;
        String dirText = slash < 0 ? "" : t.substring(0, slash + 1);
        Path dir;
        try {
            Path d = Path.of(dirText.isEmpty() ? "." : dirText);
            if (d.isAbsolute()) dir = d;
            else if (bases == null || bases.size() != 1) return null;
            else dir = bases.get(0).resolve(d);
        } catch (InvalidPathException e) {
            return null;
        }
        PathMatcher m;
        try {
            m = FileSystems.getDefault().getPathMatcher("glob:" + t.substring(slash + 1));
        } catch (RuntimeException e) {
            return null;
        }
        List<String> out = new ArrayList<>();
        int n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path e : entries) {
                if (++n > MAX_GLOB_SCAN) return null;
                if (m.matches(e.getFileName())) out.add(dirText + e.getFileName());
                if (out.size() > MAX_SUBSTITUTIONS) return null;
            }
        } catch (IOException | RuntimeException e) {
            // no such directory: nothing matches
        }
        if (out.isEmpty()) return List.of(t);
        java.util.Collections.sort(out);
        return out;
    }

    /** bash and the kernel resolve these in the process that opens them, not in the hook. */
    static boolean processRelative(String t) {
        return t.equals("/proc/self") || t.startsWith("/proc/self/") || t.equals("/proc/thread-self")
                || t.startsWith("/proc/thread-self/") || t.startsWith("/dev/fd/") || t.equals("/dev/fd")
                || t.equals("/dev/stdin") || t.equals("/dev/stdout") || t.equals("/dev/stderr")
                || t.startsWith("/proc/") && t.length() > 6 && Character.isDigit(t.charAt(6));
    }

    private Result one(Path abs, boolean glob) {
        if (!glob) return classified(abs);
        // The directory before the first glob character (Claude Code's check), then every match in it.
        String s = abs.toString();
        int g = firstGlob(s);
        int slash = s.lastIndexOf('/', g);
        if (s.indexOf('/', g) >= 0) return Result.unknown("a glob before the last path segment");
        Path dir = Path.of(slash <= 0 ? "/" : s.substring(0, slash));
        Result r = classified(dir);
        if (!r.status().equals(PathOperand.INSIDE)) return r;
        String pattern = s.substring(slash + 1);
        PathMatcher m;
        try {
            m = FileSystems.getDefault().getPathMatcher("glob:" + pattern);
        } catch (RuntimeException e) {
            return Result.unknown("a glob this hook cannot read");
        }
        int n = 0;
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(RedirectTargets.resolve(dir))) {
            for (Path e : entries) {
                if (++n > MAX_GLOB_SCAN) return Result.unknown("a glob over a directory too large to scan");
                if (!m.matches(e.getFileName())) continue;
                Result er = classified(e);
                if (!er.status().equals(PathOperand.INSIDE)) return er;
            }
        } catch (IOException | RuntimeException e) {
            // no such directory: the glob matches nothing (bash passes it as written, inside the directory)
        }
        return r;
    }

    private static int firstGlob(String s) {
        for (int i = 0; i < s.length(); i++) if ("*?[".indexOf(s.charAt(i)) >= 0) return i;
        return s.length();
    }

    private Result classified(Path abs) {
        RedirectTargets.Classified c = targets.classify(abs);
        if (c.resolvedPath() == null) return Result.unknown("not a path");
        boolean exists = Files.exists(abs, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        return c.inside() ? new Result(PathOperand.INSIDE, c.resolvedPath(), null, c.protectedComponent(), exists)
                : new Result(PathOperand.OUTSIDE, c.resolvedPath(), "outside the working directories", null, exists);
    }
}
