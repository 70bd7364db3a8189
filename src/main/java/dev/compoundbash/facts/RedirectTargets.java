package dev.compoundbash.facts;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Resolves a redirection target to an absolute path and says where it lies: symlinks are resolved on the deepest
 * existing ancestor and the rest appended, so a symlinked directory that points outside cannot smuggle a write
 * out. The working directory and each additional directory are resolved the same way.
 */
public final class RedirectTargets {
    /**
     * Whether a redirection target may open a network connection: bash opens {@code /dev/tcp/HOST/PORT} and
     * {@code /dev/udp/HOST/PORT} as sockets, for input as well as output (bash(1) "REDIRECTION"), so even
     * {@code cat < /dev/tcp/...} sends data (the host name itself, in a DNS lookup). A dynamic target counts when its
     * text, quotes removed, names those paths or is {@code /dev/} followed by an expansion.
     *
     * @param target the target as written (a dynamic one as its source text)
     * @return true for such a target
     */
    public static boolean opensNetworkConnection(String target) {
        if (target == null) return false;
        String t = target.replace("\"", "").replace("'", "").replace("\\", "");
        return t.contains("/dev/tcp/") || t.contains("/dev/udp/") || t.startsWith("/dev/$") || t.startsWith("/dev/`")
                || t.startsWith("/dev/tc$") || t.startsWith("/dev/ud$");
    }

    /**
     * The one device a redirection may always open: {@code /dev/null}. Claude Code treats every other target as a
     * path (measured, 2.1.328: {@code > /dev/stderr} is a write outside the working directories), and
     * {@code /dev/stdout}, {@code /dev/stderr}, {@code /dev/stdin} and {@code /dev/fd/N} name whatever the
     * descriptor is redirected to in the process that opens them ({@code echo x 1<outside >/dev/stdout}).
     */
    public static final Set<String> SAFE_DEVICES = Set.of("/dev/null");
    /** The directories a write into asks ({@code .git}, {@code .claude}). */
    static final Set<String> PROTECTED = Set.of(".git", ".claude");

    private final List<Path> roots = new ArrayList<>();
    private final boolean configurationError;

    /** Prepares the allowed roots of {@code env}: cwd, additional directories, and on macOS the /tmp aliases. */
    public RedirectTargets(Environment env) {
        boolean error = false;
        roots.add(resolve(env.cwd()));
        for (String dir : env.additionalDirectories()) {
            Path p;
            try {
                // Claude Code resolves a relative entry against the start directory and ~ against HOME
                // (measured, 2.1.328: "../home" and "~" entries both count).
                if (dir.equals("~") || dir.startsWith("~/")) {
                    if (env.home() == null) {
                        error = true;
                        continue;
                    }
                    p = Path.of(env.home() + dir.substring(1));
                } else {
                    p = Path.of(dir);
                    if (!p.isAbsolute()) p = env.cwd().resolve(p);
                }
            } catch (InvalidPathException e) {
                error = true;
                continue;
            }
            if (dir.isEmpty() || dir.startsWith("~") && !dir.equals("~") && !dir.startsWith("~/")) {
                error = true; // ~user: not resolved
                continue;
            }
            roots.add(resolve(p));
            if (env.isMac()) {
                String s = p.normalize().toString();
                if (s.equals("/tmp") || s.startsWith("/tmp/")) {
                    roots.add(resolve(Path.of("/private" + s)));
                    if (env.tmpDir() != null && !env.tmpDir().isEmpty()) roots.add(resolve(Path.of(env.tmpDir())));
                }
            }
        }
        this.configurationError = error;
    }

    /** True when an additional directory could not be read as a path (redirects then ask). */
    public boolean configurationError() {
        return configurationError;
    }

    /** The allowed roots after resolution, cwd first. */
    public List<Path> roots() {
        return List.copyOf(roots);
    }

    /**
     * Classifies a static target.
     *
     * @param target the target after quote removal
     * @return the resolved path, whether it lies inside an allowed root, and a protected component below that
     *         root ({@code .git} or {@code .claude}) if any
     */
    public Classified classify(String target) {
        Path p;
        try {
            p = Path.of(target);
        } catch (InvalidPathException e) {
            return new Classified(null, false, null);
        }
        Path abs = p.isAbsolute() ? p : roots.get(0).resolve(p);
        Path resolved = resolve(abs);
        for (Path root : roots) {
            if (resolved.startsWith(root)) {
                Path rel = root.relativize(resolved);
                String prot = null;
                for (Path part : rel) {
                    if (PROTECTED.contains(part.toString())) {
                        prot = part.toString();
                        break;
                    }
                }
                return new Classified(resolved.toString(), true, prot);
            }
        }
        return new Classified(resolved.toString(), false, null);
    }

    /**
     * Classifies an absolute path, as {@link #classify(String)} does.
     *
     * @param abs an absolute path
     * @return where it lies
     */
    public Classified classify(Path abs) {
        return classify(abs.toString());
    }

    /** Where a target lies: {@code resolvedPath} null when it could not be read as a path. */
    public record Classified(String resolvedPath, boolean inside, String protectedComponent) {
    }

    /**
     * Resolves {@code path} the way the kernel walks it: component by component from the root, following every
     * symlink (dangling ones too: a write through a dangling link creates its target) and applying {@code ..}
     * to the physical directory reached so far. Once a component does not exist, the rest is appended lexically.
     *
     * @param path an absolute path (a relative one is taken against the JVM's working directory)
     * @return an absolute, normalised path
     */
    public static Path resolve(Path path) {
        return resolve(path.toAbsolutePath(), 0);
    }

    private static Path resolve(Path abs, int hops) {
        Path current = abs.getRoot();
        boolean exists = true;
        for (Path part : abs) {
            String name = part.toString();
            if (name.equals(".") || name.isEmpty()) continue;
            if (name.equals("..")) {
                Path parent = current.getParent();
                if (parent != null) current = parent;
                continue;
            }
            Path next = current.resolve(name);
            if (exists && hops <= 40) {
                try {
                    if (Files.isSymbolicLink(next)) {
                        Path link = Files.readSymbolicLink(next);
                        next = resolve(link.isAbsolute() ? link : current.resolve(link), hops + 1);
                    } else if (!Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                        exists = false;
                    }
                } catch (IOException | SecurityException | UnsupportedOperationException e) {
                    exists = false;
                }
            }
            current = next;
        }
        return current.normalize();
    }
}
