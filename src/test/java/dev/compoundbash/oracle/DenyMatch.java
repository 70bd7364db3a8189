package dev.compoundbash.oracle;

import dev.compoundbash.rules.BashPattern;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The oracle's own reading of whether a command that ran is one a deny rule names: the recorded argv (a decoy's
 * name stripped to the program name, a path to its base name) is matched by Claude Code's pattern syntax
 * ({@link BashPattern}, the neutral matcher) as written, and once more with the program's global options removed,
 * as issue 14 requires deny rules to see through them. The global options are read here from the programs' own
 * manuals, not from the hook's table: git(1) SYNOPSIS and git.c {@code handle_options} ({@code -C} and {@code -c}
 * take the next word; {@code --git-dir}, {@code --work-tree}, {@code --namespace}, {@code --super-prefix} and
 * {@code --attr-source} take {@code =VALUE} or the next word; {@code --config-env} and {@code --exec-path} only
 * {@code =VALUE}, and a bare {@code --exec-path} prints and exits), make(1) ({@code -C}, {@code -f}, {@code -I},
 * {@code -j}, {@code -o}, {@code -W} take a value attached or next; {@code --directory=}, {@code --file=}), and
 * npm's config flags ({@code --prefix}, {@code -C}, {@code -w}/{@code --workspace} take the next word).
 */
final class DenyMatch {
    private DenyMatch() {
    }

    private static final Set<String> GIT_VALUED = Set.of("-C", "-c", "--git-dir", "--work-tree", "--namespace",
            "--super-prefix", "--attr-source", "--list-cmds");
    private static final Set<String> GIT_VALUED_ATTACHED = Set.of("--git-dir", "--work-tree", "--namespace",
            "--super-prefix", "--attr-source", "--config-env", "--exec-path", "--list-cmds");
    private static final Set<String> GIT_FLAGS = Set.of("--no-pager", "-p", "--paginate", "-P", "--bare",
            "--no-replace-objects", "--no-lazy-fetch", "--literal-pathspecs", "--glob-pathspecs",
            "--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--no-advice");
    private static final Set<String> MAKE_VALUED = Set.of("-C", "-f", "-I", "-o", "-W", "--directory", "--file",
            "--makefile", "--include-dir", "--old-file", "--what-if", "--new-file", "--assume-new", "--assume-old");
    private static final Set<String> NPM_VALUED = Set.of("--prefix", "-C", "-w", "--workspace", "--userconfig",
            "--globalconfig", "--cache", "--registry", "--loglevel");

    /** The recorded argv as Claude Code's rules see it: the decoy marker dropped, argv[0] by its base name. */
    static List<String> plain(List<String> recorded) {
        List<String> argv = new ArrayList<>(recorded);
        String name = argv.get(0);
        if (name.startsWith(ExecutionOracleTest.DECOY)) name = name.substring(ExecutionOracleTest.DECOY.length());
        argv.set(0, name.substring(name.lastIndexOf('/') + 1));
        return argv;
    }

    /**
     * The argv with the program's global options before its subcommand removed, or null when the options end the
     * program before any subcommand ({@code git --exec-path}) or are not complete.
     */
    static List<String> withoutGlobalOptions(List<String> argv) {
        String p = argv.get(0);
        int i = 1;
        while (i < argv.size()) {
            String w = argv.get(i);
            int eq = w.indexOf('=');
            String head = eq > 0 ? w.substring(0, eq) : w;
            if (p.equals("git")) {
                if (w.equals("--exec-path") || w.equals("--html-path") || w.equals("--man-path")
                        || w.equals("--info-path") || w.equals("--version") || w.equals("--help")) {
                    return null;
                }
                if (GIT_FLAGS.contains(w)) {
                    i++;
                } else if (eq > 0 && GIT_VALUED_ATTACHED.contains(head)) {
                    i++;
                } else if (GIT_VALUED.contains(w)) {
                    if (i + 1 >= argv.size()) return null;
                    i += 2;
                } else {
                    break;
                }
            } else if (p.equals("make")) {
                if (eq > 0 && MAKE_VALUED.contains(head)) {
                    i++;
                } else if (MAKE_VALUED.contains(w)) {
                    i += 2;
                } else if (w.length() > 2 && w.startsWith("-") && !w.startsWith("--")
                        && "CfIoW".indexOf(w.charAt(1)) >= 0) {
                    i++; // -Cdir
                } else if (w.startsWith("-") && !w.equals("-")) {
                    i++;
                } else {
                    break;
                }
            } else if (p.equals("npm")) {
                if (eq > 0 && NPM_VALUED.contains(head)) {
                    i++;
                } else if (NPM_VALUED.contains(w)) {
                    i += 2;
                } else if (w.startsWith("-") && !w.equals("-")) {
                    i++;
                } else {
                    break;
                }
            } else {
                return argv;
            }
        }
        if (i > argv.size()) return null;
        List<String> out = new ArrayList<>();
        out.add(p);
        out.addAll(argv.subList(i, argv.size()));
        return out;
    }

    /** The deny rule (as written) that names the recorded command, or null. */
    static String deniedBy(List<String> recorded, List<String> denyRules) {
        if (recorded.isEmpty()) return null;
        List<String> argv = plain(recorded);
        List<String> lines = new ArrayList<>();
        lines.add(String.join(" ", argv));
        List<String> stripped = withoutGlobalOptions(argv);
        if (stripped != null) lines.add(String.join(" ", stripped));
        for (String rule : denyRules) {
            String pattern = BashPattern.innerPattern(rule);
            if (pattern != null && BashPattern.matchesAnyOf(pattern, lines)) return rule;
        }
        return null;
    }
}
