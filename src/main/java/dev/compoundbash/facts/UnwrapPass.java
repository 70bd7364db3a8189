package dev.compoundbash.facts;

import dev.compoundbash.shell.ParseException;
import dev.compoundbash.shell.Parser;
import dev.compoundbash.shell.Redirection;
import dev.compoundbash.shell.Script;
import dev.compoundbash.shell.WordValue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Pass 3 of the extractor, unwrapping: what each command the walk reached runs besides itself. It makes the
 * {@link SubCommand} of every simple command the walk hands it ({@link #command}) with the shell state the flow
 * has there ({@link FlowPass#shellState()}), and asks {@link ProgramKnowledge} (the one seam to program knowledge)
 * what the program does with its words: a wrapper's or runner's payloads become {@link Wrapper}s and payload
 * sub-commands (recursively: a payload may itself be a wrapper, or a script); find's acting primaries become
 * {@link FindAction}s; an inline script ({@code sh -c}, {@code eval}, {@code source}, a here-document given to a
 * shell) is parsed and walked again by the {@link WalkPass} under {@link Context#INLINE_SCRIPT}, every command of it
 * linked to the shell by a {@link Wrapper} of its own; code from a source the hook cannot read gets an unreadable
 * {@link Wrapper}; static text shaped like code bash may evaluate later (stored code) is parsed and its
 * substitutions walked under {@link Context#STORED_CODE}. Each command it makes goes on to the path pass through
 * {@link Later}, with how it was reached ({@link Reach}).
 *
 * <p>Every command it makes also runs in the shell, so it tells the flow ({@link FlowPass#commandRuns}): a call of
 * a function defined earlier changes the variables the function writes. Follows bash(1) "INVOCATION", "eval",
 * "source"; the programs' manuals through {@link ProgramKnowledge}. It plays the part of mvdan/sh's
 * {@code interp} exec handler: what running a program does.
 *
 * <p>Not thread-safe: one per extraction.
 */
final class UnwrapPass {

    /** What this pass hands the path pass. */
    interface Later {
        /**
         * The path operands of a command made here (a simple command or a payload), reached as {@code reach} says;
         * {@code reading} is what its program does with its words (null when its name is only known at run time).
         */
        void operands(SubCommand sc, ProgramKnowledge.Reading reading, Reach reach, WalkPass.Pipe pipe);

        /** A file a wrapper writes itself ({@code time -o FILE}), as a {@link Redirect}. */
        void writes(int commandId, String option, String path, boolean dynamic);
    }

    /** Wrappers and inline scripts deeper than this are not read: their payloads are never approved. */
    static final int MAX_WRAPPER_DEPTH = 64;

    /**
     * How the commands being made are reached through wrappers: the product of this pass the path pass reads with
     * each command.
     *
     * @param privilegeId    id of the innermost sudo/doas whose payload is being extracted, or -1
     * @param inline         while an inline script's commands are extracted: the shell that runs it (every command
     *                       made then that no wrapper inside the script reaches is linked to it), else null
     * @param wrapperDepth   how many wrappers and inline scripts deep
     * @param inCandidate    the payloads of a candidate payload ({@link WrapperGrammar.Payload#candidate()}) are
     *                       being extracted
     * @param otherDirectory a wrapper that runs its payload in another directory is being unwrapped: relative
     *                       paths are unknown
     * @param findPaths      the payload gets the paths a find found ({@code {}}), or null
     * @param xargsReplace   the replacement string of the xargs -I whose payload is being read, or null
     * @param remote         the payloads of a runner that runs them elsewhere (ssh, a container) are being
     *                       extracted: their paths and redirections name files there, not here
     */
    record Reach(int privilegeId, InlineLink inline, int wrapperDepth, boolean inCandidate, boolean otherDirectory,
                 FindPaths findPaths, String xargsReplace, boolean remote) {
        static final Reach TOP = new Reach(-1, null, 0, false, false, null, null, false);

        Reach(int privilegeId, InlineLink inline, int wrapperDepth, boolean inCandidate, boolean otherDirectory,
              FindPaths findPaths, String xargsReplace) {
            this(privilegeId, inline, wrapperDepth, inCandidate, otherDirectory, findPaths, xargsReplace, false);
        }

        Reach withInline(InlineLink link) {
            return new Reach(privilegeId, link, wrapperDepth, inCandidate, otherDirectory, findPaths, xargsReplace,
                    remote);
        }

        Reach withCandidate(boolean candidate) {
            return new Reach(privilegeId, inline, wrapperDepth, candidate, otherDirectory, findPaths, xargsReplace,
                    remote);
        }
    }

    /**
     * A find payload's {@code {}}: the paths find found under its start paths, as find was written there; whether
     * they stay inside the start paths is the path pass's question ({@link PathPass#findFoundPaths}).
     *
     * @param args           the find command's words, the name first
     * @param from           the index of the payload's first word
     * @param bases          the directories find runs in
     * @param otherDirectory a wrapper runs find in another directory
     */
    record FindPaths(List<Arg> args, int from, List<java.nio.file.Path> bases, boolean otherDirectory) {
    }

    /** The shell running an inline script, and whether any command was linked to it yet. */
    static final class InlineLink {
        final WrapperGrammar.Unwrapped unwrapped;
        final int shellId;
        boolean linked;

        InlineLink(WrapperGrammar.Unwrapped unwrapped, int shellId) {
            this.unwrapped = unwrapped;
            this.shellId = shellId;
        }
    }

    /**
     * Syntax bash reads and a POSIX shell (dash) reads otherwise or not at all: arithmetic and conditional commands,
     * {@code $[ ]}, {@code {NAME}>} redirections, here-strings, {@code &>}, {@code |&}, ANSI-C and locale quoting,
     * process substitution, {@code ;&}/{@code ;;&}, arrays, {@code function}, {@code coproc}, {@code select},
     * {@code ${!x}} and the pattern, case and substring operators of {@code ${...}} (Bash Reference Manual, Appendix B
     * "Major Differences From The Bourne Shell"; dash(1)). Matched on the script's text, quoted or not: a false
     * match only leaves a script unapproved.
     */
    private static final java.util.regex.Pattern BASH_ONLY = java.util.regex.Pattern.compile(
            "\\(\\(|\\[\\[|\\$\\[|\\{[A-Za-z_][A-Za-z0-9_]*}[<>]|<<<|&>|\\|&|\\$'|\\$\"|[<>]\\(|;;?&|=\\(|"
                    + "\\bfunction\\b|\\bcoproc\\b|\\bselect\\b|\\$\\{!|\\$\\{[A-Za-z_0-9]*(:[^-=?+]|[/^,@\\[])");

    private final FactSink sink;
    private final WalkPass walk;
    private final FlowPass flow;
    private final ProgramKnowledge knowledge;
    private Later later;
    private Reach reach = Reach.TOP;

    /**
     * True while the payloads of a runner that runs them elsewhere (ssh, a container: {@code payload.remote}) are
     * being extracted: the redirections and files the walk reports then name files there.
     */
    boolean remote() {
        return reach.remote();
    }
    /**
     * Configuration written so far in the call ({@code git config alias.p push}), as {@code KEY=VALUE}, in run
     * order: the git commands after it read it as {@code -c KEY=VALUE} (git-config(1)).
     */
    private final List<String> configurationWritten = new ArrayList<>();
    /** Static text holding a command-substitution opener that {@link #storedCode} did not already extract. */
    private final List<String> codeLikeTexts = new ArrayList<>();

    UnwrapPass(FactSink sink, WalkPass walk, FlowPass flow, ProgramKnowledge knowledge) {
        this.sink = sink;
        this.walk = walk;
        this.flow = flow;
        this.knowledge = knowledge;
    }

    /** Connects the pass this one hands its products to (set once, before the first walk). */
    void connect(Later later) {
        this.later = later;
    }

    /** What the alias pass made of the command ({@link AliasPass}): followed aliases, already expanded. */
    private AliasPass.Result aliases = new AliasPass.Result(null, false, false);

    /**
     * Takes the alias pass's product (before the walk): when it followed every alias change, the alias builtins
     * of the command's own text change nothing the later passes do not see.
     *
     * @param aliases the alias pass's result
     */
    void aliases(AliasPass.Result aliases) {
        this.aliases = aliases;
    }

    /**
     * Makes the {@link SubCommand} of a simple command the walk reached, then its path operands (through
     * {@link Later}), find actions, payloads and scripts.
     *
     * @param r the command as the walk reached it
     * @return the sub-command's id
     */
    int command(WalkPass.Reached r) {
        List<Arg> args = r.args();
        boolean dynamicName = r.dynamicName();
        Map<String, String> evaluated = WordExpansion.evaluated(r.pieces(), args, flow.shellState().constants());
        int id = sink.id();
        ProgramKnowledge.Reading reading = dynamicName ? null : knowledge.read(args, r.assignments());
        WrapperGrammar.Unwrapped u = reading == null ? null : reading.wrapper();
        if (u != null && followedAlias(args, dynamicName, r.context())) {
            u = null; // the alias pass expands the value where it is used: the definition runs nothing
        }
        Redirection stdin = (u == null || u.readsStandardInput()) && !dynamicName
                ? stdinScript(reading, r.redirections()) : null;
        String role = u != null || stdin != null ? "wrapper" : "command";
        SubCommand sc = commandFact(id, args, dynamicName, r.raw(), r.top(), role, -1, false, r.assignments(),
                r.context(), evaluated);
        sink.subCommands.add(sc);
        closedWorld(sc, reading);
        later.operands(sc, reading, reach, r.pipe());
        // The words' own expansions run in this shell, outside any privilege or prefix the wrapper sets.
        if (!dynamicName && sc.getBaseName().equals("find")) {
            for (WrapperGrammar.Action a : reading.findActions()) {
                sink.findActions.add(new FindAction(sink.id(), sc.getId(), a.primary(), a.mutating(), a.argument()));
            }
        }
        List<String> changes = shellState(args, r.assignments(), dynamicName, r.context());
        if (u != null) unwrap(sc, u, args, r, evaluated);
        if (stdin != null) stdinScriptPayload(sc, stdin, r.top(), sc.getAssignments(), r.source());
        else if (u == null && !dynamicName) hiddenScript(sc, reading);
        pendingChanges.addAll(changes); // after its own payloads (alias's value): they are not "after" it
        return id;
    }

    /** An alias builtin of the command's own text that the alias pass followed ({@link AliasPass}). */
    private boolean followedAlias(List<Arg> args, boolean dynamicName, List<String> context) {
        if (dynamicName || !aliases.followed() || args.isEmpty()) return false;
        String name = args.get(0).text();
        return (name.equals("alias") || name.equals("unalias")) && !context.contains(Context.INLINE_SCRIPT)
                && !context.contains(Context.STORED_CODE);
    }

    /**
     * Issue 19: the shell-state changes of a simple command the extractor does not follow ({@link ShellStateChanges})
     * become {@link CallProblem#SHELL_STATE}; the code they store is read as stored code, so a denied command in it
     * denies.
     */
    private List<String> shellState(List<Arg> args, List<String> assignments, boolean dynamicName,
                                    List<String> context) {
        List<String> made = new ArrayList<>();
        // the changes made before this command apply to it
        // IFS splits only what an unquoted expansion makes, and joins "$*" and "${a[*]}" (bash(1) Word Splitting,
        // Special Parameters): a quoted "$x" is one word whatever IFS holds
        boolean dynamic = dynamicName;
        for (Arg a : args) {
            dynamic |= a.dynamic() && (a.many() || a.text().contains("*") || a.text().contains("${!"));
        }
        for (String p : pendingChanges) sink.shellState(p);
        pendingChanges.clear();
        if (dynamic) {
            for (String p : pendingForExpansions) sink.shellState(p);
            pendingForExpansions.clear();
        }
        // a change inside a loop or a function body may apply to a command the walk met before it
        boolean repeats = context.contains(Context.LOOP) || context.contains(Context.FUNCTION_BODY);
        if (!dynamicName) {
            List<String> argv = Arg.texts(args);
            String change = ShellStateChanges.builtinChange(argv);
            if (change != null && followedAlias(args, false, context)) {
                change = null; // the alias pass followed it: the lines after it are read expanded
            }
            if (change != null) {
                // a trap runs at exit, fc -s and fc re-run a command at once
                if (repeats || argv.get(0).equals("trap") || argv.get(0).equals("fc")) sink.shellState(change);
                else made.add(change);
                for (String code : ShellStateChanges.storedCode(argv)) shellCode(code);
            }
            cdableVariable(argv);
        }
        // an environment prefix or a NAME=VALUE word (env, export) reaches this command or the child it starts
        for (String a : assignments) {
            String text = staticAssignment(a);
            if (text != null) variable(text, false, true);
            else if (ShellStateChanges.variableChange(a, false) != null) {
                sink.shellState(a + ", a value known only at run time");
            }
        }
        for (Arg a : args) if (!a.dynamic()) variable(a.text(), false, true);
        return made;
    }

    /**
     * Shell-state changes that apply to every command after them ({@code alias}, {@code set -k}, a shadowing
     * function...), made a {@link CallProblem#SHELL_STATE} when one is reached: nothing after is left to run at the
     * end of the command, so a change last in it changes nothing.
     */
    private final List<String> pendingChanges = new ArrayList<>();
    /** Changes that apply only to words holding expansions (IFS), made a problem at the next such command. */
    private final List<String> pendingForExpansions = new ArrayList<>();

    private void variable(String word, boolean statement, boolean immediate) {
        String[] change = ShellStateChanges.variableChange(word, statement);
        if (change == null) return;
        if (immediate) sink.shellState(change[0]);
        else if (word.startsWith("IFS=")) pendingForExpansions.add(change[0]);
        else pendingChanges.add(change[0]);
        if (change[1] != null) shellCode(change[1]);
    }

    /** A statement's assignment (issue 19): prompt variables, IFS, BASH_ENV; a null value is not static. */
    void assignmentStatement(String name, String value) {
        if (value == null) {
            if (ShellStateChanges.variableChange(name + "=$x", true) != null) {
                pendingChanges.add(name + ", set to a value known only at run time");
            }
            return;
        }
        variable(name + "=" + value, true, false);
    }

    /** The names of the functions the command defines, anywhere (issue 19). */
    private final java.util.Set<String> functionsDefined = new java.util.LinkedHashSet<>();

    /**
     * A function definition (issue 19): wherever its name is used as a command in the call (the function, whatever
     * PATH holds at hook time or in Claude Code's shell), see {@link #finish}; a function bash calls by itself
     * ({@code command_not_found_handle}) changes what follows at once.
     */
    void functionDefined(String name) {
        functionsDefined.add(name);
        if (ShellStateChanges.calledImplicitly(name)) {
            pendingChanges.add("a function named \"" + name + "\", which bash calls by itself");
        }
    }

    /**
     * {@code cd NAME} where NAME is a variable the command sets or the environment holds: with {@code cdable_vars}
     * (set in the command, or in the user's rc file and replayed by Claude Code's snapshot) cd goes to $NAME when
     * there is no directory NAME, so the directory the paths after it are taken against is not known.
     */
    private void cdableVariable(List<String> argv) {
        String name = argv.get(0);
        if (!name.equals("cd") && !name.equals("pushd")) return;
        for (String a : argv.subList(1, argv.size())) {
            if (!a.matches("[A-Za-z_][A-Za-z0-9_]*")) continue;
            boolean set = System.getenv(a) != null;
            for (VariableWrite w : sink.variableWrites) set |= a.equals(w.getName()) || w.getName() == null;
            if (set) sink.shellState("cd " + a + ", which goes to $" + a + " under shopt cdable_vars");
        }
    }

    /** The texts {@link #shellCode} has read. */
    private final java.util.Set<String> shellCodeRead = new java.util.HashSet<>();

    /** An environment prefix as written ({@code PS4='$(x)'}) as {@code NAME=VALUE} text, or null when not static. */
    private static String staticAssignment(String raw) {
        try {
            Script s = Parser.parse(raw);
            if (s.body().items().size() == 1
                    && s.body().items().get(0).command() instanceof dev.compoundbash.shell.Command.Simple c
                    && c.assignments().size() == 1 && c.words().isEmpty()) {
                dev.compoundbash.shell.Assignment a = c.assignments().get(0);
                if (a.value() == null) return a.name() + "=";
                dev.compoundbash.shell.WordValue v = dev.compoundbash.shell.WordValue.of(a.value(), raw);
                return v.isStatic() ? a.name() + "=" + v.value() : null;
            }
        } catch (ParseException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /**
     * Code a shell-state change stores for later (an alias value, a trap, a prompt, an imported function): its
     * commands are walked as a script under {@link Context#STORED_CODE} in a process of its own, so an unapproved
     * one asks and a denied one denies; text that does not parse is code known only at run time.
     */
    private void shellCode(String text) {
        // a prefix a wrapper passes on reaches every command of its script: each stored text is read once
        if (!shellCodeRead.add(text)) return;
        Script script;
        try {
            script = Parser.parse(text);
        } catch (ParseException | RuntimeException e) {
            sink.runTimeCode(text, walk.contextWith(Context.STORED_CODE));
            return;
        }
        Runnable end = flow.newProcess();
        try {
            WalkPass.Origin o = walk.origin();
            walk.script(script, false, new WalkPass.Origin(List.of(), o.shell(), o.noBraceExpansion()),
                    Context.STORED_CODE);
        } finally {
            end.run();
        }
    }

    /**
     * The closed world: the words of the command its program's schema does not list become {@link UnknownWord}s,
     * and the configuration it writes applies to the git commands after it.
     */
    private void closedWorld(SubCommand sc, ProgramKnowledge.Reading reading) {
        if (reading == null) return;
        for (SchemaReader.Unknown u : reading.unknownWords(configurationWritten)) {
            sink.unknownWords.add(new UnknownWord(sink.id(), sc.getId(), reading.baseName(), u.word(), u.what(),
                    u.choosesWhatRuns()));
        }
        String written = reading.configurationWritten();
        if (written != null) configurationWritten.add(written);
        ProgramSchemas.Schema schema = reading.schema();
        if (schema == null || schema.config() == null) return;
        // configuration written earlier in the call (npm config set, npm pkg set, gh alias set, a write to .npmrc)
        // may change what this run of the program runs: unknown, and it may choose what runs
        for (ConfigWrites.Write w : programWrites.getOrDefault(schema.file(), List.of())) {
            if (!w.changesWhatRuns()) continue;
            sink.unknownWords.add(new UnknownWord(sink.id(), sc.getId(), reading.baseName(), w.key(),
                    "configuration " + w.key() + " written earlier in the call", true));
        }
        if (!schema.config().files().isEmpty()) {
            for (Redirect r : sink.redirects) {
                if (!r.isOutput() || r.isFdDuplication() || r.getCommandId() == sc.getId()) continue;
                String target = r.getResolvedPath() != null ? r.getResolvedPath() : r.getTarget();
                if (ConfigWrites.isConfigFile(schema, target) || ConfigWrites.isConfigFile(schema, r.getTarget())) {
                    sink.unknownWords.add(new UnknownWord(sink.id(), sc.getId(), reading.baseName(), r.getTarget(),
                            "configuration file " + r.getTarget() + " written earlier in the call", true));
                }
            }
            for (PathOperand o : sink.pathOperands) {
                if (o.getCommandId() == sc.getId()
                        || !("write".equals(o.getAccess()) || "create".equals(o.getAccess()))) continue;
                String target = o.getResolvedPath() != null ? o.getResolvedPath() : o.getWord();
                if (ConfigWrites.isConfigFile(schema, target) || ConfigWrites.isConfigFile(schema, o.getWord())) {
                    sink.unknownWords.add(new UnknownWord(sink.id(), sc.getId(), reading.baseName(), o.getWord(),
                            "configuration file " + o.getWord() + " written earlier in the call", true));
                }
            }
        }
        repositoryWrites(sc, reading, schema);
        List<ConfigWrites.Write> writes = reading.configWrites();
        if (!writes.isEmpty()) programWrites.computeIfAbsent(schema.file(), f -> new ArrayList<>()).addAll(writes);
    }

    /**
     * The closed world for the repository a run reads its configuration from ({@link RepositoryFiles}: git's
     * {@code -C}, {@code --git-dir}, {@code .git} or a bare repository found upwards): a write earlier in the call
     * to one of its files ({@code cp cfg x/config && git -C x log}, {@code > x/hooks/pre-commit}), to a directory
     * holding them ({@code cp -r tpl x}), or to a path only known at run time may choose what the run does, so it
     * is an unknown word that may choose what runs. A directory only made ({@code mkdir}, {@code touch}: access
     * {@code create}) holds no configuration, and the program's own writes ({@code git init x}, {@code git clone
     * URL x}) are its defaults, whose configuration the closed world reads from their words ({@code -c},
     * {@code --template}); both still count when they name one of the files itself.
     */
    private void repositoryWrites(SubCommand sc, ProgramKnowledge.Reading reading, ProgramSchemas.Schema schema) {
        ProgramSchemas.Repository repository = schema.config().repository();
        if (repository == null) return;
        List<RepositoryFiles.Watched> watched = RepositoryFiles.of(repository, schema.options(), sc.getArgs(),
                flow.shellState().bases());
        if (watched == null) return;
        for (Redirect r : sink.redirects) {
            if (!r.isOutput() || r.isFdDuplication() || r.isSafeDevice() || r.getCommandId() == sc.getId()) continue;
            String target = r.getResolvedPath();
            if (target == null && r.isDynamic() && PathResolver.processRelative(r.getTarget())) continue;
            String how = target == null ? "unknown" : RepositoryFiles.reaches(watched, target);
            if (how != null) repositoryWrite(sc, reading, r.getTarget(), how);
        }
        for (PathOperand o : sink.pathOperands) {
            if (o.getCommandId() == sc.getId()
                    || !("write".equals(o.getAccess()) || "create".equals(o.getAccess()))) continue;
            String target = o.getStatus().equals(PathOperand.UNKNOWN) ? null : o.getResolvedPath();
            String how = target == null ? "unknown" : RepositoryFiles.reaches(watched, target);
            if (how == null) continue;
            // an empty directory or file made, or the program's own repository with its defaults
            if (!how.equals("file") && ("create".equals(o.getAccess()) || o.getProgram().equals(reading.baseName()))) {
                continue;
            }
            repositoryWrite(sc, reading, o.getWord(), how);
        }
    }

    private void repositoryWrite(SubCommand sc, ProgramKnowledge.Reading reading, String word, String how) {
        String what = switch (how) {
            case "file" -> "repository file " + word + " written earlier in the call";
            case "holder" -> "directory " + word + " written earlier in the call, which holds the repository";
            default -> "file " + word + ", written earlier in the call at a path only known at run time,"
                    + " that may be one of the repository";
        };
        sink.unknownWords.add(new UnknownWord(sink.id(), sc.getId(), reading.baseName(), word, what, true));
    }

    /** Configuration keys written so far in the call, by the schema file of the program that reads them. */
    private final Map<String, List<ConfigWrites.Write>> programWrites = new java.util.HashMap<>();

    /**
     * Makes a sub-command fact, final as made: while an inline script's commands are extracted, a command no
     * wrapper inside the script reaches is linked to the script's shell here, by a {@link Wrapper} of its own.
     */
    private SubCommand commandFact(int id, List<Arg> args, boolean dynamicName, String raw, boolean top, String role,
                                   int wrapperId, boolean appended, List<String> assignmentWords,
                                   List<String> context, Map<String, String> evaluated) {
        boolean dynamicArgs = false;
        for (int i = 1; i < args.size(); i++) dynamicArgs |= args.get(i).dynamic();
        List<String> names = new ArrayList<>(assignmentWords.size());
        for (String w : assignmentWords) {
            int eq = w.indexOf('=');
            String name = eq < 0 ? w : w.substring(0, eq);
            if (name.endsWith("+")) name = name.substring(0, name.length() - 1);
            int bracket = name.indexOf('[');
            names.add(bracket < 0 ? name : name.substring(0, bracket));
        }
        if (!args.isEmpty()) flow.commandRuns(args.get(0).text(), dynamicName);
        InlineLink inline = reach.inline();
        if (inline != null && wrapperId == -1) {
            int wid = sink.id();
            sink.wrappers.add(wrapper(wid, inline.unwrapped, inline.shellId, id, true));
            inline.linked = true;
            wrapperId = wid;
            if (!role.equals("wrapper")) role = "payload";
        }
        List<List<String>> alternatives = WordExpansion.alternatives(args, evaluated, flow.shellState());
        if (!configurationWritten.isEmpty() && !dynamicName) {
            List<List<String>> more = knowledge.readingsWithConfiguration(Arg.texts(args), configurationWritten);
            if (!more.isEmpty()) {
                alternatives = new ArrayList<>(alternatives);
                alternatives.addAll(more);
            }
        }
        return new SubCommand(id, args, raw, dynamicName, dynamicArgs, top, context, role, wrapperId,
                appended, names, assignmentWords, reach.privilegeId(), alternatives);
    }

    /**
     * Adds the payloads of the wrapper {@code sc} (recursively: a payload may itself be a wrapper, or a script), its
     * {@link Wrapper} facts, and the files it writes as {@link Redirect}s. A payload inherits the wrapper's
     * environment prefix plus the assignments the wrapper adds ({@code env NAME=VALUE}), and under sudo/doas the
     * privilege; a payload that is a shell reading its script from standard input reads the command's
     * here-document or here-string ({@code env bash <<'EOF'}).
     */
    private void unwrap(SubCommand sc, WrapperGrammar.Unwrapped u, List<Arg> args, WalkPass.Reached r,
                        Map<String, String> evaluated) {
        List<String> argv = sc.getArgv();
        for (WrapperGrammar.Output o : u.outputs()) {
            later.writes(sc.getId(), o.option(), o.path(argv), args.get(o.index()).dynamic());
        }
        if (reach.wrapperDepth() >= MAX_WRAPPER_DEPTH) {
            sink.wrappers.add(wrapper(sink.id(), u, sc.getId(), -1, false));
            return;
        }
        Reach saved = reach;
        // Payloads are reached through this wrapper, not linked to an enclosing inline script's shell.
        reach = new Reach(u.privileged() ? sc.getId() : reach.privilegeId(), null, reach.wrapperDepth() + 1,
                reach.inCandidate(), reach.otherDirectory() || u.changesDirectory(), reach.findPaths(),
                reach.xargsReplace(), reach.remote() || u.remote());
        try {
            unwrapPayloads(sc, u, args, r, evaluated);
        } finally {
            reach = saved;
        }
    }

    private void unwrapPayloads(SubCommand sc, WrapperGrammar.Unwrapped u, List<Arg> args, WalkPass.Reached r,
                                Map<String, String> evaluated) {
        boolean top = r.top();
        List<WrapperGrammar.Payload> payloads = new ArrayList<>(u.payloads());
        if (payloads.isEmpty() && !u.implicitPayload().isEmpty()) {
            int wid = sink.id();
            int pid = sink.id();
            sink.wrappers.add(wrapper(wid, u, sc.getId(), pid, true));
            List<Arg> implicit = u.implicitPayload().stream().map(Arg::literal).toList();
            sink.subCommands.add(commandFact(pid, implicit, false, String.join(" ", u.implicitPayload()), top,
                    "payload", wid, u.appendsArguments(), sc.getAssignments(), r.context(), evaluated));
            return;
        }
        if (payloads.isEmpty()) {
            sink.wrappers.add(wrapper(sink.id(), u, sc.getId(), -1, true));
            return;
        }
        for (WrapperGrammar.Payload p : payloads) {
            // A candidate's own candidates are among its wrapper's: read once.
            if (p.candidate() && reach.inCandidate()) continue;
            if (!p.readable() || p.from() >= p.to()) {
                sink.wrappers.add(wrapper(sink.id(), u, sc.getId(), -1, false));
                continue;
            }
            List<String> env = new ArrayList<>(sc.getAssignments());
            env.addAll(p.assignments());
            boolean anyDynamic = false;
            for (int k = p.from(); k < p.to(); k++) anyDynamic |= args.get(k).dynamic();
            if (p.form().equals(WrapperGrammar.SCRIPT)) {
                boolean spliced = false;
                for (int k = p.from(); k < p.to(); k++) spliced |= args.get(k).spliced();
                if (anyDynamic) {
                    // Text only known at run time is never read, so never approved. A script a wrapper splices
                    // run-time text into (find -exec sh -c '... {} ...') is read for its deny and ask rules only.
                    sink.wrappers.add(wrapper(sink.id(), u, sc.getId(), -1, false));
                    if (spliced) inlineScript(sc, u, p.words().get(0), top, env);
                } else {
                    inlineScript(sc, u, p.words().get(0), top, env);
                }
                continue;
            }
            List<Arg> pargs;
            String rs = u.replaceString();
            if (p.words() != null) {
                // Split words (env -S) come from one argv word: they are dynamic when it is.
                final boolean unknown = anyDynamic;
                pargs = p.words().stream().map(w -> unknown ? Arg.unknown(w) : Arg.literal(w)).toList();
            } else {
                pargs = new ArrayList<>(args.subList(p.from(), p.to()));
                // xargs -I R, find -exec ... {}: the wrapper splices run-time text into every word holding the
                // replacement string, so that word (a script's text included) is only known at run time.
                if (rs != null && !rs.isEmpty()) {
                    for (int k = 0; k < pargs.size(); k++) {
                        if (pargs.get(k).isStatic() && pargs.get(k).text().contains(rs)) {
                            pargs.set(k, pargs.get(k).splicedAt(rs, u.kind().equals("find")));
                        }
                    }
                }
            }
            List<String> pargv = Arg.texts(pargs);
            int wid = sink.id();
            int pid = sink.id();
            sink.wrappers.add(wrapper(wid, u, sc.getId(), pid, true));
            boolean dynamicName = pargs.get(0).dynamic();
            ProgramKnowledge.Reading reading = dynamicName ? null : knowledge.read(pargs, env);
            WrapperGrammar.Unwrapped inner = reading == null ? null : reading.wrapper();
            Redirection stdin = (inner == null || inner.readsStandardInput()) && !dynamicName
                    ? stdinScript(reading, r.redirections()) : null;
            SubCommand payload = commandFact(pid, pargs, dynamicName, String.join(" ", pargv), top,
                    inner != null || stdin != null ? "wrapper" : "payload", wid,
                    // the words xargs appends pass through the wrappers it runs (xargs timeout 5 cat) to the end
                    u.appendsArguments() || sc.isArgumentsAppended(), env, r.context(), evaluated);
            sink.subCommands.add(payload);
            closedWorld(payload, reading);
            Reach saved = reach;
            String xargsReplace = u.kind().equals("xargs") && rs != null && !rs.isEmpty() ? rs : null;
            FindPaths findPaths = reach.findPaths();
            if (u.kind().equals("find")) {
                findPaths = p.candidate() ? null
                        : new FindPaths(args, p.from(), flow.shellState().bases(), reach.otherDirectory());
            } else if (rs != null && !rs.isEmpty()) {
                findPaths = null;
            }
            reach = new Reach(reach.privilegeId(), reach.inline(), reach.wrapperDepth(), reach.inCandidate(),
                    reach.otherDirectory(), findPaths, xargsReplace, reach.remote());
            later.operands(payload, reading, reach, r.pipe());
            reach = reach.withCandidate(reach.inCandidate() || p.candidate());
            try {
                if (inner != null) unwrap(payload, inner, pargs, r, evaluated);
                if (stdin != null) stdinScriptPayload(payload, stdin, top, env, r.source());
            } finally {
                reach = saved;
            }
        }
    }

    /**
     * {@code bash <<EOF ... EOF}, {@code sh <<< 'cmd'}: a shell given no {@code -c} and no script file (or
     * {@code -s}) reads its script from standard input (bash(1) "Invocation"). When the last redirection of standard
     * input is a here-document or here-string (bash(1) "REDIRECTION": redirections are processed left to right, so
     * a later one of the same descriptor wins: {@code bash <<< 'ls' < file} reads the file), that text is the
     * script.
     *
     * @return the here-document or here-string redirection, or null when the shell reads no such script
     */
    private static Redirection stdinScript(ProgramKnowledge.Reading reading, List<Redirection> redirections) {
        return reading.readsScriptFromStandardInput() ? lastStdin(redirections) : null;
    }

    /**
     * A shell that reads its script from standard input that is no static here-document or here-string, or
     * {@code source}/{@code .} of a file named only at run time ({@link ProgramKnowledge.Reading#hiddenScript()}):
     * code the hook cannot read runs. It gets an unreadable {@link Wrapper} (wrappers.drl asks while deny or ask
     * rules are in force); the command keeps its role, so an allow rule for it judges it as before.
     */
    private void hiddenScript(SubCommand sc, ProgramKnowledge.Reading reading) {
        String kind = reading.hiddenScript();
        if (kind == null) return;
        sink.wrappers.add(new Wrapper(sink.id(), kind, sc.getId(), -1, false, false, false));
    }

    /** The here-document or here-string that is standard input at the end of {@code redirections}, or null. */
    private static Redirection lastStdin(List<Redirection> redirections) {
        Redirection input = null;
        for (Redirection r : redirections) {
            String op = r.operator();
            // Standard input is fd 0: written as 0, or implied by an input operator (< << <<- <<< <& <>).
            if (r.fd() == null ? op.startsWith("<") : r.fd().equals("0")) {
                input = r; // the last redirection of standard input wins
            }
        }
        if (input == null) return null;
        String op = input.operator();
        return op.equals("<<") || op.equals("<<-") || op.equals("<<<") ? input : null;
    }

    /** The shell {@code sc} runs the here-document or here-string {@code input} as its script. */
    private void stdinScriptPayload(SubCommand sc, Redirection input, boolean top, List<String> env, String source) {
        WrapperGrammar.Unwrapped u = new WrapperGrammar.Unwrapped(sc.getBaseName() + " <<", List.of(), false,
                false, List.of(), List.of());
        WordValue v = input.hereDoc() != null ? WordValue.of(input.hereDoc().body(), source)
                : WordValue.of(input.target(), source);
        if (!v.isStatic()) {
            sink.wrappers.add(wrapper(sink.id(), u, sc.getId(), -1, false));
            return;
        }
        Reach saved = reach;
        reach = reach.withInline(null);
        try {
            inlineScript(sc, u, v.value(), top, env);
        } finally {
            reach = saved;
        }
    }

    private static Wrapper wrapper(int id, WrapperGrammar.Unwrapped u, int commandId, int payloadId,
                                   boolean readable) {
        return new Wrapper(id, u.kind(), commandId, payloadId, u.appendsArguments(), u.replaceMode(), readable,
                u.privileged(), u.ownRuleRequired(), u.changesDirectory(), u.runner());
    }

    /**
     * Parses {@code text} as a script run by the wrapper {@code shell} ({@code sh -c}, {@code eval}, ...) and has
     * the walk extract its commands under {@link Context#INLINE_SCRIPT}: a script's top-level commands stand where
     * the wrapper stands (top-level when it is), everything inside them is nested as usual. Every command of the
     * script not already reached through a wrapper inside it gets a {@link Wrapper} linking it to {@code shell}
     * as it is made ({@link #commandFact}), so the shell is approved only when all of them are. A script that does
     * not parse gets an unreadable Wrapper, never approved.
     */
    private void inlineScript(SubCommand shell, WrapperGrammar.Unwrapped u, String text, boolean top,
                              List<String> env) {
        Script script;
        try {
            script = Parser.parse(text);
        } catch (ParseException | RuntimeException e) {
            // Unreadable, so never approved; deny rules still reach the rest of the call.
            sink.wrappers.add(wrapper(sink.id(), u, shell.getId(), -1, false));
            return;
        }
        String base = shell.getBaseName();
        if (knowledge.mayLackBraceExpansion(base) && BASH_ONLY.matcher(text).find()) {
            // sh is dash on Debian and Ubuntu: it reads (( )), [[ ]], {NAME}>, <<<, &>, $'...', <( ) and the other
            // bash-only syntax as something else ("((echo x))" runs echo in two subshells), so what this script
            // runs is not known. The commands the bash reading finds still meet the deny and ask rules.
            sink.wrappers.add(wrapper(sink.id(), u, shell.getId(), -1, false));
        }
        InlineLink link = new InlineLink(u, shell.getId());
        // eval, source and the like run the script in the current shell; sh -c, dash -c in a shell of their own
        String shellName = knowledge.isShell(base) ? base : walk.origin().shell();
        WalkPass.Origin origin = new WalkPass.Origin(env, shellName,
                shellName != null && knowledge.mayLackBraceExpansion(shellName));
        // eval and source run the script in this shell; any other runs a new process, whose assignments end with it
        boolean child = !knowledge.runsInThisShell(base);
        if (!child && aliases.defined()) {
            // eval and source parse their text when they run, with the aliases of that time (issue 19)
            sink.shellState("an alias the command defines, which applies to the code " + base + " reads when it runs");
        }
        Reach saved = reach;
        reach = reach.withInline(link).withCandidate(false); // a script is new text: its wrappers' candidates are its own
        Runnable end = child ? flow.newProcess() : null;
        try {
            walk.script(script, top, origin, Context.INLINE_SCRIPT);
        } finally {
            if (end != null) end.run();
            reach = saved;
        }
        // An empty script runs nothing: a readable Wrapper with no payload.
        if (!link.linked) sink.wrappers.add(wrapper(sink.id(), u, shell.getId(), -1, true));
    }

    // ---- stored code ----------------------------------------------------------------------------------------

    /**
     * Static text shaped like an array subscript holding a substitution ({@code 'a[$(curl x)]'}) is inert where it
     * is written, but bash evaluates a subscript, substitutions included, wherever such text is later used as a
     * variable name or arithmetically: a variable's value in {@code $((x))}, {@code (( x ))}, {@code [[ x -eq 1 ]]}
     * (Bash Reference Manual §6.5 "Shell Arithmetic": "the value of a variable is evaluated as an arithmetic
     * expression"), and a name argument of {@code test -v}, {@code printf -v}, {@code read}, {@code unset},
     * {@code declare} (§6.7 "Arrays"). So the commands inside such text, in any quoted or literal part of any word,
     * are extracted as nested sub-commands under {@link Context#STORED_CODE}: an unapproved one asks, a denied one
     * denies. Text without a subscript ({@code 'use $(pwd)'}) is never evaluated this way and is left alone.
     */
    void storedCode(String text) {
        if (!hasCodeOpener(text)) return;
        int bracket = text.indexOf('[');
        if (bracket < 0 || !hasCodeOpener(text.substring(bracket))) {
            codeLikeTexts.add(text);
            return;
        }
        storedCode(text, false);
    }

    private static boolean hasCodeOpener(String t) {
        return t.contains("$(") || t.indexOf('`') >= 0 || t.contains("<(") || t.contains(">(");
    }

    /**
     * Extracts the commands of static text as stored code; when {@code evaluated} (the command evaluates values as
     * code) and the text does not parse on its own (a piece of code assembled at run time), it is code only known
     * at run time.
     */
    private void storedCode(String text, boolean evaluated) {
        Script script;
        try {
            script = Parser.parse(text);
        } catch (ParseException | RuntimeException e) {
            // Text past the parser's nesting limit is code the hook cannot read, not text bash cannot run.
            boolean tooDeep = e instanceof ParseException && String.valueOf(e.getMessage()).contains("nests too deeply");
            if (evaluated || tooDeep) sink.runTimeCode(text, walk.contextWith(Context.STORED_CODE));
            return; // otherwise bash could not evaluate it alone either
        }
        walk.storedCode(script);
    }

    /**
     * After the walk and the flow's own end: where the command evaluates a value as code ({@code ${x@P}}), the
     * commands inside any code-like static text are extracted as stored code.
     */
    void finish() {
        // A command named like a function the call defines runs the function (bash(1) COMMAND EXECUTION: functions
        // before builtins and PATH), not the program the facts name; its body was read where it was defined. Where
        // the name is a builtin or a program the hook knows (its schema: tier, paths, payloads, what xargs reads),
        // what the facts say of the command is wrong, whatever PATH holds: the commands are not approvable. A name
        // the hook knows nothing of is judged by the user's rules and its body, as before. Checked
        // over every command made, in any order: a call before the definition, or one xargs or command makes, only
        // makes this stricter than bash.
        for (SubCommand sc : sink.subCommands) {
            if (sc.isDynamicName()) continue;
            String n = sc.getName();
            if (functionsDefined.contains(n) && (knowledge.knows(n) || ShellStateChanges.isBuiltin(n))) {
                sink.shellState("a function named \"" + n + "\", which the command defines and then uses as a command");
            }
        }
        if (sink.evaluatesValues()) {
            // Extracting stored code walks its words, which may find more code-like text inside (always shorter):
            // the list grows while it is read.
            for (int i = 0; i < codeLikeTexts.size(); i++) storedCode(codeLikeTexts.get(i), true);
        }
    }
}
