package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import dev.compoundbash.facts.CallContext;
import dev.compoundbash.facts.FindAction;
import dev.compoundbash.facts.JoinedCommands;
import dev.compoundbash.facts.Finding;
import dev.compoundbash.facts.Redirect;
import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.facts.Wrapper;
import dev.compoundbash.hook.UserRules;
import dev.compoundbash.facts.CallProblem;
import dev.compoundbash.facts.RunTimeCode;
import dev.compoundbash.facts.VariableWrite;
import dev.compoundbash.facts.VariableUse;
import dev.compoundbash.facts.PathOperand;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.Decider;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.settings.ClaudeCodeShell;
import dev.compoundbash.settings.SettingsLoader;
import dev.compoundbash.shell.ParseException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code compound-bash explain [--json] [--cwd DIR] [--settings FILE]... [--permission-mode MODE] COMMAND}: shows how a command was read
 * and judged, under the same settings and rules the hook would use. The {@code --json} shape is documented in
 * docs/USAGE.md ("explain").
 */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "Show how COMMAND is parsed, which facts it yields, which rules fire, and the decision.")
public final class ExplainCommand implements Callable<Integer> {
    static PrintStream out = System.out;
    /** The environment explain judges under (the user's, as the hook would see it); tests replace it. */
    static Map<String, String> env = System.getenv();
    /** Where explain gets its rules: the hook's cold-path source; tests share one engine. */
    static HookRunner.EngineSource engines = HookRunner.LOAD;

    @Option(names = "--json", description = "Print the explanation as one JSON object.")
    boolean json;

    @Option(names = "--cwd", paramLabel = "DIR", description = "Working directory to judge redirects against (default: the current one).")
    Path cwd;

    @Option(names = "--settings", paramLabel = "FILE", description = "Read permission rules from FILE instead of the Claude Code settings files (repeatable).")
    List<Path> settingsFiles = new ArrayList<>();

    @Option(names = "--permission-mode", paramLabel = "MODE", description = "Judge as in this Claude Code permission mode: default, acceptEdits, plan, auto, dontAsk or bypassPermissions (default: default).")
    String permissionMode;

    @Option(names = "--shell", paramLabel = "SHELL", description = "Judge as run by this shell: bash or zsh (default: the one Claude Code would pick from this environment: CLAUDE_CODE_SHELL, SHELL, then zsh before bash in the standard directories).")
    String shell;

    @Parameters(index = "0", paramLabel = "COMMAND", description = "The Bash command, as one argument.")
    String command;

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (permissionMode != null && !CallContext.KNOWN_MODES.contains(permissionMode)) {
            // The hook takes an unknown mode from Claude Code as default; a person who typed it wants to know.
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "unknown --permission-mode '"
                    + permissionMode + "': use one of " + String.join(", ", new java.util.TreeSet<>(
                    CallContext.KNOWN_MODES)));
        }
        PermissionSettings settings = settingsFiles.isEmpty() ? SettingsLoader.load(env) : SettingsLoader.loadFiles(settingsFiles);
        RuleEngine engine = engines.engine(UserRules.files(env), env);
        Path dir = cwd != null ? cwd.toAbsolutePath() : Path.of("").toAbsolutePath();
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("command", command);
        doc.put("cwd", dir.toString());
        doc.put("settingsFiles", settings.filesRead().stream().map(Path::toString).toList());
        doc.put("settingsWarnings", settings.warnings());
        doc.put("settingsNotes", settings.notes());
        doc.put("approveWritesInDefaultMode", settings.writesInDefaultMode());
        doc.put("blockReadsOutsideWorkingDirectories", settings.blockReadsOutside());
        doc.put("managedPermissionRulesOnly", settings.managedRulesOnly());
        CallContext context = new CallContext(permissionMode);
        doc.put("permissionMode", context.getPermissionMode());
        if (shell != null && !shell.equals(CallContext.BASH) && !shell.equals(CallContext.ZSH)) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "unknown --shell '" + shell
                    + "': use bash or zsh");
        }
        String shellKind = shell != null ? shell : ClaudeCodeShell.of(env).kind();
        doc.put("shell", shell != null ? shell + " (--shell)" : ClaudeCodeShell.of(env).describe());
        doc.put("rules", Map.of("allow", settings.allow(), "ask", settings.ask(), "deny", settings.deny(),
                "additionalDirectories", settings.additionalDirectories()));
        doc.put("ruleCompileErrors", engine.compileErrors());
        // The hook's own decision function, so explain and the hook never disagree.
        Decider.Verdict v = Decider.decideOrDefer(new Decider.Call(command, dir.toString(), permissionMode, settings,
                env.get("TMPDIR"), env.get("HOME"), shellKind), engine);
        fill(doc, v);
        if (json) {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(doc));
        } else {
            new ExplainPrinter(out, Terminal.colourOnStdout(env)).print(doc);
        }
        return 0;
    }

    private static void fill(Map<String, Object> doc, Decider.Verdict v) {
        Decider.Judgement j = v.judgement();
        if (j == null) {
            doc.put("decision", decision(v));
            return;
        }
        if (j.parseError() != null) {
            ParseException e = j.parseError();
            doc.put("parseError", Map.of("line", e.line(), "column", e.column(), "message", e.getMessage()));
        }
        if (!j.problems().isEmpty()) {
            List<Map<String, Object>> problems = new ArrayList<>();
            for (CallProblem p : j.problems()) problems.add(Map.of("kind", p.getKind(), "message", p.getMessage()));
            doc.put("problems", problems);
        }
        if (j.script() != null) doc.put("outline", Outline.of(j.script()));
        List<Finding> findings = j.evaluation().findings();
        List<Map<String, Object>> subs = new ArrayList<>();
        for (SubCommand s : j.facts().subCommands()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", s.getId());
            m.put("argv", s.getArgv());
            m.put("role", s.getRole());
            m.put("topLevel", s.isTopLevel());
            m.put("context", s.getContext());
            m.put("contextPath", s.getContextPath());
            m.put("dynamicName", s.isDynamicName());
            if (s.getWrapperId() >= 0) m.put("wrapperId", s.getWrapperId());
            if (s.isArgumentsAppended()) m.put("argumentsAppended", true);
            if (!s.getAssignmentNames().isEmpty()) m.put("assignments", s.getAssignments());
            if (s.isPrivileged()) m.put("privilegeId", s.getPrivilegeId());
            m.put("findings", findingsFor(findings, s.getId()));
            subs.add(m);
        }
        doc.put("subCommands", subs);
        List<Map<String, Object>> wrappers = new ArrayList<>();
        for (Wrapper w : j.facts().wrappers()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", w.getId());
            m.put("kind", w.getKind());
            m.put("commandId", w.getCommandId());
            m.put("payloadId", w.getPayloadId());
            m.put("appendsArguments", w.isAppendsArguments());
            m.put("replaceMode", w.isReplaceMode());
            m.put("payloadReadable", w.isPayloadReadable());
            if (w.isPrivileged()) m.put("privileged", true);
            if (w.isOwnRuleRequired()) m.put("ownRuleRequired", true);
            wrappers.add(m);
        }
        doc.put("wrappers", wrappers);
        List<Map<String, Object>> actions = new ArrayList<>();
        for (FindAction a : j.facts().findActions()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", a.getId());
            m.put("commandId", a.getCommandId());
            m.put("action", a.getAction());
            m.put("mutating", a.isMutating());
            if (a.getArgument() != null) m.put("argument", a.getArgument());
            actions.add(m);
        }
        doc.put("findActions", actions);
        List<Map<String, Object>> redirects = new ArrayList<>();
        for (Redirect r : j.facts().redirects()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", r.getId());
            m.put("commandId", r.getCommandId());
            m.put("text", r.getText());
            m.put("output", r.isOutput());
            m.put("dynamic", r.isDynamic());
            m.put("fdDuplication", r.isFdDuplication());
            m.put("safeDevice", r.isSafeDevice());
            if (r.getResolvedPath() != null) m.put("resolvedPath", r.getResolvedPath());
            m.put("insideAllowedDirectory", r.isInsideAllowedDirectory());
            if (r.getProtectedComponent() != null) m.put("protectedComponent", r.getProtectedComponent());
            m.put("findings", findingsFor(findings, r.getId()));
            redirects.add(m);
        }
        doc.put("redirects", redirects);
        List<Map<String, Object>> fired = new ArrayList<>();
        for (RuleEngine.FiredRule f : j.evaluation().fired()) fired.add(Map.of("name", f.name(), "file", f.file()));
        doc.put("firedRules", fired);
        List<Map<String, Object>> writes = new ArrayList<>();
        for (VariableWrite w : j.facts().variableWrites()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", w.getId());
            m.put("name", w.getName());
            m.put("how", w.getHow());
            if (w.isAnywhere()) m.put("anywhere", true);
            else m.put("position", w.getPosition());
            if (w.isRunTimeValue()) m.put("runTimeValue", true);
            writes.add(m);
        }
        doc.put("variableWrites", writes);
        List<Map<String, Object>> code = new ArrayList<>();
        for (RunTimeCode c : j.facts().runTimeCode()) {
            code.add(Map.of("id", c.getId(), "text", c.getText(), "context", c.getContext(),
                    "findings", findingsFor(findings, c.getId())));
        }
        doc.put("runTimeCode", code);
        List<Map<String, Object>> pathOps = new ArrayList<>();
        for (PathOperand o : j.facts().pathOperands()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("commandId", o.getCommandId());
            m.put("program", o.getProgram());
            m.put("word", o.getWord());
            m.put("access", o.getAccess());
            m.put("status", o.getStatus());
            if (o.getResolvedPath() != null) m.put("resolvedPath", o.getResolvedPath());
            if (o.getWhy() != null) m.put("why", o.getWhy());
            pathOps.add(m);
        }
        doc.put("pathOperands", pathOps);
        List<Map<String, Object>> uses = new ArrayList<>();
        for (VariableUse u : j.facts().variableUses()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("commandId", u.getCommandId());
            m.put("name", u.getName());
            m.put("setInCommand", u.isSetInCommand());
            m.put("how", u.getHow());
            if (!u.isNameKnown()) m.put("nameKnown", false);
            if (u.getVia() != null) m.put("via", u.getVia());
            uses.add(m);
        }
        doc.put("variableUses", uses);
        List<Map<String, Object>> joined = new ArrayList<>();
        for (JoinedCommands c : j.facts().joinedCommands()) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("id", c.getId());
            m.put("text", c.getText());
            m.put("topLevel", c.isTopLevel());
            m.put("context", c.getContext());
            m.put("subCommandIds", c.getSubCommandIds());
            m.put("findings", findingsFor(findings, c.getId()));
            joined.add(m);
        }
        doc.put("joinedCommands", joined);
        List<Map<String, Object>> call = findingsFor(findings, -1);
        if (!call.isEmpty()) doc.put("callFindings", call);
        doc.put("decision", decision(v));
    }

    /** The decision as explain shows it: outcome, the reason the hook gives, and the deciding rule. */
    private static Map<String, Object> decision(Decider.Verdict v) {
        Map<String, Object> decision = new LinkedHashMap<>();
        decision.put("outcome", v.outcome());
        decision.put("reason", v.reason().replaceFirst("^compound-bash: ", ""));
        decision.put("rule", v.rule());
        return decision;
    }

    private static List<Map<String, Object>> findingsFor(List<Finding> findings, int id) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (Finding f : findings) {
            if (f.getSubjectId() != id) continue;
            out.add(Map.of("kind", f.getKind(), "reason", f.getReason(), "rule", f.getRuleName()));
        }
        return out;
    }
}
