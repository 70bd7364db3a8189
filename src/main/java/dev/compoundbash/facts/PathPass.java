package dev.compoundbash.facts;

import dev.compoundbash.shell.Redirection;
import dev.compoundbash.shell.WordValue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Pass 4 of the extractor, paths: the words commands open as files ({@link PathOperand}) and every redirection
 * ({@link Redirect}), resolved against the directories the command may run in. It reads what the passes before it
 * made: the command ({@link SubCommand}), how unwrapping reached it ({@link UnwrapPass.Reach}: another directory,
 * find's found paths, xargs' replacement), what the pipeline element before it writes ({@link WalkPass.Pipe}) and
 * the shell state there ({@link ShellState}: the directories, the static loop words); which words are paths comes
 * from {@link ProgramKnowledge}. Resolution itself is {@link PathResolver}'s and {@link RedirectTargets}'.
 *
 * <p>Follows bash(1) "REDIRECTION" (which operators open which files, descriptor duplication) and the programs'
 * manuals through {@link ProgramKnowledge}; findutils find(1) for the paths find hands its payloads.
 *
 * <p>Not thread-safe: one per extraction.
 */
final class PathPass {
    private final FactSink sink;
    private final RedirectTargets targets;
    private final PathResolver paths;
    /** The last {@link UnwrapPass.FindPaths} asked about and the answer: the tree walk is made once per payload. */
    private UnwrapPass.FindPaths lastFind;
    private boolean lastFound;

    PathPass(FactSink sink, RedirectTargets targets, PathResolver paths) {
        this.sink = sink;
        this.targets = targets;
        this.paths = paths;
    }

    /**
     * The {@link PathOperand}s of {@code sc} when its program's path operands are known, each resolved by
     * {@link PathResolver} against the directories it may run in.
     *
     * @param sc      the command
     * @param reading what its program does with its words (null when its name is only known at run time)
     * @param reach   how unwrapping reached it
     * @param pipe    what the pipeline element before it writes
     * @param state   the shell state where it runs
     */
    void operands(SubCommand sc, ProgramKnowledge.Reading reading, UnwrapPass.Reach reach, WalkPass.Pipe pipe,
                  ShellState state) {
        if (sc.isDynamicName()) return;
        // ssh host cat .env, kubectl exec p -- cat .env: a file on the other machine or in the container, which no
        // local path or file rule names (docs/PROGRAMS.md "Remote runners")
        if (reach.remote()) return;
        String name = reading.baseName();
        PathCheckedProgram p = reading.pathChecked();
        if (p == null) {
            if (!reading.opensNoFileOfItsWords()) mentions(sc, reading, name, reach, state);
            return;
        }
        List<Path> here = reach.otherDirectory() ? null : state.bases();
        Map<String, List<Arg>> loopValues = state.loopValues();
        List<ProgramTable.Operand> operands = new ArrayList<>(reading.pathOperands(p,
                a -> mayBeOption(a, here, loopValues)));
        // Claude Code itself runs `xargs grep x` (and head, tail, wc, ...) without a rule and without checking
        // the words xargs appends (measured: `echo /etc/hosts | xargs grep x` runs natively; its read-only check
        // takes these xargs targets, rules/claude-code-read-only.json): for them the hook does what Claude Code
        // does. For any other program the appended words are paths only known at run time.
        boolean claudeCodeTarget = ClaudeCodeReadOnly.builtIn().xargsTargets().contains(name)
                && reading.appendedAccess(p).equals("read")
                && !pipe.unreadText();
        if (sc.isArgumentsAppended() && pipe.words() != null
                && !p.getOperands().equals("none") && !p.getOperands().equals("cd")) {
            // echo .git/config | xargs cp evil.cfg: the words xargs reads are known; they are paths
            for (String w : pipe.words()) {
                if (w.startsWith("-")) {
                    // echo --files0-from=F | xargs wc: an option of the program, which may name any file
                    operands.add(new ProgramTable.Operand(Arg.unknown("(an option xargs appends: " + w + ")"),
                            reading.appendedAccess(p)));
                    continue;
                }
                operands.add(new ProgramTable.Operand(Arg.literal(w), reading.appendedAccess(p)));
            }
        } else if (sc.isArgumentsAppended() && !claudeCodeTarget && !p.getOperands().equals("none")
                && !p.getOperands().equals("cd")) {
            // xargs appends words read from its input: paths only known at run time.
            operands.add(new ProgramTable.Operand(Arg.unknown("(the words xargs appends from its input)"),
                    reading.appendedAccess(p)));
        }
        for (ProgramTable.Operand o : operands) {
            // find's bare {} is a path find found under its start paths (checked as find's own operands); only
            // a read of it, when find follows no symbolic link and only matches files that are not links, is
            // known to stay inside them. Any other spliced word (a {} inside a longer word, xargs -I's
            // replacement) is a path only known at run time.
            if (o.arg().spliced() && o.access().equals("read") && o.arg().text().equals("{}")
                    && findFoundPaths(reach.findPaths())) {
                continue;
            }
            Arg oa = o.arg();
            if (oa.isStatic() && oa.text().equals(ProgramTable.WORK_TREE_TOP)) oa = workTreeTop(here);
            if (oa.spliced() && reach.xargsReplace() != null && pipe.words() != null) {
                // echo .git/config | xargs -I{} cp a {}: the one line xargs reads is known, so is the word
                oa = Arg.literal(oa.text().replace(reach.xargsReplace(), String.join(" ", pipe.words())));
            }
            List<PathResolver.Result> readings = paths.readings(oa, here, loopValues);
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (PathResolver.Result r0 : readings) {
                PathResolver.Result r = r0;
                if (!seen.add(r.status() + "\0" + r.path() + "\0" + r.why())) continue;
                if (o.arg().spliced() && r.protectedComponent() == null) {
                    // {}/.git/hooks/x: whatever the wrapper splices in, the literal text puts the path in .git
                    String lit = "/" + o.arg().text().replace(o.arg().text().contains("{}") ? "{}" : "\u0000", "x") + "/";
                    String prot = lit.contains("/.git/") ? ".git" : lit.contains("/.claude/") ? ".claude" : null;
                    if (prot != null) r = new PathResolver.Result(r.status(), r.path(), r.why(), prot, r.exists());
                }
                if (o.followsInto() && r.status().equals(PathOperand.INSIDE) && r.path() != null
                        && java.nio.file.Files.isDirectory(Path.of(r.path()))) {
                    // a directory the program reads following the symbolic links inside it: they may lead anywhere
                    r = new PathResolver.Result(PathOperand.UNKNOWN, r.path(),
                            "it reads the directory following the symbolic links in it", r.protectedComponent(),
                            r.exists());
                }
                sink.pathOperands.add(new PathOperand(sink.id(), sc.getId(), name, o.arg().text(), o.access(),
                        r.status(), r.path(), r.why(), r.protectedComponent(), r.exists(),
                        PathResolver.AFTER_UNKNOWN_DIRECTORY.equals(r.why()))
                        .withGlobPattern(o.arg().glob() || (o.arg().isStatic() && !o.arg().spliced()
                                && o.arg().text().matches("(?s).*[*?\\[\\]].*")))
                        .withRecursive(o.recursive() && !(r.path() != null
                                && java.nio.file.Files.isRegularFile(Path.of(r.path())))));
            }
        }
    }

    /**
     * The top of the work tree git finds from the directories the command may run in (git's setup.c: the nearest
     * directory upwards holding {@code .git}), as an absolute path; the directory itself when none holds one (git
     * then refuses to run); a path only known at run time when the directories are not known or lead to different
     * tops.
     *
     * @param here the directories the command may run in, or null when not known
     */
    private static Arg workTreeTop(List<Path> here) {
        if (here == null || here.isEmpty()) return Arg.unknown("(the top of the work tree)");
        String top = null;
        for (Path base : here) {
            Path found = base;
            for (Path d = base.toAbsolutePath().normalize(); d != null; d = d.getParent()) {
                if (java.nio.file.Files.exists(d.resolve(".git"), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    found = d;
                    break;
                }
            }
            String t = found.toAbsolutePath().normalize().toString();
            if (top != null && !top.equals(t)) return Arg.unknown("(the top of the work tree)");
            top = t;
        }
        return Arg.literal(top);
    }

    /**
     * The closed world for the words of a program whose paths no schema describes ({@code iconv -f utf8 .env},
     * {@code zcat -f .env}, {@code less .env}): each known word that is not an option, and each value of a
     * {@code --name=VALUE} option, may be a file the program opens. They become path facts of access
     * {@link PathOperand#MENTION}, which a file rule of Claude Code's matches to ask (rules/boundary.drl), never to
     * approve or deny. The caller leaves out programs in a tier ({@link ProgramKnowledge.Reading#opensNoFileOfItsWords}).
     */
    private void mentions(SubCommand sc, ProgramKnowledge.Reading reading, String name, UnwrapPass.Reach reach,
                          ShellState state) {
        List<Path> here = reach.otherDirectory() ? null : state.bases();
        java.util.Set<String> seen = new java.util.HashSet<>();
        List<Arg> args = sc.getArgs();
        // the words a runner runs are its payload's, checked as that command (or not at all when it runs remotely:
        // ssh h cat .env names the remote .env); the runner's own words (ssh -F FILE) are still mentions
        boolean[] payload = new boolean[args.size()];
        WrapperGrammar.Unwrapped u = reading.wrapper();
        if (u != null && u.runner()) {
            for (WrapperGrammar.Payload p : u.payloads()) {
                if (!p.readable() || p.candidate()) continue;
                for (int k = Math.max(p.from(), 0); k < Math.min(p.to(), args.size()); k++) payload[k] = true;
            }
        }
        for (int i = 1; i < args.size(); i++) {
            if (payload[i]) continue;
            Arg a = args.get(i);
            if (!a.known() || a.prefix().isEmpty()) continue;
            String t = a.prefix();
            int eq = t.indexOf('=');
            if (t.startsWith("--") && eq > 2) t = t.substring(eq + 1);
            else if (t.startsWith("-")) continue;
            if (t.isEmpty() || !seen.add(t)) continue;
            for (PathResolver.Result r : paths.readings(Arg.literal(t), here, Map.of())) {
                if (r.path() == null) continue;
                sink.pathOperands.add(new PathOperand(sink.id(), sc.getId(), name, a.text(), PathOperand.MENTION,
                        r.status(), r.path(), r.why(), r.protectedComponent(), r.exists(), false));
            }
        }
    }

    /**
     * Whether a word may become an option: as {@link Arg#mayBeOption()}, except that a word of static text and loop
     * variables whose every substitution is known ({@link PathResolver#substituted}) may only if one starts with
     * {@code -}.
     */
    private boolean mayBeOption(Arg a, List<Path> here, Map<String, List<Arg>> loopValues) {
        if (!a.mayBeOption()) return false;
        List<Arg.Piece> pieces = a.pieces();
        if (pieces == null || a.spliced()) return true;
        List<String> texts = PathResolver.substituted(pieces, loopValues, v -> paths.globWords(v, here));
        return texts == null || texts.stream().anyMatch(t -> t.startsWith("-"));
    }

    // ---- the paths find hands its payloads --------------------------------------------------------------------

    /**
     * Whether the paths a find hands a payload's bare {@code {}} stay inside find's start paths when the payload
     * opens them: {@link #findPathsStayInside} or {@link #noLinkLeavesStartPaths}.
     *
     * @param f the find payload, or null (no find's paths: false)
     */
    boolean findFoundPaths(UnwrapPass.FindPaths f) {
        if (f == null) return false;
        if (f == lastFind) return lastFound;
        boolean found = findPathsStayInside(f.args(), f.from()) || noLinkLeavesStartPaths(f);
        lastFind = f;
        lastFound = found;
        return found;
    }

    /**
     * Whether the paths find puts in a payload's bare {@code {}} stay inside find's start paths when the payload
     * opens them: find follows no symbolic link ({@code -L}, {@code -follow}: findutils find(1) "-L", "-follow";
     * {@code -H} only follows the start paths, which are resolved as find's own operands), and the expression
     * before the action is a chain of and-ed primaries holding {@code -type} with types that exclude {@code l}
     * (without it a found path may be a link, which the payload follows when it opens it: {@code find d -exec cat
     * {} \;} reads the target of {@code d/link}; {@code -xtype} tests the target, so it is no guard). Any
     * {@code -o}, {@code ,}, {@code !}, {@code -not} or parenthesis, or a word only known at run time, gives up.
     *
     * @param args the find command's words, the name first
     * @param from the index of the payload's first word (the action's name is before it)
     */
    static boolean findPathsStayInside(List<Arg> args, int from) {
        for (Arg a : args) {
            if (!a.isStatic()) return false;
            if (a.text().equals("-L") || a.text().equals("-follow")) return false;
        }
        int i = 1;
        while (i < from && !args.get(i).text().startsWith("-") && !args.get(i).text().equals("(")
                && !args.get(i).text().equals("!")) i++;
        boolean typed = false;
        for (; i < from - 1; i++) {
            String t = args.get(i).text();
            if (List.of("-o", "-or", ",", "(", ")", "!", "-not").contains(t)) return false;
            if (t.equals("-type") && i + 1 < from - 1) {
                String v = args.get(++i).text();
                if (v.matches("[bcdpfsD](,[bcdpfsD])*")) typed = true;
            }
        }
        return typed;
    }

    /** The most directory entries {@link #noLinkLeavesStartPaths} looks at before it gives up. */
    static final int MAX_TREE_SCAN = 20_000;

    /**
     * Whether no path find may hand its payload leads outside the working directories through a symbolic link:
     * find follows no link ({@code -L}, {@code -follow}), its start paths are static, and a walk of each (not
     * following links, at most {@link #MAX_TREE_SCAN} entries) finds no symbolic link whose target resolves
     * outside them or cannot be resolved. A found link that stays inside is harmless: the payload reads inside.
     * This is the check the hook already makes for every path operand (symlinks resolved when it decides), applied
     * to the tree find walks.
     */
    private boolean noLinkLeavesStartPaths(UnwrapPass.FindPaths f) {
        List<Arg> args = f.args();
        int from = f.from();
        List<Path> bases = f.bases();
        if (f.otherDirectory() || bases == null || bases.size() != 1) return false;
        List<String> starts = new ArrayList<>();
        for (int i = 1; i < from; i++) {
            Arg a = args.get(i);
            if (!a.isStatic() || a.glob() || a.brace()) return false;
            String t = a.text();
            if (t.equals("-L") || t.equals("-follow")) return false;
        }
        for (int i = 1; i < from; i++) {
            String t = args.get(i).text();
            if (t.equals("-H") || t.equals("-P")) continue;
            if (t.startsWith("-") || t.equals("(") || t.equals("!")) break;
            starts.add(t);
        }
        if (starts.isEmpty()) starts.add(".");
        // -name/-iname tests and-ed before the action: a link whose name fails one is never handed to the payload
        List<java.nio.file.PathMatcher> names = new ArrayList<>();
        boolean filters = true;
        for (int i = 1; i < from - 1; i++) {
            String t = args.get(i).text();
            if (List.of("-o", "-or", ",", "(", ")", "!", "-not").contains(t)) filters = false;
            if ((t.equals("-name") || t.equals("-iname")) && i + 1 < from - 1) {
                String pat = args.get(++i).text();
                // fnmatch's bracket expressions ([^a], [[:lower:]], [[.l.]]) are not Java's: such a name filters
                // nothing
                if (pat.indexOf('[') >= 0) filters = false;
                try {
                    names.add(java.nio.file.FileSystems.getDefault().getPathMatcher("glob:"
                            + (t.equals("-iname") ? caseless(pat) : pat)));
                } catch (RuntimeException e) {
                    filters = false;
                }
            }
        }
        if (!filters) names.clear();
        int[] seen = {0};
        for (String st : starts) {
            Path start;
            try {
                start = bases.get(0).resolve(st).normalize();
            } catch (java.nio.file.InvalidPathException e) {
                return false;
            }
            if (!java.nio.file.Files.isDirectory(start, java.nio.file.LinkOption.NOFOLLOW_LINKS)) continue;
            boolean[] ok = {true};
            try {
                java.nio.file.Files.walkFileTree(start, new java.nio.file.SimpleFileVisitor<>() {
                    @Override
                    public java.nio.file.FileVisitResult visitFile(Path file,
                            java.nio.file.attribute.BasicFileAttributes attrs) {
                        if (++seen[0] > MAX_TREE_SCAN) {
                            ok[0] = false;
                            return java.nio.file.FileVisitResult.TERMINATE;
                        }
                        boolean named = true;
                        for (java.nio.file.PathMatcher m : names) named &= m.matches(file.getFileName());
                        if (attrs.isSymbolicLink() && named) {
                            PathResolver.Result r = paths.resolve(Arg.literal(file.toString()), bases);
                            if (!r.status().equals(PathOperand.INSIDE)) {
                                ok[0] = false;
                                return java.nio.file.FileVisitResult.TERMINATE;
                            }
                        }
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult preVisitDirectory(Path d,
                            java.nio.file.attribute.BasicFileAttributes attrs) {
                        if (++seen[0] > MAX_TREE_SCAN) {
                            ok[0] = false;
                            return java.nio.file.FileVisitResult.TERMINATE;
                        }
                        return java.nio.file.FileVisitResult.CONTINUE;
                    }

                    @Override
                    public java.nio.file.FileVisitResult visitFileFailed(Path file, java.io.IOException e) {
                        ok[0] = false; // a directory find may read and the hook cannot
                        return java.nio.file.FileVisitResult.TERMINATE;
                    }
                });
            } catch (java.io.IOException | RuntimeException e) {
                return false;
            }
            if (!ok[0]) return false;
        }
        return true;
    }

    /** A glob that matches {@code pattern} regardless of case, as find's {@code -iname} does (ASCII letters). */
    private static String caseless(String pattern) {
        StringBuilder b = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            if (Character.isLetter(c) && c < 128) {
                b.append('[').append(Character.toLowerCase(c)).append(Character.toUpperCase(c)).append(']');
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    // ---- redirections -------------------------------------------------------------------------------------------

    /**
     * The {@link Redirect} of one redirection whose words the walk walked: a here-document, a descriptor
     * duplication or close, a file opened for reading or writing, classified against the allowed directories.
     *
     * @param r         the redirection
     * @param commandId its command, or -1 (a compound command's)
     * @param source    the text its spans refer to
     * @param state     the shell state where it is performed
     */
    void redirection(Redirection r, int commandId, String source, ShellState state) {
        if (r.hereDoc() != null) {
            sink.redirects.add(new Redirect(sink.id(), commandId, r.fd(), r.operator(), r.hereDoc().delimiter(),
                    false, false, false, false, false, null, false, null, false));
            return;
        }
        WordValue v = WordValue.of(r.target(), source);
        String op = r.operator();
        boolean dynamic = !v.isStatic() || v.glob() || v.braceExpansion();
        String text = v.text();
        boolean dup = false;
        boolean output = r.isOutput() && !op.equals("<<<");
        if (op.equals(">&") || op.equals("<&")) {
            if (!dynamic && (text.equals("-") || text.matches("[0-9]+-?"))) dup = true;
            if (op.equals("<&")) output = false;
        }
        if (!output && !dup && (op.equals("<") || op.equals("<>"))) {
            // A file opened for reading: classified like an output target, for the working-directory boundary.
            fileTarget(commandId, r.fd(), op, text, dynamic, false, state);
            return;
        }
        if (!output || dup) {
            sink.redirects.add(new Redirect(sink.id(), commandId, r.fd(), op, text, false, dynamic, dup, false,
                    false, null, false, null, false));
            return;
        }
        fileTarget(commandId, r.fd(), op, text, dynamic, true, state);
    }

    /**
     * Adds a {@link Redirect} for a file opened for writing or reading, classified against the allowed directories
     * (also a file a wrapper writes itself: {@code time -o FILE}).
     */
    void fileTarget(int commandId, String fd, String op, String text, boolean dynamic, boolean output,
                    ShellState state) {
        boolean directoryChanged = state.directoryChanged();
        // /dev/stdout, /dev/fd/N, /proc/self/...: whatever the descriptor names in the process that opens it
        if (!dynamic && PathResolver.processRelative(text)) dynamic = true;
        if (dynamic) {
            sink.redirects.add(new Redirect(sink.id(), commandId, fd, op, text, output, true, false, false, false,
                    null, false, null, targets.configurationError(), directoryChanged));
            return;
        }
        boolean safeDevice = RedirectTargets.SAFE_DEVICES.contains(text);
        boolean relative = !text.startsWith("/");
        RedirectTargets.Classified c = safeDevice ? new RedirectTargets.Classified(text, false, null)
                : targets.classify(text);
        sink.redirects.add(new Redirect(sink.id(), commandId, fd, op, text, output, c.resolvedPath() == null, false,
                safeDevice, relative, c.resolvedPath(), c.inside(), c.protectedComponent(),
                targets.configurationError(), directoryChanged));
    }
}
