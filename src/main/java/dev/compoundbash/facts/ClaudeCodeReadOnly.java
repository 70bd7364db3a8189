package dev.compoundbash.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Claude Code's own read-only check as data, and a neutral operator over it: does Claude Code (2.1.328) run this
 * simple command without a rule? The table is the resource {@code rules/claude-code-read-only.json} (measured with
 * the e2e tool, docs/CLAUDE-CODE.md): programs taking any arguments, per-program flag tables (every option word must
 * be one of its flags, a cluster of short flags only of flags without a value, a valued flag followed by its value
 * as a separate word of the right kind), and a few programs with their own shape ({@code uniq} only flags,
 * {@code pwd} no arguments, {@code date} operands that start with {@code +}, {@code xargs} running one of a few
 * programs). A program whose check does more than the table says is refused, as is any shape the table does not
 * cover: the rules then defer, and Claude Code decides as it would have.
 *
 * <p>Words whose value is only known at run time are skipped: Claude Code refuses them for not being able to read
 * them, and the hook's proof of them stands. The rules read one instance as a fact: {@code ClaudeCodeReadOnly()}.
 */
public final class ClaudeCodeReadOnly {
    private static final Pattern METACHARACTERS = Pattern.compile("[<>()$`|{}&;\\n\\r]");
    private static final Pattern JQ_REFUSED = Pattern.compile(
            "^-[a-zA-Z]*[fL]|^--(?:from-file|rawfile|slurpfile|argfile|run-tests|library-path)|\\b(?:env|include|import)\\b"
                    + "|\\bsystem\\s*\\(|\\$ENV\\b");

    private record FlagTable(Map<String, String> flags, boolean refused, boolean doubleDash) {
    }

    private record Special(String kind, int max, String operandPrefix, boolean noOperands, Set<String> targets) {
    }

    private final Set<String> anyArguments;
    private final Set<String> globAllowed;
    private final Map<String, FlagTable> flagTables;
    private final Map<String, Special> special;

    private ClaudeCodeReadOnly(Set<String> anyArguments, Set<String> globAllowed, Map<String, FlagTable> flagTables,
                               Map<String, Special> special) {
        this.anyArguments = anyArguments;
        this.globAllowed = globAllowed;
        this.flagTables = flagTables;
        this.special = special;
    }

    private static volatile ClaudeCodeReadOnly builtIn;

    /**
     * The built-in table, read once.
     *
     * @return the table
     * @throws IllegalStateException when the resource is missing (a defect of this build)
     */
    public static ClaudeCodeReadOnly builtIn() {
        ClaudeCodeReadOnly b = builtIn;
        if (b != null) return b;
        synchronized (ClaudeCodeReadOnly.class) {
            if (builtIn == null) builtIn = read();
            return builtIn;
        }
    }

    /**
     * The programs Claude Code's read-only check lets {@code xargs} run ({@code echo printf wc grep egrep fgrep head
     * tail}), without checking the words xargs appends to them.
     *
     * @return the names; empty when the table has none
     */
    public Set<String> xargsTargets() {
        Special s = special.get("xargs");
        return s == null ? Set.of() : s.targets();
    }

    /**
     * Whether Claude Code's read-only check accepts a simple command.
     *
     * @param args the command's words, the name first
     * @return true when Claude Code would run it without a rule (as far as the table knows); false when it would
     * not, or the table cannot tell
     */
    public boolean accepts(List<Arg> args) {
        if (args == null || args.isEmpty() || !args.get(0).isStatic()) return false;
        String name = args.get(0).text();
        for (Arg a : args) {
            if (a.isStatic() && a.glob() && !globAllowed.contains(name)) return false;
        }
        // two-word commands first (git status, docker ps): the longest key that matches
        if (args.size() >= 3 && args.get(1).isStatic() && args.get(2).isStatic()) {
            String k3 = name + " " + args.get(1).text() + " " + args.get(2).text();
            if (flagTables.containsKey(k3)) return flags(flagTables.get(k3), args.subList(3, args.size()), null);
        }
        if (args.size() >= 2 && args.get(1).isStatic()) {
            String k2 = name + " " + args.get(1).text();
            if (anyArguments.contains(k2)) return noMetacharacters(args.subList(2, args.size()));
            if (flagTables.containsKey(k2)) return flags(flagTables.get(k2), args.subList(2, args.size()), null);
        }
        if (name.equals("git") || name.equals("docker")) return false; // only the listed subcommands
        if (name.equals("sed")) return sedPrintsLines(args.subList(1, args.size()));
        List<Arg> rest = args.subList(1, args.size());
        Special s = special.get(name);
        if (s != null) return special(s, name, rest);
        if (anyArguments.contains(name)) return noMetacharacters(rest);
        FlagTable t = flagTables.get(name);
        return t != null && flags(t, rest, null);
    }

    private boolean special(Special s, String name, List<Arg> rest) {
        switch (s.kind()) {
            case "words":
                return noMetacharacters(rest);
            case "maxArgs":
                return rest.size() <= s.max() && noMetacharacters(rest);
            case "flagsOnly":
                for (Arg a : rest) if (a.isStatic() && !a.text().startsWith("-")) return false;
                return noMetacharacters(rest);
            case "number":
                if (rest.size() > 1) return false;
                return rest.isEmpty() || !rest.get(0).isStatic() || rest.get(0).text().matches("[0-9]+");
            case "jq":
                for (Arg a : rest) if (a.isStatic() && JQ_REFUSED.matcher(a.text()).find()) return false;
                return true;
            case "flagTable": {
                FlagTable t = flagTables.get(name);
                if (t == null) return false;
                List<Arg> operands = new ArrayList<>();
                if (!flags(t, rest, operands)) return false;
                for (Arg o : operands) {
                    if (!o.isStatic()) continue;
                    if (s.noOperands()) return false;
                    if (s.operandPrefix() != null && !o.text().startsWith(s.operandPrefix())) return false;
                }
                return true;
            }
            case "xargs": {
                FlagTable t = flagTables.get("xargs");
                if (t == null) return false;
                int i = 0;
                while (i < rest.size()) {
                    Arg a = rest.get(i);
                    if (!a.isStatic()) return false;
                    String w = a.text();
                    if (w.equals("--")) {
                        i++;
                        break;
                    }
                    if (!w.startsWith("-") || w.equals("-")) break;
                    String kind = t.flags().get(w);
                    if (kind == null) return false;
                    if (!kind.equals("none")) {
                        if (i + 1 >= rest.size() || !value(kind, rest.get(i + 1))) return false;
                        i++;
                    }
                    i++;
                }
                if (i >= rest.size()) return false; // xargs echo by default: not a listed target
                Arg target = rest.get(i);
                if (!target.isStatic() || !s.targets().contains(target.text())) return false;
                return accepts(rest.subList(i, rest.size()));
            }
            default:
                return false;
        }
    }

    /** Line-printing sed scripts: {@code p} commands with line-number or {@code $} addresses, {@code ;}-separated. */
    private static final Pattern SED_PRINT = Pattern.compile(
            "^\\s*(?:(?:[0-9]+|\\$)(?:\\s*,\\s*(?:[0-9]+|\\$))?\\s*p\\s*)(?:;\\s*(?:(?:[0-9]+|\\$)"
                    + "(?:\\s*,\\s*(?:[0-9]+|\\$))?\\s*p\\s*))*;?\\s*$");

    /**
     * The part of Claude Code's sed check the hook models (docs/CLAUDE-CODE.md section B: {@code sed -n} with
     * {@code p} commands ran, p-b-sed-n; a substitution is taken as a write): {@code -n} (or {@code --quiet},
     * {@code --silent}) given, every other option one of {@code -E -r -z -s -u --posix --regexp-extended}, and
     * every script (the first operand, or each {@code -e} value) only prints lines chosen by number or {@code $}.
     * Every other shape is refused here (the hook then keeps its own answer).
     *
     * @param rest the words after {@code sed}
     * @return true when Claude Code runs it without a rule, as far as this model knows
     */
    private static boolean sedPrintsLines(List<Arg> rest) {
        boolean quiet = false;
        boolean scriptGiven = false;
        boolean first = true;
        for (int i = 0; i < rest.size(); i++) {
            Arg a = rest.get(i);
            if (!a.isStatic()) return false;
            String w = a.text();
            if (w.contains("$") && !SED_PRINT.matcher(w).matches() || w.contains("`")) return false;
            if (w.equals("-n") || w.equals("--quiet") || w.equals("--silent")) {
                quiet = true;
                continue;
            }
            if (w.equals("-e") || w.equals("--expression")) {
                if (i + 1 >= rest.size() || !rest.get(i + 1).isStatic()
                        || !SED_PRINT.matcher(rest.get(i + 1).text()).matches()) return false;
                scriptGiven = true;
                i++;
                continue;
            }
            if (w.matches("-[nErzsu]+") && !w.equals("-")) {
                quiet |= w.indexOf('n') >= 0;
                continue;
            }
            if (w.equals("--posix") || w.equals("--regexp-extended")) continue;
            if (w.startsWith("-") && !w.equals("-")) return false;
            if (!scriptGiven && first) {
                if (!SED_PRINT.matcher(w).matches()) return false;
                scriptGiven = true;
            }
            first = false;
        }
        return quiet && scriptGiven;
    }

    private boolean flags(FlagTable t, List<Arg> rest, List<Arg> operands) {
        if (t.refused()) return false;
        if (!noDollar(rest)) return false;
        boolean optionsEnded = false;
        for (int i = 0; i < rest.size(); i++) {
            Arg a = rest.get(i);
            if (!a.isStatic()) continue; // a word it cannot read: refused for that reason, the hook's proof stands
            String w = a.text();
            if (optionsEnded || !w.startsWith("-") || w.equals("-")) {
                if (operands != null) operands.add(a);
                continue;
            }
            if (w.equals("--")) {
                if (t.doubleDash()) optionsEnded = true;
                else return false;
                continue;
            }
            String kind = t.flags().get(w);
            if (kind != null) {
                if (!kind.equals("none")) {
                    if (i + 1 >= rest.size() || !value(kind, rest.get(i + 1))) return false;
                    i++;
                }
                continue;
            }
            if (w.startsWith("--") || w.length() < 3) return false;
            // a cluster of short flags: each a flag without a value
            for (int k = 1; k < w.length(); k++) {
                if (!"none".equals(t.flags().get("-" + w.charAt(k)))) return false;
            }
        }
        return true;
    }

    private static boolean value(String kind, Arg v) {
        if (!v.isStatic()) return true; // refused by Claude Code for the expansion, which the hook judges
        String s = v.text();
        return switch (kind) {
            case "number" -> s.matches("[0-9]+");
            case "char" -> s.length() == 1 || s.matches("\\\\.");
            case "{}" -> s.equals("{}");
            case "EOF" -> s.equals("EOF");
            default -> !s.contains("$") && !s.contains("`");
        };
    }

    private static boolean noMetacharacters(List<Arg> words) {
        for (Arg a : words) if (a.isStatic() && METACHARACTERS.matcher(a.text()).find()) return false;
        return true;
    }

    private static boolean noDollar(List<Arg> words) {
        for (Arg a : words) {
            if (a.isStatic() && (a.text().contains("$") || a.text().contains("`") || a.text().contains("\n"))) {
                return false;
            }
        }
        return true;
    }

    private static ClaudeCodeReadOnly read() {
        try (InputStream in = ClaudeCodeReadOnly.class.getClassLoader()
                .getResourceAsStream("rules/claude-code-read-only.json")) {
            if (in == null) throw new IllegalStateException("missing resource rules/claude-code-read-only.json");
            JsonNode root = new ObjectMapper().readTree(in);
            Set<String> any = strings(root.path("anyArguments").path("commands"));
            Set<String> glob = strings(root.path("globAllowed").path("commands"));
            Map<String, FlagTable> tables = new HashMap<>();
            root.path("flagTables").fields().forEachRemaining(e -> {
                Map<String, String> flags = new HashMap<>();
                e.getValue().path("flags").fields().forEachRemaining(f -> flags.put(f.getKey(), f.getValue().asText()));
                tables.put(e.getKey(), new FlagTable(Map.copyOf(flags), e.getValue().has("refused"),
                        e.getValue().path("doubleDash").asBoolean(false)));
            });
            Map<String, Special> special = new HashMap<>();
            root.path("special").fields().forEachRemaining(e -> {
                JsonNode v = e.getValue();
                special.put(e.getKey(), new Special(v.path("kind").asText(), v.path("max").asInt(0),
                        v.has("operandPrefix") ? v.path("operandPrefix").asText() : null,
                        v.path("noOperands").asBoolean(false), strings(v.path("targets"))));
            });
            return new ClaudeCodeReadOnly(any, glob, Map.copyOf(tables), Map.copyOf(special));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rules/claude-code-read-only.json", e);
        }
    }

    private static Set<String> strings(JsonNode n) {
        Set<String> out = new HashSet<>();
        n.forEach(x -> out.add(x.asText()));
        return Set.copyOf(out);
    }
}
