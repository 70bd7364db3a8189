package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.compoundbash.audit.DecisionLog;
import dev.compoundbash.daemon.Protocol;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.UserRules;
import dev.compoundbash.rules.BashPattern;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.settings.SettingsLoader;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The checks of {@code compound-bash doctor} (issue 15): what a user needs to know when "the hook is not firing" or
 * "nothing auto-approves". Each check reads the machine as the hook would (the environment's {@code HOME},
 * {@code CLAUDE_CONFIG_DIR}, {@code CLAUDE_PROJECT_DIR}, the launcher's {@code COMPOUND_BASH_*} variables) and says
 * what to do. Where Claude Code keeps hooks and plugins follows Claude Code 2.1.328 as measured: settings
 * {@code hooks.PreToolUse[] = {matcher, hooks: [{type, command}]}}, {@code enabledPlugins} ({@code "name@marketplace":
 * true}), {@code disableAllHooks}, and {@code plugins/installed_plugins.json} ({@code plugins.NAME[].installPath})
 * beside the user settings, written by {@code claude plugin install}.
 */
public final class Doctor {
    /** A check's outcome: {@code ok}, {@code warn} (works, but worth knowing) or {@code fail} (broken). */
    public enum Status { OK, WARN, FAIL }

    /**
     * One check.
     *
     * @param name    short name ({@code java}, {@code jar}, ...)
     * @param status  the outcome
     * @param summary one line
     * @param details further lines (files, log lines, ...)
     * @param fix     what to do; null when nothing needs doing
     */
    public record Check(String name, Status status, String summary, List<String> details, String fix) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Map<String, String> env;
    private final Path root;
    private final Path jar;
    private final boolean roundTrip;

    /**
     * @param env       the environment, as the hook would see it ({@code CLAUDE_PROJECT_DIR} unset: the current
     *                  directory is the project, as when Claude Code starts there)
     * @param roundTrip whether to run the hook process for the round-trip check
     */
    public Doctor(Map<String, String> env, boolean roundTrip) {
        Map<String, String> e = new HashMap<>(env);
        if (e.get("CLAUDE_PROJECT_DIR") == null || e.get("CLAUDE_PROJECT_DIR").isEmpty()) {
            e.put("CLAUDE_PROJECT_DIR", Path.of("").toAbsolutePath().toString());
        }
        this.env = e;
        this.root = installationRoot(env);
        String j = env.get("COMPOUND_BASH_JAR");
        this.jar = j != null && !j.isEmpty() ? Path.of(j)
                : root != null ? root.resolve("target").resolve("compound-bash.jar") : null;
        this.roundTrip = roundTrip;
    }

    /** The checkout or plugin directory: {@code $COMPOUND_BASH_HOME} (the launcher sets it), else beside the jar. */
    static Path installationRoot(Map<String, String> env) {
        String home = env.get("COMPOUND_BASH_HOME");
        if (home != null && !home.isEmpty()) return Path.of(home).toAbsolutePath().normalize();
        try {
            Path code = Path.of(Doctor.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            Path parent = code.getParent();
            return parent != null && parent.getParent() != null ? parent.getParent() : null;
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * Runs every check, in the order a user would fix them.
     *
     * @return the checks; never empty
     */
    public List<Check> run() {
        List<Check> out = new ArrayList<>();
        out.add(java());
        out.add(jar());
        out.add(archive());
        out.add(evaluator());
        PermissionSettings settings = SettingsLoader.load(env);
        out.add(registration(settings));
        out.add(settings(settings));
        out.add(rules());
        out.add(logs());
        if (roundTrip) out.add(roundTrip());
        for (String agent : dev.compoundbash.hook.AgentProtocol.AGENTS) {
            Check c = AgentInstaller.check(agent, env, Path.of("").toAbsolutePath(), agents.contains(agent));
            if (c != null) out.add(c);
        }
        return out;
    }

    /** The agents whose check {@code doctor --agent} asks for even when nothing of ours is installed there. */
    private List<String> agents = List.of();

    /**
     * Reports these agents' hooks even where none is installed.
     *
     * @param names {@code codex}, {@code gemini}, {@code copilot}
     * @return this
     */
    public Doctor withAgents(List<String> names) {
        this.agents = List.copyOf(names);
        return this;
    }

    // ---- java ---------------------------------------------------------------------------------------------------

    Check java() {
        Runtime.Version v = Runtime.version();
        String what = System.getProperty("java.vm.vendor", "?") + " " + v + " at " + System.getProperty("java.home");
        if (v.feature() < 17) {
            return new Check("java", Status.FAIL, "Java " + v.feature() + " is too old: " + what, List.of(),
                    "install JDK 17 or newer and put its bin directory first on PATH");
        }
        return new Check("java", Status.OK, what, List.of(), null);
    }

    // ---- jar and build ------------------------------------------------------------------------------------------

    Check jar() {
        if (root == null || jar == null) {
            return new Check("jar", Status.WARN, "cannot tell where this installation is (no COMPOUND_BASH_HOME)",
                    List.of(), "run doctor through bin/compound-bash");
        }
        Path failed = root.resolve("target").resolve("build.failed");
        Path log = root.resolve("target").resolve("build.log");
        if (!Files.isRegularFile(jar)) {
            List<String> details = new ArrayList<>();
            if (Files.exists(failed)) {
                details.add("the last build failed (" + read(failed).strip() + "); its log: " + log);
                details.addAll(tail(log, 15));
                return new Check("jar", Status.FAIL, "not built: the build failed", details,
                        "fix what the log's last lines say, then run " + root.resolve("bin/compound-bash")
                                + " --version to build in the foreground");
            }
            return new Check("jar", Status.FAIL, jar + " is missing", details,
                    "run " + root.resolve("bin/compound-bash") + " --version to build it (needs only a JDK 17: "
                            + "the Maven Wrapper fetches Maven)");
        }
        List<String> details = new ArrayList<>();
        details.add(jar + " (" + size(jar) / 1024 + " KiB, built " + mtime(jar) + ")");
        Status status = Status.OK;
        String fix = null;
        if (Files.exists(failed) && newer(failed, jar)) {
            status = Status.WARN;
            details.add("a later build failed (" + read(failed).strip() + "); its log: " + log);
            details.addAll(tail(log, 10));
            fix = "fix what the log says and rebuild: " + root.resolve("mvnw") + " -B -q -DskipTests package";
        }
        Path newest = newestSource();
        if (newest != null && newer(newest, jar)) {
            status = Status.WARN;
            details.add("older than the sources: " + newest + " changed " + mtime(newest));
            fix = "rebuild: cd " + root + " && ./mvnw -B -q -DskipTests package";
        }
        return new Check("jar", status, "built, version " + Version.get(), details, fix);
    }

    private Path newestSource() {
        List<Path> roots = List.of(root.resolve("pom.xml"), root.resolve("src").resolve("main"));
        Path best = null;
        for (Path r : roots) {
            if (!Files.exists(r)) continue;
            try (Stream<Path> s = Files.walk(r)) {
                Optional<Path> p = s.filter(Files::isRegularFile)
                        .max(Comparator.comparing(Doctor::modified));
                if (p.isPresent() && (best == null || newer(p.get(), best))) best = p.get();
            } catch (IOException | RuntimeException e) {
                // unreadable sources tell nothing
            }
        }
        return best;
    }

    // ---- class-data archive ------------------------------------------------------------------------------------

    Check archive() {
        if ("0".equals(env.get("COMPOUND_BASH_CDS"))) {
            return new Check("class-data archive", Status.OK, "turned off (COMPOUND_BASH_CDS=0)", List.of(), null);
        }
        String a = env.get("COMPOUND_BASH_CDS_ARCHIVE");
        if (a == null || a.isEmpty()) {
            return new Check("class-data archive", Status.WARN, "unknown: doctor was not run by bin/compound-bash",
                    List.of(), "run " + (root != null ? root.resolve("bin/compound-bash") : "bin/compound-bash") + " doctor");
        }
        Path jsa = Path.of(a);
        if (!Files.isRegularFile(jsa)) {
            return new Check("class-data archive", Status.WARN, "not trained yet: " + jsa, List.of(
                    "the first cold call trains it in the background; until then a cold call takes about 1 s"),
                    "run " + launcher() + " warm --wait (it trains the archive and starts the evaluator, on either "
                            + "route; it changes no settings)");
        }
        if (jar != null && Files.isRegularFile(jar) && newer(jar, jsa)) {
            return new Check("class-data archive", Status.WARN, "older than the jar: " + jsa,
                    List.of("the next cold call trains it again"), null);
        }
        if (jar == null || !Files.isRegularFile(jar)) {
            return new Check("class-data archive", Status.OK, jsa + " (" + mtime(jsa) + ")", List.of(), null);
        }
        // Map it as the launcher does, but insist (-Xshare:on) and let the JVM say why it cannot.
        List<String> cmd = new ArrayList<>();
        cmd.add(javaBinary());
        for (String f : env.getOrDefault("COMPOUND_BASH_JVM_FLAGS", "").split("\\s+")) {
            if (!f.isEmpty() && !f.startsWith("-Xlog")) cmd.add(f);
        }
        cmd.addAll(List.of("-Xshare:on", "-XX:SharedArchiveFile=" + jsa, "-Xlog:disable", "-Xlog:cds=error:stderr",
                "-jar", jar.toString(), "--version"));
        ProcResult r = exec(cmd, null, Map.of(), 60);
        if (r.exit() == 0) {
            return new Check("class-data archive", Status.OK, jsa + " (trained " + mtime(jsa) + ") maps", List.of(), null);
        }
        return new Check("class-data archive", Status.WARN, "does not map: " + jsa, firstLines(r.stderr(), 3),
                "remove it (rm " + jsa + "); the next cold call trains a new one");
    }

    // ---- evaluator --------------------------------------------------------------------------------------------

    /** The evaluator's runtime directory: the launcher's ({@code COMPOUND_BASH_RUNTIME_DIR}), else the protocol's. */
    private Path runtimeDirectory() {
        String d = env.get("COMPOUND_BASH_RUNTIME_DIR");
        return d != null && !d.isEmpty() ? Path.of(d) : Protocol.runtimeDirectory(env);
    }

    Check evaluator() {
        Path dir = runtimeDirectory();
        if (dir == null) {
            return new Check("evaluator", Status.WARN, "no runtime directory: neither XDG_RUNTIME_DIR nor HOME is set",
                    List.of(), "set HOME; every call runs cold until then");
        }
        Optional<List<String>> info = Protocol.running(dir);
        if (info.isEmpty()) {
            return new Check("evaluator", Status.OK, "not running (" + dir + "); the next Bash call starts it",
                    List.of("it stops after COMPOUND_BASH_IDLE_MINUTES (default 30) idle minutes"), null);
        }
        long pid = Long.parseLong(info.get().get(0).trim());
        Map<String, String> fields = new HashMap<>();
        for (String line : info.get().subList(1, info.get().size())) {
            int eq = line.indexOf('=');
            if (eq > 0) fields.put(line.substring(0, eq), line.substring(eq + 1));
        }
        String rss = statusField(pid, "VmRSS");
        String summary = "running: pid " + pid + ", version " + fields.getOrDefault("version", "?")
                + (rss != null ? ", " + rss + " resident" : "") + ", since " + fields.getOrDefault("started", "?");
        List<String> details = List.of("runtime directory " + dir, "jar " + fields.getOrDefault("jar", "?"));
        if (!Version.get().equals(fields.get("version"))
                || (jar != null && !jar.toString().equals(fields.get("jar")))) {
            return new Check("evaluator", Status.WARN, summary, details,
                    "it runs another build; " + launcher() + " daemon stop, and the next call starts this one");
        }
        return new Check("evaluator", Status.OK, summary, details, null);
    }

    private static String statusField(long pid, String field) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith(field + ":")) {
                    String kb = line.substring(field.length() + 1).strip().replace(" kB", "");
                    return String.format("%.0f MB", Long.parseLong(kb) / 1024.0);
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or the process is gone
        }
        return null;
    }

    // ---- where the hook is registered --------------------------------------------------------------------------

    Check registration(PermissionSettings settings) {
        Registrations.Found found = Registrations.find(settings.filesRead(), env);
        List<String> details = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        for (Path f : found.disabled()) problems.add(f + ": \"disableAllHooks\": true turns every hook off");
        for (Registrations.Entry e : found.entries()) {
            details.add(e.file() + ": PreToolUse entry (matcher \"" + e.matcher() + "\") runs " + e.command());
            if (!matchesBash(e.matcher())) problems.add(e.file() + ": the matcher \"" + e.matcher() + "\" does not match Bash");
            Path launcher = launcherOf(e.command());
            if (launcher != null && !Files.isExecutable(launcher)) {
                problems.add(e.file() + ": the hook command's launcher " + launcher + " is missing or not executable");
            } else if (launcher != null) {
                Path other = launcher.getParent() == null || launcher.getParent().getParent() == null ? null
                        : launcher.getParent().getParent();
                if (other != null) details.addAll(buildState("  its installation", other));
            }
        }
        // the plugin route: what Claude Code really runs (the checkout of a local marketplace, else its copy)
        Path elsewhere = null;
        String buildFix = null;
        boolean unrecorded = false;
        for (Registrations.Plugin p : found.plugins()) {
            details.add(p.file() + ": enabledPlugins \"" + p.key() + "\": true");
            if (p.roots().isEmpty()) {
                unrecorded = true;
                details.add("  no installation of " + p.key() + " is recorded in plugins/installed_plugins.json");
            }
            for (Registrations.Root r : p.roots()) {
                details.add("  Claude Code runs " + r.dir().resolve("bin").resolve("compound-bash") + " hook ("
                        + (r.how().equals("checkout") ? "the checkout its marketplace was added from"
                        : "the copy Claude Code installed") + ")");
                details.addAll(buildState("  there", r.dir()));
                if (!Files.isRegularFile(r.dir().resolve("target").resolve("compound-bash.jar"))) {
                    buildFix = "build the jar Claude Code runs now: " + r.dir().resolve("bin").resolve("compound-bash")
                            + " --version (else the first Bash call builds it in the background and defers)";
                }
                if (root != null && !sameDirectory(r.dir(), root)) elsewhere = r.dir();
            }
        }
        if (!problems.isEmpty()) {
            return new Check("hook registration", Status.FAIL, problems.get(0), details(details, problems),
                    !found.disabled().isEmpty() ? "remove \"disableAllHooks\" from that settings file"
                            : "run " + launcher() + " uninstall, then install (or fix the entry by hand)");
        }
        if (found.entries().isEmpty() && found.plugins().isEmpty()) {
            return new Check("hook registration", Status.FAIL, "the hook is not registered in any settings file read",
                    details, "run " + launcher() + " install, or in Claude Code: /plugin install compound-bash@compound-bash");
        }
        if (found.pluginActive() && !found.entries().isEmpty()) {
            return new Check("hook registration", Status.WARN,
                    "registered twice: the plugin and a settings entry both run the hook on every Bash call", details,
                    "keep one: " + launcher() + " uninstall (keeps the plugin), or "
                            + Registrations.disableAdvice(found.plugins().get(0).key()));
        }
        if (found.entries().size() > 1) {
            return new Check("hook registration", Status.WARN, "registered in " + found.entries().size()
                    + " settings files: the hook runs once for each", details, "remove all but one");
        }
        if (found.pluginActive()) {
            String key = found.plugins().get(0).key();
            if (unrecorded) {
                return new Check("hook registration", Status.WARN, "the plugin " + key + " is enabled but not installed",
                        details, "in Claude Code: /plugin install " + key);
            }
            if (elsewhere != null) {
                return new Check("hook registration", Status.WARN, "by the plugin " + key + ", which runs " + elsewhere
                        + ", not this installation (" + root + ")", details,
                        "check what Claude Code runs: " + elsewhere.resolve("bin").resolve("compound-bash") + " doctor");
            }
            if (buildFix != null) {
                return new Check("hook registration", Status.WARN, "by the plugin " + key + "; its jar is not built yet",
                        details, buildFix);
            }
            return new Check("hook registration", Status.OK, "by the plugin " + key, details, null);
        }
        return new Check("hook registration", Status.OK, "by a PreToolUse entry in " + found.entries().get(0).file(),
                details, null);
    }

    /** True when two paths name one directory (links followed where they exist). */
    private static boolean sameDirectory(Path a, Path b) {
        try {
            return a.toRealPath().equals(b.toRealPath());
        } catch (IOException e) {
            return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
        }
    }

    private static List<String> details(List<String> details, List<String> problems) {
        List<String> out = new ArrayList<>(problems);
        for (String d : details) if (!out.contains(d)) out.add(d);
        return out;
    }

    /** One line about the jar and the build in another installation directory. */
    private static List<String> buildState(String label, Path dir) {
        Path jar = dir.resolve("target").resolve("compound-bash.jar");
        if (Files.isRegularFile(jar)) return List.of(label + ": jar built " + mtime(jar));
        Path failed = dir.resolve("target").resolve("build.failed");
        if (Files.exists(failed)) {
            return List.of(label + ": no jar, the build failed; log " + dir.resolve("target").resolve("build.log"));
        }
        return List.of(label + ": no jar yet (the first Bash call builds it in the background)");
    }

    /** Claude Code matchers: empty or {@code *} match every tool; otherwise a regular expression over the name. */
    static boolean matchesBash(String matcher) {
        if (matcher == null || matcher.isEmpty() || matcher.equals("*")) return true;
        try {
            return Pattern.compile(matcher).matcher("Bash").matches();
        } catch (RuntimeException e) {
            return matcher.equals("Bash");
        }
    }

    /** The launcher path of a hook command {@code PATH hook} (plain or single-quoted), or null when not a path. */
    static Path launcherOf(String command) {
        String c = command.strip();
        if (c.endsWith("hook")) c = c.substring(0, c.length() - 4).strip();
        if (c.startsWith("'") && c.endsWith("'") && c.length() >= 2) c = c.substring(1, c.length() - 1).replace("'\\''", "'");
        else if (c.startsWith("\"") && c.endsWith("\"") && c.length() >= 2) c = c.substring(1, c.length() - 1);
        if (c.contains("${") || c.contains("$CLAUDE")) return null; // a plugin variable: resolved by Claude Code
        if (!c.startsWith("/")) return null;
        try {
            return Path.of(c);
        } catch (RuntimeException e) {
            return null;
        }
    }

    // ---- settings files ------------------------------------------------------------------------------------------

    Check settings(PermissionSettings settings) {
        List<String> details = new ArrayList<>();
        for (Path f : settings.filesRead()) {
            PermissionSettings one = SettingsLoader.loadFiles(List.of(f));
            details.add(f + ": allow " + count(one.allow()) + ", ask " + count(one.ask()) + ", deny "
                    + count(one.deny()) + ", additionalDirectories " + one.additionalDirectories().size());
        }
        if (settings.managedRulesOnly()) details.add("allowManagedPermissionRulesOnly: only the managed files' rules count");
        // rules written across control operators (issue 20, finding 10): how each kind is read
        for (String kind : List.of("deny", "ask", "allow")) {
            List<String> rules = kind.equals("deny") ? settings.deny() : kind.equals("ask") ? settings.ask() : settings.allow();
            for (String r : rules) {
                if (!BashPattern.spansOperators(BashPattern.innerPattern(r))) continue;
                details.add(kind + " rule " + r + " spans control operators: " + (kind.equals("allow")
                        ? "the hook approves nothing by it (Claude Code itself may approve exactly that whole command)"
                        : "matched against every pipeline and list, at any depth (Claude Code matches it only against "
                        + "the whole command)"));
            }
        }
        List<String> broken = new ArrayList<>(), odd = new ArrayList<>();
        for (String w : settings.warnings()) {
            if (w.contains("skipped") && !w.contains("HOME is not set")) broken.add(w);
            else odd.add(w);
        }
        List<String> all = new ArrayList<>(broken);
        all.addAll(odd);
        all.addAll(details);
        String read = settings.filesRead().size() + " file(s) read (project: " + env.get("CLAUDE_PROJECT_DIR") + ")";
        if (!broken.isEmpty()) {
            String first = broken.get(0);
            int colon = first.indexOf(": ");
            return new Check("settings", Status.FAIL, broken.size() + " file(s) skipped, first "
                    + (colon > 0 ? first.substring(0, colon) : first), all,
                    "fix the file at the line:column named; the hook and Claude Code "
                            + "skip it, and with it any deny rule it holds");
        }
        if (!odd.isEmpty()) {
            return new Check("settings", Status.WARN, read + "; " + odd.get(0), all, "fix the entries named");
        }
        if (settings.filesRead().isEmpty()) {
            return new Check("settings", Status.OK, "no settings file: no permission rules (only the built-in tiers approve)",
                    all, null);
        }
        return new Check("settings", Status.OK, read, all, null);
    }

    /** {@code N (M Bash)}: all rules of a kind, and the Bash rules among them. */
    private static String count(List<String> rules) {
        long bash = rules.stream().filter(r -> BashPattern.innerPattern(r) != null).count();
        return rules.size() + " (" + bash + " Bash)";
    }

    // ---- rule files ------------------------------------------------------------------------------------------------

    Check rules() {
        List<Path> files = UserRules.files(env);
        RuleEngine engine = RuleEngine.load(files);
        List<String> details = new ArrayList<>();
        for (Path f : files) details.add(f.toString());
        details.addAll(UserRules.notes(env));
        if (!engine.compileErrors().isEmpty()) {
            List<String> errors = new ArrayList<>(engine.compileErrors());
            errors.addAll(details);
            return new Check("rule files", Status.FAIL, "do not compile: every Bash call asks until they do", errors,
                    "fix the file:line above (" + launcher() + " rules check prints the errors)");
        }
        String summary = files.isEmpty() ? "built-in rules only (" + engine.rules().size() + " rules); no user DRL in "
                + UserRules.directory(env)
                : files.size() + " user file(s) compile; " + engine.rules().size() + " rules with the built-in ones";
        return new Check("rule files", UserRules.notes(env).isEmpty() ? Status.OK : Status.WARN, summary, details,
                UserRules.notes(env).isEmpty() ? null : "add the project to " + UserRules.TRUST_KEY
                        + " in your own settings.json to load its rules");
    }

    // ---- logs ------------------------------------------------------------------------------------------------------

    Check logs() {
        List<String> details = new ArrayList<>(), problems = new ArrayList<>();
        for (Path p : new Path[]{HookLog.resolvePath(env), DecisionLog.resolvePath(env)}) {
            if (p == null) {
                problems.add("no log path: neither HOME nor CLAUDE_COMPOUND_LOG is set");
                continue;
            }
            String why = unwritable(p);
            if (why == null) details.add(p + ": writable");
            else problems.add(p + ": " + why);
        }
        if (!problems.isEmpty()) {
            List<String> all = new ArrayList<>(problems);
            all.addAll(details);
            return new Check("logs", Status.FAIL, "cannot write " + problems.get(0), all,
                    "make the directory writable, or point CLAUDE_COMPOUND_LOG / " + DecisionLog.PATH_ENV
                            + " elsewhere (decisions still work, but leave no record)");
        }
        return new Check("logs", Status.OK, "writable", details, null);
    }

    /** Why {@code file} cannot be appended to (it or the nearest existing directory above it), or null. */
    static String unwritable(Path file) {
        Path f = file.toAbsolutePath();
        if (Files.exists(f)) {
            if (Files.isDirectory(f)) return "is a directory";
            return Files.isWritable(f) ? null : "not writable";
        }
        Path dir = f.getParent();
        while (dir != null && !Files.exists(dir)) dir = dir.getParent();
        if (dir == null) return "no existing directory above it";
        if (!Files.isDirectory(dir)) return dir + " is not a directory";
        return Files.isWritable(dir) ? null : dir + " is not writable";
    }

    // ---- a decision round trip through the hook process ----------------------------------------------------------

    Check roundTrip() {
        Path launcher = root != null ? root.resolve("bin").resolve("compound-bash") : null;
        if (launcher == null || !Files.isRegularFile(launcher)) {
            return new Check("round trip", Status.WARN, "no launcher to run (" + launcher + ")", List.of(), null);
        }
        Path home = null;
        try {
            home = Files.createTempDirectory("compound-bash-doctor-");
            Files.createDirectories(home.resolve(".claude"));
            Map<String, String> e = new HashMap<>();
            for (String k : List.of("PATH", "XDG_RUNTIME_DIR", "TMPDIR", "LANG", "JAVA_HOME", "COMPOUND_BASH_JAR",
                    "COMPOUND_BASH_CLASSPATH", "COMPOUND_BASH_WARM", "COMPOUND_BASH_BUDGET", "COMPOUND_BASH_CDS")) {
                if (env.get(k) != null) e.put(k, env.get(k));
            }
            e.put("HOME", home.toString());
            e.put("COMPOUND_BASH_TRACE", "1");
            e.put("COMPOUND_BASH_CDS", "0"); // the temporary home would get an archive of its own
            // Doctor starts no process that outlives it (issue 20, finding 5): a running evaluator of the user's is
            // asked (the warm path, as the next Bash call would take it); without one, the calls run cold and start
            // none (COMPOUND_BASH_WARM=0: the launcher's cold path then starts no evaluator), in a runtime directory
            // of their own.
            Path userRuntime = runtimeDirectory();
            boolean userEvaluator = userRuntime != null && Protocol.running(userRuntime).isPresent()
                    && !"0".equals(env.get("COMPOUND_BASH_WARM"));
            if (userEvaluator) {
                // the launcher would look under HOME, the temporary one here: name the user's directory
                e.put("COMPOUND_BASH_RUNTIME_DIR", userRuntime.toString());
            } else {
                e.put("COMPOUND_BASH_WARM", "0");
                e.put("COMPOUND_BASH_RUNTIME_DIR", home.resolve("run").toString());
            }
            String[][] calls = {{"ls", "allow"}, {"echo \"$(compound-bash-doctor-probe)\"", "ask"}};
            List<String> details = new ArrayList<>();
            boolean ok = true;
            for (String[] c : calls) {
                String input = JSON.writeValueAsString(Map.of("tool_name", "Bash", "hook_event_name", "PreToolUse",
                        "session_id", "compound-bash-doctor", "cwd", home.toString(),
                        "tool_input", Map.of("command", c[0])));
                long t0 = System.nanoTime();
                ProcResult r = exec(List.of("sh", launcher.toString(), "hook"), input, e, 90);
                long ms = (System.nanoTime() - t0) / 1_000_000;
                String got = decisionOf(r);
                String path = r.stderr().contains("compound-bash: warm") ? "warm" : "cold";
                details.add(c[0] + "  ->  " + got + " (expected " + c[1] + "; " + path + ", " + ms + " ms)");
                if (!got.equals(c[1])) {
                    ok = false;
                    details.addAll(firstLines(r.stderr(), 5));
                }
            }
            if (!ok) {
                return new Check("round trip", Status.FAIL, "the hook process did not answer as expected", details,
                        "run: echo '{\"tool_name\":\"Bash\",\"cwd\":\"/tmp\",\"tool_input\":{\"command\":\"ls\"}}' | "
                                + launcher + " hook; and read ~/.claude/logs/compound-bash.log");
            }
            if (!userEvaluator) details.add("no evaluator was running: both calls ran cold (doctor starts none)");
            return new Check("round trip", Status.OK, "ls allows, a nested unapproved command asks (built-in rules, "
                    + "empty settings)", details, null);
        } catch (IOException ex) {
            return new Check("round trip", Status.WARN, "could not run: " + ex.getMessage(), List.of(), null);
        } finally {
            if (home != null) deleteTree(home);
        }
    }

    /** The hook answer's decision: allow, ask, deny, defer (empty stdout), or what went wrong. */
    private static String decisionOf(ProcResult r) {
        if (r.exit() != 0) return "exit " + r.exit();
        String s = r.stdout().strip();
        if (s.isEmpty()) return "defer";
        if (s.contains("\n")) return "more than one line on stdout";
        try {
            JsonNode o = JSON.readTree(s);
            String d = o.path("hookSpecificOutput").path("permissionDecision").asText("");
            if (!d.isEmpty()) return d;
            if (o.has("systemMessage")) return "defer with message: " + o.path("systemMessage").asText();
            return "unknown answer " + s;
        } catch (IOException e) {
            return "not JSON: " + s;
        }
    }

    // ---- helpers ---------------------------------------------------------------------------------------------------

    private String launcher() {
        return root != null ? root.resolve("bin").resolve("compound-bash").toString() : "bin/compound-bash";
    }

    private static String javaBinary() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    record ProcResult(int exit, String stdout, String stderr) {
    }

    private static ProcResult exec(List<String> cmd, String stdin, Map<String, String> env, int seconds) {
        Path out = null, err = null;
        try {
            out = Files.createTempFile("compound-bash-doctor", ".out");
            err = Files.createTempFile("compound-bash-doctor", ".err");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile());
            if (!env.isEmpty()) {
                pb.environment().clear();
                pb.environment().putAll(env);
            }
            Process p = pb.start();
            if (stdin != null) p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            p.getOutputStream().close();
            if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new ProcResult(-1, "", "timed out after " + seconds + " s");
            }
            return new ProcResult(p.exitValue(), Files.readString(out), Files.readString(err));
        } catch (IOException e) {
            return new ProcResult(-1, "", String.valueOf(e.getMessage()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new ProcResult(-1, "", "interrupted");
        } finally {
            try {
                if (out != null) Files.deleteIfExists(out);
                if (err != null) Files.deleteIfExists(err);
            } catch (IOException ignored) {
                // temporary files
            }
        }
    }

    private static List<String> firstLines(String s, int n) {
        return s.lines().filter(l -> !l.isBlank()).limit(n).toList();
    }

    private static List<String> tail(Path file, int n) {
        try {
            List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
            return lines.subList(Math.max(0, lines.size() - n), lines.size()).stream().map(l -> "| " + l).toList();
        } catch (IOException | RuntimeException e) {
            return List.of("(no log at " + file + ")");
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return "";
        }
    }

    private static long size(Path p) {
        try {
            return Files.size(p);
        } catch (IOException e) {
            return 0;
        }
    }

    private static FileTime modified(Path p) {
        try {
            return Files.getLastModifiedTime(p);
        } catch (IOException e) {
            return FileTime.fromMillis(0);
        }
    }

    private static boolean newer(Path a, Path b) {
        return modified(a).compareTo(modified(b)) > 0;
    }

    private static String mtime(Path p) {
        return Instant.ofEpochMilli(modified(p).toMillis()).toString();
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover temporary directory is harmless
        }
    }
}
