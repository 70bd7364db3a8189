package dev.compoundbash.cli;

import dev.compoundbash.audit.DecisionCases;
import dev.compoundbash.hook.UserRules;
import dev.compoundbash.rules.RuleEngine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code compound-bash rules list | check | test}: tools for DRL rule authors. {@code list} prints every loaded
 * rule with file and line; {@code check} compiles DRL files and prints errors as {@code file:line:col: message};
 * {@code test} runs JSONL decision cases in process (the form of {@code ../shared/cases}) and ends with
 * {@code N passed, N failed}; {@code suggest} turns the calls of a decision log that lacked an allow rule into
 * permission rules ({@link RulesSuggestCommand}).
 */
@Command(name = "rules", mixinStandardHelpOptions = true,
        description = "List, check and test DRL rules (built-in and your own); suggest permission rules from the log.",
        subcommands = {RulesCommand.ListRules.class, RulesCommand.Check.class, RulesCommand.Test.class,
                RulesSuggestCommand.class})
public final class RulesCommand {
    static PrintStream out = System.out;

    /** The DRL files to load: DIR/*.drl when a directory is given, else the user's (and trusted project's). */
    static List<Path> ruleFiles(Path dir) {
        return dir != null ? UserRules.drlFiles(dir) : UserRules.files(System.getenv());
    }

    /** {@code rules list [--rules DIR]}. */
    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "Print every rule loaded, built-in and yours, as file:line  name.")
    static final class ListRules implements Callable<Integer> {
        @Option(names = "--rules", paramLabel = "DIR", description = "Load DIR/*.drl instead of your rules directory.")
        Path dir;

        @Override
        public Integer call() {
            RuleEngine engine = RuleEngine.load(ruleFiles(dir));
            for (RuleEngine.RuleInfo r : engine.rules()) {
                out.println(r.file() + ":" + r.line() + "  " + r.name() + "  (package " + r.packageName() + ")");
            }
            for (String e : engine.compileErrors()) out.println("not loaded: " + e);
            return engine.compileErrors().isEmpty() ? 0 : 1;
        }
    }

    /** {@code rules check [FILE]...}. */
    @Command(name = "check", mixinStandardHelpOptions = true,
            description = {"Compile DRL files (default: your rules) with the built-in rules; print errors as "
                    + "file:line:col: message.", "Exit status: 0 all compile, 1 some do not."})
    static final class Check implements Callable<Integer> {
        @Parameters(paramLabel = "FILE", arity = "0..*", description = "DRL files or directories of them.")
        List<Path> files = new ArrayList<>();

        @Override
        public Integer call() {
            List<Path> drl = new ArrayList<>();
            if (files.isEmpty()) drl.addAll(ruleFiles(null));
            for (Path f : files) {
                if (Files.isDirectory(f)) drl.addAll(UserRules.drlFiles(f));
                else drl.add(f);
            }
            RuleEngine engine = RuleEngine.load(drl);
            for (String e : engine.compileErrors()) out.println(e);
            if (!engine.compileErrors().isEmpty()) return 1;
            out.println(drl.size() + " file(s) compile, " + engine.rules().size() + " rule(s) with the built-in ones");
            return 0;
        }
    }

    /** {@code rules test [--rules DIR] [-v] [CASES.jsonl]...}. */
    @Command(name = "test", mixinStandardHelpOptions = true,
            description = {"Run decision cases (JSONL: id command allow ask deny additionalDirectories cwd expected) "
                    + "in process with the built-in rules and your rules; end with 'N passed, N failed'.",
                    "Without CASES, runs every *.jsonl in the rules directory.",
                    "Every case file is checked first (field types and values); each problem is printed as "
                            + "FILE:LINE: message on stderr and no case runs.",
                    "Exit status: 0 all passed, 1 a case failed or a rule does not compile, 2 a case file is invalid."})
    static final class Test implements Callable<Integer> {
        @Option(names = "--rules", paramLabel = "DIR", description = "Load DIR/*.drl instead of your rules directory.")
        Path dir;

        @Option(names = {"-v", "--verbose"}, description = "Print passing cases too.")
        boolean verbose;

        @Parameters(paramLabel = "CASES", arity = "0..*", description = "JSONL case files.")
        List<Path> caseFiles = new ArrayList<>();

        @Override
        public Integer call() throws IOException {
            List<Path> files = new ArrayList<>(caseFiles);
            if (files.isEmpty()) {
                Path d = dir != null ? dir : UserRules.directory(System.getenv());
                if (d != null && Files.isDirectory(d)) {
                    try (Stream<Path> s = Files.list(d)) {
                        s.filter(p -> p.toString().endsWith(".jsonl")).sorted().forEach(files::add);
                    }
                }
            }
            if (files.isEmpty()) System.err.println("compound-bash rules test: no *.jsonl case files given or found");
            // every file is checked before any case runs: a bad file is a usage error (exit 2), never a stack trace
            List<DecisionCases.Case> cases = new ArrayList<>();
            List<DecisionCases.Problem> problems = new ArrayList<>();
            for (Path f : files) {
                DecisionCases.CaseFile read = DecisionCases.check(f);
                cases.addAll(read.cases());
                problems.addAll(read.problems());
                for (DecisionCases.Problem w : read.warnings()) System.err.println(w + " (warning)");
            }
            if (!problems.isEmpty()) {
                for (DecisionCases.Problem p : problems) System.err.println(p);
                System.err.println("compound-bash rules test: " + problems.size() + " problem(s) in the case file(s); "
                        + "no case was run");
                return 2;
            }
            RuleEngine engine = RuleEngine.load(ruleFiles(dir));
            for (String e : engine.compileErrors()) out.println(e);
            int passed = 0, failed = 0, unchecked = 0;
            Map<String, String> env = System.getenv();
            for (DecisionCases.Case c : cases) {
                DecisionCases.Result r = DecisionCases.run(c, engine, env);
                if (r.passed() == null) {
                    unchecked++;
                    if (verbose) out.println("RUN  " + c.id() + ": " + r.actual() + "  " + r.reason());
                } else if (r.passed()) {
                    passed++;
                    if (verbose) out.println("ok   " + c.id() + ": " + r.actual());
                } else {
                    failed++;
                    out.println("FAIL " + c.file() + ":" + c.line() + " " + c.id() + ": expected "
                            + String.join("|", c.expected()) + ", got " + r.actual() + "  (" + r.reason() + ")"
                            + (c.why().isEmpty() ? "" : "\n     why: " + c.why()));
                }
            }
            out.println(passed + " passed, " + failed + " failed" + (unchecked > 0 ? ", " + unchecked + " without expectation" : ""));
            return failed == 0 && engine.compileErrors().isEmpty() ? 0 : 1;
        }
    }
}
