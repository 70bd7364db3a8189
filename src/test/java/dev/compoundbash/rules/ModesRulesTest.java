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

    @Test
    void everyRuleNameModesDrlMentionsIsABuiltInRule() throws IOException {
        String drl;
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("rules/modes.drl")) {
            assertThat(in).isNotNull();
            drl = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> named = new ArrayList<>();
        Matcher lists = Pattern.compile("ruleName (?:not )?in \\(([^)]*)\\)").matcher(drl);
        while (lists.find()) {
            Matcher names = Pattern.compile("\"([^\"]+)\"").matcher(lists.group(1));
            while (names.find()) named.add(names.group(1));
        }
        // The hazard prompts bypassPermissions mode lets go are listed in HookPrompts, which modes.drl calls.
        assertThat(drl).contains("HookPrompts.isHookPrompt(ruleName)");
        named.addAll(HookPrompts.RULES);
        assertThat(named).hasSizeGreaterThan(10);
        Set<String> builtIn = RuleEngine.load(List.of()).rules().stream()
                .filter(r -> r.file().startsWith("rules/")).map(RuleEngine.RuleInfo::name)
                .collect(Collectors.toSet());
        assertThat(builtIn).containsAll(named);
        assertThat(RuleEngine.BUILT_IN).contains("modes.drl");
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
        assertThat(HookRunner.decide("make", cwd, "default", none, engine, null, quiet).outcome()).isEqualTo("allow");
        assertThat(HookRunner.decide("make", cwd, "plan", none, engine, null, quiet).outcome()).isEqualTo("defer");
        assertThat(HookRunner.decide("echo $(terraform apply)", cwd, "bypassPermissions", none, engine, null, quiet)
                .outcome()).isEqualTo("ask");
        assertThat(HookRunner.decide("echo $(git log)", cwd, "bypassPermissions", none, engine, null, quiet)
                .outcome()).isEqualTo("defer");
    }
}
