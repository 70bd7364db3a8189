package dev.compoundbash.oracle;

import dev.compoundbash.facts.ProgramSchemas;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The coverage oracle for subcommands (issue 18, Deliver 4): {@link ProgramCoverageOracleTest} reads each program's
 * top-level help; this one reads the help of every subcommand the schemas list ({@code git CMD -h} and its manual,
 * {@code npm CMD --help}, {@code cargo CMD --help}, {@code go help CMD}, {@code gh|docker|kubectl CMD --help}) for
 * every installed program whose schema has subcommands, and checks each option it lists, in two modes: no permission
 * rules, and the rules users really have, allow {@code Bash(PROG *)} and deny {@code Bash(rm *)}. An option passes
 * when
 * <ul>
 *   <li>a complete option table on the subcommand's path declares it (or any table gives it a role), and an option
 *       whose role is {@code runs}, {@code script} or {@code code} (it can pick what runs) asks (or denies) in the
 *       second mode; or</li>
 *   <li>the command with it is not {@code allow} in either mode (the closed world makes it unapprovable).</li>
 * </ul>
 * Anything else is silently approved: a failure, named {@code PROG SUBCOMMAND<TAB>OPTION<TAB>schema file}. The gaps
 * known when this oracle was written are in {@code src/test/resources/coverage/subcommand-known-gaps.txt}; a line
 * {@code PROG SUBCOMMAND<TAB>*} names a level that has no option table yet (every option of it is a known gap; once a
 * complete table is written the line must go: the test fails on a stale one). A new gap fails.
 *
 * <p>Budget: {@code -Dcoverage.subcommands} levels per program (default 5, the everyday ones first; {@code -Pfull} 0 =
 * every level) and {@code -Dcoverage.options} options per level (default 25, {@code -Pfull} 0 = all). The report is
 * {@code target/subcommand-coverage-oracle.txt}. Programs not on PATH are skipped.
 */
class SubcommandCoverageOracleTest {

    /** The levels checked first under a budget: the forms agents run most (the rest follow in the schema's order). */
    static final List<String> EVERYDAY = List.of("status", "diff", "log", "show", "grep", "branch", "rev-parse",
            "ls-files", "blame", "describe", "tag", "remote", "stash", "get", "describe", "logs", "ps", "images",
            "list", "view", "pr view", "pr list", "issue view", "build", "test", "vet", "version", "env", "ls",
            "outdated", "check", "metadata", "tree", "config view", "container ls", "image ls");

    /** Roles that let an option pick what runs: under a deny rule such an option must ask. */
    static final Set<String> PICKS = Set.of("runs", "script", "code");

    /** One option spelling at the start of a help entry, with what follows it up to the next entry. */
    static final Pattern SPELLING = Pattern.compile("(?<![\\w\\[-])(--?[A-Za-z0-9?][\\w.-]*)");

    /** One option a help text lists: its spelling and whether it takes a value (0 none, 1 required, 2 optional). */
    record Listed(String spelling, int arity) {
    }

    /** A subcommand level of a schema: its words and the nodes from the top down. */
    record Level(List<String> words, List<ProgramSchemas.Node> nodes) {
        String path() {
            return String.join(" ", words);
        }
    }

    /**
     * Takes a help text (usage lines, GNU/cobra/clap option entries, a manual's entries, npm's bracketed usage);
     * returns the options its entries list, with their arity.
     */
    static List<Listed> parse(String help) {
        Map<String, Listed> out = new LinkedHashMap<>();
        for (String line : help.split("\n")) {
            String t = line.strip();
            if (t.startsWith("[") && t.contains("-")) {
                // npm: [-S|--save|--no-save] [--workspace <workspace-name> [--workspace <workspace-name> ...]]
                // one group [-c|--call <call>]: the value after its last spelling belongs to every spelling of it
                for (String group : t.split("\\[")) {
                    String g = group.split("]", 2)[0].strip();
                    boolean valued = g.matches(".*\\s<[^>]+>(\\s.*)?$");
                    for (String w : g.split("\\|")) {
                        Matcher m = Pattern.compile("^(--?[A-Za-z][\\w-]*)").matcher(w.strip());
                        if (m.find()) out.putIfAbsent(m.group(1), new Listed(m.group(1), valued ? 1 : 0));
                    }
                }
                continue;
            }
            if (!t.startsWith("-") || t.startsWith("--- ") || t.equals("--")) continue;
            if (line.length() - line.stripLeading().length() > 12) continue; // a continued description
            String head = t.split("\\s{2,}|\\t", 2)[0];
            List<Listed> entry = new ArrayList<>();
            List<Boolean> written = new ArrayList<>();
            for (String piece : head.split(",\\s*|\\s+or\\s+|\\s+(?=--?[A-Za-z0-9])")) {
                piece = piece.strip();
                Matcher m = SPELLING.matcher(piece);
                if (!m.lookingAt()) continue;
                String s = m.group(1);
                if (s.equals("-") || s.equals("--") || s.endsWith("-") || s.endsWith(".")) continue;
                if (s.matches("-\\d+")) continue; // -<n>: a count, not an option word
                String rest = piece.substring(m.end());
                int arity;
                if (rest.isEmpty()) arity = 0;
                else if (rest.startsWith("[")) arity = 2;
                else if (rest.matches("=(false|true):?.*")) arity = 0; // kubectl's bool flags: --all=false:
                else if (rest.matches("(=|\\s?<|\\s\\S).*")) arity = 1;
                else arity = 0;
                entry.add(new Listed(s, arity));
                written.add(!rest.isEmpty());
            }
            // GNU style: the value written after the last spelling of an entry belongs to every spelling of it
            for (int i = entry.size() - 2; i >= 0; i--)
                if (!written.get(i) && entry.get(i + 1).arity() != 0)
                    entry.set(i, new Listed(entry.get(i).spelling(), entry.get(i + 1).arity()));
            for (Listed o : entry) {
                Listed was = out.get(o.spelling());
                // listed once with a value and once without: the value is optional
                out.put(o.spelling(), was == null || was.arity() == o.arity() ? o : new Listed(o.spelling(), 2));
            }
        }
        return new ArrayList<>(out.values());
    }

    /** Takes a schema; returns its subcommand levels (no {@code sameAs} shortcut), depth first, in the schema's order. */
    static List<Level> levels(ProgramSchemas.Schema s) {
        List<Level> out = new ArrayList<>();
        walk(s.subcommands(), new ArrayList<>(), new ArrayList<>(), out);
        return out;
    }

    private static void walk(Map<String, ProgramSchemas.Node> subs, List<String> words, List<ProgramSchemas.Node> nodes,
                             List<Level> out) {
        for (Map.Entry<String, ProgramSchemas.Node> e : subs.entrySet()) {
            ProgramSchemas.Node n = e.getValue();
            if (!n.sameAs().isEmpty()) continue;
            List<String> w = new ArrayList<>(words);
            w.add(e.getKey());
            List<ProgramSchemas.Node> ns = new ArrayList<>(nodes);
            ns.add(n);
            out.add(new Level(w, ns));
            walk(n.subcommands(), w, ns, out);
        }
    }

    /** The option tables that apply at a level: the persistent ones of the levels above, and its own. */
    static List<ProgramSchemas.OptionTable> tables(ProgramSchemas.Schema s, Level l) {
        List<ProgramSchemas.OptionTable> out = new ArrayList<>();
        if (s.options() != null && s.options().persistent()) out.add(s.options());
        for (int i = 0; i < l.nodes().size(); i++) {
            ProgramSchemas.OptionTable t = l.nodes().get(i).options();
            if (t == null) continue;
            if (i == l.nodes().size() - 1 || t.persistent()) out.add(t);
        }
        return out;
    }

    /**
     * Takes the tables of a level and a spelling; returns its role when a table models it, else null. A negation
     * {@code --no-NAME} of nopt or parse-options is inert; a cluster of short flags ({@code -vv}, {@code -la}) is
     * modelled when each letter is, up to the first that takes a value (the rest of the word is its value).
     */
    static String modelledRole(List<ProgramSchemas.OptionTable> tables, String spelling) {
        for (ProgramSchemas.OptionTable t : tables) {
            Set<String> spelled = new TreeSet<>();
            ProgramCoverageOracleTest.addTable(spelled, t);
            if (("nopt".equals(t.style()) || "parse-options".equals(t.style()))
                    && spelling.startsWith("--no-") && spelled.contains("--" + spelling.substring(5))) {
                ProgramSchemas.Declared d = t.declaredOption("--" + spelling.substring(5));
                if (d == null || !d.valued()) return "inert"; // --no-ext-diff: the flag turned off
                return t.role("--" + spelling.substring(5));
            }
            if (!spelled.contains(spelling) && spelling.matches("-[A-Za-z0-9]{2,}") && t.declared().size() > 0) {
                String role = "inert";
                for (int i = 1; i < spelling.length(); i++) {
                    ProgramSchemas.Declared d = t.declaredOption("-" + spelling.charAt(i));
                    if (d == null) {
                        role = null;
                        break;
                    }
                    if (!d.role().equals("inert")) role = d.role();
                    if (d.valued()) break;
                }
                if (role != null) return role;
                continue;
            }
            if (!spelled.contains(spelling)) continue;
            String role = t.role(spelling);
            if (!t.partial() || !role.equals("inert")) return role;
        }
        return null;
    }

    /** Takes a level; true when some table there is complete (the closed world judges it). */
    static boolean judged(List<ProgramSchemas.OptionTable> tables) {
        for (ProgramSchemas.OptionTable t : tables) if (!t.partial()) return true;
        return false;
    }

    /** Takes a program and a level; returns the help texts that list its options (its own help, for git its manual). */
    static String help(Path cwd, String program, List<String> words) {
        List<String> argv = new ArrayList<>();
        argv.add(program);
        switch (program) {
            case "go" -> {
                argv.add("help");
                argv.addAll(words);
            }
            case "git" -> {
                argv.addAll(words);
                argv.add("-h");
            }
            default -> {
                argv.addAll(words);
                argv.add("--help");
            }
        }
        String out = run(cwd, argv.toArray(String[]::new));
        if (program.equals("git") && words.size() == 1 && new File("/usr/share/man/man1/git-" + words.get(0) + ".1.gz").isFile())
            out += "\n" + run(cwd, "man", "-P", "cat", "git-" + words.get(0));
        return out;
    }

    static String run(Path cwd, String... argv) {
        try {
            ProcessBuilder pb = new ProcessBuilder(argv).directory(cwd.toFile()).redirectErrorStream(true)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Map<String, String> env = pb.environment();
            env.put("PAGER", "cat");
            env.put("MANPAGER", "cat");
            env.put("GIT_PAGER", "cat");
            env.put("MANWIDTH", "200");
            env.put("COLUMNS", "200");
            env.put("LC_ALL", "C");
            env.put("GIT_CONFIG_NOSYSTEM", "1");
            env.put("GIT_CONFIG_GLOBAL", "/dev/null");
            env.put("NO_COLOR", "1");
            env.put("GH_NO_UPDATE_NOTIFIER", "1");
            env.put("DOCKER_CLI_HINTS", "false");
            Process p = pb.start();
            byte[] b = p.getInputStream().readNBytes(1 << 20);
            if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly();
            return new String(b, StandardCharsets.UTF_8);
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }

    /**
     * Takes a level, an option and its role (or null); returns the command that gives it, with a value when it takes
     * one: {@code x}, or for an option that picks what runs the denied command ({@code rm x} for shell text or code,
     * {@code rm} for a program), so that the check sees whether the deny rule still holds.
     */
    static String command(String program, Level l, Listed o, String role) {
        String opt = o.spelling();
        String v = role == null || !PICKS.contains(role) ? "x" : role.equals("runs") ? "rm" : "rm x";
        boolean valued = o.arity() == 1 || o.arity() == 2 && role != null && PICKS.contains(role);
        String word = !valued ? ProgramCoverageOracleTest.quote(opt)
                : opt.startsWith("--") || o.arity() == 2 ? ProgramCoverageOracleTest.quote(opt + (opt.startsWith("--") ? "=" : "") + v)
                : ProgramCoverageOracleTest.quote(opt) + " " + ProgramCoverageOracleTest.quote(v);
        return program + " " + l.path() + " " + word;
    }

    @Test
    void everySubcommandOptionIsModelledOrUnapprovable() throws IOException {
        int levelBudget = Integer.getInteger("coverage.subcommands", 5);
        int optionBudget = Integer.getInteger("coverage.options", 25);
        RuleEngine engine = RuleEngine.load(List.of());
        Path cwd = Files.createDirectories(Path.of("target", "subcommand-coverage-oracle")).toAbsolutePath();
        if (!Files.isDirectory(cwd.resolve(".git"))) run(cwd, "git", "init", "-q", ".");
        PermissionSettings none = new PermissionSettings(List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
        Set<String> known = new TreeSet<>();
        Path gaps = Path.of("src/test/resources/coverage/subcommand-known-gaps.txt");
        if (Files.exists(gaps))
            for (String l : Files.readAllLines(gaps)) if (!l.isBlank() && !l.startsWith("#")) known.add(l.strip());
        Set<String> failures = new TreeSet<>();
        Set<String> stale = new TreeSet<>();
        Set<String> wildcardsUsed = new TreeSet<>();
        StringBuilder report = new StringBuilder(
                "# level\tlisted\tchecked\tmodelled\tunapprovable\tfailures\ttable\n");
        int tLevels = 0, tChecked = 0, tFail = 0;
        Map<String, ProgramSchemas.Schema> all = new TreeMap<>();
        for (ProgramSchemas.Schema s : ProgramSchemas.all().values()) all.putIfAbsent(s.file(), s);
        for (ProgramSchemas.Schema s : all.values()) {
            String name = s.name();
            if (s.subcommands().isEmpty() || ProgramCoverageOracleTest.onPath(name) == null) continue;
            PermissionSettings user = new PermissionSettings(List.of("Bash(" + name + " *)"), List.of(),
                    List.of("Bash(rm *)"), List.of(), List.of(), List.of());
            List<Level> levels = levels(s);
            List<Level> order = new ArrayList<>();
            for (String e : EVERYDAY) for (Level l : levels) if (l.path().equals(e) && !order.contains(l)) order.add(l);
            for (Level l : levels) if (!order.contains(l)) order.add(l);
            int done = 0;
            for (Level l : order) {
                if (levelBudget > 0 && done >= levelBudget) break;
                List<Listed> listed = parse(help(cwd, name, l.words()));
                if (listed.isEmpty()) continue;
                done++;
                tLevels++;
                List<ProgramSchemas.OptionTable> tables = tables(s, l);
                boolean judged = judged(tables);
                String wildcard = name + " " + l.path() + "\t*";
                if (known.contains(wildcard) && judged) stale.add(wildcard + "\t(the level has a complete table now)");
                int checked = 0, mod = 0, unappr = 0, fail = 0;
                for (Listed o : listed) {
                    if (optionBudget > 0 && checked >= optionBudget) break;
                    if (o.spelling().equals("-h") || o.spelling().equals("--help")) continue;
                    checked++;
                    String role = modelledRole(tables, o.spelling());
                    String command = command(name, l, o, role);
                    String plain = Decider.decide(new Decider.Call(command, cwd.toString(), null, none, null), engine).outcome();
                    String users = Decider.decide(new Decider.Call(command, cwd.toString(), null, user, null), engine).outcome();
                    String gap = name + " " + l.path() + "\t" + o.spelling() + "\t" + s.file();
                    if (role != null && PICKS.contains(role)) {
                        if (users.equals("ask") || users.equals("deny")) {
                            mod++;
                            continue;
                        }
                        gap += "\t(role " + role + ", " + users + " under allow Bash(" + name + " *) + deny Bash(rm *))";
                    } else if (role != null) {
                        mod++;
                        continue;
                    } else if (!plain.equals("allow") && !users.equals("allow")) {
                        unappr++;
                        continue;
                    }
                    if (known.contains(wildcard) && !judged) {
                        wildcardsUsed.add(wildcard);
                    } else if (!known.contains(gap)) {
                        fail++;
                    }
                    failures.add(gap);
                }
                tChecked += checked;
                tFail += fail;
                report.append(name).append(' ').append(l.path()).append('\t').append(listed.size()).append('\t')
                        .append(checked).append('\t').append(mod).append('\t').append(unappr).append('\t')
                        .append(fail).append('\t').append(judged ? "complete" : tables.isEmpty() ? "none" : "partial")
                        .append('\n');
            }
        }
        Set<String> fresh = new TreeSet<>();
        for (String f : failures) {
            String wildcard = f.substring(0, f.indexOf('\t')) + "\t*";
            if (!known.contains(f) && !wildcardsUsed.contains(wildcard)) fresh.add(f);
        }
        if (levelBudget == 0 && optionBudget == 0)
            for (String k : known) if (!k.endsWith("\t*") && !failures.contains(k)) stale.add(k + "\t(no longer a gap)");
        report.append("# total: ").append(tLevels).append(" levels, ").append(tChecked).append(" options checked, ")
                .append(failures.size()).append(" silently approved (").append(failures.size() - fresh.size())
                .append(" known), ").append(wildcardsUsed.size()).append(" levels without a table\n");
        for (String f : failures) report.append(fresh.contains(f) ? "NEW\t" : "known\t").append(f).append('\n');
        for (String f : stale) report.append("STALE\t").append(f).append('\n');
        Files.writeString(Path.of("target", "subcommand-coverage-oracle.txt"), report.toString());
        System.out.print(report.toString().lines().filter(x -> !x.startsWith("known"))
                .reduce("", (a, b) -> a + b + "\n"));
        assertThat(fresh).as("subcommand options their help lists that the schema neither models nor makes "
                + "unapprovable (level, option, schema file; target/subcommand-coverage-oracle.txt)").isEmpty();
        assertThat(stale).as("known gaps that are fixed: remove them from subcommand-known-gaps.txt").isEmpty();
    }
}
