package dev.compoundbash.rules;

import dev.compoundbash.facts.CallContext;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code rules/modes.drl} names other built-in rules (the safe tiers, the hook's own hazard prompts); a rename
 * elsewhere must not silently change what a permission mode does. The decisions per mode are in
 * {@code src/test/resources/cases/permission-modes.jsonl}.
 */
class ModesRulesTest {

    /**
     * What a mode does is decided by rule metadata, never by rule names: no DRL file names another rule, and the
     * built-in rules that add the hook's own prompts carry {@code @hookPrompt}, the tiers {@code @knownSafe}.
     */
    @Test
    void modesReadRuleMetadataNotRuleNames() throws IOException {
        for (String file : RuleEngine.BUILT_IN) {
            String drl;
            try (InputStream in = getClass().getClassLoader().getResourceAsStream("rules/" + file)) {
                assertThat(in).isNotNull();
                drl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            assertThat(drl).as(file).doesNotContain("ruleName ==").doesNotContain("ruleName in")
                    .doesNotContain("ruleName not in");
        }
        org.kie.api.KieBase kb = null;
        List<String> prompts = new ArrayList<>();
        List<String> safe = new ArrayList<>();
        for (org.kie.api.definition.KiePackage p : RuleEngine.load(List.of()).kiePackages()) {
            for (org.kie.api.definition.rule.Rule r : p.getRules()) {
                if (r.getMetaData().containsKey("hookPrompt")) prompts.add(r.getName());
                if (r.getMetaData().containsKey("knownSafe")) safe.add(r.getName());
            }
        }
        assertThat(prompts).contains("unapproved nested command asks", "mutating find action asks",
                "output outside the allowed directories asks", "code evaluated at run time asks")
                .doesNotContain("ask rule matches sub-command", "a user rule file that does not compile asks");
        assertThat(safe).containsExactlyInAnyOrder("always-safe command is approved", "safe builtin is approved",
                "command lookup is approved");
    }

    @ParameterizedTest
    @CsvSource(nullValues = "NULL", value = {
        "default, default",
        "acceptEdits, acceptEdits",
        "plan, plan",
        "auto, auto",
        "dontAsk, dontAsk",
        "bypassPermissions, bypassPermissions",
        "manual, default",
        "PLAN, default",
        "NULL, default",
        "'', default",
    })
    void theModeTheRulesSeeIsADocumentedOne(String declared, String seen) {
        CallContext c = new CallContext(declared);
        assertThat(c.getPermissionMode()).isEqualTo(seen);
        assertThat(c.getDeclaredMode()).isEqualTo(declared);
    }

    @Test
    void userDrlApprovalsDeferInPlanModeAndUserDrlAsksStillAskInBypassMode(@TempDir Path dir) throws IOException {
        Path drl = dir.resolve("team.drl");
        Files.writeString(drl, """
                package team
                import dev.compoundbash.facts.SubCommand
                import dev.compoundbash.facts.Finding
                rule "make is fine"
                    salience 100
                when
                    $s : SubCommand( name == "make" )
                then
                    insert(new Finding(Finding.APPROVE, $s.getId(), $s.getLine(), "team", drools.getRule().getName()));
                end
                rule "terraform asks"
                    salience 100
                when
                    $s : SubCommand( name == "terraform" )
                then
                    insert(new Finding(Finding.ASK, $s.getId(), $s.getLine(), "team", drools.getRule().getName()));
                end
                """);
        RuleEngine engine = RuleEngine.load(List.of(drl));
        assertThat(engine.compileErrors()).isEmpty();
        PermissionSettings none = PermissionSettings.empty();
        HookLog quiet = HookLog.open(Map.of(), "test");
        String cwd = dir.toString();
        assertThat(HookRunner.decide(new Decider.Call("make", cwd, "default", none, null), engine, quiet).outcome()).isEqualTo("allow");
        assertThat(HookRunner.decide(new Decider.Call("make", cwd, "plan", none, null), engine, quiet).outcome()).isEqualTo("defer");
        assertThat(HookRunner.decide(new Decider.Call("echo $(terraform apply)", cwd, "bypassPermissions", none, null), engine, quiet)
                .outcome()).isEqualTo("ask");
        assertThat(HookRunner.decide(new Decider.Call("echo $(git log)", cwd, "bypassPermissions", none, null), engine, quiet)
                .outcome()).isEqualTo("defer");
    }

    /**
     * Under Claude Code's {@code permissions.blockReadsOutsideWorkingDirectories} the hook approves nothing (Claude
     * Code asks before reads by any program, measured: docs/CLAUDE-CODE.md section G), while deny and ask rules hold.
     */
    @Test
    void theReadBlockTurnsEveryApprovalIntoADeferral(@TempDir Path dir) {
        RuleEngine engine = RuleEngine.load(List.of());
        HookLog quiet = HookLog.open(Map.of(), "test");
        PermissionSettings block = new PermissionSettings(List.of("Bash(git *)"), List.of("Bash(git push *)"),
                List.of("Bash(rm *)"), List.of(), List.of(), List.of(), false, List.of(), false, true);
        String cwd = dir.toString();
        for (String c : List.of("ls", "git status", "echo \"$(ls | wc -l)\"", "for f in *; do wc -l \"$f\"; done")) {
            assertThat(HookRunner.decide(new Decider.Call(c, cwd, "default", block, null), engine, quiet).outcome())
                    .as(c).isEqualTo("defer");
            assertThat(HookRunner.decide(new Decider.Call(c, cwd, "acceptEdits", block, null), engine, quiet).outcome())
                    .as(c).isEqualTo("defer");
        }
        assertThat(HookRunner.decide(new Decider.Call("rm -rf x", cwd, "default", block, null), engine, quiet).outcome())
                .isEqualTo("deny");
        assertThat(HookRunner.decide(new Decider.Call("git push origin", cwd, "default", block, null), engine, quiet)
                .outcome()).isEqualTo("ask");
    }
}
