package dev.compoundbash.facts;

import dev.compoundbash.shell.Redirection;
import dev.compoundbash.shell.Script;

import java.util.List;

/**
 * Extracts the {@link Facts} of a parsed {@link Script}: one {@link SubCommand} per simple command bash could run,
 * at any depth; wrappers unwrapped into {@link Wrapper} facts and payload sub-commands; find's acting primaries as
 * {@link FindAction}s; every redirection as a classified {@link Redirect}; the variables written, read and
 * evaluated; the path operands resolved against the working directories. See {@code docs/EXTRACTOR.md}.
 *
 * <p>The work is four named passes, each a class, connected here and nowhere else:
 * <ol>
 *   <li>{@link WalkPass}: every command bash would run, with its context;</li>
 *   <li>{@link FlowPass}: variable and shell-state flow (what running does to variables and the directory); its
 *       product for later passes is a {@link ShellState} at each command, expanded by {@link WordExpansion};</li>
 *   <li>{@link UnwrapPass}: wrappers, runners, inline scripts, stored code, through {@link ProgramKnowledge};</li>
 *   <li>{@link PathPass}: path operands and redirection targets resolved against the directories.</li>
 * </ol>
 * The passes run as one stream, command by command in the order bash runs them: the walk hands each command and
 * each state change on; a pass reads what the passes before it produced and never rewrites it. An inline script
 * ({@code sh -c}, {@code eval}) that unwrapping finds is walked again by the walk, under the shell that runs it.
 */
public final class FactExtractor {
    /** Wrappers and inline scripts deeper than this are not read: their payloads are never approved. */
    static final int MAX_WRAPPER_DEPTH = UnwrapPass.MAX_WRAPPER_DEPTH;

    private final FactSink sink = new FactSink();
    private final WalkPass walk;
    private final FlowPass flow;
    private final UnwrapPass unwrap;
    private final PathPass paths;

    private FactExtractor(Environment env) {
        RedirectTargets targets = new RedirectTargets(env);
        PathResolver resolver = new PathResolver(targets, env.home());
        ProgramKnowledge knowledge = ProgramKnowledge.builtIn();
        walk = new WalkPass(sink);
        flow = new FlowPass(sink, walk, resolver, targets.roots().get(0));
        unwrap = new UnwrapPass(sink, walk, flow, knowledge);
        paths = new PathPass(sink, targets, resolver);
        walk.connect(flow, new WalkPass.Later() {
            @Override
            public int simpleCommand(WalkPass.Reached command) {
                return unwrap.command(command);
            }

            @Override
            public void staticText(String text) {
                unwrap.storedCode(text);
            }

            @Override
            public void functionDefined(String name) {
                unwrap.functionDefined(name);
            }

            @Override
            public void assignmentStatement(String name, String value) {
                unwrap.assignmentStatement(name, value);
            }

            @Override
            public void redirection(Redirection r, int commandId, String source) {
                // a redirection inside a remote runner's script opens a file there (ssh h 'echo x > f')
                if (!unwrap.remote()) paths.redirection(r, commandId, source, flow.shellState());
            }
        });
        unwrap.connect(new UnwrapPass.Later() {
            @Override
            public void operands(SubCommand sc, ProgramKnowledge.Reading reading, UnwrapPass.Reach reach,
                                 WalkPass.Pipe pipe) {
                paths.operands(sc, reading, reach, pipe, flow.shellState());
                // then, for cd/pushd/popd, the directories later relative paths may be taken against
                flow.directoryChange(sc, reading, reach.otherDirectory());
            }

            @Override
            public void writes(int commandId, String option, String path, boolean dynamic) {
                if (!unwrap.remote()) paths.fileTarget(commandId, null, option, path, dynamic, true, flow.shellState());
            }
        });
    }

    /**
     * Runs the passes over {@code script}: the aliases (bash only), the walk, then what is evaluated after it.
     *
     * @param script the parsed command
     * @param bash   the shell that runs it is bash (zsh never applies an alias within the call)
     */
    private void run(Script script, boolean bash) {
        if (bash) {
            AliasPass.Result a = AliasPass.expand(script);
            unwrap.aliases(a);
            script = a.script();
        }
        walk.script(script, true, WalkPass.Origin.TOP, null);
        flow.finish();
        unwrap.finish();
    }

    /**
     * Extracts the facts of {@code script}.
     *
     * @param script a tree from {@code Parser.parse}
     * @param env    the working directory and allowed directories used to classify redirect targets
     * @return the facts, in source order
     */
    public static Facts extract(Script script, Environment env) {
        FactExtractor x = new FactExtractor(env);
        x.run(script, true);
        return x.sink.facts(x.flow.functionNames());
    }

    /**
     * Problems the closed-world guard found while extracting: a construct the model does not cover. Empty for every
     * command the extractor reads whole; see {@link CallProblem#UNMODELLED}.
     *
     * @param script a tree from {@code Parser.parse}
     * @param env    as for {@link #extract}
     * @return the facts and the problems
     */
    public static Extraction extractAll(Script script, Environment env) {
        return extractAll(script, env, true);
    }

    /**
     * As {@link #extractAll(Script, Environment)}, for the shell that runs the command.
     *
     * @param script a tree from {@code Parser.parse}
     * @param env    as for {@link #extract}
     * @param bash   true when bash runs it (aliases the command defines apply to its later lines), false for zsh
     * @return the facts and the problems
     */
    public static Extraction extractAll(Script script, Environment env, boolean bash) {
        FactExtractor x = new FactExtractor(env);
        x.run(script, bash);
        return new Extraction(x.sink.facts(x.flow.functionNames()), List.copyOf(x.sink.problems));
    }

    /** The facts of a command and the problems found reading it. */
    public record Extraction(Facts facts, List<CallProblem> problems) {
    }

    /**
     * Whether the paths find puts in a payload's bare {@code {}} stay inside find's start paths
     * ({@link PathPass#findPathsStayInside}).
     *
     * @param args the find command's words, the name first
     * @param from the index of the payload's first word
     * @return true when they do
     */
    static boolean findPathsStayInside(List<Arg> args, int from) {
        return PathPass.findPathsStayInside(args, from);
    }
}
