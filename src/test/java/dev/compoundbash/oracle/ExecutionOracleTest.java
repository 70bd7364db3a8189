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
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The execution oracle of issue 8: generated commands of the shapes agents write, each with a random rule set, are
 * judged in process ({@link HookRunner#decide}) and run under the real {@code bash} inside bubblewrap (read-only
 * root, no network, a tmpfs {@code /tmp}, writable only its own work directory). Every external command name
 * resolves on {@code PATH} to a shim that records its argv and exits 0; the wrappers ({@code xargs find timeout nice
 * nohup stdbuf sh}) are the real programs, so what they run is recorded too.
 *
 * <p>What the oracle sees: every {@code execve} of a name found through {@code PATH}. What it cannot see: shell
 * builtins ({@code echo cd printf test read ...}), functions and keywords, which run inside bash without an exec;
 * they are judged by the hook's tiers, not by this oracle.
 *
 * <p>Checks: when the hook says {@code allow}, every recorded argv is the argv of a sub-command the hook approved
 * (up to the arguments xargs appends, find's {@code {}} and words only known at run time); when it says
 * {@code deny}, a denied sub-command really ran. Budget: {@code -Doracle.commands} (default 10,000; {@code
 * -Poracle} and {@code -Pfuzz} 100,000). Skipped when bubblewrap cannot run here.
 */
class ExecutionOracleTest {
    static final String[] SHIMMED = {"git", "grep", "curl", "rm", "npm", "ls", "cat", "wc", "sort", "head", "sed",
            "make", "mkdir", "touch", "jq", "node"};
    static final String[] WRAPPERS = {"xargs", "find", "timeout", "nice", "nohup", "stdbuf", "sh", "bash"};
    static final int BATCH = 500;
    /** Prefix of argv[0] in a recording of a decoy program (./NAME or ./0/NAME). */
    static final String DECOY = "decoy:";

    @TempDir
    Path tmp;

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

    @Test
    void everyAllowRunsOnlyApprovedCommandsAndEveryDenyRuns() throws Exception {
        Assumptions.assumeTrue(bwrapWorks(), "bubblewrap cannot run here");
        int total = Integer.getInteger("oracle.commands", 10_000);
        Files.deleteIfExists(Path.of("target/oracle-mismatches.txt"));
        long seed = Long.getLong("oracle.seed", System.nanoTime());
        Random r = new Random(seed);
        Path shims = Files.createDirectories(tmp.resolve("shims"));
        Path real = Files.createDirectories(tmp.resolve("real"));
        for (String n : SHIMMED) {
            Path s = shims.resolve(n);
            recorder(s, "");
        }
        for (String n : WRAPPERS) {
            Path target = Path.of(n.equals("sh") || n.equals("bash") ? "/bin" : "/usr/bin", n);
            if (!Files.exists(target)) target = Path.of("/bin", n);
            Files.createSymbolicLink(real.resolve(n), target);
        }
        Path work = Files.createDirectories(tmp.resolve("work"));
        Files.writeString(work.resolve("a.txt"), "one\ntwo\n");
        RuleEngine engine = RuleEngine.load(List.of());
        HookLog quiet = HookLog.open(Map.of(), "oracle");
        OracleGenerator gen = new OracleGenerator();

        int allowed = 0, denied = 0, ran = 0;
        List<String> mismatches = new ArrayList<>();
        List<List<Case>> batches = new ArrayList<>();
        for (int start = 0; start < total; start += BATCH) {
            List<Case> batch = new ArrayList<>();
            for (int i = start; i < Math.min(total, start + BATCH); i++) {
                String cmd = gen.command(r);
                PermissionSettings ps = gen.rules(r);
                Decider.Verdict v = HookRunner.decide(new Decider.Call(cmd, work.toString(), null, ps, null), engine, quiet);
                if (v.outcome().equals("allow") || v.outcome().equals("deny")) batch.add(new Case(i, cmd, ps, v));
            }
            batches.add(batch);
        }
        // Sandboxes run side by side: most of their time is spent waiting on short-lived processes.
        java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
        List<java.util.concurrent.Future<Path>> runs = new ArrayList<>();
        for (int b = 0; b < batches.size(); b++) {
            List<Case> batch = batches.get(b);
            Path recs = Files.createDirectories(tmp.resolve("rec-" + b));
            runs.add(pool.submit(() -> {
                runBatch(batch, shims, real, Files.createDirectories(work.resolveSibling("work-" + recs
                        .getFileName())), recs);
                return recs;
            }));
        }
        for (int b = 0; b < batches.size(); b++) {
            Path recs = runs.get(b).get();
            for (Case c : batches.get(b)) {
                ran++;
                List<List<String>> recorded = recordings(recs.resolve(String.valueOf(c.index())));
                String problem = c.verdict().outcome().equals("allow") ? checkAllow(c, recorded)
                        : checkDeny(c, recorded);
                if (c.verdict().outcome().equals("allow")) allowed++;
                else denied++;
                if (problem != null) mismatches.add(problem.replace("\n", "\\n"));
            }
        }
        pool.shutdown();
        Path stats = Path.of("target/oracle-stats.properties");
        Files.createDirectories(stats.getParent());
        Files.writeString(stats, "seed=" + seed + "\ngenerated=" + total + "\nrunInSandbox=" + ran + "\nallow="
                + allowed + "\ndeny=" + denied + "\nmismatches=" + mismatches.size() + "\n");
        if (!mismatches.isEmpty()) Files.write(Path.of("target/oracle-mismatches.txt"), mismatches);
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
        Files.writeString(file, "#!/bin/bash\nprintf '%s\\0' \"${0##*/}\" \"$@\" > \"$ORACLE_REC/" + prefix
                + "$$.$RANDOM$RANDOM\"\nexit " + status + "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Runs every case of a batch in one sandbox; the recordings of case i land in {@code recs/i}. */
    private static void runBatch(List<Case> cases, Path shims, Path real, Path work, Path recs) throws Exception {
        runBatch(cases, shims, real, work, recs, List.of("--unshare-all"));
    }

    /**
     * {@link #runBatch(List, Path, Path, Path, Path)} with the given namespace options of bwrap ({@code --unshare-all},
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
        String driver = "waitgroup() { local g=$1 n=0 f l any; while :; do any=; for f in /proc/[0-9]*/stat; do "
                + "read -r l < \"$f\" 2>/dev/null || continue; l=${l##*) }; set -- $l; "
                + "if [ \"$3\" = \"$g\" ]; then any=1; break; fi; done; [ -z \"$any\" ] && return; "
                + "n=$((n+1)); if [ $n -ge 500 ]; then kill -KILL -- -\"$g\" 2>/dev/null; return; fi; "
                + "sleep 0.01; done; }; "
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

    static List<List<String>> recordings(Path dir) throws IOException {
        List<List<String>> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.sorted().toList()) {
                // bytes that are not UTF-8 ($'\xbb') as the hook holds them (AnsiC.text: one stand-in per byte)
                String text = dev.compoundbash.shell.AnsiC.text(Files.readAllBytes(f));
                if (text.endsWith("\0")) text = text.substring(0, text.length() - 1);
                List<String> argv = new ArrayList<>(Arrays.asList(text.split("\0", -1)));
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
            if (s.getRole().equals("wrapper")) continue;
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
        List<SubCommand> approved = withFinding(c.verdict(), Finding.APPROVE);
        for (List<String> argv : recorded) {
            boolean ok = approved.stream().anyMatch(s -> ArgvMatch.matches(s, argv));
            if (!ok) {
                return "ALLOW but ran " + argv + " not approved; approved " + approved.stream()
                        .map(SubCommand::getArgv).toList() + "; command: " + c.command() + "; rules: "
                        + c.settings().allow() + " deny " + c.settings().deny();
            }
        }
        return null;
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
