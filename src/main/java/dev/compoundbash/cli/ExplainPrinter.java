package dev.compoundbash.cli;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/** Prints an explanation document (see {@link ExplainCommand}) for a person; ANSI colours on a terminal only. */
final class ExplainPrinter {
    private final PrintStream out;
    private final boolean colour;

    ExplainPrinter(PrintStream out, boolean colour) {
        this.out = out;
        this.colour = colour;
    }

    @SuppressWarnings("unchecked")
    void print(Map<String, Object> doc) {
        out.println(bold("command: ") + doc.get("command"));
        out.println(bold("cwd: ") + doc.get("cwd"));
        out.println(bold("settings read: ") + doc.get("settingsFiles"));
        if (Boolean.TRUE.equals(doc.get("managedPermissionRulesOnly"))) {
            out.println(bold("allowManagedPermissionRulesOnly: ") + "only the managed files' rules count");
        }
        out.println(bold("permission mode: ") + doc.get("permissionMode"));
        if (doc.get("shell") != null) out.println(bold("shell: ") + doc.get("shell"));
        if (Boolean.TRUE.equals(doc.get("blockReadsOutsideWorkingDirectories"))) {
            out.println(bold("blockReadsOutsideWorkingDirectories: ") + "on, so the hook approves nothing (deny and ask "
                    + "rules still apply)");
        }
        for (String w : (List<String>) doc.get("settingsWarnings")) out.println(colourFor("ask", "settings warning: ") + w);
        for (String n : (List<String>) doc.get("settingsNotes")) out.println("settings note: " + n);
        for (String e : (List<String>) doc.get("ruleCompileErrors")) out.println(colourFor("deny", "rule error: ") + e);
        if (doc.containsKey("parseError")) {
            Map<String, Object> e = (Map<String, Object>) doc.get("parseError");
            out.println(colourFor("defer", "parse error: ") + e.get("message"));
        }
        if (doc.containsKey("outline")) {
            out.println(bold("\nparsed as:"));
            for (String line : (List<String>) doc.get("outline")) out.println("  " + line);
        }
        if (doc.containsKey("subCommands")) {
            out.println(bold("\nsub-commands:"));
            for (Map<String, Object> s : (List<Map<String, Object>>) doc.get("subCommands")) {
                List<?> path = (List<?>) s.get("contextPath");
                String where = Boolean.TRUE.equals(s.get("topLevel"))
                        ? (path == null || path.isEmpty() ? "top-level" : "top-level of " + path)
                        : "nested in " + path;
                out.println("  #" + s.get("id") + " " + s.get("argv") + "  (" + s.get("role") + ", " + where
                        + (s.containsKey("assignments") ? ", environment " + s.get("assignments") : "")
                        + (s.containsKey("privilegeId") ? ", privileged under " + ref(s.get("privilegeId"), "sudo or doas") : "")
                        + (s.containsKey("shellVariables") ? ", after setting " + s.get("shellVariables") : "")
                        + ")");
                for (Map<String, Object> f : (List<Map<String, Object>>) s.get("findings")) {
                    out.println("      " + colourFor((String) f.get("kind"), (String) f.get("kind")) + ": " + f.get("reason")
                            + "  [" + f.get("rule") + "]");
                }
            }
            for (Map<String, Object> w : (List<Map<String, Object>>) doc.get("wrappers")) {
                out.println("  wrapper " + w.get("kind") + ": " + ref(w.get("commandId"), "a command") + " runs "
                        + ref(w.get("payloadId"), "no command the hook can name")
                        + (Boolean.TRUE.equals(w.get("appendsArguments")) ? " (appends arguments)" : "")
                        + (Boolean.TRUE.equals(w.get("replaceMode")) ? " (replace mode)" : "")
                        + (Boolean.FALSE.equals(w.get("payloadReadable")) ? " (payload cannot be read)" : "")
                        + (Boolean.TRUE.equals(w.get("privileged")) ? " (privileged)" : "")
                        + (Boolean.TRUE.equals(w.get("ownRuleRequired")) ? " (needs its own allow rule)" : ""));
            }
            for (Map<String, Object> a : (List<Map<String, Object>>) doc.get("findActions")) {
                out.println("  find action " + a.get("action") + " on " + ref(a.get("commandId"), "find")
                        + (Boolean.TRUE.equals(a.get("mutating")) ? " (mutating)" : ""));
            }
            for (Map<String, Object> r : (List<Map<String, Object>>) doc.get("redirects")) {
                out.println("  redirect " + r.get("text") + (r.containsKey("resolvedPath") ? " -> " + r.get("resolvedPath") : ""));
                for (Map<String, Object> f : (List<Map<String, Object>>) r.get("findings")) {
                    out.println("      " + colourFor((String) f.get("kind"), (String) f.get("kind")) + ": " + f.get("reason")
                            + "  [" + f.get("rule") + "]");
                }
            }
            for (Map<String, Object> c : (List<Map<String, Object>>) doc.getOrDefault("joinedCommands", List.of())) {
                List<Map<String, Object>> fs = (List<Map<String, Object>>) c.get("findings");
                if (fs.isEmpty()) continue; // only the pipelines and lists a rule across operators matched
                out.println("  pipeline or list " + c.get("text") + "  (" + (Boolean.TRUE.equals(c.get("topLevel"))
                        ? "top-level" : "nested in " + c.get("context")) + ")");
                for (Map<String, Object> f : fs) {
                    out.println("      " + colourFor((String) f.get("kind"), (String) f.get("kind")) + ": " + f.get("reason")
                            + "  [" + f.get("rule") + "]");
                }
            }
            for (Map<String, Object> o : (List<Map<String, Object>>) doc.getOrDefault("pathOperands", List.of())) {
                out.println("  path " + ref(o.get("commandId"), "(no simple command)") + " " + o.get("program") + " " + o.get("access") + " "
                        + o.get("word") + ": " + o.get("status")
                        + (o.containsKey("resolvedPath") ? " " + o.get("resolvedPath") : "")
                        + (o.containsKey("why") ? " (" + o.get("why") + ")" : ""));
            }
            for (Map<String, Object> w : (List<Map<String, Object>>) doc.getOrDefault("variableWrites", List.of())) {
                out.println("  variable write " + (w.get("name") == null ? "(a name only known at run time)" : w.get("name"))
                        + " by " + w.get("how"));
            }
            for (Map<String, Object> u : (List<Map<String, Object>>) doc.getOrDefault("variableUses", List.of())) {
                Object id = u.get("commandId");
                out.println("  variable use " + ref(id, "(no simple command)")
                        + " " + (Boolean.FALSE.equals(u.get("nameKnown")) ? "a name only known at run time: " : "$")
                        + u.get("name") + (u.get("how") == null || "expansion".equals(u.get("how")) ? "" : " by " + u.get("how"))
                        + (u.get("via") != null ? " via " + u.get("via") : "")
                        + (Boolean.TRUE.equals(u.get("setInCommand")) ? " (set in the command)" : " (from the environment)"));
            }
            out.println(bold("\nrules fired:"));
            for (Map<String, Object> f : (List<Map<String, Object>>) doc.get("firedRules")) {
                out.println("  " + f.get("name") + "  (" + f.get("file") + ")");
            }
        }
        Map<String, Object> d = (Map<String, Object>) doc.get("decision");
        String outcome = (String) d.get("outcome");
        out.println(bold("\ndecision: ") + colourFor(outcome, outcome.toUpperCase()) + "  " + d.get("reason"));
    }

    /**
     * How a line names a sub-command: {@code #ID} for one listed above; {@code none} when the id is no
     * sub-command's (negative: the fact names none), so no internal id reaches the reader.
     */
    static String ref(Object id, String none) {
        return id instanceof Number n && n.intValue() >= 0 ? "#" + n : none;
    }

    private String bold(String s) {
        return colour ? "\u001b[1m" + s + "\u001b[0m" : s;
    }

    private String colourFor(String kind, String s) {
        if (!colour) return s;
        String code = switch (kind) {
            case "allow", "approve" -> "32";
            case "deny" -> "31";
            case "ask" -> "33";
            default -> "36";
        };
        return "\u001b[" + code + "m" + s + "\u001b[0m";
    }
}
