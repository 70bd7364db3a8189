package dev.compoundbash.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Configuration given on the command line that makes a program run code the command does not show as a command:
 * {@code git -c core.fsmonitor='rm -rf y' status}, {@code git -c diff.external=...}, {@code git -c alias.x='!cmd'},
 * {@code GIT_PAGER=... git log}, {@code make --eval='x:;cmd'}, {@code make SHELL=/tmp/sh}, {@code make -f -}. The
 * keys, options and variables are data ({@code rules/config-code.json}, from git-config(1), git(1) and make(1)).
 * The program becomes a wrapper ({@link WrapperGrammar.Unwrapped}) whose payloads are every static shell value, read
 * as a script (deny and ask rules judge its commands, as for {@code sh -c}), and one payload that cannot be read (the
 * program runs the code with arguments of its own, or runs programs and files named there), so it is never approved.
 */
public final class ConfigCode {
    private static volatile JsonNode table;

    private ConfigCode() {
    }

    private static JsonNode table() {
        JsonNode t = table;
        if (t != null) return t;
        try (InputStream in = ConfigCode.class.getClassLoader().getResourceAsStream("rules/config-code.json")) {
            if (in == null) throw new IllegalStateException("missing resource rules/config-code.json");
            t = new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rules/config-code.json", e);
        }
        table = t;
        return t;
    }

    private static boolean listed(JsonNode list, String key) {
        for (JsonNode n : list) if (matches(n.asText(), key)) return true;
        return false;
    }

    /** A table key with {@code *} standing for one dotted part (or, at the end of a name, any suffix). */
    private static boolean matches(String pattern, String key) {
        if (pattern.endsWith("_*")) return key.startsWith(pattern.substring(0, pattern.length() - 1));
        String[] p = pattern.split("\\.", -1);
        if (p.length == 2 && p[1].equals("*")) return key.startsWith(p[0] + ".") && key.length() > p[0].length() + 1;
        if (p.length != 3) return pattern.equals(key);
        if (!key.startsWith(p[0] + ".")) return false;
        int last = key.lastIndexOf('.');
        return last > p[0].length() && key.substring(last + 1).equals(p[2]);
    }

    /**
     * {@code git}'s options before its subcommand and its environment prefix.
     *
     * @param a           the words, {@code git} first
     * @param environment the command's {@code NAME=VALUE} prefix words, as written
     * @return the wrapper reading, or null when nothing there runs code
     */
    static WrapperGrammar.Unwrapped git(List<Arg> a, List<String> environment) {
        JsonNode g = table().path("git");
        List<WrapperGrammar.Payload> payloads = new ArrayList<>();
        boolean hidden = false;
        for (String w : environment) {
            int eq = w.indexOf('=');
            if (eq <= 0) continue;
            String name = w.substring(0, eq);
            String value = w.substring(eq + 1);
            if (listed(g.path("environment-script"), name)) {
                hidden = true;
                if (!value.isEmpty() && value.chars().noneMatch(c -> "'\"$`\\".indexOf(c) >= 0)) {
                    payloads.add(new WrapperGrammar.Payload(0, 1, true, WrapperGrammar.SCRIPT, List.of(value),
                            List.of()));
                }
            } else if (listed(g.path("environment-other"), name)) {
                hidden = true;
            }
        }
        int i = 1;
        while (i < a.size()) {
            Arg w = a.get(i);
            String t = w.prefix();
            int eq = t.indexOf('=');
            String option = t.startsWith("--") && eq > 0 ? t.substring(0, eq) : t;
            if (!w.known()) {
                if (t.startsWith("--") && eq > 0 && !w.many()) {
                    // --git-dir="$d": a known option with a value only known at run time
                    if (listed(g.path("options"), option)) hidden = true;
                    i++;
                    continue;
                }
                // a word only known at run time where an option may stand may be -c with any configuration
                if (w.mayBeOption()) hidden = true;
                break;
            }
            if (t.equals("-c")) {
                if (i + 1 < a.size()) hidden |= config(g, a.get(i + 1), i + 1, payloads);
                i += 2;
            } else if (listed(g.path("options"), option)) {
                if (!option.equals("--exec-path") || eq > 0 || i + 1 < a.size() && option.equals("--config-env")) {
                    hidden = true;
                }
                i += option.equals(t) && option.equals("--config-env") ? 2 : 1;
            } else if (GlobalOptions.isFlag("git", t)) {
                i++;
            } else if (GlobalOptions.takesValue("git", option)) {
                i += option.equals(t) ? 2 : 1;
            } else if (t.length() > 2 && t.charAt(0) == '-' && t.charAt(1) != '-'
                    && GlobalOptions.takesValue("git", t.substring(0, 2))) {
                i++;
            } else {
                break;
            }
        }
        if (i < a.size() && a.get(i).known()) hidden |= subcommand(g, a, i, payloads);
        if (!hidden) return null;
        payloads.add(new WrapperGrammar.Payload(a.size(), a.size(), false));
        return new WrapperGrammar.Unwrapped("git config", List.copyOf(payloads), false, false, List.of(), List.of(),
                false, false, List.of(), false);
    }

    /**
     * A git subcommand that runs a shell command given to it, or writes configuration that runs code
     * ({@code subcommands} in the table); true when it may run code.
     */
    private static boolean subcommand(JsonNode g, List<Arg> a, int at, List<WrapperGrammar.Payload> payloads) {
        JsonNode sub = g.path("subcommands").path(a.get(at).prefix());
        if (sub.isMissingNode()) return false;
        boolean hidden = false;
        if (sub.path("config-write").asBoolean(false)) {
            List<Integer> operands = new ArrayList<>();
            for (int k = at + 1; k < a.size(); k++) {
                Arg w = a.get(k);
                if (!w.known()) {
                    if (w.mayBeOption() || w.many()) return true;
                    operands.add(k);
                    continue;
                }
                String t = w.prefix();
                if (t.startsWith("-")) {
                    if (listed(sub.path("valued"), t)) k++;
                    continue;
                }
                if (operands.isEmpty() && (t.equals("set") || t.equals("add")) && k == at + 1) continue;
                operands.add(k);
            }
            if (operands.size() < 2) return false;
            Arg key = a.get(operands.get(0));
            Arg value = a.get(operands.get(1));
            if (!key.known()) return true;
            return config(g, key.prefix(), value.known() ? value.prefix() : null, operands.get(1), payloads);
        }
        String words = sub.path("words-script").asText("");
        for (int k = at + 1; k < a.size(); k++) {
            Arg w = a.get(k);
            String t = w.prefix();
            int eq = t.indexOf('=');
            String option = t.startsWith("--") && eq > 0 ? t.substring(0, eq) : t;
            if (!words.isEmpty() && w.known() && t.equals(words)) {
                int from = k + 1;
                while (from < a.size() && a.get(from).known() && listed(sub.path("skip"), a.get(from).prefix())) from++;
                if (from >= a.size()) return false;
                StringBuilder script = new StringBuilder();
                boolean known = true;
                for (int j = from; j < a.size(); j++) {
                    known &= a.get(j).known();
                    if (j > from) script.append(' ');
                    script.append(a.get(j).prefix());
                }
                if (known) payloads.add(new WrapperGrammar.Payload(from, from + 1, true, WrapperGrammar.SCRIPT,
                        List.of(script.toString()), List.of()));
                return true;
            }
            if (!w.known() && option.equals(t)) {
                // an option only known at run time may be one that runs code
                if (w.mayBeOption() && (sub.has("option-script") || sub.has("option-config"))) hidden = true;
                continue;
            }
            boolean script = listed(sub.path("option-script"), option);
            boolean config = listed(sub.path("option-config"), option);
            boolean other = listed(sub.path("option-other"), option);
            String attachedShort = null;
            if (!script && !config && !other && t.length() > 2 && t.charAt(0) == '-' && t.charAt(1) != '-') {
                String flag = t.substring(0, 2);
                if (listed(sub.path("option-script"), flag)) {
                    script = true;
                    attachedShort = t.substring(2);
                }
            }
            if (!script && !config && !other) continue;
            hidden = true;
            int vi = k;
            String value;
            if (attachedShort != null) {
                value = w.known() ? attachedShort : null;
            } else if (eq > 0 && t.startsWith("--")) {
                value = w.known() ? t.substring(eq + 1) : null;
            } else {
                vi = ++k;
                value = vi < a.size() && a.get(vi).known() ? a.get(vi).prefix() : null;
            }
            if (value == null || other) continue;
            if (config) {
                int e = value.indexOf('=');
                config(g, (e < 0 ? value : value.substring(0, e)), e < 0 ? "" : value.substring(e + 1), vi, payloads);
            } else if (!value.isBlank()) {
                payloads.add(new WrapperGrammar.Payload(vi, vi + 1, true, WrapperGrammar.SCRIPT, List.of(value),
                        List.of()));
            }
        }
        return hidden;
    }

    /** One {@code -c KEY=VALUE} word; true when it may run code. */
    private static boolean config(JsonNode g, Arg w, int index, List<WrapperGrammar.Payload> payloads) {
        String text = w.prefix();
        int eq = text.indexOf('=');
        if (!w.known() && eq < 0) return true; // the key itself only known at run time
        return config(g, eq < 0 ? text : text.substring(0, eq), !w.known() ? null : eq < 0 ? "" : text.substring(eq + 1),
                index, payloads);
    }

    /** A configuration {@code key} given {@code value} (null when only known at run time); true when it may run code. */
    private static boolean config(JsonNode g, String rawKey, String value, int index,
                                  List<WrapperGrammar.Payload> payloads) {
        String key = rawKey.toLowerCase(Locale.ROOT);
        boolean known = value != null;
        if (value == null) value = "";
        boolean script = listed(g.path("script"), key);
        boolean shellAlias = key.startsWith("alias.") && (value.startsWith("!") || !known);
        if (!script && !shellAlias && !listed(g.path("other"), key)) return false;
        if (known && (script || shellAlias)) {
            String code = shellAlias ? value.substring(1) : value;
            if (!code.isBlank()) {
                payloads.add(new WrapperGrammar.Payload(index, index + 1, true, WrapperGrammar.SCRIPT, List.of(code),
                        List.of()));
            }
        }
        return true;
    }

    /**
     * {@code make}'s {@code --eval} text, {@code SHELL=} variables and a makefile read from standard input.
     *
     * @param a the words, {@code make} first
     * @return the wrapper reading, or null when nothing there runs code
     */
    static WrapperGrammar.Unwrapped make(List<Arg> a) {
        JsonNode m = table().path("make");
        List<WrapperGrammar.Payload> payloads = new ArrayList<>();
        boolean hidden = false;
        for (int i = 1; i < a.size(); i++) {
            Arg w = a.get(i);
            String t = w.prefix();
            if (!w.known()) {
                // a word only known at run time may be --eval=..., SHELL=... or -f -, unless its known start rules
                // that out: -j$(nproc), --jobs=$n, V=$x
                hidden |= mayRunCode(m, w);
                continue;
            }
            int eq = t.indexOf('=');
            String option = t.startsWith("--") && eq > 0 ? t.substring(0, eq) : t;
            if (listed(m.path("eval"), option) || t.startsWith("-E") && t.length() > 2) {
                hidden = true;
                String text = null;
                int at = i;
                if (option.equals(t) && t.length() == 2 || option.equals("--eval") && eq < 0) {
                    if (i + 1 < a.size() && a.get(i + 1).known()) text = a.get(i + 1).prefix();
                    at = ++i;
                } else {
                    text = t.startsWith("-E") ? t.substring(2) : t.substring(eq + 1);
                }
                if (text != null) for (String s : makefileShell(text)) {
                    payloads.add(new WrapperGrammar.Payload(at, at + 1, true, WrapperGrammar.SCRIPT, List.of(s),
                            List.of()));
                }
            } else if (listed(m.path("makefile"), option) || t.startsWith("-f") && t.length() > 2) {
                String file = eq > 0 && t.startsWith("--") ? t.substring(eq + 1)
                        : t.length() > 2 && !t.startsWith("--") ? t.substring(2)
                        : i + 1 < a.size() ? (a.get(i + 1).known() ? a.get(i + 1).prefix() : null) : "";
                if (file == null || file.equals("-") || file.startsWith("/dev/") || file.startsWith("/proc/")) {
                    hidden = true;
                }
                if (t.equals(option) && t.length() == 2 || option.equals(t) && t.startsWith("--") && eq < 0) i++;
            } else if (!t.startsWith("-") && eq > 0) {
                String name = t.substring(0, eq).replaceAll("[:+?!]+$", "");
                if (listed(m.path("variables"), name)) hidden = true;
            }
        }
        if (!hidden) return null;
        payloads.add(new WrapperGrammar.Payload(a.size(), a.size(), false));
        return new WrapperGrammar.Unwrapped("make config", List.copyOf(payloads), false, false, List.of(), List.of(),
                false, false, List.of(), false);
    }

    /** A make word only known at run time that may be an option or a variable definition running code. */
    private static boolean mayRunCode(JsonNode m, Arg w) {
        String t = w.prefix();
        if (w.many()) return true;
        int eq = t.indexOf('=');
        if (t.startsWith("--") && eq > 0) {
            String option = t.substring(0, eq);
            return listed(m.path("eval"), option) || listed(m.path("makefile"), option);
        }
        if (t.length() >= 2 && t.charAt(0) == '-' && t.charAt(1) != '-') {
            // a short option cluster: only -E and -f take code or a makefile
            for (int k = 1; k < t.length(); k++) {
                char c = t.charAt(k);
                if (c == 'E' || c == 'f') return true;
                if ("jlCIoW".indexOf(c) >= 0) return false; // the rest is that option's value
            }
            return true;
        }
        if (eq > 0 && !t.startsWith("-")) {
            String name = t.substring(0, eq).replaceAll("[:+?!]+$", "");
            return listed(m.path("variables"), name);
        }
        return true;
    }

    /**
     * The shell commands in makefile text, as far as they can be found without make: each recipe line (after a rule's
     * {@code ;} or a leading tab, its {@code @ - +} prefixes removed, {@code $$} read as {@code $}) and the text of
     * every {@code $(shell ...)}.
     */
    static List<String> makefileShell(String text) {
        List<String> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            String recipe = null;
            if (line.startsWith("\t")) {
                recipe = line.substring(1);
            } else {
                int colon = line.indexOf(':');
                int semi = colon < 0 ? -1 : line.indexOf(';', colon);
                if (semi > 0) recipe = line.substring(semi + 1);
            }
            if (recipe != null) {
                recipe = recipe.replaceFirst("^[\\s@+-]+", "").replace("$$", "$");
                if (!recipe.isBlank()) out.add(recipe);
            }
        }
        for (int at = text.indexOf("$(shell "); at >= 0; at = text.indexOf("$(shell ", at + 1)) {
            int depth = 0;
            int end = -1;
            for (int k = at + 1; k < text.length(); k++) {
                char c = text.charAt(k);
                if (c == '(') depth++;
                else if (c == ')' && --depth == 0) {
                    end = k;
                    break;
                }
            }
            out.add(text.substring(at + 8, end < 0 ? text.length() : end));
        }
        return out;
    }
}
