package dev.compoundbash.arch;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.spi.ToolProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Data flows one way (architecture: "a stage knows only the stages to its left"): the package dependency graph of
 * the compiled classes, as {@code jdeps -verbose:package} reads it from the bytecode, has no cycle, and the stages
 * keep their order: {@code shell} knows no other package; {@code facts} only {@code shell}; {@code rules} no front
 * end; {@code audit} no {@code hook}; nothing but {@code cli} knows {@code cli}.
 */
class PackageGraphTest {
    static final String P = "dev.compoundbash.";

    static Map<String, Set<String>> graph() {
        Path classes = Path.of("target/classes");
        assertThat(Files.isDirectory(classes)).as("compiled classes").isTrue();
        ToolProvider jdeps = ToolProvider.findFirst("jdeps").orElseThrow();
        StringWriter out = new StringWriter();
        int rc = jdeps.run(new PrintWriter(out), new PrintWriter(new StringWriter()), "-verbose:package",
                "-filter:none", classes.toString());
        assertThat(rc).isZero();
        Map<String, Set<String>> g = new TreeMap<>();
        for (String line : out.toString().split("\n")) {
            String[] f = line.trim().split("\\s+");
            if (f.length < 3 || !f[0].startsWith(P) || !f[1].equals("->") || !f[2].startsWith(P)) continue;
            String from = f[0].substring(P.length());
            String to = f[2].substring(P.length());
            g.computeIfAbsent(from, k -> new TreeSet<>());
            if (!from.equals(to)) g.get(from).add(to);
        }
        return g;
    }

    @Test
    void packagesFormNoCycle() {
        Map<String, Set<String>> g = graph();
        assertThat(g.keySet()).contains("shell", "facts", "rules", "settings", "hook", "audit", "cli", "daemon");
        List<String> cycle = new ArrayList<>();
        Set<String> done = new HashSet<>();
        for (String p : g.keySet()) {
            if (findCycle(p, g, new ArrayList<>(), done, cycle)) break;
        }
        assertThat(cycle).as("package cycle in " + g).isEmpty();
    }

    @Test
    void stagesKnowOnlyTheStagesToTheirLeft() {
        Map<String, Set<String>> g = graph();
        assertThat(g.get("shell")).isEmpty();
        assertThat(g.get("facts")).containsOnly("shell");
        assertThat(g.get("settings")).isEmpty();
        assertThat(g.get("rules")).doesNotContain("hook", "audit", "cli", "daemon");
        assertThat(g.get("audit")).doesNotContain("hook", "cli", "daemon");
        g.forEach((p, deps) -> {
            if (!p.equals("cli")) assertThat(deps).as(p).doesNotContain("cli");
        });
    }

    private static boolean findCycle(String p, Map<String, Set<String>> g, List<String> path, Set<String> done,
                                     List<String> cycle) {
        if (path.contains(p)) {
            cycle.addAll(path.subList(path.indexOf(p), path.size()));
            cycle.add(p);
            return true;
        }
        if (done.contains(p)) return false;
        path.add(p);
        for (String q : g.getOrDefault(p, Set.of())) if (findCycle(q, g, path, done, cycle)) return true;
        path.remove(path.size() - 1);
        done.add(p);
        return false;
    }
}
