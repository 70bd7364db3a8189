package dev.compoundbash.audit;

import dev.compoundbash.rules.RuleEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Runs every JSONL decision case in process: the project's own under {@code src/test/resources/cases}, and the
 * shared acceptance cases at {@code ../shared/cases} when that directory is there (it is in CI).
 */
class DecisionCasesTest {
    static RuleEngine engine;

    @BeforeAll
    static void load() {
        engine = RuleEngine.load(List.of());
    }

    static List<Path> caseFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path dir : List.of(Path.of("src/test/resources/cases"), Path.of("../shared/cases"))) {
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> s = Files.list(dir)) {
                s.filter(p -> p.toString().endsWith(".jsonl")).sorted().forEach(files::add);
            }
        }
        return files;
    }

    @TestFactory
    Stream<DynamicTest> cases() throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path f : caseFiles()) {
            for (DecisionCases.Case c : DecisionCases.read(f)) {
                if (c.expected().isEmpty()) continue;
                tests.add(DynamicTest.dynamicTest(f.getFileName() + " " + c.id() + ": " + c.command(), () -> {
                    DecisionCases.Result r = DecisionCases.run(c, engine, System.getenv());
                    assertThat(r.actual()).as(c.id() + " (" + c.why() + ") reason: " + r.reason())
                            .isIn(c.expected());
                }));
            }
        }
        return tests.stream();
    }
}
