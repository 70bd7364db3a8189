package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Configuration given on the command line that makes a program run code the command does not show as a command:
 * {@code git -c core.fsmonitor='rm -rf y' status}, {@code git -c diff.external=...}, {@code git -c alias.x='!cmd'},
 * {@code GIT_PAGER=... git log}, {@code make --eval='x:;cmd'}, {@code make SHELL=/tmp/sh}, {@code make -f -}. The
 * keys, options and variables are data (the schemas {@code programs/git.json} and {@code programs/make.json}, from
 * git-config(1), git(1) and make(1)).
 * The program becomes a wrapper ({@link WrapperGrammar.Unwrapped}) whose payloads are every static shell value, read
 * as a script (deny and ask rules judge its commands, as for {@code sh -c}), and one payload that cannot be read (the
 * program runs the code with arguments of its own, or runs programs and files named there), so it is never approved.
 */
public final class ConfigCode {
    private ConfigCode() {
    }

    private static ProgramSchemas.Schema git() {
        ProgramSchemas.Schema g = ProgramSchemas.of("git");
        if (g == null || g.config() == null) throw new IllegalStateException("programs/git.json has no config");
        return g;
    }

    private static ProgramSchemas.Schema make() {
        ProgramSchemas.Schema m = ProgramSchemas.of("make");
        if (m == null || m.options() == null) throw new IllegalStateException("programs/make.json has no options");
        return m;
    }

    /** An environment variable with {@code role} in the program's environment table. */
    private static boolean environment(ProgramSchemas.Schema g, String role, String name) {
        return g.environment() != null && role.equals(g.environment().role(name));
    }

    /** A global option of git that runs code or takes configuration other than {@code -c} itself. */
    private static boolean hidingOption(ProgramSchemas.Schema g, String option) {
        if (g.config().option().contains(option)) return false;
        String role = g.options().role(option);
        return g.options().declaredOption(option) != null && (role.equals("runs") || role.equals("config"));
    }

    /** An option of a subcommand's table with {@code role}. */
    private static boolean hasRole(ProgramSchemas.Node sub, String role, String option) {
        ProgramSchemas.Declared d = sub.options() == null ? null : sub.options().declaredOption(option);
        return d != null && d.role().equals(role);
    }

    private static boolean anyRole(ProgramSchemas.Node sub, String... roles) {
        if (sub.options() == null) return false;
        for (ProgramSchemas.Declared d : sub.options().declared()) for (String r : roles) if (d.role().equals(r)) return true;
        return false;
    }

    private static String reader(ProgramSchemas.Node sub) {
        return sub.payload() == null ? "" : sub.payload().reader();
    }

    /**
     * {@code git}'s options before its subcommand and its environment prefix.
     *
     * @param a           the words, {@code git} first
     * @param environment the command's {@code NAME=VALUE} prefix words, as written
     * @return the wrapper reading, or null when nothing there runs code
     */
    static WrapperGrammar.Unwrapped git(List<Arg> a, List<String> environment) {
        ProgramSchemas.Schema g = git();
        List<WrapperGrammar.Payload> payloads = new ArrayList<>();
        boolean hidden = false;
        for (String w : environment) {
            int eq = w.indexOf('=');
            if (eq <= 0) continue;
            String name = w.substring(0, eq);
            String value = w.substring(eq + 1);
            if (environment(g, "script", name)) {
                hidden = true;
                if (!value.isEmpty() && value.chars().noneMatch(c -> "'\"$`\\".indexOf(c) >= 0)) {
                    payloads.add(new WrapperGrammar.Payload(0, 1, true, WrapperGrammar.SCRIPT, List.of(value),
                            List.of()));
                }
            } else if (environment(g, "program", name)) {
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
                    if (hidingOption(g, option)) hidden = true;
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
            } else if (hidingOption(g, option)) {
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
    private static boolean subcommand(ProgramSchemas.Schema g, List<Arg> a, int at,
                                      List<WrapperGrammar.Payload> payloads) {
        ProgramSchemas.Node sub = g.subcommands().get(a.get(at).prefix());
        if (sub == null) return false;
        boolean hidden = false;
        if (reader(sub).equals("config-write")) {
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
                    if (hasRole(sub, "inert", t) && sub.options().declaredOption(t).valued()) k++;
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
        String words = reader(sub).equals("words-script") ? sub.payload().after() : "";
        for (int k = at + 1; k < a.size(); k++) {
            Arg w = a.get(k);
            String t = w.prefix();
            int eq = t.indexOf('=');
            String option = t.startsWith("--") && eq > 0 ? t.substring(0, eq) : t;
            if (!words.isEmpty() && w.known() && t.equals(words)) {
                int from = k + 1;
                while (from < a.size() && a.get(from).known() && sub.payload().skip().contains(a.get(from).prefix())) from++;
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
                if (w.mayBeOption() && anyRole(sub, "script", "config")) hidden = true;
                continue;
            }
            boolean script = hasRole(sub, "script", option);
            boolean config = hasRole(sub, "config", option);
            boolean other = hasRole(sub, "runs", option);
            String attachedShort = null;
            if (!script && !config && !other && t.length() > 2 && t.charAt(0) == '-' && t.charAt(1) != '-') {
                String flag = t.substring(0, 2);
                if (hasRole(sub, "script", flag)) {
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
    private static boolean config(ProgramSchemas.Schema g, Arg w, int index, List<WrapperGrammar.Payload> payloads) {
        String text = w.prefix();
        int eq = text.indexOf('=');
        if (!w.known() && eq < 0) return true; // the key itself only known at run time
        return config(g, eq < 0 ? text : text.substring(0, eq), !w.known() ? null : eq < 0 ? "" : text.substring(eq + 1),
                index, payloads);
    }

    /** A configuration {@code key} given {@code value} (null when only known at run time); true when it may run code. */
    private static boolean config(ProgramSchemas.Schema g, String rawKey, String value, int index,
                                  List<WrapperGrammar.Payload> payloads) {
        String key = rawKey.toLowerCase(Locale.ROOT);
        boolean known = value != null;
        if (value == null) value = "";
        String role = g.config().role(key);
        boolean script = "script".equals(role);
        boolean shellAlias = key.startsWith("alias.") && (value.startsWith("!") || !known);
        if (!script && !shellAlias && !"program".equals(role)) return false;
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
        ProgramSchemas.Schema m = make();
        List<String> eval = m.options().spellingsWithRole("code");
        List<String> makefile = m.options().spellingsWithRole("read");
        List<WrapperGrammar.Payload> payloads = new ArrayList<>();
        boolean hidden = false;
        for (int i = 1; i < a.size(); i++) {
            Arg w = a.get(i);
            String t = w.prefix();
            if (!w.known()) {
                // a word only known at run time may be --eval=..., SHELL=... or -f -, unless its known start rules
                // that out: -j$(nproc), --jobs=$n, V=$x
                hidden |= mayRunCode(m, eval, makefile, w);
                continue;
            }
            int eq = t.indexOf('=');
            String option = t.startsWith("--") && eq > 0 ? t.substring(0, eq) : t;
            if (eval.contains(option) || t.startsWith("-E") && t.length() > 2) {
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
            } else if (makefile.contains(option) || t.startsWith("-f") && t.length() > 2) {
                String file = eq > 0 && t.startsWith("--") ? t.substring(eq + 1)
                        : t.length() > 2 && !t.startsWith("--") ? t.substring(2)
                        : i + 1 < a.size() ? (a.get(i + 1).known() ? a.get(i + 1).prefix() : null) : "";
                if (file == null || file.equals("-") || file.startsWith("/dev/") || file.startsWith("/proc/")) {
                    hidden = true;
                }
                if (t.equals(option) && t.length() == 2 || option.equals(t) && t.startsWith("--") && eq < 0) i++;
            } else if (!t.startsWith("-") && eq > 0) {
                String name = t.substring(0, eq).replaceAll("[:+?!]+$", "");
                if ("program".equals(m.variables().role(name))) hidden = true;
            }
        }
        if (!hidden) return null;
        payloads.add(new WrapperGrammar.Payload(a.size(), a.size(), false));
        return new WrapperGrammar.Unwrapped("make config", List.copyOf(payloads), false, false, List.of(), List.of(),
                false, false, List.of(), false);
    }

    /** A make word only known at run time that may be an option or a variable definition running code. */
    private static boolean mayRunCode(ProgramSchemas.Schema m, List<String> eval, List<String> makefile, Arg w) {
        String t = w.prefix();
        if (w.many()) return true;
        int eq = t.indexOf('=');
        if (t.startsWith("--") && eq > 0) {
            String option = t.substring(0, eq);
            return eval.contains(option) || makefile.contains(option);
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
            return "program".equals(m.variables().role(name));
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
