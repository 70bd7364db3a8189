package dev.compoundbash.audit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.facts.Facts;
import dev.compoundbash.facts.Finding;
import dev.compoundbash.facts.Redirect;
import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.facts.Wrapper;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.BashPattern;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * {@code rules suggest} (issue 15): turns the calls of a decision log that deferred or asked for lack of an allow
 * rule into Claude Code permission rules, each confirmed by a replay of the log.
 *
 * <ol>
 *   <li>Every logged call is judged again under the current settings ({@link ParallelReplay}); calls that now allow
 *       or deny are left out (an allow rule cannot lift a deny).</li>
 *   <li>The sub-commands that the log records as unapproved for lack of an allow rule ({@code subcommands[].verdict}
 *       {@code defer}/{@code ask} by a rule marked {@code @lackOfAllow} (the call replayed under the current settings); wrappers excluded, their payloads counted; for
 *       the text log, which records no sub-commands, the current judgement) are grouped by program and first
 *       argument. A group whose calls all ran one command line gives the exact rule ({@code Bash(npm test)}); else
 *       the words its command lines share give a prefix rule ({@code Bash(git diff *)}), Claude Code's syntax
 *       (docs/DECISIONS.md, "What it reads"; {@link BashPattern}).</li>
 *   <li>A rule is not suggested when it overlaps a deny or ask rule (some command would match both: {@link #overlap}),
 *       nor, unless {@code broad}, when it is a bare program-wide rule (only options after the name) for a program
 *       that runs other programs or deletes ({@link #RUNS_OR_DELETES}); such a group falls back to its exact rules.</li>
 *   <li>Each rule is replayed alone: the log's calls under the current settings plus that rule. The calls it turns
 *       into {@code allow} are its approvals (each flagged when it also ran through a wrapper, an output redirection
 *       or an environment prefix); rules are ranked by how many calls they approve.</li>
 * </ol>
 */
public final class RuleSuggester {
    /** The built-in rules whose finding means "no allow rule approves this sub-command" (rules/outcome.drl, wrappers.drl). */
    /**
     * Programs that run other programs or delete files: a bare program-wide allow rule for one of them
     * ({@code Bash(rm *)}, {@code Bash(bash *)}, {@code Bash(xargs -n1 *)}) approves anything; suggested only with
     * {@code --broad}. The wrappers are those of docs/DECISIONS.md "Decision semantics"; then shells, interpreters, deleters, and tools
     * that run code or commands given as arguments.
     */
    public static final Set<String> RUNS_OR_DELETES = Set.of(
            "xargs", "find", "timeout", "nice", "nohup", "stdbuf", "env", "command", "builtin", "exec", "eval",
            "source", ".", "ionice", "chrt", "taskset", "setsid", "flock", "watch", "unbuffer", "caffeinate",
            "script", "time", "sudo", "doas", "su", "parallel", "ssh",
            "sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "busybox",
            "python", "python2", "python3", "node", "nodejs", "deno", "bun", "perl", "ruby", "php", "lua", "tclsh",
            "Rscript", "pwsh", "osascript", "awk", "gawk", "mawk", "nawk", "jshell", "groovy", "npx", "bunx",
            "pnpx", "uvx", "git",
            "rm", "rmdir", "unlink", "shred", "srm", "trash", "dd", "truncate");

    private static final ObjectMapper JSON = new ObjectMapper();

    /**
     * One sub-command as the decision log records it ({@code subcommands[]}: {@code argv role verdict rule reason}).
     */
    public record LoggedSub(List<String> argv, String role, String verdict, String rule, String reason) {
        /** The argv joined by single spaces: what permission rules are matched against. */
        public String line() {
            return String.join(" ", argv);
        }
    }

    /**
     * One logged call.
     *
     * @param source         {@code file:line} of the entry
     * @param time           when it was decided; null when unreadable
     * @param cwd            its working directory; null for the text log
     * @param command        the Bash command
     * @param oldDecision    the decision the log recorded
     * @param permissionMode the recorded {@code permission_mode}; null for default
     * @param subs           the sub-commands the log records (empty for the text log)
     * @param shell          the recorded {@code shell}; null for bash
     */
    public record LoggedCall(String source, OffsetDateTime time, String cwd, String command, String oldDecision,
                             String permissionMode, List<LoggedSub> subs, String shell) {
    }

    /** A call a suggestion would approve, and what else it ran through (wrapper, redirect, prefix). */
    public record Approved(LoggedCall call, List<String> flags) {
    }

    /**
     * One suggested rule.
     *
     * @param number   its rank, from 1
     * @param rule     the permission rule, e.g. {@code Bash(git diff *)}
     * @param approved the calls the rule alone turns into allow, in log order
     */
    public record Suggestion(int number, String rule, List<Approved> approved) {
    }

    /** A rule that was not suggested, and why. */
    public record Rejected(String rule, String why) {
    }

    /**
     * What {@link #suggest} found.
     *
     * @param calls       calls read (after the time and project filters)
     * @param unapproved  calls that defer or ask now with a sub-command lacking an allow rule
     * @param suggestions ranked, numbered suggestions
     * @param rejected    rules left out, with the reason
     * @param note        a reason why nothing can be suggested (managed-only rules), else null
     */
    public record Result(int calls, int unapproved, List<Suggestion> suggestions, List<Rejected> rejected, String note) {
    }

    private final RuleEngine engine;
    private final Function<String, PermissionSettings> settings;
    private final String defaultCwd;
    private final String tmpDir;
    private final boolean broad;

    /**
     * @param engine     the rules to judge with (built-in plus the user's)
     * @param settings   the current settings for a call's recorded working directory (null for the text log)
     * @param defaultCwd the working directory of calls that record none
     * @param tmpDir     {@code $TMPDIR}; may be null
     * @param broad      also suggest bare program-wide rules for programs that run others or delete
     */
    public RuleSuggester(RuleEngine engine, Function<String, PermissionSettings> settings, String defaultCwd,
                         String tmpDir, boolean broad) {
        this.engine = engine;
        this.settings = settings;
        this.defaultCwd = defaultCwd;
        this.tmpDir = tmpDir;
        this.broad = broad;
    }

    /**
     * Reads the calls of decision logs: the JSONL log with its {@code subcommands}, and the text log
     * ({@link LogReader}) without them.
     *
     * @param logs  the logs, oldest first
     * @param since only calls at or after this time; null for all
     * @return the calls in log order
     * @throws IOException when a log cannot be read
     */
    public static List<LoggedCall> read(List<Path> logs, OffsetDateTime since) throws IOException {
        List<LoggedCall> out = new ArrayList<>();
        for (Path log : logs) {
            Map<String, List<LoggedSub>> subs = new HashMap<>();
            try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
                String line;
                int n = 0;
                while ((line = r.readLine()) != null) {
                    n++;
                    if (!line.startsWith("{")) continue;
                    try {
                        JsonNode o = JSON.readTree(line);
                        List<LoggedSub> list = new ArrayList<>();
                        for (JsonNode s : o.path("subcommands")) {
                            List<String> argv = new ArrayList<>();
                            s.path("argv").forEach(a -> argv.add(a.asText()));
                            if (argv.isEmpty()) continue;
                            list.add(new LoggedSub(argv, s.path("role").asText(""), s.path("verdict").asText(""),
                                    s.path("rule").asText(""), s.path("reason").asText("")));
                        }
                        subs.put(log + ":" + n, list);
                    } catch (IOException e) {
                        // LogReader counts it as unreadable
                    }
                }
            }
            try (BufferedReader r = Files.newBufferedReader(log, StandardCharsets.UTF_8)) {
                LogReader.read(log.toString(), r, e -> {
                    if (since != null && (e.time() == null || e.time().isBefore(since))) return;
                    out.add(new LoggedCall(e.source(), e.time(), e.cwd(), e.command(), e.oldDecision(),
                            e.permissionMode(), subs.getOrDefault(e.source(), List.of()), e.shell()));
                });
            }
        }
        return out;
    }

    /**
     * Finds, checks, replays and ranks the suggestions for {@code calls}.
     *
     * @param calls the logged calls
     * @return the result; never null
     */
    public Result suggest(List<LoggedCall> calls) {
        Map<LoggedCall, PermissionSettings> current = new IdentityHashMap<>();
        for (LoggedCall c : calls) current.put(c, settings.apply(c.cwd()));
        if (current.values().stream().anyMatch(PermissionSettings::managedRulesOnly)) {
            return new Result(calls.size(), 0, List.of(), List.of(), "managed settings set "
                    + "allowManagedPermissionRulesOnly: an allow rule in your or the project's settings would not count");
        }
        List<Decider.Verdict> baseline = decide(calls, c -> current.get(c));

        // the unapproved sub-command lines of each call that defers or asks now
        List<LoggedCall> open = new ArrayList<>();
        Map<LoggedCall, List<List<String>>> unapproved = new IdentityHashMap<>();
        for (int i = 0; i < calls.size(); i++) {
            LoggedCall c = calls.get(i);
            String now = baseline.get(i).outcome();
            if (!now.equals("defer") && !now.equals("ask")) continue;
            List<List<String>> lines = fromJudgement(baseline.get(i));
            if (lines.isEmpty()) continue;
            open.add(c);
            unapproved.put(c, lines);
        }

        // families: program and first argument
        Map<String, Map<String, Integer>> families = new TreeMap<>();
        Map<String, List<String>> wordsOf = new HashMap<>();
        for (LoggedCall c : open) {
            for (List<String> argv : new LinkedHashSet<>(unapproved.get(c))) {
                String key = argv.size() > 1 ? argv.get(0) + " " + argv.get(1) : argv.get(0);
                String line = String.join(" ", argv);
                families.computeIfAbsent(key, k -> new TreeMap<>()).merge(line, 1, Integer::sum);
                wordsOf.put(line, argv);
            }
        }
        Set<String> denyAndAsk = new LinkedHashSet<>();
        for (PermissionSettings s : current.values()) {
            denyAndAsk.addAll(s.deny());
            denyAndAsk.addAll(s.ask());
        }
        List<Rejected> rejected = new ArrayList<>();
        Set<String> candidates = new LinkedHashSet<>();
        for (Map<String, Integer> lines : families.values()) {
            List<List<String>> argvs = lines.keySet().stream().map(wordsOf::get).toList();
            String rule = ruleFor(argvs);
            String why = rejection(rule, denyAndAsk);
            if (why == null) {
                candidates.add(rule);
                candidates.addAll(subFamilies(lines, wordsOf, denyAndAsk));
                continue;
            }
            rejected.add(new Rejected(rule, why));
            if (argvs.size() > 1) {
                for (List<String> argv : argvs) {
                    String exact = ruleFor(List.of(argv));
                    String w = rejection(exact, denyAndAsk);
                    if (w == null) candidates.add(exact);
                    else rejected.add(new Rejected(exact, w));
                }
            }
        }

        // replay each candidate alone over the calls it can change
        List<Suggestion> found = new ArrayList<>();
        List<Rejected> idle = new ArrayList<>();
        for (String candidate : candidates) {
            String rule = candidate;
            String pattern = BashPattern.innerPattern(rule);
            List<LoggedCall> affected = open.stream()
                    .filter(c -> unapproved.get(c).stream().anyMatch(a -> BashPattern.matches(pattern, String.join(" ", a))))
                    .toList();
            List<Decider.Verdict> after = decide(affected, c -> withAllow(current.get(c), candidate));
            List<Approved> approved = new ArrayList<>();
            for (int i = 0; i < affected.size(); i++) {
                if (after.get(i).outcome().equals("allow")) approved.add(new Approved(affected.get(i), flags(after.get(i))));
            }
            if (approved.isEmpty() && !pattern.endsWith("*") && !candidates.contains("Bash(" + pattern + " *)")) {
                // an exact rule that approves nothing may need a trailing wildcard: xargs appends arguments
                String wider = "Bash(" + pattern + " *)";
                if (rejection(wider, denyAndAsk) == null) {
                    List<Decider.Verdict> again = decide(affected, c -> withAllow(current.get(c), wider));
                    for (int i = 0; i < affected.size(); i++) {
                        if (again.get(i).outcome().equals("allow")) approved.add(new Approved(affected.get(i), flags(again.get(i))));
                    }
                    if (!approved.isEmpty()) rule = wider;
                }
            }
            if (approved.isEmpty()) {
                idle.add(new Rejected(rule, "approves no call by itself (each also needs another rule, or is held "
                        + "back by something an allow rule cannot lift)"));
            } else {
                found.add(new Suggestion(0, rule, approved));
            }
        }
        found.sort(Comparator.comparingInt((Suggestion s) -> -s.approved().size()).thenComparing(Suggestion::rule));
        List<Suggestion> ranked = new ArrayList<>();
        for (Suggestion s : found) ranked.add(new Suggestion(ranked.size() + 1, s.rule(), s.approved()));
        rejected.addAll(idle);
        return new Result(calls.size(), open.size(), ranked, rejected, null);
    }

    /**
     * Narrower rules inside a family whose rule is its program and first argument only ({@code Bash(npm run *)}):
     * one per third word that at least two calls share, when there are at least two such ({@code Bash(npm run test
     * *)}, {@code Bash(npm run build)}).
     */
    private List<String> subFamilies(Map<String, Integer> lines, Map<String, List<String>> wordsOf, Set<String> denyAndAsk) {
        Map<String, List<List<String>>> byThird = new TreeMap<>();
        Map<String, Integer> calls = new HashMap<>();
        for (Map.Entry<String, Integer> e : lines.entrySet()) {
            List<String> argv = wordsOf.get(e.getKey());
            if (argv.size() < 3) continue;
            byThird.computeIfAbsent(argv.get(2), k -> new ArrayList<>()).add(argv);
            calls.merge(argv.get(2), e.getValue(), Integer::sum);
        }
        List<String> out = new ArrayList<>();
        for (Map.Entry<String, List<List<String>>> e : byThird.entrySet()) {
            if (calls.get(e.getKey()) < 2) continue;
            String rule = ruleFor(e.getValue());
            if (rejection(rule, denyAndAsk) == null) out.add(rule);
        }
        return out.size() >= 2 ? out : List.of();
    }

    /** The one place this class decides calls: {@link ParallelReplay}, i.e. {@link Decider#decide}. */
    private List<Decider.Verdict> decide(List<LoggedCall> calls, Function<LoggedCall, PermissionSettings> with) {
        List<ParallelReplay.Call> list = new ArrayList<>(calls.size());
        for (LoggedCall c : calls) {
            list.add(new ParallelReplay.Call(c.command(), c.cwd() != null ? c.cwd() : defaultCwd, with.apply(c),
                    c.permissionMode(), c.shell()));
        }
        return ParallelReplay.decideCalls(list, engine, tmpDir, System.getenv("HOME"),
                Runtime.getRuntime().availableProcessors());
    }

    private static List<List<String>> fromJudgement(Decider.Verdict v) {
        if (v.judgement() == null) return List.of();
        Map<Integer, Finding> strongest = Finding.strongestBySubject(v.judgement().evaluation().findings());
        List<List<String>> out = new ArrayList<>();
        for (SubCommand s : v.judgement().facts().subCommands()) {
            Finding f = strongest.get(s.getId());
            if (f == null || s.getRole().equals("wrapper") || s.isDynamicName()) continue;
            if ((f.getKind().equals(Finding.DEFER) || f.getKind().equals(Finding.ASK)) && f.getAttributes().contains(Finding.LACK_OF_ALLOW)) {
                out.add(s.getArgv());
            }
        }
        return out;
    }

    /** What else an approved call ran through: wrappers, output redirections, environment prefixes. */
    private static List<String> flags(Decider.Verdict v) {
        List<String> out = new ArrayList<>();
        if (v.judgement() == null) return out;
        Facts f = v.judgement().facts();
        for (Wrapper w : f.wrappers()) out.add("wrapper " + w.getKind());
        for (Redirect r : f.redirects()) if (r.isOutput() && !r.isFdDuplication()) out.add("redirect " + r.getText());
        for (SubCommand s : f.subCommands()) for (String a : s.getAssignments()) out.add("prefix " + a);
        return new ArrayList<>(new LinkedHashSet<>(out));
    }

    private static PermissionSettings withAllow(PermissionSettings s, String rule) {
        List<String> allow = new ArrayList<>(s.allow());
        if (!allow.contains(rule)) allow.add(rule);
        return new PermissionSettings(allow, s.ask(), s.deny(), s.additionalDirectories(), s.filesRead(),
                s.warnings(), s.managedRulesOnly(), s.notes(), s.writesInDefaultMode());
    }

    /**
     * The narrowest rule covering every command line of a family: the exact rule when there is one line, else the
     * words all lines share followed by {@code " *"}. A {@code *} in a word would be a wildcard (Claude Code's rules
     * have no escape), so the shared words stop before the first word holding one.
     *
     * @param argvs the family's distinct argument vectors, each non-empty
     * @return the rule, e.g. {@code Bash(git diff *)}
     */
    static String ruleFor(List<List<String>> argvs) {
        List<String> first = argvs.get(0);
        int shared = first.size();
        for (List<String> a : argvs) {
            int k = 0;
            while (k < shared && k < a.size() && a.get(k).equals(first.get(k))) k++;
            shared = k;
        }
        for (int i = 0; i < shared; i++) {
            if (first.get(i).contains("*")) {
                shared = i;
                break;
            }
        }
        shared = Math.max(1, shared);
        if (argvs.size() == 1 && shared == first.size()) return "Bash(" + String.join(" ", first) + ")";
        return "Bash(" + String.join(" ", first.subList(0, shared)) + " *)";
    }

    /** Why {@code rule} is not suggested, or null. */
    private String rejection(String rule, Set<String> denyAndAsk) {
        String p = BashPattern.innerPattern(rule);
        for (String other : denyAndAsk) {
            String q = BashPattern.innerPattern(other);
            if (q != null && overlap(p, q)) return "contradicted by " + other + " (a command could match both)";
        }
        if (!broad && bare(p)) {
            String program = p.split(" ", 2)[0];
            if (RUNS_OR_DELETES.contains(program)) {
                return program + " runs other programs or deletes: a rule for every use of it approves anything "
                        + "(--broad suggests it)";
            }
        }
        return null;
    }

    /** A pattern ending in a wildcard whose fixed words after the program are only options or bare directories. */
    static boolean bare(String pattern) {
        if (!pattern.endsWith("*")) return false;
        String fixed = pattern.substring(0, pattern.length() - 1).strip();
        String[] words = fixed.split(" ");
        for (int i = 1; i < words.length; i++) {
            String w = words[i];
            if (w.isEmpty() || w.startsWith("-") || w.equals(".") || w.equals("..") || w.equals("/") || w.equals("~")) continue;
            return false;
        }
        return true;
    }

    /**
     * True when some command line matches both Claude Code patterns ({@link BashPattern#matches}): the intersection
     * of two wildcard patterns, each {@code *} any string, a trailing {@code " *"} also matching the bare prefix, a
     * trailing legacy {@code ":*"} read as {@code " *"}.
     *
     * @param p an inner pattern
     * @param q another
     * @return whether their languages intersect
     */
    public static boolean overlap(String p, String q) {
        for (String a : forms(p)) for (String b : forms(q)) if (globsIntersect(a, b)) return true;
        return false;
    }

    private static List<String> forms(String pattern) {
        String p = pattern.endsWith(":*") ? pattern.substring(0, pattern.length() - 2) + " *" : pattern;
        if (p.length() >= 2 && p.endsWith(" *")) return List.of(p, p.substring(0, p.length() - 2));
        return List.of(p);
    }

    /** Dynamic programming over the two globs: is there a string both match? */
    private static boolean globsIntersect(String a, String b) {
        int n = a.length(), m = b.length();
        boolean[][] can = new boolean[n + 1][m + 1];
        can[n][m] = true;
        for (int i = n; i >= 0; i--) {
            for (int j = m; j >= 0; j--) {
                if (i == n && j == m) continue;
                boolean r = false;
                char x = i < n ? a.charAt(i) : 0, y = j < m ? b.charAt(j) : 0;
                if (i < n && x == '*') r = can[i + 1][j] || (j < m && can[i][j + 1]);
                if (!r && j < m && y == '*') r = can[i][j + 1] || (i < n && can[i + 1][j]);
                if (!r && i < n && j < m && x != '*' && y != '*') r = x == y && can[i + 1][j + 1];
                can[i][j] = r;
            }
        }
        return can[0][0];
    }

    /** The calls of a suggestion, grouped by command text, for printing: command → count. */
    public static Map<String, Integer> byCommand(Suggestion s) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (Approved a : s.approved()) out.merge(a.call().command(), 1, Integer::sum);
        return out;
    }
}
