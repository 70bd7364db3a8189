package dev.compoundbash.audit;

import dev.compoundbash.hook.UserRules;
import dev.compoundbash.rules.RuleEngine;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The rules shipped in examples/rules compile and pass their own cases (as {@code rules test} runs them). */
class ExampleRulesTest {
    static final Path DIR = Path.of("examples/rules");

    @Test
    void examplesCompileAndPassTheirCases() throws Exception {
        List<Path> drl = UserRules.drlFiles(DIR);
        assertThat(drl).extracting(p -> p.getFileName().toString()).contains("git-readonly.drl", "no-force-push-main.drl");
        RuleEngine engine = RuleEngine.load(drl);
        assertThat(engine.compileErrors()).isEmpty();
        List<Path> cases;
        try (Stream<Path> s = Files.list(DIR)) {
            cases = s.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList();
        }
        assertThat(cases).hasSize(2);
        List<String> failures = new ArrayList<>();
        int n = 0;
        for (Path f : cases) {
            for (DecisionCases.Case c : DecisionCases.read(f)) {
                DecisionCases.Result r = DecisionCases.run(c, engine, System.getenv());
                n++;
                if (!Boolean.TRUE.equals(r.passed())) failures.add(c.id() + ": " + r.actual() + " " + r.reason());
            }
        }
        assertThat(failures).isEmpty();
        assertThat(n).isGreaterThanOrEqualTo(30);
    }

    @Test
    void withoutTheExamplesTheDenyCasesAreNotDenied() throws Exception {
        RuleEngine builtIn = RuleEngine.load(List.of());
        for (DecisionCases.Case c : DecisionCases.read(DIR.resolve("no-force-push-main.cases.jsonl"))) {
            if (!c.expected().contains("deny")) continue;
            assertThat(DecisionCases.run(c, builtIn, System.getenv()).actual()).as(c.id()).isNotEqualTo("deny");
        }
    }
}
