package dev.compoundbash.rules;

import dev.compoundbash.audit.DecisionCases;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.kie.api.definition.KiePackage;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The build-time built-in packages and the user DRL cache decide exactly as DRL compiled on the spot. */
class PackageCacheTest {
    static final String DOCKER_ASKS = """
            package team
            import dev.compoundbash.facts.SubCommand
            import dev.compoundbash.facts.Finding
            rule "docker asks"
            when
                $s : SubCommand( name == "docker" )
            then
                insert(new Finding(Finding.ASK, $s.getId(), $s.getLine(), "docker needs a person", drools.getRule().getName()));
            end
            """;

    @Test
    void builtInResourceWasCompiledFromTheseDrlFiles() {
        assertThat(PackageCache.readBuiltIn(PackageCache.key(RuleEngine.builtInSources()))).isNotNull().isNotEmpty();
    }

    @Test
    void aKeyOfOtherDrlIsIgnored() throws IOException {
        Collection<KiePackage> packages = RuleEngine.compileBuiltIn(RuleEngine.builtInSources());
        byte[] bytes = PackageCache.encode(packages, "a".repeat(64));
        assertThat(PackageCache.decode(bytes, "b".repeat(64))).isNull();
        assertThat(PackageCache.decode(bytes, "a".repeat(64))).hasSize(packages.size());
    }

    @Test
    void keyCoversNamesAndBytes() {
        String k = PackageCache.key(PackageCache.single("a.drl", "rule".getBytes()));
        assertThat(PackageCache.key(PackageCache.single("a.drl", "rule".getBytes()))).isEqualTo(k);
        assertThat(PackageCache.key(PackageCache.single("b.drl", "rule".getBytes()))).isNotEqualTo(k);
        assertThat(PackageCache.key(PackageCache.single("a.drl", "rulf".getBytes()))).isNotEqualTo(k);
    }

    /** Every shared and project decision case: precompiled built-in packages vs DRL compiled now, same outcome and reason. */
    @Test
    void precompiledAndFreshlyCompiledRulesDecideAlike() throws IOException {
        RuleEngine precompiled = RuleEngine.load(List.of());
        RuleEngine fresh = RuleEngine.loadFromDrl(List.of());
        List<DecisionCases.Case> cases = new ArrayList<>();
        for (Path dir : List.of(Path.of("src/test/resources/cases"), Path.of("../shared/cases"))) {
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> s = Files.list(dir)) {
                for (Path f : s.filter(p -> p.toString().endsWith(".jsonl")).sorted().toList()) {
                    cases.addAll(DecisionCases.read(f));
                }
            }
        }
        assertThat(cases).isNotEmpty();
        for (DecisionCases.Case c : cases) {
            DecisionCases.Result a = DecisionCases.run(c, precompiled, Map.of());
            DecisionCases.Result b = DecisionCases.run(c, fresh, Map.of());
            assertThat(a.actual()).as(c.id()).isEqualTo(b.actual());
            // Cases without a cwd run in a fresh temporary directory each time, named in some reasons.
            assertThat(a.reason().replaceAll("compound-bash-case-[0-9]+", "CASE")).as(c.id())
                    .isEqualTo(b.reason().replaceAll("compound-bash-case-[0-9]+", "CASE"));
        }
    }

    @Test
    void userDrlIsCompiledOnceAndCachedPrivately(@TempDir Path tmp) throws Exception {
        Path rules = Files.createDirectories(tmp.resolve("rules"));
        Path cache = tmp.resolve("cache");
        Path f = rules.resolve("team.drl");
        Files.writeString(f, DOCKER_ASKS);
        RuleEngine first = RuleEngine.load(List.of(f), cache);
        assertThat(first.compileErrors()).isEmpty();
        List<Path> entries;
        try (Stream<Path> s = Files.list(cache)) {
            entries = s.toList();
        }
        assertThat(entries).hasSize(1);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(entries.get(0)))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(cache))).isEqualTo("rwx------");

        // A cache hit: the rule still fires, from the cached packages.
        RuleEngine second = RuleEngine.load(List.of(f), cache);
        FactsBuilder b = new FactsBuilder().allow("docker *");
        b.top("docker ps");
        RuleEngine.Evaluation ev = second.evaluate(b.facts(), b.rules);
        assertThat(ev.decision().getOutcome()).isEqualTo("ask");
        assertThat(ev.fired()).contains(new RuleEngine.FiredRule("docker asks", f.toString()));

        // Editing the file changes the key: the edit is compiled, not the stale entry used.
        Files.writeString(f, DOCKER_ASKS.replace("\"docker\"", "\"podman\""));
        RuleEngine third = RuleEngine.load(List.of(f), cache);
        FactsBuilder d = new FactsBuilder().allow("docker *");
        d.top("docker ps");
        assertThat(third.evaluate(d.facts(), d.rules).decision().getOutcome()).isEqualTo("allow");
        try (Stream<Path> s = Files.list(cache)) {
            assertThat(s.filter(p -> p.toString().endsWith(".kpkg")).count()).isEqualTo(2);
        }
    }

    @Test
    void aCorruptCacheEntryIsRecompiled(@TempDir Path tmp) throws Exception {
        Path f = tmp.resolve("team.drl");
        Files.writeString(f, DOCKER_ASKS);
        Path cache = tmp.resolve("cache");
        RuleEngine.load(List.of(f), cache);
        try (Stream<Path> s = Files.list(cache)) {
            for (Path p : s.toList()) Files.write(p, "compound-bash kpkg 1\ngarbage".getBytes());
        }
        RuleEngine e = RuleEngine.load(List.of(f), cache);
        assertThat(e.compileErrors()).isEmpty();
        FactsBuilder b = new FactsBuilder().allow("docker *");
        b.top("docker ps");
        assertThat(e.evaluate(b.facts(), b.rules).decision().getOutcome()).isEqualTo("ask");
    }
}
