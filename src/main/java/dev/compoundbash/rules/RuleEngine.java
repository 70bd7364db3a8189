package dev.compoundbash.rules;

import dev.compoundbash.facts.CallContext;
import dev.compoundbash.facts.CallProblem;
import dev.compoundbash.facts.NameList;
import dev.compoundbash.facts.PathCheckedProgram;
import dev.compoundbash.facts.ProgramTable;
import dev.compoundbash.facts.Decision;
import dev.compoundbash.facts.Facts;
import dev.compoundbash.facts.Finding;
import dev.compoundbash.facts.PermissionRule;
import org.drools.kiesession.rulebase.InternalKnowledgeBase;
import org.drools.kiesession.rulebase.KnowledgeBaseFactory;
import org.kie.api.definition.KiePackage;
import org.kie.api.definition.rule.Rule;
import org.kie.api.event.rule.AfterMatchFiredEvent;
import org.kie.api.event.rule.DefaultAgendaEventListener;
import org.kie.api.io.Resource;
import org.kie.api.io.ResourceType;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.KieSessionsPool;
import org.kie.internal.builder.KnowledgeBuilder;
import org.kie.internal.builder.KnowledgeBuilderError;
import org.kie.internal.builder.KnowledgeBuilderFactory;
import org.kie.internal.io.ResourceFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Drools side of a decision: builds one KieBase from the built-in DRL files ({@code src/main/resources/rules},
 * compiled at build time, see {@link PackageCache}) and any user DRL files, and evaluates one command's facts in a fresh KieSession. The decision logic lives
 * in the DRL; this class only inserts facts, fires, and reads back the {@link Finding}s and the {@link Decision}.
 *
 * <p>Thread-safe after construction: each {@link #evaluate} uses its own session.
 */
public final class RuleEngine {
    /** The built-in DRL files, in the order they are compiled (classpath resources under {@code rules/}). */
    public static final List<String> BUILT_IN = List.of("call.drl", "shell-state.drl", "approval.drl", "variables.drl", "tiers.drl",
            "schema.drl", "patterns.drl", "wrappers.drl", "redirects.drl", "boundary.drl", "modes.drl", "agents.drl",
            "outcome.drl");

    /** A user rule set that fires more rules than this for one command is taken to loop: it is a rule error. */
    public static final int MAX_FIRINGS = Integer.getInteger("compoundbash.maxFirings", 200_000);

    /** One evaluation may take this long before it is halted as a rule error (milliseconds). */
    public static final long MAX_EVALUATION_MILLIS = Long.getLong("compoundbash.maxEvaluationMillis", 10_000L);

    private final InternalKnowledgeBase kieBase;
    private final List<String> compileErrors;
    /** The built-in packages, for an engine without the user's rules; null when this engine has none of them. */
    private final Collection<KiePackage> builtInPackages;
    private volatile RuleEngine builtInOnly;
    private final Map<String, String> ruleFiles = new HashMap<>();
    private final List<RuleInfo> rules = new ArrayList<>();

    /** A loaded rule: its name, the file it came from, and its 1-based line there (0 when unknown). */
    public record RuleInfo(String name, String packageName, String file, int line) {
    }

    /** A rule that fired during one evaluation, by name and file. */
    public record FiredRule(String name, String file) {
    }

    /**
     * The result of one evaluation.
     *
     * @param decision the single Decision the outcome rules inserted
     * @param findings every Finding, in insertion order
     * @param fired    the rules that fired, in firing order
     */
    public record Evaluation(Decision decision, List<Finding> findings, List<FiredRule> fired) {
    }

    /**
     * Sessions are reused: a disposed pooled session is reset and handed out again, which skips building the
     * session's node and segment memories per call (Drools docs, "KIE session pools").
     */
    private final KieSessionsPool sessions;

    private RuleEngine(InternalKnowledgeBase kieBase, List<String> compileErrors,
                       Collection<KiePackage> builtInPackages) {
        this.kieBase = kieBase;
        this.builtInPackages = builtInPackages;
        this.sessions = kieBase.newKieSessionsPool(Math.max(2, Runtime.getRuntime().availableProcessors()));
        this.compileErrors = List.copyOf(compileErrors);
    }

    /**
     * Compiles the built-in rules plus {@code userFiles}.
     *
     * @param userFiles DRL files of the user; one that does not compile is left out of the KieBase and reported in
     *                  {@link #compileErrors()} as {@code file:line:col: message}
     * @return the engine
     * @throws IllegalStateException when a built-in DRL file fails to compile (a defect of this build)
     */
    public static RuleEngine load(List<Path> userFiles) {
        return load(userFiles, null);
    }

    /**
     * Builds the KieBase from the built-in packages compiled at build time ({@link PackageCache}; compiled here
     * from the DRL when that resource is missing or stale) plus {@code userFiles}, each compiled with MVEL only when
     * {@code cacheDir} holds no packages for its exact path and bytes.
     *
     * @param userFiles DRL files of the user; one that does not compile is left out of the KieBase and reported in
     *                  {@link #compileErrors()} as {@code file:line:col: message}
     * @param cacheDir  private directory for compiled user packages; null compiles every time
     * @return the engine
     * @throws IllegalStateException when a built-in DRL file fails to compile (a defect of this build)
     */
    public static RuleEngine load(List<Path> userFiles, Path cacheDir) {
        return load(userFiles, cacheDir, true);
    }

    /**
     * Like {@link #load(List)}, but compiles the built-in DRL with MVEL instead of reading the packages compiled at
     * build time; tests use it to check both give the same decisions.
     *
     * @param userFiles DRL files of the user
     * @return the engine
     */
    static RuleEngine loadFromDrl(List<Path> userFiles) {
        return load(userFiles, null, false);
    }

    /**
     * The built-in half of a load: the DRL sources, their packages, their rules' index and a KieBase holding them
     * (not yet shared: the user's packages may still be added).
     */
    private record BuiltInBase(Map<String, byte[]> sources, Collection<KiePackage> packages, List<RuleInfo> infos,
                               InternalKnowledgeBase kbase) {
        static BuiltInBase load(boolean precompiled) {
            Map<String, byte[]> sources = builtInSources();
            Collection<KiePackage> builtIn = precompiled ? PackageCache.readBuiltIn(PackageCache.key(sources)) : null;
            if (builtIn == null) builtIn = compileBuiltIn(sources);
            List<RuleInfo> infos = new ArrayList<>();
            for (Map.Entry<String, byte[]> e : sources.entrySet()) {
                indexRules(new String(e.getValue(), StandardCharsets.UTF_8), e.getKey(), infos);
            }
            InternalKnowledgeBase kbase = KnowledgeBaseFactory.newKnowledgeBase();
            kbase.addPackages(builtIn);
            return new BuiltInBase(sources, builtIn, infos, kbase);
        }
    }

    /** The built-in half loading ahead ({@link #loadBuiltInAhead}); taken by the next load, once. */
    private static final java.util.concurrent.atomic.AtomicReference<java.util.concurrent.CompletableFuture<BuiltInBase>>
            AHEAD = new java.util.concurrent.atomic.AtomicReference<>();

    /**
     * Starts loading the built-in rules (reading the packages compiled at build time, building their KieBase) on a
     * background thread, for the next {@link #load(List, Path)} of this process to take: the cold hook runs it while
     * the JVM reads its input, its settings and the user's rule files (issue 20, finding 4). Does nothing when a
     * load ahead is already under way or waiting. A failure there is not reported: the load then does the work
     * itself (and reports it).
     */
    public static void loadBuiltInAhead() {
        java.util.concurrent.CompletableFuture<BuiltInBase> f = new java.util.concurrent.CompletableFuture<>();
        if (!AHEAD.compareAndSet(null, f)) return;
        Thread t = new Thread(() -> {
            try {
                f.complete(BuiltInBase.load(true));
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, "compound-bash-rules-ahead");
        t.setDaemon(true);
        t.start();
    }

    /** The built-in half loaded ahead, when one was started and did not fail; else null. */
    private static BuiltInBase takeAhead() {
        java.util.concurrent.CompletableFuture<BuiltInBase> f = AHEAD.getAndSet(null);
        if (f == null) return null;
        try {
            return f.join();
        } catch (RuntimeException e) { // CompletionException, CancellationException: load it here
            return null;
        }
    }

    private static RuleEngine load(List<Path> userFiles, Path cacheDir, boolean precompiled) {
        List<String> errors = new ArrayList<>();
        BuiltInBase base = precompiled ? takeAhead() : null;
        if (base == null) base = BuiltInBase.load(precompiled);
        Map<String, byte[]> sources = base.sources();
        Collection<KiePackage> builtIn = base.packages();
        List<RuleInfo> infos = new ArrayList<>(base.infos());
        InternalKnowledgeBase kbase = base.kbase();
        boolean user = false;
        for (Path file : userFiles) {
            byte[] bytes;
            try {
                bytes = Files.readAllBytes(file);
            } catch (IOException e) {
                // A rules directory that could not be listed stands in for its files (UserRules.drlFiles): it may
                // hold the user's deny rules, so it is an error like a file that does not compile.
                errors.add(Files.isDirectory(file) || !Files.isRegularFile(file) && !file.toString().endsWith(".drl")
                        ? file + ":0:0: cannot read this rules folder (" + unreadableFolder(file) + "): its rules may include your deny rules"
                        : file + ":0:0: cannot read: " + e.getMessage());
                continue;
            }
            Map<String, byte[]> key = new LinkedHashMap<>(sources);
            key.put(file.toString(), bytes);
            String userKey = PackageCache.key(key);
            Collection<KiePackage> packages = PackageCache.readUser(cacheDir, userKey);
            if (packages == null) {
                KnowledgeBuilder kb = KnowledgeBuilderFactory.newKnowledgeBuilder(kbase);
                kb.add(ResourceFactory.newByteArrayResource(bytes).setSourcePath(file.toString()), ResourceType.DRL);
                if (kb.hasErrors()) {
                    errors.add(format(file.toString(), kb.getErrors()));
                    continue;
                }
                packages = kb.getKnowledgePackages();
                PackageCache.writeUser(cacheDir, userKey, packages);
            }
            String reserved = reservedPackage(file, bytes, packages);
            if (reserved != null) {
                errors.add(reserved);
                continue;
            }
            kbase.addPackages(packages);
            user = true;
            indexRules(new String(bytes, StandardCharsets.UTF_8), file.toString(), infos);
        }
        RuleEngine engine = new RuleEngine(kbase, errors, user ? builtIn : null);
        for (RuleInfo info : infos) {
            engine.ruleFiles.put(info.packageName() + "/" + info.name(), info.file());
            engine.rules.add(info);
        }
        return engine;
    }

    /** The package of the built-in rules; user DRL may not declare it (it would replace or join built-in rules). */
    public static final String BUILT_IN_PACKAGE = "dev.compoundbash.rules.builtin";

    /**
     * A user file's package may not be the built-in one: a rule there would replace a built-in rule of the same
     * name, and the built-in package is where the exception metadata
     * ({@code @knownSafe}, {@code @wrapperApproval}, {@code @pastPrefix}, {@code @underPrivilege}) is honoured
     * ({@link Findings}). Issue 20, finding 2.
     *
     * @return the error as {@code file:line:col: message}, or null when the file's packages are its own
     */
    private static String reservedPackage(Path file, byte[] bytes, Collection<KiePackage> packages) {
        for (KiePackage p : packages) {
            String name = p.getName();
            if (name.equals(BUILT_IN_PACKAGE)) {
                int line = 1;
                String text = new String(bytes, StandardCharsets.UTF_8);
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^\\s*package\\s").matcher(text);
                if (m.find()) line += (int) text.substring(0, m.start()).chars().filter(c -> c == '\n').count();
                return file + ":" + line + ":0: package " + name + " is reserved for compound-bash's built-in rules;"
                        + " give your rules a package of their own";
            }
        }
        return null;
    }

    /** Why a rules directory given in place of its files cannot be read, for a person. */
    private static String unreadableFolder(Path dir) {
        if (Files.isSymbolicLink(dir) && !Files.exists(dir)) return "a link to nothing";
        if (Files.exists(dir) && !Files.isDirectory(dir)) return "not a directory";
        if (!Files.exists(dir)) return "cannot tell whether it exists: a directory above it cannot be searched";
        return "cannot be listed: no permission";
    }

    /** The built-in DRL sources by resource path ({@code rules/tiers.drl}, ...), in {@link #BUILT_IN} order. */
    static Map<String, byte[]> builtInSources() {
        Map<String, byte[]> out = new LinkedHashMap<>();
        for (String name : BUILT_IN) out.put("rules/" + name, readResource("rules/" + name));
        return out;
    }

    /**
     * Compiles the built-in DRL with MVEL.
     *
     * @param sources the built-in sources ({@link #builtInSources})
     * @return the compiled packages
     * @throws IllegalStateException when a file does not compile
     */
    static Collection<KiePackage> compileBuiltIn(Map<String, byte[]> sources) {
        KnowledgeBuilder builtIn = KnowledgeBuilderFactory.newKnowledgeBuilder();
        for (Map.Entry<String, byte[]> e : sources.entrySet()) {
            Resource res = ResourceFactory.newByteArrayResource(e.getValue()).setSourcePath(e.getKey());
            builtIn.add(res, ResourceType.DRL);
            if (builtIn.hasErrors()) {
                throw new IllegalStateException("built-in " + e.getKey() + " does not compile: "
                        + format(e.getKey(), builtIn.getErrors()));
            }
        }
        return builtIn.getKnowledgePackages();
    }

    /** Errors of user DRL files that did not compile, each as {@code file:line:col: message}; empty when none. */
    public List<String> compileErrors() {
        return compileErrors;
    }

    /** The compiled packages of this engine's rule base (rule names and metadata), built-in and the user's. */
    public Collection<KiePackage> kiePackages() {
        return kieBase.getKiePackages();
    }

    /** Every rule loaded, built-in first, with file and line. */
    public List<RuleInfo> rules() {
        return List.copyOf(rules);
    }

    /**
     * Evaluates one command in the default mode with no call problems.
     *
     * @param facts           the facts extracted from the command
     * @param permissionRules the Bash permission rules from settings
     * @return the decision, findings and fired rules
     * @throws IllegalStateException when the built-in rules fail or reach no decision (a defect of the rule set)
     */
    public Evaluation evaluate(Facts facts, List<PermissionRule> permissionRules) {
        return evaluate(facts, permissionRules, CallContext.defaultMode(), List.of());
    }

    /**
     * Evaluates one command in a given call context with no call problems.
     *
     * @see #evaluate(Facts, List, CallContext, List)
     */
    public Evaluation evaluate(Facts facts, List<PermissionRule> permissionRules, CallContext context) {
        return evaluate(facts, permissionRules, context, List.of());
    }

    /**
     * Evaluates one call: inserts the facts, the permission rules, the built-in {@link NameList}s, the call's
     * context and its problems (plus one {@link CallProblem#RULE_FILE_ERROR} per user rule file that did not
     * compile) into a fresh session and fires. A user rule that throws, fires more than {@link #MAX_FIRINGS} rules or
     * runs longer than {@link #MAX_EVALUATION_MILLIS} makes the call a {@link CallProblem#RULE_ERROR}: the built-in
     * rules are then evaluated alone with that problem (so their deny rules still deny, and the call asks).
     *
     * @param facts           the facts extracted from the command ({@link Facts#none()} when it was not read)
     * @param permissionRules the Bash permission rules from settings
     * @param context         the call's context; null is the default mode
     * @param problems        what kept the command from being read ({@link CallProblem}); may be empty
     * @return the decision, findings and fired rules
     * @throws IllegalStateException when the built-in rules fail or reach no decision (a defect of the rule set)
     */
    public Evaluation evaluate(Facts facts, List<PermissionRule> permissionRules, CallContext context,
                               List<CallProblem> problems) {
        List<CallProblem> all = new ArrayList<>(problems);
        for (String e : compileErrors) all.add(new CallProblem(CallProblem.RULE_FILE_ERROR, e));
        try {
            return run(facts, permissionRules, context, all);
        } catch (RuntimeException e) {
            if (builtInPackages == null) throw new IllegalStateException("the built-in rules failed: " + e, e);
            all.add(new CallProblem(CallProblem.RULE_ERROR, oneLine(e.getMessage() != null ? e.getMessage()
                    : e.toString())));
            return builtInOnly().run(facts, permissionRules, context, all);
        }
    }

    /** An engine of the built-in rules alone, made once when a user rule first fails. */
    private RuleEngine builtInOnly() {
        RuleEngine b = builtInOnly;
        if (b != null) return b;
        synchronized (this) {
            if (builtInOnly == null) {
                InternalKnowledgeBase kbase = KnowledgeBaseFactory.newKnowledgeBase();
                kbase.addPackages(builtInPackages);
                RuleEngine e = new RuleEngine(kbase, List.of(), null);
                e.ruleFiles.putAll(ruleFiles);
                e.rules.addAll(rules);
                builtInOnly = e;
            }
            return builtInOnly;
        }
    }

    private static final java.util.concurrent.ScheduledExecutorService WATCHDOG =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "compound-bash rule watchdog");
                t.setDaemon(true);
                return t;
            });

    private Evaluation run(Facts facts, List<PermissionRule> permissionRules, CallContext context,
                           List<CallProblem> problems) {
        KieSession session = sessions.newKieSession();
        List<FiredRule> fired = new ArrayList<>();
        DefaultAgendaEventListener listener = new DefaultAgendaEventListener() {
            @Override
            public void afterMatchFired(AfterMatchFiredEvent event) {
                Rule r = event.getMatch().getRule();
                fired.add(new FiredRule(r.getName(),
                        ruleFiles.getOrDefault(r.getPackageName() + "/" + r.getName(), r.getPackageName())));
            }
        };
        java.util.concurrent.atomic.AtomicBoolean halted = new java.util.concurrent.atomic.AtomicBoolean();
        // Only user rules can fail to stop: the built-in ones always do, however slow a loaded machine is.
        java.util.concurrent.ScheduledFuture<?> watchdog = builtInPackages == null ? null : WATCHDOG.schedule(() -> {
            halted.set(true);
            session.halt();
        }, MAX_EVALUATION_MILLIS, java.util.concurrent.TimeUnit.MILLISECONDS);
        try {
            session.addEventListener(listener);
            for (Object f : facts.all()) session.insert(f);
            for (PermissionRule r : permissionRules) session.insert(r);
            for (NameList l : NameList.builtIn().values()) session.insert(l);
            session.insert(dev.compoundbash.facts.ClaudeCodeReadOnly.builtIn());
            for (PathCheckedProgram p : ProgramTable.programs().values()) session.insert(p);
            session.insert(context != null ? context : CallContext.defaultMode());
            for (CallProblem p : problems) session.insert(p);
            int n = session.fireAllRules(MAX_FIRINGS);
            if (halted.get()) {
                throw new IllegalStateException("the rules did not finish within " + MAX_EVALUATION_MILLIS + " ms");
            }
            if (n >= MAX_FIRINGS) throw new IllegalStateException("the rules fired " + n + " times and did not stop");
            Decision decision = null;
            List<Finding> findings = new ArrayList<>();
            for (Object o : session.getObjects()) {
                if (o instanceof Decision d) {
                    if (decision != null) throw new IllegalStateException("the rules reached two decisions");
                    decision = d;
                } else if (o instanceof Finding f) {
                    findings.add(f);
                }
            }
            if (decision == null) throw new IllegalStateException("the rules reached no decision");
            findings.sort(java.util.Comparator.comparingLong(Finding::getSeq));
            return new Evaluation(decision, findings, fired);
        } finally {
            if (watchdog != null) watchdog.cancel(false);
            session.removeEventListener(listener);
            session.dispose();
        }
    }

    private static String oneLine(String s) {
        return s.replace('\n', ' ').replace('\r', ' ').trim();
    }

    private static String format(String file, Iterable<KnowledgeBuilderError> errors) {
        StringBuilder sb = new StringBuilder();
        for (KnowledgeBuilderError e : errors) {
            if (sb.length() > 0) sb.append('\n');
            int[] lines = e.getLines();
            int line = lines != null && lines.length > 0 ? lines[0] : 0;
            int col = 0;
            if (e instanceof org.drools.drl.parser.ParserError pe) col = Math.max(0, pe.getCol());
            sb.append(file).append(':').append(line).append(':').append(col).append(": ")
                    .append(e.getMessage().replace('\n', ' ').trim());
        }
        return sb.toString();
    }

    /** Records each {@code rule "name"} declaration with its package and line (DRL source scan). */
    private static void indexRules(String drl, String file, List<RuleInfo> out) {
        String pkg = "";
        String[] lines = drl.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String t = lines[i].trim();
            if (t.startsWith("package ")) pkg = t.substring(8).replace(";", "").trim();
            if (t.startsWith("rule ")) {
                String rest = t.substring(5).trim();
                String name;
                if (rest.startsWith("\"")) {
                    int end = rest.indexOf('"', 1);
                    name = end > 0 ? rest.substring(1, end) : rest.substring(1);
                } else {
                    name = rest.split("\\s+")[0];
                }
                out.add(new RuleInfo(name, pkg, file, i + 1));
            }
        }
    }

    private static byte[] readResource(String path) {
        try (InputStream in = RuleEngine.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) throw new IllegalStateException("missing resource " + path);
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("cannot read resource " + path, e);
        }
    }
}
