package dev.compoundbash.oracle;

import dev.compoundbash.rules.Decider;
import dev.compoundbash.facts.Finding;
import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The execution oracle of issues 8 and 14: generated commands of every class of issue 14 ({@link OracleGenerator}),
 * each with a random rule set and permission mode, are judged in process ({@link HookRunner#decide}) and run under
 * the real {@code bash} inside bubblewrap (read-only root, no network, a tmpfs {@code /tmp}, writable only the work
 * directory, a directory beyond it and the recordings). Every external command name resolves on {@code PATH} to a
 * shim that records its argv and exits 0 (the shims of the path-checked readers open the files they are given, the
 * {@code touch} shim creates them); the wrappers ({@code xargs find timeout nice nohup stdbuf env script flock sh
 * bash}) are the real programs, so what they run is recorded too. Decoys (see {@link OracleGenerator}) are reached
 * only through a changed PATH, a start-up file, a script file or run-time text.
 *
 * <p>What the oracle sees: every {@code execve} of a name found through {@code PATH}, and, where {@code strace} is
 * installed, every file the command's processes opened, created or removed ({@link ExecTrace}). What it cannot see:
 * shell builtins ({@code echo cd printf test read ...}), functions and keywords, which run inside bash without an
 * exec; they are judged by the hook's tiers, not by this oracle.
 *
 * <p>Checks:
 * <ul>
 * <li><b>allow runs only approved commands</b>: every recorded argv is the argv of a sub-command the hook approved
 *     (up to the arguments xargs appends, find's {@code {}} and words only known at run time);</li>
 * <li><b>allow writes only where the mode lets it</b>: no file written into {@code .git} or {@code .claude}; no
 *     file written by the shell (a redirection) in default mode (unless approveWritesInDefaultMode), nor outside the
 *     working and additional directories in any mode; no file outside them written by a program Claude Code checks
 *     itself (a top-level command, or the payload of a wrapper it looks through);</li>
 * <li><b>allow reads nothing beyond the boundary</b>: no process opened a file of {@code ../outside} (outside the
 *     additional directories), of the home directory, or the decoys {@code /etc/hostname}, {@code /etc/profile},
 *     {@code /etc/bash.bashrc};</li>
 * <li><b>a command a deny rule names never runs without a deny</b>: a recorded argv that a deny rule matches
 *     ({@link DenyMatch}, global options removed) under an allow is a failure, and under ask or defer too when the
 *     hook read that very argv with every word known (it saw the command and did not deny it);</li>
 * <li><b>deny names what runs</b> (the base and constant classes, where control flow reaches every command): a
 *     denied sub-command really ran; elsewhere a deny bash never reached is counted, not failed.</li>
 * </ul>
 * Cases run in the sandbox: every allow and deny, and every ask and defer of a class other than the base one under a
 * rule set with deny rules. A command of a decoy code file run by a code runner a user's allow rule approved
 * ({@code Bash(bash *)} approving {@code bash script.sh}, as in Claude Code) is the user's rule, counted, not failed.
 * Outcomes and failures are counted per class in {@code target/oracle-stats.properties} and
 * {@code target/oracle-classes.md}; failures go to {@code target/oracle-mismatches.txt}, mismatches of a known gap
 * being fixed elsewhere ({@link KnownGap}) to {@code target/oracle-known-gaps.txt} ({@code -Doracle.noKnownGaps=true}
 * fails them too). Budget {@code
 * -Doracle.commands} (2,000 in {@code mvn test}, set in pom.xml; {@code -Poracle} and {@code -Pfuzz} 100,000), seed {@code -Doracle.seed}, classes
 * {@code -Doracle.classes=a,b}, shell {@code -Doracle.replica=bash|zsh} (each command runs in the replica of Claude
 * Code's shell, {@link ClaudeShellReplica}, and is judged for that shell; default: plain {@code bash -c}). Skipped when
 * bubblewrap cannot run here.
 */
class ExecutionOracleTest {
    static final String[] SHIMMED = {"git", "grep", "curl", "rm", "npm", "ls", "cat", "wc", "sort", "head", "sed",
            "make", "mkdir", "touch", "jq", "node"};
    static final String[] WRAPPERS = {"xargs", "find", "timeout", "nice", "nohup", "stdbuf", "sh", "bash", "env",
            "script", "flock"};
    /** Shims that open the files they are given, as the path-checked readers do (the value: pattern words skipped). */
    static final Map<String, Integer> READERS = Map.of("cat", 0, "head", 0, "wc", 0, "sort", 0, "ls", 0,
            "grep", 1, "sed", 1, "jq", 1);
    static final int BATCH = 500;
    /** Prefix of argv[0] in a recording of a decoy program (./NAME or ./0/NAME). */
    static final String DECOY = "decoy:";
    /** Decoy directories: PATH=0 (xargs' slot), and the descriptor numbers {NAME}> assigns. */
    static final List<String> DECOY_DIRS = List.of("0", "10", "11", "12");
    /** What the decoy start-up files and scripts run: a shim, with an argument naming the file. */
    static final String[] MODES = {"default", "default", "default", "acceptEdits", "acceptEdits", "plan",
            "bypassPermissions"};

    static boolean bwrapWorks() {
        try {
            Process p = new ProcessBuilder("bwrap", "--ro-bind", "/", "/", "--unshare-all", "--die-with-parent",
                    "--dev", "/dev", "--proc", "/proc", "true").redirectErrorStream(true).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    record Case(int index, String command, PermissionSettings settings, Decider.Verdict verdict) {
    }

    /** A generated case as the oracle judges it: class, mode, and the verdict's case. */
    record Judged(OracleGenerator.Generated generated, String mode, Case c) {
    }

    /** The sandbox's fixed layout: the work and outside directories the hook judges against, and the tools. */
    record Layout(Path base, Path shims, Path real, Path work, Path outside, Path home, Path etc, boolean trace,
                  ClaudeShellReplica replica) {
        /** The same layout running its commands in {@code replica} (Claude Code's shell), or in plain bash (null). */
        Layout in(ClaudeShellReplica replica) {
            return new Layout(base, shims, real, work, outside, home, etc, trace, replica);
        }
    }

    /** Counts of one class. */
    static final class ClassCount {
        int generated, allow, ask, deny, defer, sandboxed, mismatches, knownGaps, denyUnreached, denyOnlyAtRunTime,
                userRuleRuns;

        void outcome(String o) {
            switch (o) {
                case "allow" -> allow++;
                case "ask" -> ask++;
                case "deny" -> deny++;
                default -> defer++;
            }
        }
    }

    @Test
    void everyAllowRunsOnlyApprovedCommandsAndEveryDenyRuns() throws Exception {
        Assumptions.assumeTrue(bwrapWorks(), "bubblewrap cannot run here");
        int total = Integer.getInteger("oracle.commands", 2_000);
        Files.createDirectories(Path.of("target"));
        Files.deleteIfExists(Path.of("target/oracle-mismatches.txt"));
        Files.deleteIfExists(Path.of("target/oracle-known-gaps.txt"));
        long seed = Long.getLong("oracle.seed", System.nanoTime());
        Random r = new Random(seed);
        Path base = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "exec-oracle-");
        try {
            Layout lay = layout(base);
            // -Doracle.replica=bash|zsh: run every command the way Claude Code runs it (its snapshot, eval, stdin
            // from /dev/null, bfs and ugrep; zsh with its setopts), and judge it for that shell (issue 19)
            String replica = System.getProperty("oracle.replica", "");
            if (!replica.isEmpty()) {
                Assumptions.assumeTrue(ClaudeShellReplica.available(replica), replica + " is not installed");
                lay = lay.in(ClaudeShellReplica.create(replica, ClaudeShellReplica.UserConfig.REPRESENTATIVE, base));
            }
            run(total, seed, r, lay);
        } finally {
            if (!Boolean.getBoolean("oracle.keep")) deleteTree(base);
        }
    }

    /**
     * The generator produces every class, and bash reads what it produces: 150 commands of each class (mixed and in
     * contexts, as the oracle draws them) are checked with {@code bash -n} (bash(1): read commands but do not run
     * them); a class whose commands bash mostly rejects would prove nothing about its construct. The shares go to
     * {@code target/oracle-generator.properties}.
     */
    @Test
    void everyClassIsProducedAndBashReadsIt() throws Exception {
        Assumptions.assumeTrue(Files.isExecutable(Path.of("/bin/bash")), "no bash");
        Files.createDirectories(Path.of("target"));
        Path dir = Files.createTempDirectory(Path.of("target").toAbsolutePath(), "oracle-syntax-");
        try {
            OracleGenerator all = new OracleGenerator("/nonexistent/outside");
            Map<String, List<String>> byClass = new LinkedHashMap<>();
            for (String c : all.classNames()) byClass.put(c, new ArrayList<>());
            Random r = new Random(Long.getLong("oracle.seed", 14L));
            int per = 150;
            for (int guard = 0; guard < 200 * per * byClass.size()
                    && byClass.values().stream().anyMatch(l -> l.size() < per); guard++) {
                OracleGenerator.Generated g = all.generate(r);
                List<String> l = byClass.get(g.cls());
                if (l.size() < per) l.add(g.command());
            }
            int n = 0;
            Map<String, String> fileClass = new LinkedHashMap<>();
            for (var e : byClass.entrySet()) {
                assertThat(e.getValue()).as("commands of class " + e.getKey()).hasSize(per);
                for (String c : e.getValue()) {
                    String f = "c" + (n++);
                    Files.writeString(dir.resolve(f), c + "\n");
                    fileClass.put(f, e.getKey());
                }
            }
            Process p = new ProcessBuilder("/bin/bash", "-c", "cd \"$1\" && for f in c*; do /bin/bash -n \"$f\" "
                    + "2>/dev/null || echo \"$f\"; done", "check", dir.toString()).redirectErrorStream(true).start();
            String rejected = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            Map<String, Integer> bad = new LinkedHashMap<>();
            for (String c : byClass.keySet()) bad.put(c, 0);
            for (String f : rejected.split("\n")) if (!f.isBlank()) bad.merge(fileClass.get(f.trim()), 1, Integer::sum);
            StringBuilder props = new StringBuilder("perClass=" + per + "\n");
            for (var e : bad.entrySet()) props.append("class.").append(e.getKey()).append(".bashRejects=")
                    .append(e.getValue()).append('\n');
            Files.writeString(Path.of("target/oracle-generator.properties"), props);
            for (var e : bad.entrySet()) {
                assertThat(e.getValue()).as("commands of class " + e.getKey() + " bash -n rejects (of " + per + ")")
                        .isLessThanOrEqualTo(per / 10);
            }
        } finally {
            deleteTree(dir);
        }
    }

    private void run(int total, long seed, Random r, Layout lay) throws Exception {
        long t0 = System.nanoTime();
        RuleEngine engine = RuleEngine.load(List.of());
        HookLog quiet = HookLog.open(Map.of(), "oracle");
        OracleGenerator gen = new OracleGenerator(lay.outside().toString());
        Map<String, ClassCount> counts = new LinkedHashMap<>();
        for (String c : gen.classNames()) counts.put(c, new ClassCount());
        List<String> mismatches = new ArrayList<>(), gaps = new ArrayList<>();
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(
                Integer.getInteger("oracle.sandboxes", 3));
        List<java.util.concurrent.Future<Path>> runs = new ArrayList<>();
        List<List<Judged>> batches = new ArrayList<>();
        List<Judged> batch = new ArrayList<>();
        long judging = 0;
        // Batches go to the sandboxes as soon as they are judged: the JVM judges while bash runs.
        for (int i = 0; i < total; i++) {
            long j0 = System.nanoTime();
            OracleGenerator.Generated g = gen.generate(r);
            String mode = MODES[r.nextInt(MODES.length)];
            List<String> additional = r.nextInt(5) == 0 ? List.of(lay.outside().resolve("shared").toString()) : List.of();
            PermissionSettings ps = gen.rules(r, g.cls(), additional);
            if (r.nextInt(10) == 0) ps = ps.withWritesInDefaultMode(true);
            Decider.Verdict v = HookRunner.decide(new Decider.Call(g.command(), lay.work().toString(), mode, ps, null,
                    lay.home().toString(), lay.replica() == null ? null : lay.replica().shell()), engine, quiet);
            judging += System.nanoTime() - j0;
            ClassCount cc = counts.get(g.cls());
            cc.generated++;
            cc.outcome(v.outcome());
            boolean sandbox = v.outcome().equals("allow") || v.outcome().equals("deny")
                    || (!g.cls().equals(OracleGenerator.BASE) && !ps.deny().isEmpty());
            if (sandbox) batch.add(new Judged(g, mode, new Case(i, g.command(), ps, v)));
            if (batch.size() == BATCH || (i == total - 1 && !batch.isEmpty())) {
                List<Judged> b = batch;
                int number = batches.size();
                batches.add(b);
                runs.add(pool.submit(() -> runTraced(b, lay, number)));
                batch = new ArrayList<>();
            }
        }
        long sandboxWait0 = System.nanoTime();
        int ran = 0;
        for (int b = 0; b < batches.size(); b++) {
            Path recs = runs.get(b).get();
            for (Judged j : batches.get(b)) {
                ran++;
                ClassCount cc = counts.get(j.generated().cls());
                cc.sandboxed++;
                String problem = check(j, recs, lay, cc);
                if (problem != null) {
                    String line = ("[" + j.generated().cls() + "] " + problem).replace("\n", "\\n").replace("\t", "\\t");
                    KnownGap gap = KnownGap.of(j.generated().cls(), line);
                    if (gap != null) {
                        cc.knownGaps++;
                        gaps.add("(" + gap.id() + ") " + line);
                    } else {
                        cc.mismatches++;
                        mismatches.add(line);
                    }
                }
            }
            deleteTree(recs);
        }
        pool.shutdown();
        long t1 = System.nanoTime();
        writeStats(seed, total, ran, counts, mismatches, gaps.size(), lay.trace(), (t1 - t0) / 1_000_000, judging / 1_000_000,
                (t1 - sandboxWait0) / 1_000_000);
        if (!mismatches.isEmpty()) Files.write(Path.of("target/oracle-mismatches.txt"), mismatches);
        Files.write(Path.of("target/oracle-known-gaps.txt"), gaps);
        assertThat(mismatches).as("seed " + seed).isEmpty();
    }

    /**
     * Writes an executable that records its name and arguments (NUL-separated) into a new file of
     * {@code $ORACLE_REC} whose name starts with {@code prefix}, and exits 0.
     */
    static void recorder(Path file, String prefix) throws IOException {
        recorder(file, prefix, 0);
    }

    /** {@link #recorder(Path, String)} exiting with {@code status} (watch -e stops at a failing command). */
    static void recorder(Path file, String prefix, int status) throws IOException {
        shim(file, prefix, status, "");
    }

    /**
     * Writes a recording shim that then runs {@code action} (bash code over its arguments). It runs as {@code bash
     * -p}, so neither {@code BASH_ENV} nor functions exported by the command under test reach it.
     */
    static void shim(Path file, String prefix, int status, String action) throws IOException {
        Files.writeString(file, "#!/bin/bash -p\nprintf '%s\\0' \"${0##*/}\" \"$@\" > \"$ORACLE_REC/" + prefix
                + "$$.$RANDOM$RANDOM\"\n" + action + "exit " + status + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** The action of a reader shim: open every argument that names a file, after {@code skip} operand words. */
    static String readerAction(int skip) {
        return "s=" + skip + "; for a; do case $a in -*) ;; *) if [ $s -gt 0 ]; then s=$((s-1)); else "
                + "[ -e \"$a\" ] && { : < \"$a\"; } 2>/dev/null; fi;; esac; done\n";
    }

    /** The action of the touch shim: create every operand, as touch(1) does. */
    static final String TOUCH_ACTION = "for a; do case $a in -*) ;; *) { : >> \"$a\"; } 2>/dev/null;; esac; done\n";

    /**
     * Runs every case of a batch in one sandbox (the recordings of case i land in {@code recs/i}), with the given namespace options of bwrap ({@code --unshare-all},
     * or for programs that must change groups, as root, the namespaces without a user namespace plus
     * {@code --cap-add ALL}).
     */
    static void runBatch(List<Case> cases, Path shims, Path real, Path work, Path recs, List<String> namespaces)
            throws Exception {
        if (cases.isEmpty()) return;
        Files.writeString(work.resolve("a.txt"), "one\ntwo\n");
        // Decoys: a program of every shimmed name in ./ and ./0/, which bash runs once PATH is unset or "0". They
        // record like the shims, in files named alt-*: the hook must never approve a command that reaches one.
        Files.createDirectories(work.resolve("0"));
        for (String n : SHIMMED) {
            for (Path d : List.of(work, work.resolve("0"))) {
                recorder(d.resolve(n), "alt-");
            }
        }
        StringBuilder input = new StringBuilder();
        for (Case c : cases) {
            Files.createDirectories(recs.resolve(String.valueOf(c.index())));
            input.append(c.index()).append('\0').append(c.command()).append('\0');
        }
        Path in = recs.resolve("commands");
        Files.writeString(in, input, StandardCharsets.UTF_8);
        // bash does not wait for a process substitution (nor for an `&` job), so a case is over only when every
        // process of it has exited: timeout(1) makes itself a process-group leader and non-interactive bash keeps
        // its children in that group, so the driver waits until /proc lists no process of the group (killing the
        // group after 5 s). Without this a command inside <(...) could be cut off by the next case or the end of
        // the sandbox, and the deny check could not require it to have run.
        String driver = WAITGROUP
                + "cd \"$1\"; while IFS= read -r -d '' i && IFS= read -r -d '' c; do "
                + "ORACLE_REC=\"$2/$i\" PATH=\"$3:$4\" /usr/bin/timeout -s KILL 5 /bin/bash -c \"$c\" "
                + "</dev/null >/dev/null 2>&1 & g=$!; wait $g; waitgroup $g; done < \"$2/commands\"";
        List<String> bwrap = new ArrayList<>(List.of("bwrap", "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--dev", "/dev",
                "--proc", "/proc", "--bind", work.toString(), work.toString(), "--bind", recs.toString(),
                recs.toString(), "--ro-bind", shims.toString(), shims.toString(), "--ro-bind", real.toString(),
                real.toString(),
                // Claude Code runs commands with the user's environment, where SHELL is exported (flock -c, script
                // and others run their command through it); the CI's environment may lack it, so fix it here
                "--setenv", "SHELL", "/bin/bash"));
        bwrap.addAll(namespaces);
        bwrap.addAll(List.of("--die-with-parent", "--new-session",
                "/bin/bash", "-c", driver, "driver", work.toString(), recs.toString(), shims.toString(),
                real.toString()));
        Process p = new ProcessBuilder(bwrap).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(p.waitFor(30L * cases.size() + 60, TimeUnit.SECONDS)).isTrue();
    }

    // ---- the sandbox of the grown oracle --------------------------------------------------------------------------

    /**
     * Creates the layout under {@code base}: shims, links to the real wrappers, the work directory the hook judges
     * against (its decoys: see {@link OracleGenerator}), the directory beyond it, a home directory inside that one,
     * and the decoy start-up files bound over {@code /etc/profile} and {@code /etc/bash.bashrc}.
     */
    static Layout layout(Path base) throws IOException {
        Path shims = Files.createDirectories(base.resolve("shims"));
        Path real = Files.createDirectories(base.resolve("real"));
        for (String n : SHIMMED) {
            String action = READERS.containsKey(n) ? readerAction(READERS.get(n)) : n.equals("touch") ? TOUCH_ACTION : "";
            shim(shims.resolve(n), "", 0, action);
        }
        for (String n : WRAPPERS) {
            Path target = WrapperOptionOracleTest.programPath(n);
            if (target != null) Files.createSymbolicLink(real.resolve(n), target);
        }
        Path work = Files.createDirectories(base.resolve("work"));
        Path outside = Files.createDirectories(base.resolve("outside"));
        Path home = Files.createDirectories(outside.resolve("home"));
        Files.writeString(work.resolve("a.txt"), "one\ntwo\n");
        for (String d : DECOY_DIRS) Files.createDirectories(work.resolve(d));
        for (String n : SHIMMED) {
            recorder(work.resolve(n), "alt-");
            for (String d : DECOY_DIRS) recorder(work.resolve(d).resolve(n), "alt-");
        }
        Files.writeString(work.resolve("script.sh"), "curl from-script\n");
        Files.writeString(work.resolve("rc.sh"), "curl from-rc\n");
        Files.writeString(work.resolve("list.txt"), "a\nx;curl from-list\n$(curl from-list-subst)\n");
        Path names = Files.createDirectories(work.resolve("names"));
        Files.writeString(names.resolve("plain.txt"), "");
        Files.writeString(names.resolve("q;curl from-name;.txt"), "");
        Files.writeString(names.resolve("$(curl from-name-subst).txt"), "");
        Files.createDirectories(work.resolve("sub"));
        Files.writeString(work.resolve("sub/b.txt"), "b\n");
        Files.createDirectories(work.resolve(".git/hooks"));
        Files.writeString(work.resolve(".git/config"), "");
        Files.createDirectories(work.resolve(".claude"));
        Files.createSymbolicLink(work.resolve("link-out"), Path.of("../outside/secret.txt"));
        Files.writeString(outside.resolve("secret.txt"), "secret\n");
        Files.writeString(outside.resolve("script.sh"), "curl from-outside-script\n");
        Files.createDirectories(outside.resolve("shared"));
        Files.writeString(outside.resolve("shared/f.txt"), "f\n");
        for (String rc : List.of(".bashrc", ".bash_profile", ".bash_login", ".profile")) {
            Files.writeString(home.resolve(rc), "curl from-home" + rc + "\n");
        }
        Path etc = Files.createDirectories(base.resolve("etc"));
        Files.writeString(etc.resolve("profile"), "curl from-etc-profile\n");
        Files.writeString(etc.resolve("bash.bashrc"), "curl from-etc-bashrc\n");
        // the replica's grep function runs ugrep (recorded, then read back as grep: ClaudeShellReplica.asCalled), its
        // find function bfs (a real wrapper, like find)
        shim(shims.resolve("ugrep"), "", 0, readerAction(1 + ClaudeShellReplica.UGREP_PREFIX.size()));
        Path bfs = ClaudeShellReplica.find("bfs");
        if (bfs != null) Files.createSymbolicLink(real.resolve("bfs"), bfs);
        return new Layout(base, shims, real, work, outside, home, etc, ExecTrace.available(), null);
    }

    /**
     * Runs one batch in one sandbox: copies of the work and outside directories are bound over the paths the hook
     * judged against (so both see the same absolute paths), each case runs under {@code timeout} (and strace, where
     * installed) with a clean environment, and its recordings land in {@code rec-N/i}, its trace in
     * {@code rec-N/trace-i}.
     *
     * @return the recordings directory
     */
    static Path runTraced(List<Judged> batch, Layout lay, int number) throws Exception {
        Path recs = Files.createDirectories(lay.base().resolve("rec-" + number));
        Path work = lay.base().resolve("work-" + number), outside = lay.base().resolve("outside-" + number);
        copyTree(lay.work(), work);
        copyTree(lay.outside(), outside);
        StringBuilder input = new StringBuilder();
        for (Judged j : batch) {
            int i = j.c().index();
            Files.createDirectories(recs.resolve(String.valueOf(i)));
            Files.createDirectories(recs.resolve("trace-" + i));
            String c = j.c().command();
            input.append(i).append('\0').append(lay.replica() == null ? c : lay.replica().script(c, ClaudeShellReplica.CWD_FILE))
                    .append('\0');
        }
        Files.writeString(recs.resolve("commands"), input, StandardCharsets.UTF_8);
        String shell = lay.replica() == null ? "/bin/bash" : lay.replica().program().toString();
        String strace = lay.trace() ? "/usr/bin/strace " + String.join(" ", ExecTrace.STRACE.stream()
                .map(o -> "'" + o + "'").toList()) + " -o \"$2/trace-$i/t\" " : "";
        String driver = WAITGROUP
                + "cd \"$1\"; while IFS= read -r -d '' i && IFS= read -r -d '' c; do "
                + "ORACLE_REC=\"$2/$i\" HOME=\"$5\" PATH=\"$3:$4\" /usr/bin/timeout -s KILL 5 " + strace
                + shell + " -c \"$c\" </dev/null >/dev/null 2>&1 & g=$!; wait $g; waitgroup $g; done < \"$2/commands\"";
        List<String> bwrap = new ArrayList<>(List.of("bwrap", "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--dev", "/dev",
                "--proc", "/proc", "--bind", work.toString(), lay.work().toString(), "--bind", outside.toString(),
                lay.outside().toString(), "--bind", recs.toString(), recs.toString(), "--ro-bind",
                lay.shims().toString(), lay.shims().toString(), "--ro-bind", lay.real().toString(),
                lay.real().toString(),
                // Claude Code runs commands with the user's environment, where SHELL is exported (flock -c, script
                // and others run their command through it); the CI's environment may lack it, so fix it here
                "--setenv", "SHELL", "/bin/bash"));
        for (String f : List.of("profile", "bash.bashrc")) {
            if (Files.exists(Path.of("/etc", f))) {
                bwrap.addAll(List.of("--ro-bind", lay.etc().resolve(f).toString(), "/etc/" + f));
            }
        }
        bwrap.addAll(List.of("--unshare-all", "--die-with-parent", "--new-session", "/bin/bash", "-c", driver, "driver",
                lay.work().toString(), recs.toString(), lay.shims().toString(), lay.real().toString(),
                lay.home().toString()));
        ProcessBuilder pb = new ProcessBuilder(bwrap).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/bin:/bin");
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        assertThat(p.waitFor(30L * batch.size() + 60, TimeUnit.SECONDS)).isTrue();
        deleteTree(work);
        deleteTree(outside);
        return recs;
    }

    /**
     * bash does not wait for a process substitution (nor for an `&` job), so a case is over only when every process
     * of it has exited: timeout(1) makes itself a process-group leader and non-interactive bash keeps its children in
     * that group, so the driver waits until /proc lists no process of the group (killing the group after 5 s).
     */
    static final String WAITGROUP = "waitgroup() { local g=$1 n=0 f l any; while :; do any=; for f in /proc/[0-9]*/stat; do "
            + "read -r l < \"$f\" 2>/dev/null || continue; l=${l##*) }; set -- $l; "
            + "if [ \"$3\" = \"$g\" ]; then any=1; break; fi; done; [ -z \"$any\" ] && return; "
            + "n=$((n+1)); if [ $n -ge 500 ]; then kill -KILL -- -\"$g\" 2>/dev/null; return; fi; "
            + "sleep 0.01; done; }; ";

    /** Every check of one case (see the class comment); null when it passes. */
    static String check(Judged j, Path recs, Layout lay, ClassCount cc) throws IOException {
        Case c = j.c();
        String outcome = c.verdict().outcome();
        List<List<String>> recorded = recordings(recs.resolve(String.valueOf(c.index())));
        String where = " | mode " + j.mode() + (c.settings().writesInDefaultMode() ? " (approveWritesInDefaultMode)" : "")
                + (c.settings().additionalDirectories().isEmpty() ? "" : " additionalDirectories "
                + c.settings().additionalDirectories());
        String missed = checkDenyComplete(c, recorded, cc);
        if (missed != null) return missed + where;
        if (outcome.equals("allow")) {
            String problem = checkAllow(c, recorded, cc);
            if (problem != null) return problem + where;
            if (lay.trace()) {
                List<ExecTrace.Access> accesses = ExecTrace.read(recs.resolve("trace-" + c.index()));
                problem = checkFiles(j, accesses, lay);
                if (problem != null) return problem + "; command: " + c.command() + "; rules: " + c.settings().allow()
                        + " deny " + c.settings().deny() + where;
            }
        } else if (outcome.equals("deny")) {
            String problem = checkDeny(c, recorded);
            if (problem != null) {
                if (j.generated().strictDeny()) return problem + where;
                cc.denyUnreached++;
            }
        }
        return null;
    }

    /**
     * A recorded command a deny rule names: under allow always a failure; under ask or defer a failure when the hook
     * read that very argv with every word known (then it saw the command and still did not deny it); otherwise the
     * command was only known at run time (data on stdin, a file's content), which is counted.
     */
    static String checkDenyComplete(Case c, List<List<String>> recorded, ClassCount cc) {
        String outcome = c.verdict().outcome();
        if (outcome.equals("deny")) return null;
        for (List<String> argv : recorded) {
            String rule = DenyMatch.deniedBy(argv, c.settings().deny());
            if (rule == null) continue;
            List<String> plain = DenyMatch.plain(argv);
            boolean seen = c.verdict().judgement() != null && c.verdict().judgement().facts().subCommands().stream()
                    .anyMatch(s -> !s.isDynamicName() && !s.isDynamicArgs() && !s.isArgumentsAppended()
                            && s.getArgs().stream().allMatch(dev.compoundbash.facts.Arg::known)
                            && baseArgv(s).equals(plain));
            if (outcome.equals("allow") && !seen && fromCodeFile(argv) && userApprovedCodeRunner(c.verdict())) {
                cc.denyOnlyAtRunTime++;
                continue;
            }
            if (outcome.equals("allow") || seen) {
                return outcome.toUpperCase() + " of a command the deny rule " + rule + " names: ran " + argv
                        + (seen ? " (the hook read it)" : "") + "; command: " + c.command() + "; rules: "
                        + c.settings().allow() + " deny " + c.settings().deny() + "; reason: " + c.verdict().reason();
            }
            cc.denyOnlyAtRunTime++;
        }
        return null;
    }

    private static List<String> baseArgv(SubCommand s) {
        List<String> argv = new ArrayList<>(s.getArgv());
        argv.set(0, s.getBaseName());
        return argv;
    }

    /** The wrappers Claude Code looks through before its own path check (names.json, measured). */
    static final java.util.Set<String> STRIPPED_WRAPPERS = java.util.Set.of("time", "nohup", "timeout", "nice",
            "stdbuf", "env", "command", "builtin", "noglob");
    /** Files outside the boundary that the oracle watches besides ../outside and the home directory. */
    static final List<String> WATCHED = List.of("/etc/hostname", "/etc/profile", "/etc/bash.bashrc");

    /** The file checks of an allowed case (see the class comment); null when they pass. */
    static String checkFiles(Judged j, List<ExecTrace.Access> accesses, Layout lay) {
        Case c = j.c();
        String mode = j.mode();
        boolean writesAsk = mode.equals("plan") || mode.equals("dontAsk")
                || (mode.equals("default") && !c.settings().writesInDefaultMode());
        for (ExecTrace.Access a : accesses) {
            String path = ExecTrace.normalise(a.path());
            if (!a.write()) {
                boolean watched = WATCHED.contains(path) || (under(path, lay.outside().toString())
                        && !insideAllowed(path, lay, c.settings()));
                if (watched) {
                    return "ALLOW but " + a.program() + " read " + path + ", outside the working directories ("
                            + a.line() + ")";
                }
                continue;
            }
            if (!path.startsWith("/") && !path.contains(".git") && !path.contains(".claude")) continue;
            if (ignoredWrite(path, lay)) continue;
            if (protectedPath(path)) {
                return "ALLOW but " + a.program() + " wrote " + path + ", inside a .git or .claude directory ("
                        + a.line() + ")";
            }
            boolean shell = a.program().equals("bash") || a.program().equals("sh") || a.program().equals("dash");
            boolean inside = insideAllowed(path, lay, c.settings());
            if (shell && writesAsk) {
                return "ALLOW but the shell wrote " + path + " in " + mode + " mode, which asks before writes ("
                        + a.line() + ")";
            }
            if (shell && !inside) {
                return "ALLOW but the shell wrote " + path + ", outside the working directories (" + a.line() + ")";
            }
            if (!shell && !inside && checkedByClaudeCode(c, a.program())) {
                return "ALLOW but " + a.program() + " (a command Claude Code checks itself) wrote " + path
                        + ", outside the working directories (" + a.line() + ")";
            }
        }
        return null;
    }

    /** Writes that are no file of the boundary: devices, /proc, and the oracle's own recordings. */
    private static boolean ignoredWrite(String path, Layout lay) {
        return path.equals("/dev/null") || path.equals(ClaudeShellReplica.CWD_FILE)
                || (path.startsWith("/tmp/zsh") && path.indexOf('/', 5) < 0)   // zsh's here-document files ($TMPPREFIX)
                || path.startsWith("/dev/pts/") || path.equals("/dev/ptmx")
                || path.equals("/dev/tty") || path.startsWith("/proc/")
                || path.startsWith(lay.base().resolve("rec-").toString());
    }

    static boolean protectedPath(String path) {
        for (String part : path.split("/")) if (part.equals(".git") || part.equals(".claude")) return true;
        return false;
    }

    private static boolean under(String path, String dir) {
        return path.equals(dir) || path.startsWith(dir + "/");
    }

    private static boolean insideAllowed(String path, Layout lay, PermissionSettings ps) {
        if (under(path, lay.work().toString())) return true;
        for (String d : ps.additionalDirectories()) if (under(path, d)) return true;
        return false;
    }

    /** Whether an approved sub-command of this name is one Claude Code path-checks itself. */
    private static boolean checkedByClaudeCode(Case c, String program) {
        var facts = c.verdict().judgement().facts();
        for (SubCommand s : withFinding(c.verdict(), Finding.APPROVE)) {
            if (!s.getBaseName().equals(program)) continue;
            if (s.isTopLevel() && !s.getRole().equals("payload")) return true;
            for (dev.compoundbash.facts.Wrapper w : facts.wrappers()) {
                if (w.getPayloadId() != s.getId()) continue;
                SubCommand wc = facts.subCommand(w.getCommandId());
                if (wc != null && wc.isTopLevel() && STRIPPED_WRAPPERS.contains(wc.getBaseName())) return true;
            }
        }
        return false;
    }

    private void writeStats(long seed, int total, int ran, Map<String, ClassCount> counts, List<String> mismatches,
                            int gaps, boolean traced, long wallMs, long judgeMs, long waitMs) throws IOException {
        int allow = 0, deny = 0;
        StringBuilder props = new StringBuilder();
        StringBuilder table = new StringBuilder("| class | generated | allow | ask | deny | defer | run in bash | "
                + "mismatches | known gaps | deny not reached | deny only at run time | runs under a user's rule |\n"
                + "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        for (var e : counts.entrySet()) {
            ClassCount k = e.getValue();
            allow += k.allow;
            deny += k.deny;
            String p = "class." + e.getKey() + ".";
            props.append(p).append("generated=").append(k.generated).append('\n').append(p).append("allow=")
                    .append(k.allow).append('\n').append(p).append("ask=").append(k.ask).append('\n').append(p)
                    .append("deny=").append(k.deny).append('\n').append(p).append("defer=").append(k.defer)
                    .append('\n').append(p).append("runInSandbox=").append(k.sandboxed).append('\n').append(p)
                    .append("mismatches=").append(k.mismatches).append('\n').append(p).append("knownGaps=")
                    .append(k.knownGaps).append('\n').append(p).append("denyNotReached=").append(k.denyUnreached)
                    .append('\n').append(p).append("denyOnlyAtRunTime=").append(k.denyOnlyAtRunTime).append('\n')
                    .append(p).append("runsUnderUserRule=").append(k.userRuleRuns).append('\n');
            table.append("| ").append(e.getKey()).append(" | ").append(k.generated).append(" | ").append(k.allow)
                    .append(" | ").append(k.ask).append(" | ").append(k.deny).append(" | ").append(k.defer)
                    .append(" | ").append(k.sandboxed).append(" | ").append(k.mismatches).append(" | ").append(k.knownGaps)
                    .append(" | ").append(k.denyUnreached).append(" | ").append(k.denyOnlyAtRunTime).append(" | ")
                    .append(k.userRuleRuns).append(" |\n");
        }
        Path stats = Path.of("target/oracle-stats.properties");
        Files.writeString(stats, "seed=" + seed + "\ngenerated=" + total + "\nrunInSandbox=" + ran + "\nallow="
                + allow + "\ndeny=" + deny + "\nmismatches=" + mismatches.size() + "\nknownGaps=" + gaps + "\nfileChecks=" + traced
                + "\nwallMillis=" + wallMs + "\njudgeMillis=" + judgeMs + "\nsandboxWaitMillis=" + waitMs + "\n" + props);
        Files.writeString(Path.of("target/oracle-classes.md"), "seed " + seed + ", " + total + " commands, "
                + ran + " run in bash, " + mismatches.size() + " mismatches, " + gaps + " known gaps, file checks "
                + (traced ? "on (strace)" : "off (no strace)") + ", " + wallMs
                + " ms (judging " + judgeMs + " ms)\n\n" + table);
    }

    static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> walk = Files.walk(from)) {
            for (Path p : walk.toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isSymbolicLink(p)) Files.createSymbolicLink(t, Files.readSymbolicLink(p));
                else if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }

    static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return;
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
                if (!Files.isSymbolicLink(p)) p.toFile().setWritable(true);
                Files.deleteIfExists(p);
            }
        }
    }

    static List<List<String>> recordings(Path dir) throws IOException {
        List<List<String>> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.sorted().toList()) {
                // bytes that are not UTF-8 ($'\xbb') as the hook holds them (AnsiC.text: one stand-in per byte)
                String text = dev.compoundbash.shell.AnsiC.text(Files.readAllBytes(f));
                if (text.endsWith("\0")) text = text.substring(0, text.length() - 1);
                List<String> argv = new ArrayList<>(ClaudeShellReplica.asCalled(Arrays.asList(text.split("\0", -1))));
                // a decoy reached through a changed PATH: never the command the hook saw
                if (f.getFileName().toString().startsWith("alt-")) argv.set(0, DECOY + argv.get(0));
                out.add(argv);
            }
        }
        return out;
    }

    private static List<SubCommand> withFinding(Decider.Verdict v, String kind) {
        List<SubCommand> out = new ArrayList<>();
        for (SubCommand s : v.judgement().facts().subCommands()) {
            // A wrapper's own text may be denied (git run with configuration that may run code is a wrapper, and
            // Bash(git *) denies it as written); its approval only ever comes through its payloads.
            if (s.getRole().equals("wrapper") && !kind.equals(Finding.DENY)) continue;
            for (Finding f : v.judgement().evaluation().findings()) {
                if (f.getSubjectId() == s.getId() && f.getKind().equals(kind)) {
                    out.add(s);
                    break;
                }
            }
        }
        return out;
    }

    static String checkAllow(Case c, List<List<String>> recorded) {
        return checkAllow(c, recorded, null);
    }

    /**
     * Every recorded argv is one the hook approved; with {@code cc}, a command of a decoy code file run by a code
     * runner a user's allow rule approved is counted there instead ({@link #userApprovedCodeRunner}).
     */
    static String checkAllow(Case c, List<List<String>> recorded, ClassCount cc) {
        List<SubCommand> approved = withFinding(c.verdict(), Finding.APPROVE);
        boolean userRunner = cc != null && userApprovedCodeRunner(c.verdict());
        for (List<String> argv : recorded) {
            boolean ok = approved.stream().anyMatch(s -> ArgvMatch.matches(s, argv));
            if (!ok && userRunner && fromCodeFile(argv)) {
                cc.userRuleRuns++;
                continue;
            }
            if (!ok) {
                return "ALLOW but ran " + argv + " not approved; approved " + approved.stream()
                        .map(SubCommand::getArgv).toList() + "; command: " + c.command() + "; rules: "
                        + c.settings().allow() + " deny " + c.settings().deny();
            }
        }
        return null;
    }

    /**
     * Programs that run code the call's text does not hold: a script file, standard input, start-up files
     * (bash(1) INVOCATION), or a command they find at run time.
     */
    static final java.util.Set<String> CODE_RUNNERS = java.util.Set.of("bash", "sh", "dash", "source", ".",
            "script", "flock", "env", "xargs", "find", "timeout", "nice", "nohup", "stdbuf");

    /**
     * Whether the hook approved a code runner ({@link #CODE_RUNNERS}) because a user's allow rule names its text
     * ({@code Bash(bash *)} approves {@code bash script.sh}, as it does in Claude Code), without looking through
     * it: what the script file or start-up file then runs is what the user's rule approved.
     */
    static boolean userApprovedCodeRunner(Decider.Verdict v) {
        if (v.judgement() == null) return false;
        for (SubCommand s : v.judgement().facts().subCommands()) {
            if (s.getRole().equals("wrapper") || !CODE_RUNNERS.contains(s.getBaseName())) continue;
            for (Finding f : v.judgement().evaluation().findings()) {
                if (f.getSubjectId() == s.getId() && f.getKind().equals(Finding.APPROVE)
                        && "allow rule approves sub-command".equals(f.getRuleName())) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * Whether a recording is a command of one of the decoy code files (script.sh, rc.sh, the start-up files, the
     * script beyond the boundary), which name themselves in their first argument; the decoy data files (list.txt,
     * the file names) are data, never code a user's rule approved.
     */
    static boolean fromCodeFile(List<String> argv) {
        if (argv.size() < 2) return false;
        String a = argv.get(1);
        return a.startsWith("from-") && !a.startsWith("from-list") && !a.startsWith("from-name");
    }

    /**
     * A mismatch the oracle found that is a known gap of the hook, being fixed elsewhere: it is counted per class
     * and written to {@code target/oracle-known-gaps.txt}, not failed, so CI stays green while the production that
     * finds it stays in the generator. Each entry names the class, a pattern over the mismatch line and the reason.
     */
    record KnownGap(String id, String cls, java.util.regex.Pattern line, String reason) {
        static final List<KnownGap> ALL = List.of(
                // path boundaries (being fixed in parallel): the hook skips find's {} as a path operand, so a
                // reader given a symbolic link find found (./link-out -> ../outside/secret.txt) reads beyond the
                // working directory, and a writer given the files find found under . writes into .git
                new KnownGap("find-spliced-link-read", "*", java.util.regex.Pattern.compile(
                        "ALLOW but \\S+ read .*\"\\./[^\"]*link-out\".*; command: .*find .*\\{\\}"),
                        "path boundaries: a file find found (a link leading outside) read through {}"),
                new KnownGap("find-spliced-protected-write", "*", java.util.regex.Pattern.compile(
                        "ALLOW but \\S+ wrote \\S+, inside a \\.git or \\.claude directory \\(openat\\([^)]*\"\\./"
                                + "\\.(git|claude)/.*; command: .*find .*\\{\\}"),
                        "path boundaries: a file find found inside .git written through {}"),
                // path boundaries: a script a user's rule approves (Bash(source *), Bash(bash *)) read from beyond
                // the working directory (../outside/script.sh, ~/.bashrc)
                new KnownGap("script-read-outside", "*", java.util.regex.Pattern.compile(
                        "ALLOW but (bash|sh|zsh) read \\S+/outside/(script\\.sh|home/\\.\\w+),"),
                        "path boundaries: a script file beyond the working directory read by source/bash"),
                // deny matching through dynamic words (being fixed in parallel): a constant reached through a
                // default (${x:-push}), an array element, a word joined to literal text (${x}sh), a copy (y=$x);
                // and an assignment in a subshell or pipeline element taken to reach the later command
                // (x=push; (x=status); git $x runs git push, allowed as git status)
                new KnownGap("deny-through-dynamic-word", "*", java.util.regex.Pattern.compile(
                        "ALLOW of a command the deny rule .*; command: .*(\\$\\{\\w+:?[-=+]|\\$\\{\\w+\\[|"
                                + "\\$\\{\\w+\\}\\w|\\b\\w+=\\$[A-Za-z_]\\w*;|\\| \\w+=|[^$]\\(\\w+=)"),
                        "deny matching through dynamic words"),
                // quoting contexts (the word oracle's area, in progress): directly inside a command substitution
                // that is itself inside double quotes ("$( ... )", also in a ( ) within it; not in a nested
                // unquoted $( ), backquotes or a here-document), bash 5.2 reads $'...' in an unquoted ${x-word} as in
                // a double-quoted ${...} word: decoded and expanded again, so echo "$(echo ${x-$'\x24(id)'})" runs
                // id; the hook reads it as ANSI-C quoted text
                new KnownGap("ansi-c-in-dquoted-comsub", "*", java.util.regex.Pattern.compile(
                        "ALLOW but ran .*; command: .*\"\\$\\(.*\\$\\{\\w+:?[-=+?]\\$'"),
                        "quoting contexts: $'...' in ${x-word} inside \"$( )\" is decoded and expanded again"),
                // the same area, in the safe direction: an assignment in a subshell or pipeline element taken to
                // reach the later command, so a deny names a value that never runs
                new KnownGap("deny-subshell-assignment", "*", java.util.regex.Pattern.compile(
                        "DENY but no denied command ran: denied \\[\\[\\$\\w+.*; command: .*(\\(\\w+=|\\| \\w+=)"),
                        "deny matching through dynamic words (over-deny: a subshell's assignment)"));

        static KnownGap of(String cls, String line) {
            if (Boolean.getBoolean("oracle.noKnownGaps")) return null;
            for (KnownGap g : ALL) {
                if ((g.cls().equals("*") || g.cls().equals(cls)) && g.line().matcher(line).find()) return g;
            }
            return null;
        }
    }

    /** A sub-command whose text the hook judges although it may not run as written (see {@link #checkDeny}). */
    static boolean mayNotRunAsWritten(SubCommand s, dev.compoundbash.facts.Facts facts) {
        List<String> path = s.getContextPath();
        return path.contains(dev.compoundbash.facts.Context.STORED_CODE)
                || path.contains(dev.compoundbash.facts.Context.PROMPT_EXPANSION)
                || path.contains(dev.compoundbash.facts.Context.EVALUATED_NAME)
                || facts.variableWrites().stream().anyMatch(w -> w.precedes(s.getId())
                        && dev.compoundbash.rules.SafeEnvironment.changesWhatRuns(w.getName()));
    }

    static String checkDeny(Case c, List<List<String>> recorded) {
        List<SubCommand> deniedSubs = withFinding(c.verdict(), Finding.DENY);
        for (List<String> argv : recorded) {
            List<String> plain = new ArrayList<>(argv);
            // the denied name ran, though from a decoy directory
            if (plain.get(0).startsWith(DECOY)) plain.set(0, plain.get(0).substring(DECOY.length()));
            if (deniedSubs.stream().anyMatch(s -> ArgvMatch.matches(s, plain))) return null;
            // a denied sub-command whose name is only known at run time (x='git push'; $x): what ran is what a deny
            // rule names
            if (deniedSubs.stream().anyMatch(SubCommand::isDynamicName)
                    && DenyMatch.deniedBy(argv, c.settings().deny()) != null) {
                return null;
            }
        }
        // The hook denies on the text the rules match. Where it cannot know that the text runs, the oracle cannot
        // require it: code stored in a value (it runs only where the value is evaluated, and an assignment in a
        // pipeline element or subshell never reaches the evaluation), and a command after a statement that changes
        // what runs (after PATH=0 or BASH_CMDS[cat]=..., the name may run another program or nothing).
        if (!deniedSubs.isEmpty() && deniedSubs.stream().allMatch(s -> mayNotRunAsWritten(s, c.verdict().judgement().facts()))) {
            return null;
        }
        return "DENY but no denied command ran: denied " + deniedSubs.stream().map(SubCommand::getArgv).toList()
                + ", ran " + recorded + "; command: " + c.command() + "; deny " + c.settings().deny();
    }
}
