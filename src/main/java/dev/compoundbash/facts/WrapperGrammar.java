package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Option grammars of the commands that run another command, and where their payload starts. Each grammar follows
 * the command's manual: GNU findutils {@code xargs(1)} and BSD {@code xargs(1)}, {@code find(1)}, GNU coreutils
 * {@code timeout(1)}, {@code nice(1)}, {@code nohup(1)}, {@code stdbuf(1)}.
 */
public final class WrapperGrammar {

    /** A payload: argv indices {@code [from, to)}; {@code readable} false when it is missing or malformed. */
    public record Payload(int from, int to, boolean readable) {
    }

    /** A find primary that acts, at argv index {@code index}, with its file argument or null. */
    public record Action(String primary, int index, boolean mutating, String argument) {
    }

    /**
     * The result of unwrapping one argv.
     *
     * @param kind             the wrapper name ({@code xargs}, {@code find}, {@code timeout}, ...)
     * @param payloads         the payloads; empty when the wrapper has none ({@code timeout 10})
     * @param appendsArguments xargs without replace mode: stdin words are appended to the payload
     * @param replaceMode      xargs {@code -I/-J/-i/--replace}
     * @param implicitPayload  xargs with no command runs {@code echo}: the payload is that implicit argv
     * @param actions          find's acting primaries (empty for other wrappers)
     */
    public record Unwrapped(String kind, List<Payload> payloads, boolean appendsArguments, boolean replaceMode,
                            List<String> implicitPayload, List<Action> actions) {
    }

    private static final Set<String> XARGS_SHORT_WITH_VALUE = Set.of("I", "J", "L", "n", "P", "s", "E", "a", "d", "R", "S");
    private static final Set<String> XARGS_SHORT_OPTIONAL_VALUE = Set.of("i", "e", "l");
    private static final Set<String> XARGS_SHORT_FLAGS = Set.of("0", "r", "t", "p", "x", "o");
    private static final Set<String> XARGS_LONG_WITH_VALUE = Set.of("--max-args", "--max-procs", "--max-lines",
            "--replace", "--delimiter", "--eof", "--arg-file", "--max-chars", "--process-slot-var");
    private static final Set<String> XARGS_LONG_FLAGS = Set.of("--null", "--no-run-if-empty", "--verbose",
            "--interactive", "--exit", "--open-tty", "--show-limits");
    private static final Set<String> FIND_EXEC = Set.of("-exec", "-execdir", "-ok", "-okdir");
    private static final Set<String> FIND_WRITES_ONE = Set.of("-fprint", "-fprint0", "-fls");

    private WrapperGrammar() {
    }

    /**
     * Unwraps {@code argv} when its command name (directory stripped) is a known wrapper.
     *
     * @param argv the words of a simple command after quote removal; argv[0] is the name
     * @return the payloads and options, or null when argv is not a wrapper (including a find with no
     *         {@code -exec}-like primary: it is then an ordinary command; see {@link #findActions})
     */
    public static Unwrapped unwrap(List<String> argv) {
        if (argv.isEmpty()) return null;
        String name = baseName(argv.get(0));
        return switch (name) {
            case "xargs" -> xargs(argv);
            case "find" -> find(argv);
            case "timeout" -> timeout(argv);
            case "nice" -> nice(argv);
            case "nohup" -> simple("nohup", argv, 1);
            case "stdbuf" -> stdbuf(argv);
            default -> null;
        };
    }

    /** The acting primaries of a find argv (all of them, {@code -exec} included), outside payloads. */
    public static List<Action> findActions(List<String> argv) {
        List<Action> actions = new ArrayList<>();
        scanFind(argv, new ArrayList<>(), actions);
        return actions;
    }

    static String baseName(String n) {
        int slash = n.lastIndexOf('/');
        return slash >= 0 && slash < n.length() - 1 ? n.substring(slash + 1) : n;
    }

    private static Unwrapped simple(String kind, List<String> argv, int start) {
        int i = start;
        if (i < argv.size() && argv.get(i).equals("--")) i++;
        return single(kind, argv, i, true);
    }

    private static Unwrapped single(String kind, List<String> argv, int from, boolean readable) {
        List<Payload> payloads = from < argv.size() || !readable
                ? List.of(new Payload(Math.min(from, argv.size()), argv.size(), readable && from < argv.size()))
                : List.of();
        return new Unwrapped(kind, payloads, false, false, List.of(), List.of());
    }

    private static Unwrapped xargs(List<String> argv) {
        boolean replace = false;
        int i = 1;
        boolean readable = true;
        loop:
        while (i < argv.size()) {
            String t = argv.get(i);
            if (t.equals("--")) {
                i++;
                break;
            }
            if (t.startsWith("--")) {
                int eq = t.indexOf('=');
                String opt = eq > 0 ? t.substring(0, eq) : t;
                if (opt.equals("--replace")) replace = true;
                if (XARGS_LONG_WITH_VALUE.contains(opt)) {
                    // --replace takes an optional attached value only (GNU); the others take a value.
                    i += (eq > 0 || opt.equals("--replace")) ? 1 : 2;
                } else if (XARGS_LONG_FLAGS.contains(opt)) {
                    i++;
                } else {
                    readable = false; // unknown option: cannot tell where the payload starts
                    break;
                }
                continue;
            }
            if (t.length() < 2 || t.charAt(0) != '-') break;
            // A cluster of short options: flags, then at most one option taking a value.
            for (int k = 1; k < t.length(); k++) {
                String c = String.valueOf(t.charAt(k));
                if (XARGS_SHORT_FLAGS.contains(c)) continue;
                if (XARGS_SHORT_WITH_VALUE.contains(c)) {
                    if (c.equals("I") || c.equals("J")) replace = true;
                    i += (k + 1 < t.length()) ? 1 : 2;
                    continue loop;
                }
                if (XARGS_SHORT_OPTIONAL_VALUE.contains(c)) {
                    if (c.equals("i")) replace = true;
                    i++;
                    continue loop;
                }
                readable = false;
                break loop;
            }
            i++;
        }
        if (!readable) {
            return new Unwrapped("xargs", List.of(new Payload(argv.size(), argv.size(), false)), false, false,
                    List.of(), List.of());
        }
        if (i >= argv.size()) {
            // No command: xargs runs echo with the input words.
            return new Unwrapped("xargs", List.of(), !replace, replace, List.of("echo"), List.of());
        }
        return new Unwrapped("xargs", List.of(new Payload(i, argv.size(), true)), !replace, replace, List.of(),
                List.of());
    }

    private static Unwrapped find(List<String> argv) {
        List<Payload> payloads = new ArrayList<>();
        List<Action> actions = new ArrayList<>();
        scanFind(argv, payloads, actions);
        if (payloads.isEmpty()) return null;
        return new Unwrapped("find", payloads, false, false, List.of(), actions);
    }

    private static void scanFind(List<String> argv, List<Payload> payloads, List<Action> actions) {
        int i = 1;
        while (i < argv.size()) {
            String t = argv.get(i);
            if (FIND_EXEC.contains(t)) {
                boolean mutating = t.startsWith("-ok");
                int start = i + 1;
                int end = -1;
                int next = argv.size();
                for (int j = start; j < argv.size(); j++) {
                    String u = argv.get(j);
                    if (u.equals(";")) {
                        end = j;
                        next = j + 1;
                        break;
                    }
                    if (u.equals("+") && j > start && argv.get(j - 1).equals("{}")) {
                        end = j;
                        next = j + 1;
                        break;
                    }
                }
                actions.add(new Action(t, i, mutating, null));
                if (end < 0) {
                    payloads.add(new Payload(start, argv.size(), false));
                    return;
                }
                payloads.add(new Payload(start, end, end > start));
                i = next;
                continue;
            }
            if (t.equals("-delete")) {
                actions.add(new Action(t, i, true, null));
            } else if (FIND_WRITES_ONE.contains(t)) {
                actions.add(new Action(t, i, true, i + 1 < argv.size() ? argv.get(i + 1) : null));
                i++;
            } else if (t.equals("-fprintf")) {
                actions.add(new Action(t, i, true, i + 1 < argv.size() ? argv.get(i + 1) : null));
                i += 2;
            }
            i++;
        }
    }

    private static Unwrapped timeout(List<String> argv) {
        int i = 1;
        while (i < argv.size()) {
            String t = argv.get(i);
            if (t.equals("--")) {
                i++;
                break;
            }
            if (t.equals("-s") || t.equals("-k") || t.equals("--signal") || t.equals("--kill-after")) {
                i += 2;
            } else if (t.startsWith("--signal=") || t.startsWith("--kill-after=")
                    || (t.startsWith("-s") && t.length() > 2) || (t.startsWith("-k") && t.length() > 2)) {
                i++;
            } else if (t.equals("--foreground") || t.equals("--preserve-status") || t.equals("-v")
                    || t.equals("--verbose") || t.equals("-f") || t.equals("-p")) {
                i++;
            } else if (t.startsWith("-") && t.length() > 1) {
                return single("timeout", argv, argv.size(), false);
            } else {
                break;
            }
        }
        // DURATION operand, then the command.
        return single("timeout", argv, i + 1, true);
    }

    private static Unwrapped nice(List<String> argv) {
        int i = 1;
        while (i < argv.size()) {
            String t = argv.get(i);
            if (t.equals("--")) {
                i++;
                break;
            }
            if (t.equals("-n") || t.equals("--adjustment")) {
                i += 2;
            } else if (t.startsWith("--adjustment=") || (t.startsWith("-n") && t.length() > 2)
                    || t.matches("-[0-9]+") || t.matches("--?[0-9]+")) {
                i++;
            } else if (t.startsWith("-") && t.length() > 1) {
                return single("nice", argv, argv.size(), false);
            } else {
                break;
            }
        }
        return single("nice", argv, i, true);
    }

    private static Unwrapped stdbuf(List<String> argv) {
        int i = 1;
        while (i < argv.size()) {
            String t = argv.get(i);
            if (t.equals("--")) {
                i++;
                break;
            }
            if (t.equals("-i") || t.equals("-o") || t.equals("-e") || t.equals("--input") || t.equals("--output")
                    || t.equals("--error")) {
                i += 2;
            } else if ((t.length() > 2 && (t.startsWith("-i") || t.startsWith("-o") || t.startsWith("-e")))
                    || t.startsWith("--input=") || t.startsWith("--output=") || t.startsWith("--error=")) {
                i++;
            } else if (t.startsWith("-") && t.length() > 1) {
                return single("stdbuf", argv, argv.size(), false);
            } else {
                break;
            }
        }
        return single("stdbuf", argv, i, true);
    }
}
