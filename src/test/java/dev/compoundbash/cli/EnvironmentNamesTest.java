package dev.compoundbash.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every {@code COMPOUND_BASH_*} environment variable that the tests, the benchmarks, CI, the docs or the Java code
 * name is one that something reads: the launcher ({@code bin/compound-bash}), Java code through
 * {@code getenv("NAME")}, {@code get("NAME")} or {@code getOrDefault("NAME", ...)}, or the end-to-end tests' Python
 * ({@code os.environ.get("NAME")}, or a prefix such as {@code "COMPOUND_BASH_E2E_" + agent}). Issue 20 renamed the launcher's
 * time budget from {@code COMPOUND_BASH_TIMEOUT} to {@code COMPOUND_BASH_BUDGET}; the tests kept setting the old name,
 * so under load they ran with the default 15 s budget and failed on timing. A stale name of any kind fails here.
 */
class EnvironmentNamesTest {
    private static final Pattern NAME = Pattern.compile("COMPOUND_BASH_[A-Z0-9_]*[A-Z0-9]");
    /** A prefix code builds names from: {@code "COMPOUND_BASH_E2E_" + agent}. */
    private static final Pattern PREFIX = Pattern.compile("\"(COMPOUND_BASH_[A-Z0-9_]*_)\"\\s*\\+");
    private static final Pattern READ = Pattern.compile(
            "(?:getenv|\\.get|\\.getOrDefault|\\.containsKey|environ)[(\\[]\\s*\"(COMPOUND_BASH_[A-Z0-9_]+)\"");

    @Test
    void everyNamedVariableIsRead() throws IOException {
        Set<String> read = new TreeSet<>(names(Files.readString(Path.of("bin/compound-bash")), NAME, 0));
        List<Path> java = files(List.of(Path.of("src/main/java"), Path.of("src/test/java"), Path.of("src/bench")),
                ".java");
        java.addAll(files(List.of(Path.of("src/test/e2e")), ".py")); // the end-to-end tests' Python
        Set<String> prefixes = new TreeSet<>();
        for (Path f : java) {
            String text = Files.readString(f);
            read.addAll(names(text, READ, 1));
            prefixes.addAll(names(text, PREFIX, 1));
        }

        TreeMap<String, Set<String>> stale = new TreeMap<>();
        List<Path> named = new java.util.ArrayList<>(java);
        named.addAll(files(List.of(Path.of("bench"), Path.of(".ci"), Path.of("hooks"), Path.of("docs")), ""));
        named.add(Path.of("README.md"));
        for (Path f : named) {
            if (!Files.isRegularFile(f)) continue;
            String text;
            try {
                text = Files.readString(f);
            } catch (java.nio.charset.MalformedInputException e) {
                continue; // not text
            }
            if (f.endsWith("EnvironmentNamesTest.java")) continue; // this file names the old variable on purpose
            for (String n : names(text, NAME, 0)) {
                if (read.contains(n) || prefixes.stream().anyMatch(n::startsWith)
                        || prefixes.contains(n + "_")) continue;
                stale.computeIfAbsent(n, k -> new TreeSet<>()).add(f.toString());
            }
        }
        assertThat(stale).as("COMPOUND_BASH_* names that nothing reads (and where they are named)").isEmpty();
        assertThat(read).contains("COMPOUND_BASH_BUDGET").doesNotContain("COMPOUND_BASH_TIMEOUT");
    }

    private static Set<String> names(String text, Pattern p, int group) {
        Set<String> out = new TreeSet<>();
        Matcher m = p.matcher(text);
        while (m.find()) out.add(m.group(group));
        return out;
    }

    private static List<Path> files(List<Path> roots, String suffix) throws IOException {
        List<Path> out = new java.util.ArrayList<>();
        for (Path r : roots) {
            if (!Files.isDirectory(r)) continue;
            try (Stream<Path> s = Files.walk(r)) {
                s.filter(Files::isRegularFile).filter(f -> f.toString().endsWith(suffix)).forEach(out::add);
            }
        }
        return out;
    }
}
