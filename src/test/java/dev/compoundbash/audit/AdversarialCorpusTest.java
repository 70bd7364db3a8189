package dev.compoundbash.audit;

import dev.compoundbash.rules.RuleEngine;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adversarial corpus of issue 8 ({@code src/test/resources/adversarial/corpus.jsonl}): hand-written commands that
 * hide, shadow or smuggle a command past a splitter, each with the outcome the product must give and why. Open
 * findings ({@code findings.jsonl}) hold their right outcome too, but run only with {@code -Dadversarial.all=true}
 * until the code that passes them is merged; then they move into the corpus.
 */
class AdversarialCorpusTest {
    static final Path DIR = Path.of("src/test/resources/adversarial");
    static RuleEngine engine;

    @BeforeAll
    static void load() {
        engine = RuleEngine.load(List.of());
    }

    @Test
    void corpusHasAtLeast300DistinctCasesEachWithAReason() throws IOException {
        assertThat(DecisionCases.read(DIR.resolve("corpus.jsonl"))).hasSizeGreaterThanOrEqualTo(300);
        List<DecisionCases.Case> cases = new ArrayList<>();
        for (Path f : corpusFiles()) cases.addAll(DecisionCases.read(f));
        Set<String> ids = new HashSet<>();
        for (DecisionCases.Case c : cases) {
            assertThat(ids.add(c.id())).as("duplicate id " + c.id()).isTrue();
            assertThat(c.why()).as(c.id()).isNotBlank();
            assertThat(c.expected()).as(c.id()).isNotEmpty();
        }
    }

    @TestFactory
    Stream<DynamicTest> corpus() throws IOException {
        return tests(corpusFiles());
    }

    /** The corpus: corpus.jsonl and every corpus-NAME.jsonl beside it (one file per class of finding), sorted. */
    static List<Path> corpusFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(DIR)) {
            s.filter(p -> p.getFileName().toString().matches("corpus(-[a-z0-9-]+)?\\.jsonl")).sorted().forEach(files::add);
        }
        return files;
    }

    @TestFactory
    Stream<DynamicTest> pendingAndFindings() throws IOException {
        if (!Boolean.getBoolean("adversarial.all")) return Stream.empty();
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(DIR)) {
            s.filter(p -> p.getFileName().toString().matches("(pending-.*|findings)\\.jsonl")).sorted()
                    .forEach(files::add);
        }
        return tests(files);
    }

    private static Stream<DynamicTest> tests(List<Path> files) throws IOException {
        List<DynamicTest> tests = new ArrayList<>();
        for (Path f : files) {
            for (DecisionCases.Case c : DecisionCases.read(f)) {
                String shown = c.command().length() > 80 ? c.command().substring(0, 80) + "..." : c.command();
                tests.add(DynamicTest.dynamicTest(f.getFileName() + " " + c.id() + ": " + shown, () -> {
                    DecisionCases.Result r = DecisionCases.run(c, engine, System.getenv());
                    assertThat(r.actual()).as(c.id() + " (" + c.why() + ") reason: " + r.reason())
                            .isIn(c.expected());
                }));
            }
        }
        return tests.stream();
    }
}
