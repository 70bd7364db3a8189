package dev.compoundbash.oracle;

import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shell-state oracle (issue 19, deliverable 4): commands that change the shell's state and then use a name
 * ({@link #PRODUCTIONS}, built from what the shells do, not from cases: aliases and values ending in a blank,
 * {@code set -k}, history expansion and {@code fc}, {@code shopt} changes, functions shadowing names, functions
 * imported from the environment, prompt variables, traps, {@code enable}, and the everyday {@code set -e/-u/-x/-o
 * pipefail}) are judged in process, as the hook judges them under the shell Claude Code runs, and run in the
 * replica of that shell ({@link ClaudeShellReplica}: bash with a representative and an unusual snapshot, and zsh),
 * inside bubblewrap, where every program name resolves to a recorder. Compared per case:
 * <ul>
 *   <li><b>allow runs only approved commands</b>: every recorded argv is one of an approved sub-command;</li>
 *   <li><b>a denied command never runs unasked</b>: a recorded argv a deny rule names runs only where the hook
 *       denied or asked (the model's target: a state change it does not follow makes what follows unapprovable,
 *       and asks under a deny rule);</li>
 *   <li><b>a file a Read deny rule names is read only where the hook denied or asked</b> ({@code .env});</li>
 *   <li>the hook's reading: a recorded program that no sub-command of the hook names is counted (informational).</li>
 * </ul>
 * The hook models shell state (ShellStateChanges, rules/shell-state.drl); a fault found later may be matched
 * by a {@link Gap} of the known-gap list below (empty now) (written to {@code target/shell-state-known-gaps.txt}, counted per
 * class in {@code target/shell-state-classes.md}); a mismatch no gap names fails. Fixed seed
 * ({@code -Dshellstate.seed}), {@code -Dshellstate.commands} per replica (100 in {@code mvn test}).
 * {@code -Dshellstate.noKnownGaps=true} fails the known gaps too. Skipped when bubblewrap cannot run here; the zsh
 * replica is skipped where zsh is not installed.
 */
class ShellStateOracleTest {
    /** Names that resolve to recorders (readers open their operands; see ExecutionOracleTest.shim). */
    static final String[] RECORDED = {"git", "curl", "rm", "cat", "ls", "grep", "ugrep", "head", "wc", "echo",
            "printf", "true", "nosuch"};
    static final List<String> DENY = List.of("Bash(git push *)", "Bash(curl *)", "Bash(rm *)", "Read(./.env)");
    static final List<String> ALLOW = List.of("Bash(ls *)", "Bash(cat *)", "Bash(git status)", "Bash(head *)",
            "Bash(echo *)");

    /** A user who also allows the state-changing builtins by rule: their approvals meet the shell's state. */
    static final List<String> ALLOW_STATE = List.of("Bash(ls *)", "Bash(cat *)", "Bash(git status)", "Bash(head *)",
            "Bash(echo *)", "Bash(alias *)", "Bash(unalias *)", "Bash(set *)", "Bash(shopt *)", "Bash(trap *)",
            "Bash(enable *)", "Bash(history *)", "Bash(fc *)", "Bash(export *)", "Bash(env *)", "Bash(bash *)");

    /** A program use: the harmful ones a deny rule names, and harmless ones. */
    static final String[] HARMFUL = {"git push origin", "curl -s example.com", "rm -rf build", "cat .env"};
    static final String[] HARMLESS = {"ls", "git status", "cat a.txt", "head -1 a.txt", "echo hi"};

    record Production(String cls, Function<Random, String> make) {
    }

    static String any(Random r, String... xs) {
        return xs[r.nextInt(xs.length)];
    }

    static String use(Random r) {
        return r.nextBoolean() ? any(r, HARMFUL) : any(r, HARMLESS);
    }

    static String sep(Random r) {
        return r.nextInt(3) == 0 ? "; " : "\n";
    }

    /** The generator: one production per way the shells change state (bash(1) and zsh(1) manuals). */
    static final List<Production> PRODUCTIONS = List.of(
            // ALIASES: an alias applies to lines read after its definition (bash: expand_aliases, on in Claude
            // Code's snapshot); a value ending in a blank expands the next word too
            new Production("alias", r -> {
                String name = any(r, "g", "ls", "cat", "echo", "x1");
                String value = any(r, HARMFUL) + (r.nextInt(4) == 0 ? " " : "");
                return "alias " + name + "='" + value + "'" + sep(r) + name + (r.nextBoolean() ? "" : " a.txt");
            }),
            // the alias names only the program; the words of a deny rule come from the later line
            new Production("alias-program", r -> {
                String name = any(r, "g", "c", "x1", "ls");
                String[] pv = any(r, "git|push origin", "curl|-s example.com", "rm|-rf build", "cat|.env")
                        .split("\\|");
                return "alias " + name + "=" + pv[0] + (r.nextInt(4) == 0 ? "' '" : "") + sep(r) + name + " " + pv[1];
            }),
            new Production("alias-blank", r -> "alias n='nice ' " + any(r, "c='curl x'", "c='git push'") + sep(r)
                    + "n c " + any(r, "origin", "example.com")),
            new Production("unalias", r -> "alias ls='" + any(r, HARMFUL) + "'" + sep(r) + "unalias ls" + sep(r)
                    + "ls"),
            // ALIASES BY GRAMMAR (bash(1) ALIASES): definitions (one or more per alias command, values of program
            // words and arguments, a value naming another alias, a value ending in a blank), unalias NAME and
            // unalias -a, each placed plainly or where bash does not follow it for the next line (a compound
            // command, a function, a list); then uses of the names and program words, plainly or in compound
            // commands, substitutions, functions and eval. The hook claims to read them exactly where it raises no
            // shell-state problem: there every program that runs must be one its facts name.
            new Production("alias-grammar", ShellStateOracleTest::aliasProgram),
            // set -k: NAME=VALUE words anywhere become assignments
            new Production("set-k", r -> "set -k" + sep(r) + any(r, "git x=1 push origin", "curl a=b example.com",
                    "rm y=1 -rf build", "cat v=1 .env")),
            // history expansion and fc re-run a command with a program swapped in
            new Production("history", r -> "set -o history -H" + sep(r) + "history -s '" + any(r, HARMFUL) + "'"
                    + "\n" + any(r, "!!", "!-1", "!" + "cu", "!!:s/x/y/")),
            new Production("fc", r -> "set -o history" + sep(r) + "history -s 'echo hi'" + sep(r) + "fc -s "
                    + any(r, "echo=curl", "echo='git push'", "hi=origin", "echo=rm")),
            // shopt changes: cdable_vars, dotglob, nullglob, extglob, expand_aliases
            new Production("shopt", r -> any(r,
                    "shopt -s cdable_vars" + sep(r) + "d=OUTSIDE" + sep(r) + "cd d && cat secret.txt",
                    "shopt -s dotglob" + sep(r) + "cat *",
                    "shopt -s nullglob" + sep(r) + "cat *.none",
                    "shopt -s extglob" + sep(r) + "cat @(a|.env)*",
                    "shopt -u expand_aliases" + sep(r) + "alias ls='curl x'" + sep(r) + "ls")),
            // functions shadowing names used later, also through xargs and command
            new Production("function", r -> {
                String name = any(r, "ls", "cd", "echo", "cat", "true", "git");
                String body = any(r, HARMFUL);
                return any(r, name + "() { " + body + "; }", "function " + name + " { " + body + "; }") + sep(r)
                        + any(r, name + " a.txt", "echo a.txt | xargs " + name, "command " + name + " a.txt");
            }),
            // functions imported from the environment by a child bash
            new Production("bash-func-env", r -> {
                String name = any(r, "ls", "echo", "true");
                return any(r, "env 'BASH_FUNC_" + name + "%%=() { " + any(r, HARMFUL) + "; }' bash -c " + name,
                        name + "() { " + any(r, HARMFUL) + "; }" + sep(r) + "export -f " + name + sep(r) + "bash -c "
                                + name);
            }),
            // prompt variables: PS4 under set -x; PROMPT_COMMAND and PS1 (not read by a non-interactive shell)
            new Production("prompt", r -> any(r, "PS4='$(" + any(r, HARMFUL) + ")'" + sep(r) + "set -x" + sep(r)
                            + any(r, HARMLESS),
                    "PROMPT_COMMAND='" + any(r, HARMFUL) + "'" + sep(r) + any(r, HARMLESS),
                    "PS1='$(" + any(r, HARMFUL) + ")'" + sep(r) + any(r, HARMLESS))),
            // traps run their text later
            new Production("trap", r -> "trap '" + any(r, HARMFUL) + "' " + any(r, "EXIT", "DEBUG", "ERR", "RETURN")
                    + sep(r) + any(r, HARMLESS) + (r.nextBoolean() ? sep(r) + "false" : "")),
            // enable -n turns a builtin off: the name then runs from PATH
            new Production("enable", r -> "enable -n " + any(r, "echo", "printf", "true") + sep(r)
                    + any(r, "echo hi", "printf hi", "true")),
            // the user's own options, aliases and functions, which the snapshot replays (the unusual snapshot has
            // cdable_vars, dotglob, globstar, nocaseglob, noclobber, alias ll, function gs): used, never set here
            new Production("user-options", r -> any(r, "d=OUTSIDE" + sep(r) + "cd d && cat secret.txt",
                    "cat *", "cat **/*", "ll", "gs", "cat A.TXT", "echo x > a.txt")),
            // the everyday options, which change nothing that runs (PS4 left as it is)
            new Production("everyday", r -> any(r, "set -e", "set -u", "set -o pipefail", "set -x", "set -eu",
                    "set -euo pipefail") + sep(r) + use(r) + (r.nextBoolean() ? " | wc -l" : "")));

    static final String[] ALIAS_NAMES = {"g", "c", "n", "p", "q", "ls", "cat", "x1"};
    static final String[] VALUE_PROGRAMS = {"git", "cat", "curl", "rm", "echo", "ls", "nice", "head -1"};
    static final String[] VALUE_ARGUMENTS = {"push", "origin", "status", ".env", "a.txt", "-rf build",
            "-s example.com", "-l"};

    static String aliasValue(Random r) {
        StringBuilder v = new StringBuilder(r.nextInt(4) == 0 ? any(r, ALIAS_NAMES) : any(r, VALUE_PROGRAMS));
        for (int k = r.nextInt(3); k > 0; k--) v.append(' ').append(any(r, VALUE_ARGUMENTS));
        if (r.nextInt(3) == 0) v.append(' ');
        return v.toString();
    }

    static String aliasChange(Random r) {
        int kind = r.nextInt(8);
        if (kind == 0) return "unalias " + any(r, ALIAS_NAMES);
        if (kind == 1) return "unalias -a";
        if (kind == 2) return r.nextBoolean() ? "alias " + any(r, ALIAS_NAMES) : "alias -p";
        StringBuilder a = new StringBuilder("alias");
        for (int k = 1 + r.nextInt(3); k > 0; k--) a.append(' ').append(any(r, ALIAS_NAMES)).append("='")
                .append(aliasValue(r)).append('\'');
        return a.toString();
    }

    static String placed(Random r, String statement) {
        return switch (r.nextInt(10)) {
            case 0 -> "if true; then " + statement + "; fi";
            case 1 -> "{ " + statement + "; }";
            case 2 -> "f() { " + statement + "; }; f";
            case 3 -> statement + " && true";
            default -> statement;
        };
    }

    static String aliasUse(Random r) {
        StringBuilder u = new StringBuilder();
        for (int k = 1 + r.nextInt(3); k > 0; k--) {
            if (u.length() > 0) u.append(' ');
            u.append(r.nextInt(3) == 0 ? any(r, "git", "cat", "nice", "echo") : any(r, ALIAS_NAMES));
        }
        for (int k = r.nextInt(3); k > 0; k--) u.append(' ').append(any(r, VALUE_ARGUMENTS));
        String use = u.toString();
        return switch (r.nextInt(12)) {
            case 0 -> "if true; then " + use + "; fi";
            case 1 -> "(" + use + ")";
            case 2 -> "echo $(" + use + ")";
            case 3 -> "true && " + use;
            case 4 -> "h() { " + use + "; }\nh";
            case 5 -> "eval '" + use + "'";
            case 6 -> "echo | " + use;
            default -> use;
        };
    }

    /** A command of the alias grammar: changes, then uses, on lines or after {@code ;}. */
    static String aliasProgram(Random r) {
        StringBuilder c = new StringBuilder();
        for (int k = 1 + r.nextInt(3); k > 0; k--) c.append(placed(r, aliasChange(r))).append(sep(r));
        c.append(aliasUse(r));
        if (r.nextBoolean()) c.append(sep(r)).append(aliasUse(r));
        return c.toString();
    }

    /** A fault the hook has today, until shell state is modelled (issue 19, second half): counted, not failed. */
    record Gap(String id, String cls, Pattern line, String reason) {
        /*
         * KNOWN GAPS (issue 19, second half: the shell-state model on the extractor's passes). Each is a fault of
         * today's hook that the oracle finds; docs/SHELL-STATE-FINDINGS.md describes each with its measured cases.
         */
        static final List<Gap> ALL = List.of(); // none left: the shell-state pass (ShellStateChanges) closes them

        static Gap of(String cls, String line) {
            if (Boolean.getBoolean("shellstate.noKnownGaps")) return null;
            for (Gap g : ALL) {
                if ((g.cls().equals("*") || g.cls().equals(cls)) && g.line().matcher(line).find()) return g;
            }
            return null;
        }
    }

    record Judged(int index, String cls, String command, String replica, PermissionSettings settings,
                  Decider.Verdict verdict) {
    }

    @Test
    void shellStateChangesAreReadAsTheShellRunsThem() throws Exception {
        Assumptions.assumeTrue(ExecutionOracleTest.bwrapWorks(), "bubblewrap cannot run here");
        long seed = Long.getLong("shellstate.seed", 19L);
        int perReplica = Integer.getInteger("shellstate.commands", 100);
        Path base = Files.createTempDirectory(Files.createDirectories(Path.of("target")).toAbsolutePath(),
                "shell-state-");
        try {
            run(seed, perReplica, base);
        } finally {
            if (!Boolean.getBoolean("shellstate.keep")) ExecutionOracleTest.deleteTree(base);
        }
    }

    private void run(long seed, int perReplica, Path base) throws Exception {
        Path work = Files.createDirectories(base.resolve("work"));
        Path outside = Files.createDirectories(base.resolve("outside"));
        Path shims = Files.createDirectories(base.resolve("shims"));
        Files.writeString(work.resolve("a.txt"), "one\n");
        Files.writeString(work.resolve(".env"), "SECRET=1\n");
        Files.createDirectories(work.resolve("build"));
        Files.writeString(outside.resolve("secret.txt"), "secret\n");
        for (String n : RECORDED) {
            // the readers also note their working directory and operands, for the boundary check
            String action = List.of("cat", "head", "ls", "wc").contains(n) ? "printf '%s\\0' \"$PWD\" \"$@\" >> "
                    + "\"$ORACLE_REC-reads\"; printf '\\n' >> \"$ORACLE_REC-reads\"\n" : "";
            ExecutionOracleTest.shim(shims.resolve(n), "", 0, action);
        }
        Path real = Files.createDirectories(base.resolve("real"));
        for (String n : List.of("xargs", "env", "bash", "nice", "bfs")) {
            Path p = ClaudeShellReplica.find(n);
            if (p != null) Files.createSymbolicLink(real.resolve(n), p);
        }
        List<ClaudeShellReplica> replicas = new ArrayList<>();
        replicas.add(ClaudeShellReplica.create("bash", ClaudeShellReplica.UserConfig.REPRESENTATIVE, base));
        replicas.add(ClaudeShellReplica.create("bash", ClaudeShellReplica.UserConfig.UNUSUAL, base));
        if (ClaudeShellReplica.available("zsh")) {
            replicas.add(ClaudeShellReplica.create("zsh", ClaudeShellReplica.UserConfig.REPRESENTATIVE, base));
        }
        RuleEngine engine = RuleEngine.load(List.of());
        HookLog quiet = HookLog.open(Map.of(), "shell-state");
        Random r = new Random(seed);
        Map<String, int[]> counts = new TreeMap<>();   // class -> generated, allow, ask, deny, defer, mismatch, gap, unseen
        List<String> mismatches = new ArrayList<>(), gaps = new ArrayList<>(), judgedLines = new ArrayList<>();
        int index = 0;
        for (ClaudeShellReplica rep : replicas) {
            String label = rep.shell() + "/" + rep.snapshot().getFileName().toString().replaceAll(
                    "^snapshot-\\w+-|\\.sh$", "");
            List<Judged> batch = new ArrayList<>();
            for (int i = 0; i < perReplica; i++) {
                Production p = PRODUCTIONS.get(r.nextInt(PRODUCTIONS.size()));
                String command = p.make().apply(r).replace("OUTSIDE", outside.toString());
                int set = r.nextInt(4);
                PermissionSettings ps = new PermissionSettings(set == 0 ? List.of() : set == 1 ? ALLOW_STATE : ALLOW,
                        List.of(), set == 0 ? List.of() : DENY, List.of(), List.of(), List.of());
                Decider.Verdict v = HookRunner.decide(new Decider.Call(command, work.toString(), "default", ps, null,
                        outside.toString(), rep.shell()), engine, quiet);
                batch.add(new Judged(index++, p.cls(), command, label, ps, v));
            }
            Path recs = runBatch(batch, rep, work, outside, shims, real, base);
            for (Judged j : batch) {
                int[] c = counts.computeIfAbsent(j.cls(), k -> new int[8]);
                c[0]++;
                c[switch (j.verdict().outcome()) { case "allow" -> 1; case "ask" -> 2; case "deny" -> 3; default -> 4; }]++;
                List<List<String>> recorded = new ArrayList<>();
                for (List<String> argv : ExecutionOracleTest.recordings(recs.resolve(String.valueOf(j.index())))) {
                    recorded.add(ClaudeShellReplica.asCalled(argv));
                }
                judgedLines.add("[" + j.cls() + "] [" + j.replica() + "] " + j.verdict().outcome() + " ("
                        + j.verdict().reason() + ") ran " + recorded + " :: " + j.command().replace("\n", "\\n"));
                boolean unseen = unseen(j, recorded);
                if (unseen) c[7]++;
                String problem = check(j, recorded, work);
                if (problem == null && unseen && j.cls().equals("alias-grammar") && followed(j)) {
                    problem = "the hook read the aliases as followed, but a program ran that its facts do not name: "
                            + recorded + "; command: " + j.command() + "; hook: " + j.verdict().outcome();
                }
                if (problem == null) problem = checkReads(j, recs.resolve(j.index() + "-reads"), work, outside);
                if (problem == null) continue;
                String line = ("[" + j.cls() + "] [" + j.replica() + "] " + problem).replace("\n", "\\n");
                Gap g = Gap.of(j.cls(), line);
                if (g != null) {
                    c[6]++;
                    gaps.add("(" + g.id() + ") " + line);
                } else {
                    c[5]++;
                    mismatches.add(line);
                }
            }
        }
        StringBuilder table = new StringBuilder("seed " + seed + ", " + perReplica + " commands per replica ("
                + replicas.size() + " replicas)\n\n| class | generated | allow | ask | deny | defer | mismatches | "
                + "known gaps | a program ran that the hook's facts do not name |\n|---|---|---|---|---|---|---|---|---|\n");
        counts.forEach((k, c) -> table.append("| ").append(k).append(" | ").append(c[0]).append(" | ").append(c[1])
                .append(" | ").append(c[2]).append(" | ").append(c[3]).append(" | ").append(c[4]).append(" | ")
                .append(c[5]).append(" | ").append(c[6]).append(" | ").append(c[7]).append(" |\n"));
        Files.writeString(Path.of("target/shell-state-classes.md"), table);
        Files.write(Path.of("target/shell-state-known-gaps.txt"), gaps);
        Files.write(Path.of("target/shell-state-mismatches.txt"), mismatches);
        Files.write(Path.of("target/shell-state-cases.txt"), judgedLines);
        assertThat(mismatches).as("seed " + seed + " (target/shell-state-mismatches.txt)").isEmpty();
    }

    /** Runs a batch in one bubblewrap sandbox with the replica; returns the recordings directory (recs/INDEX/). */
    static Path runBatch(List<Judged> batch, ClaudeShellReplica rep, Path work, Path outside, Path shims, Path real,
                         Path base) throws Exception {
        Path recs = Files.createDirectories(base.resolve("rec-" + rep.shell() + "-" + batch.get(0).index()));
        Path w = base.resolve("work-run"), o = base.resolve("outside-run");
        StringBuilder input = new StringBuilder();
        for (Judged j : batch) {
            Files.createDirectories(recs.resolve(String.valueOf(j.index())));
            input.append(j.index()).append('\0').append(rep.script(j.command(), ClaudeShellReplica.CWD_FILE)).append('\0');
        }
        Files.writeString(recs.resolve("commands"), input, StandardCharsets.UTF_8);
        // every case in a fresh copy of the work directory, so a write of one case cannot change the next
        String driver = ExecutionOracleTest.WAITGROUP
                + "while IFS= read -r -d '' i && IFS= read -r -d '' c; do rm -rf \"$7\"/* \"$7\"/.[!.]* 2>/dev/null; "
                + "cp -a \"$8\"/. \"$7\"/; cd \"$7\"; "
                + "ORACLE_REC=\"$2/$i\" HOME=\"$5\" PATH=\"$3:$4\" /usr/bin/timeout -s KILL 5 \"$6\" -c \"$c\" "
                + "</dev/null >/dev/null 2>&1 & g=$!; wait $g; waitgroup $g; done < \"$2/commands\"";
        Files.createDirectories(w);
        Files.createDirectories(o);
        ExecutionOracleTest.copyTree(outside, o.resolve("x"));
        List<String> bwrap = new ArrayList<>(List.of("bwrap", "--ro-bind", "/", "/", "--tmpfs", "/tmp", "--dev",
                "/dev", "--proc", "/proc", "--bind", w.toString(), work.toString(), "--ro-bind",
                work.toString(), base.resolve("work-template").toString(),
                "--bind", o.resolve("x").toString(), outside.toString(),
                "--bind", recs.toString(), recs.toString(), "--setenv", "SHELL", rep.program().toString(),
                "--unshare-all", "--die-with-parent", "--new-session", "/bin/bash", "-c", driver, "driver",
                work.toString(), recs.toString(), shims.toString(), real.toString(), outside.toString(),
                rep.program().toString(), work.toString(), base.resolve("work-template").toString()));
        Files.createDirectories(base.resolve("work-template"));
        ProcessBuilder pb = new ProcessBuilder(bwrap).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.environment().clear();
        pb.environment().put("PATH", "/usr/bin:/bin");
        pb.environment().put("LC_ALL", "C");
        Process p = pb.start();
        assertThat(p.waitFor(10L * batch.size() + 60, TimeUnit.SECONDS)).isTrue();
        ExecutionOracleTest.deleteTree(w);
        ExecutionOracleTest.deleteTree(o);
        return recs;
    }

    /**
     * A reader the hook let run (allow, or defer with no rule to hide) opened a file beyond the working directory,
     * or the file a Read deny rule names without a deny or ask; null when none did.
     */
    static String checkReads(Judged j, Path reads, Path work, Path outside) throws IOException {
        if (!Files.exists(reads)) return null;
        String outcome = j.verdict().outcome();
        if (outcome.equals("deny") || outcome.equals("ask")) return null;
        for (String line : Files.readString(reads, StandardCharsets.UTF_8).split("\n")) {
            String[] f = line.split("\0");
            if (f.length < 2) continue;
            Path pwd = Path.of(f[0]);
            for (int i = 1; i < f.length; i++) {
                if (f[i].isEmpty() || f[i].startsWith("-")) continue;
                Path p = pwd.resolve(f[i]).normalize();
                String tail = "; command: " + j.command() + "; hook: " + outcome + " (" + j.verdict().reason() + ")";
                if (outcome.equals("allow") && p.startsWith(outside)) {
                    return "ALLOW but a reader opened " + p + " (in " + pwd + "), beyond the working directory" + tail;
                }
                if (p.equals(work.resolve(".env")) && j.settings().deny().contains("Read(./.env)")) {
                    return outcome.toUpperCase() + " but a reader opened " + p + ", the file Read(./.env) denies"
                            + tail;
                }
            }
        }
        return null;
    }

    /** True when the hook raised no shell-state problem: it claims to have read the command's state exactly. */
    static boolean followed(Judged j) {
        if (j.verdict().judgement() == null) return false;
        return j.verdict().judgement().problems().stream()
                .noneMatch(p -> p.getKind().equals(dev.compoundbash.facts.CallProblem.SHELL_STATE));
    }

    /** True when a recorded program is named by none of the hook's sub-commands. */
    static boolean unseen(Judged j, List<List<String>> recorded) {
        if (j.verdict().judgement() == null) return !recorded.isEmpty();
        List<String> names = j.verdict().judgement().facts().subCommands().stream().map(SubCommand::getBaseName)
                .toList();
        return recorded.stream().anyMatch(a -> !names.contains(a.get(0)));
    }

    /** The checks of one case (see the class comment); null when they pass. */
    static String check(Judged j, List<List<String>> recorded, Path work) {
        String outcome = j.verdict().outcome();
        String tail = "; command: " + j.command() + "; rules: " + (j.settings().deny().isEmpty() ? "none" : "deny "
                + j.settings().deny()) + "; hook: " + outcome + " (" + j.verdict().reason() + ")";
        if (outcome.equals("allow")) {
            ExecutionOracleTest.Case c = new ExecutionOracleTest.Case(j.index(), j.command(), j.settings(),
                    j.verdict());
            String problem = ExecutionOracleTest.checkAllow(c, recorded);
            if (problem != null) return problem.replaceFirst("; command: .*", "") + tail;
        }
        if (outcome.equals("deny") || outcome.equals("ask")) return null;
        for (List<String> argv : recorded) {
            String rule = DenyMatch.deniedBy(argv, j.settings().deny());
            if (rule != null) return outcome.toUpperCase() + " but ran " + argv + ", which deny rule " + rule
                    + " names" + tail;
            if (j.settings().deny().contains("Read(./.env)") && List.of("cat", "head", "wc").contains(argv.get(0))
                    && argv.stream().skip(1).anyMatch(a -> a.equals(".env") || a.endsWith("/.env"))) {
                return outcome.toUpperCase() + " but ran " + argv + ", reading the file Read(./.env) denies" + tail;
            }
        }
        return null;
    }
}
