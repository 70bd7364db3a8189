package dev.compoundbash.arch;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The extractor's passes (docs/EXTRACTOR.md) keep their order and their seam, as the compiled classes show: a pass
 * uses only the passes before it (walk, flow, unwrapping, paths; {@code FactExtractor} alone wires them), and only
 * {@code ProgramKnowledge} calls into the program tables and grammars, so a program schema plugs in at one place.
 */
class ExtractorPassesTest {
    static final String F = "dev.compoundbash.facts.";

    /** Each pass, in order, with the classes that belong to it (its products and helpers). */
    static final List<List<String>> PASSES = List.of(
            List.of("WalkPass"),
            List.of("FlowPass", "ShellState", "WordExpansion"),
            List.of("UnwrapPass"),
            List.of("PathPass"));

    /** Classes that read programs: only ProgramKnowledge may call their methods. */
    static final List<String> PROGRAM_TABLES = List.of("facts/WrapperGrammar", "facts/ProgramTable",
            "facts/GlobalOptions", "facts/ProgramReadings", "facts/ConfigCode", "facts/OptionGrammar", "facts/ProgramSchemas",
            "rules/TierArguments");

    /** Outer class name (in facts) to the outer class names it depends on, from jdeps -verbose:class. */
    static Map<String, Set<String>> classGraph() {
        Path classes = Path.of("target/classes");
        assertThat(Files.isDirectory(classes)).as("compiled classes").isTrue();
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "-verbose:class",
                "-filter:none", classes.toString());
        assertThat(rc).isZero();
        Map<String, Set<String>> g = new TreeMap<>();
        for (String line : out.toString().split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 3 || !f[0].startsWith(F) || !f[1].equals("->") || !f[2].startsWith(F)) continue;
            String from = outer(f[0].substring(F.length()));
            String to = outer(f[2].substring(F.length()));
            g.computeIfAbsent(from, k -> new TreeSet<>());
            if (!from.equals(to)) g.get(from).add(to);
        }
        return g;
    }

    private static String outer(String name) {
        int dollar = name.indexOf('$');
        return dollar < 0 ? name : name.substring(0, dollar);
    }

    @Test
    void eachPassUsesOnlyThePassesBeforeIt() {
        Map<String, Set<String>> g = classGraph();
        for (List<String> pass : PASSES) for (String c : pass) assertThat(g).as("compiled " + c).containsKey(c);
        for (int i = 0; i < PASSES.size(); i++) {
            List<String> later = new ArrayList<>();
            for (int j = i + 1; j < PASSES.size(); j++) later.addAll(PASSES.get(j));
            later.add("FactExtractor");
            for (String c : PASSES.get(i)) {
                assertThat(g.get(c)).as(c + " uses a later pass").doesNotContainAnyElementsOf(later);
            }
        }
        List<String> all = new ArrayList<>();
        PASSES.forEach(all::addAll);
        all.add("FactExtractor");
        for (String shared : List.of("FactSink", "ProgramKnowledge", "SubCommand", "Arg")) {
            assertThat(g.get(shared)).as(shared + " uses a pass").doesNotContainAnyElementsOf(all);
        }
    }

    @Test
    void onlyProgramKnowledgeCallsTheProgramTables() throws Exception {
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        Path dir = Path.of("target/classes/dev/compoundbash/facts");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> {
                String n = p.getFileName().toString();
                for (List<String> pass : PASSES) for (String c : pass) if (n.equals(c + ".class") || n.startsWith(c + "$")) return true;
                return n.equals("FactExtractor.class") || n.startsWith("FactExtractor$")
                        || n.equals("SubCommand.class") || n.equals("FactSink.class");
            }).toList();
        }
        assertThat(files).isNotEmpty();
        List<String> calls = new ArrayList<>();
        for (Path f : files) {
            StringWriter out = new StringWriter();
            int rc = javap.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "-c", "-p", f.toString());
            assertThat(rc).isZero();
            for (String line : out.toString().split("\n")) {
                int at = line.indexOf("// Method dev/compoundbash/");
                if (at < 0) at = line.indexOf("// Field dev/compoundbash/");
                if (at < 0) continue;
                for (String t : PROGRAM_TABLES) {
                    // a method or field of the table class itself (its nested records are the seam's vocabulary)
                    if (line.contains("dev/compoundbash/" + t + ".")) calls.add(f.getFileName() + ": " + line.trim());
                }
            }
        }
        assertThat(calls).as("calls into program tables outside ProgramKnowledge").isEmpty();
    }
}
