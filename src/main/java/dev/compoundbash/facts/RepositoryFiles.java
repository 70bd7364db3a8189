package dev.compoundbash.facts;

import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of the repository one run of a program reads its configuration from (the schema's
 * {@code config.repository}, {@link ProgramSchemas.Repository}), relative to the repository that run uses: git's
 * {@code -C DIR} (each relative to the one before), {@code --git-dir DIR} (the repository directory itself,
 * {@code DIR/config}; {@code --bare}: the starting directory), or, without it, the search of git's setup.c {@code setup_git_directory_gently} from the
 * starting directory upwards: {@code D/.git} is the repository where it exists, else {@code D} itself where it is
 * a bare repository ({@code D/HEAD}), else the parent (gitrepository-layout(5): {@code config}, {@code hooks/},
 * {@code commondir}). A bare repository made in the same call ({@code git init --bare x}) is not there yet, so
 * every directory on the way up that holds no {@code .git} counts as one.
 * <p>
 * A write earlier in the call to one of these files, below a directory of them ({@code hooks/}), or to a directory
 * holding them ({@code cp -r tpl x}, {@code echo 'gitdir: y' > .git}) may choose what the run does.
 */
final class RepositoryFiles {
    /**
     * One file or directory of a repository the run reads.
     *
     * @param path      its absolute, normalized path
     * @param directory a directory of files it reads (any file below it counts)
     */
    record Watched(Path path, boolean directory) {
    }

    private RepositoryFiles() {
    }

    /**
     * The repository files one command may read.
     *
     * @param repository the schema's repository description
     * @param options    the program's option table (which global options take a value), or null
     * @param args       the command's words, the name first
     * @param bases      the directories the command may run in (null: not known)
     * @return the files, or null when the repository is not known here (a directory only known at run time; the
     *         closed world already makes such a word unknown)
     */
    static List<Watched> of(ProgramSchemas.Repository repository, ProgramSchemas.OptionTable options,
                            List<Arg> args, List<Path> bases) {
        if (repository == null || bases == null || bases.isEmpty()) return null;
        List<String> moves = new ArrayList<>();
        String gitDir = null;
        for (int i = 1; i < args.size(); i++) {
            Arg w = args.get(i);
            if (!w.known()) return null;
            String t = w.prefix();
            if (!t.startsWith("-") || t.length() < 2 || t.equals("--")) break;
            int eq = t.indexOf('=');
            String name = t.startsWith("--") && eq > 0 ? t.substring(0, eq) : t;
            ProgramSchemas.Declared d = options == null ? null : options.declaredOption(name);
            boolean takes = d != null && d.argument() == OptionGrammar.Argument.REQUIRED;
            String value = null;
            if (takes && eq > 0 && t.startsWith("--")) {
                value = t.substring(eq + 1);
            } else if (takes) {
                if (i + 1 >= args.size()) break;
                Arg v = args.get(++i);
                if (!v.isStatic()) {
                    if (repository.directoryOptions().contains(name) || repository.gitDirOptions().contains(name)) {
                        return null;
                    }
                    continue;
                }
                value = v.text();
            }
            if (repository.bareOptions().contains(name) && gitDir == null) gitDir = ".";
            if (value == null) continue;
            if (repository.directoryOptions().contains(name) && !value.isEmpty()) moves.add(value);
            if (repository.gitDirOptions().contains(name)) gitDir = value;
        }
        List<Watched> out = new ArrayList<>();
        for (Path base : bases) {
            Path start;
            try {
                start = base.toAbsolutePath();
                for (String m : moves) start = start.resolve(m);
                start = start.normalize();
                if (gitDir != null) {
                    addRepository(out, repository, start.resolve(gitDir).normalize());
                    continue;
                }
            } catch (InvalidPathException e) {
                return null;
            }
            for (Path d = start; d != null; d = d.getParent()) {
                Path g = repository.discovery().isEmpty() ? null : d.resolve(repository.discovery());
                if (g != null) {
                    addRepository(out, repository, g);
                    if (Files.exists(g, LinkOption.NOFOLLOW_LINKS)) break;
                }
                addRepository(out, repository, d);
                if (!repository.bareMarker().isEmpty() && Files.exists(d.resolve(repository.bareMarker()))) break;
            }
        }
        return out;
    }

    private static void addRepository(List<Watched> out, ProgramSchemas.Repository repository, Path dir) {
        for (String f : repository.files()) {
            boolean directory = f.endsWith("/");
            String name = directory ? f.substring(0, f.length() - 1) : f;
            out.add(new Watched(canonical(dir.resolve(name)), directory));
        }
    }

    /**
     * How a write to {@code written} reaches the files: {@code "file"} (one of them, or a file below a directory
     * of them), {@code "holder"} (a directory holding one of them), or null.
     *
     * @param watched the repository files
     * @param written the absolute path written
     */
    static String reaches(List<Watched> watched, String written) {
        Path w;
        try {
            w = canonical(Path.of(written).toAbsolutePath().normalize());
        } catch (InvalidPathException e) {
            return "file";
        }
        String holder = null;
        for (Watched f : watched) {
            if (w.equals(f.path()) || (f.directory() && w.startsWith(f.path()))) return "file";
            if (f.path().startsWith(w)) holder = "holder";
        }
        return holder;
    }

    /**
     * {@code p} with its longest existing ancestor's symbolic links resolved (the file itself may not exist yet),
     * so that a path written through a link and the repository's own path compare equal.
     */
    static Path canonical(Path p) {
        Path existing = p;
        List<Path> tail = new ArrayList<>();
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            if (existing.getFileName() != null) tail.add(0, existing.getFileName());
            existing = existing.getParent();
        }
        if (existing == null) return p.normalize();
        Path out;
        try {
            out = existing.toRealPath();
        } catch (java.io.IOException | RuntimeException e) {
            out = existing;
        }
        for (Path t : tail) out = out.resolve(t);
        return out.normalize();
    }
}
