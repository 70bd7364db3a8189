package dev.compoundbash.rules;

import dev.compoundbash.facts.CallContext;
import dev.compoundbash.facts.CallProblem;
import dev.compoundbash.facts.Environment;
import dev.compoundbash.facts.FactExtractor;
import dev.compoundbash.facts.Facts;
import dev.compoundbash.facts.PermissionRule;
import dev.compoundbash.facts.ZshDifferences;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.shell.ParseException;
import dev.compoundbash.shell.Parser;
import dev.compoundbash.shell.Script;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The one decision function: one Bash call (command, working directory, permission mode, settings) judged by one
 * {@link RuleEngine}. The hook, the evaluator daemon, {@code explain}, {@code replay}, {@code rules test} and the
 * e2e test all call {@link #decide}, so they decide alike. Data flows one way: text → AST ({@link Parser}) → facts
 * ({@link FactExtractor}) → Drools ({@link RuleEngine}) → {@link Verdict}. What keeps a command from being read (an
 * empty or over-long command, a parse error, a construct the extractor does not model, an extraction error, a user
 * rule file that does not compile) is a {@link CallProblem} fact judged by a named rule ({@code call.drl}), so every
 * verdict names its rule and file. Pure: it logs nothing and writes nothing.
 */
public final class Decider {
    /**
     * Commands longer than this many characters are read and judged, but nothing in them is approved: deny and ask
     * rules still deny and ask, everything else defers (Claude Code's own parser aborts on such a command: "Parser
     * aborted (timeout, resource limit, or over-length)", so it decides as usual).
     */
    public static final int MAX_COMMAND_CHARS = 10_000;

    /**
     * Commands longer than this many characters are not read at all (the call defers): the bound that keeps reading
     * within the hook's time limit (a 100,000-character chain of commands is judged in about a second).
     */
    public static final int MAX_PARSED_CHARS = 100_000;

    private Decider() {
    }

    /**
     * One Bash call to decide.
     *
     * @param command        the Bash tool's command; null is an empty command
     * @param cwd            the hook input's working directory; null or relative: the process's own
     * @param permissionMode the hook input's {@code permission_mode} as given; null or unknown: {@code default}
     * @param settings       the permission settings
     * @param tmpDir         {@code $TMPDIR}, for macOS's /tmp aliases; may be null
     * @param home           {@code $HOME}, which {@code ~} and {@code $HOME} name in paths; null when not known
     * @param agent          the agent whose hook asked ({@link CallContext#getAgent()}); null: Claude Code
     * @param shell          the shell that runs the command ({@link CallContext#getShell()}); null: bash
     * @param event          the hook event ({@link CallContext#getEvent()}); null: PreToolUse
     */
    public record Call(String command, String cwd, String permissionMode, PermissionSettings settings,
                       String tmpDir, String home, String agent, String shell, String event) {
        /** A call of Claude Code's PreToolUse hook, whose shell is bash. */
        public Call(String command, String cwd, String permissionMode, PermissionSettings settings,
                    String tmpDir, String home) {
            this(command, cwd, permissionMode, settings, tmpDir, home, null, null, null);
        }

        /** A call of Claude Code's PreToolUse hook run by {@code shell} ({@code bash} or {@code zsh}). */
        public Call(String command, String cwd, String permissionMode, PermissionSettings settings, String tmpDir,
                    String home, String shell) {
            this(command, cwd, permissionMode, settings, tmpDir, home, null, shell, null);
        }

        /** A call whose home directory is not known (paths through {@code ~} are then unknown). */
        public Call(String command, String cwd, String permissionMode, PermissionSettings settings, String tmpDir) {
            this(command, cwd, permissionMode, settings, tmpDir, null);
        }
    }

    /**
     * How a call was read and judged.
     *
     * @param script     the parsed tree, or null when the command was not parsed
     * @param parseError the parse error, or null
     * @param facts      the extracted facts ({@link Facts#none()} when not read)
     * @param problems   the call's problems given to the rules (rule file errors not included)
     * @param evaluation the rules' evaluation
     */
    public record Judgement(Script script, ParseException parseError, Facts facts, List<CallProblem> problems,
                            RuleEngine.Evaluation evaluation) {
    }

    /**
     * The outcome of one call.
     *
     * @param outcome   {@code allow}, {@code ask}, {@code deny} or {@code defer}
     * @param reason    the reason shown to the user ({@code compound-bash: ...})
     * @param rule      the rule that decided (the reduction rule of {@code outcome.drl})
     * @param judgement how it was read and judged; null only for {@link #internalError}
     */
    public record Verdict(String outcome, String reason, String rule, Judgement judgement) {
        /** True when the hook prints nothing for this verdict: Claude Code decides as usual. */
        public boolean defers() {
            return !outcome.equals("allow") && !outcome.equals("ask") && !outcome.equals("deny");
        }
    }

    /**
     * The verdict for a call the decision function itself failed on (a defect): defer, so Claude Code decides.
     *
     * @param e what was thrown
     * @return a defer verdict naming the error
     */
    public static Verdict internalError(Throwable e) {
        return new Verdict("defer", "compound-bash: internal error: " + e, "", null);
    }

    /**
     * Decides one call.
     *
     * @param call   the call
     * @param engine the loaded rules (built-in and the user's)
     * @return the verdict; never null
     * @throws IllegalStateException only from a defect in the built-in rules (callers defer)
     */
    public static Verdict decide(Call call, RuleEngine engine) {
        String command = call.command();
        PermissionSettings settings = call.settings();
        List<PermissionRule> rules = permissionRules(settings.allow(), settings.ask(), settings.deny());
        CallContext context = new CallContext(call.permissionMode(), settings.writesInDefaultMode(),
                settings.blockReadsOutside(), fileRules(settings, workingDirectory(call.cwd()), call.home()),
                call.agent(), call.shell(), call.event())
                .withWorkingDirectories(workingDirectories(workingDirectory(call.cwd()),
                        settings.additionalDirectories(), call.home()));
        List<CallProblem> problems = new ArrayList<>();
        for (String u : settings.unreadable()) problems.add(new CallProblem(CallProblem.SETTINGS_UNREADABLE, u));
        Script script = null;
        ParseException parseError = null;
        Facts facts = Facts.none();
        if (command == null || command.isBlank()) {
            problems.add(new CallProblem(CallProblem.EMPTY, "empty command"));
        } else if (command.length() > MAX_PARSED_CHARS) {
            problems.add(new CallProblem(CallProblem.TOO_LONG, "command of " + command.length()
                    + " characters is over " + MAX_PARSED_CHARS + ", the most the hook reads"));
        } else {
            if (command.length() > MAX_COMMAND_CHARS) {
                // Read and judged all the same, so its deny and ask rules still deny and ask; the defer of the
                // length rule keeps anything in it from approval.
                problems.add(new CallProblem(CallProblem.TOO_LONG, "command of " + command.length()
                        + " characters is over " + MAX_COMMAND_CHARS));
            }
            int odd = unicodeWhitespace(command);
            if (odd >= 0) {
                problems.add(new CallProblem(CallProblem.UNICODE_WHITESPACE, String.format(
                        "U+%04X at offset %d", command.codePointAt(odd), odd)));
            }
            try {
                script = Parser.parse(command, context.isZsh());
                FactExtractor.Extraction x = FactExtractor.extractAll(script,
                        Environment.of(workingDirectory(call.cwd()), settings.additionalDirectories(), call.tmpDir(),
                                call.home()), !context.isZsh());
                facts = x.facts();
                problems.addAll(x.problems());
                if (context.isZsh()) {
                    List<String> differ = ZshDifferences.find(script, command);
                    if (!differ.isEmpty()) {
                        problems.add(new CallProblem(CallProblem.ZSH_READS_OTHERWISE, String.join("; ", differ)));
                    }
                }
            } catch (ParseException e) {
                parseError = e;
                problems.add(new CallProblem(CallProblem.PARSE_ERROR, e.getMessage()));
            } catch (RuntimeException | StackOverflowError e) {
                // The parser bounds nesting (Parser.MAX_DEPTH), but a caller's thread stack may be smaller than the
                // launcher's: what could not be read whole defers, without its partial facts.
                facts = Facts.none();
                problems.add(new CallProblem(CallProblem.EXTRACTION_ERROR, e instanceof StackOverflowError
                        ? "the command nests too deeply to read" : "the command could not be read: " + e));
            }
        }
        RuleEngine.Evaluation ev = engine.evaluate(facts, rules, context, problems);
        return new Verdict(ev.decision().getOutcome(), "compound-bash: " + ev.decision().getReason(),
                ev.decision().getRuleName(), new Judgement(script, parseError, facts, List.copyOf(problems), ev));
    }

    /**
     * Decides one call, turning any failure of the decision function into {@link #internalError}: what the hook and
     * every other front end do with a defect.
     *
     * @param call   the call
     * @param engine the rules
     * @return the verdict; never null, never throws
     */
    public static Verdict decideOrDefer(Call call, RuleEngine engine) {
        try {
            return decide(call, engine);
        } catch (RuntimeException | StackOverflowError e) {
            return internalError(e);
        }
    }

    /**
     * The deny and ask rules of Claude Code's file tools in the settings, their patterns made absolute.
     *
     * @param settings the settings
     * @param cwd      the working directory
     * @param home     the home directory, or null
     * @return the rules, deny first
     */
    static List<dev.compoundbash.facts.FileRule> fileRules(PermissionSettings settings, java.nio.file.Path cwd,
                                                           String home) {
        List<dev.compoundbash.facts.FileRule> out = new ArrayList<>();
        for (String r : settings.deny()) {
            dev.compoundbash.facts.FileRule f = dev.compoundbash.facts.FileRule.of("deny", r, cwd, home);
            if (f != null) out.add(f);
        }
        for (String r : settings.ask()) {
            dev.compoundbash.facts.FileRule f = dev.compoundbash.facts.FileRule.of("ask", r, cwd, home);
            if (f != null) out.add(f);
        }
        return out;
    }

    /**
     * Turns settings' rule strings into Bash permission-rule facts; rules for other tools are dropped.
     *
     * @param allow {@code permissions.allow} entries as written
     * @param ask   {@code permissions.ask} entries
     * @param deny  {@code permissions.deny} entries
     * @return one fact per Bash rule, deny first
     */
    public static List<PermissionRule> permissionRules(List<String> allow, List<String> ask, List<String> deny) {
        List<PermissionRule> out = new ArrayList<>();
        add(out, "deny", deny);
        add(out, "ask", ask);
        add(out, "allow", allow);
        return out;
    }

    private static void add(List<PermissionRule> out, String kind, List<String> rules) {
        for (String r : rules) {
            String pattern = BashPattern.innerPattern(r);
            if (pattern != null) out.add(new PermissionRule(kind, pattern, r.trim()));
        }
    }

    /**
     * The offset of the first whitespace character outside ASCII (no-break and zero-width spaces, the Unicode space
     * separators, line and paragraph separators, the byte-order mark), or -1. bash splits words on ASCII blanks
     * only, so such a character joins what looks like two words; Claude Code asks ("Contains Unicode whitespace").
     *
     * @param command the command
     * @return the offset, or -1
     */
    static int unicodeWhitespace(String command) {
        for (int i = 0; i < command.length(); i++) {
            char c = command.charAt(i);
            if (c < 0x80) continue;
            if (Character.isWhitespace(c) || Character.isSpaceChar(c) || c == '\u200b' || c == '\u200c'
                    || c == '\u200d' || c == '\u2060' || c == '\ufeff' || c == '\u180e' || c == '\u00a0') {
                return i;
            }
        }
        return -1;
    }

    /**
     * The call's working directories: {@code cwd}, then each additional directory (absolute, {@code ~/} the home
     * directory, else relative to {@code cwd}), normalized.
     *
     * @param cwd        the working directory
     * @param additional {@code additionalDirectories} as written
     * @param home       the home directory, or null
     * @return the directories as strings
     */
    static List<String> workingDirectories(Path cwd, List<String> additional, String home) {
        List<String> out = new ArrayList<>();
        out.add(cwd.normalize().toString());
        for (String d : additional) {
            try {
                Path p = d.startsWith("~/") && home != null ? Path.of(home, d.substring(2)) : cwd.resolve(d);
                out.add(p.normalize().toString());
            } catch (RuntimeException e) {
                // an unusable entry adds nothing
            }
        }
        return out;
    }

    /** The working directory a call is judged in: {@code cwd} when absolute, else the process's own. */
    public static Path workingDirectory(String cwd) {
        if (cwd != null && !cwd.isEmpty()) {
            try {
                Path p = Path.of(cwd);
                if (p.isAbsolute()) return p;
            } catch (RuntimeException e) {
                // fall through to the process's own directory
            }
        }
        return Path.of("").toAbsolutePath();
    }
}
