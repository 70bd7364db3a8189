package dev.compoundbash.rules;

import dev.compoundbash.facts.FindAction;
import dev.compoundbash.facts.Redirect;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Drives the built-in DRL with hand-built facts, one nested class per rule file. */
class RuleEngineTest {
    static RuleEngine engine;

    @BeforeAll
    static void load() {
        engine = RuleEngine.load(List.of());
    }

    static RuleEngine.Evaluation eval(FactsBuilder b) {
        return engine.evaluate(b.facts(), b.rules);
    }

    static String outcome(FactsBuilder b) {
        return eval(b).decision().getOutcome();
    }

    @Nested
    class Tiers {
        @Test
        void alwaysSafeCommandsAllow() {
            FactsBuilder b = new FactsBuilder();
            b.top("ls -la");
            b.top("wc -l");
            assertThat(outcome(b)).isEqualTo("allow");
        }

        @Test
        void safeBuiltinAllows() {
            FactsBuilder b = new FactsBuilder();
            b.top("echo hi");
            RuleEngine.Evaluation e = eval(b);
            assertThat(e.decision().getOutcome()).isEqualTo("allow");
            assertThat(e.fired()).extracting(RuleEngine.FiredRule::name).contains("safe builtin is approved");
            assertThat(e.fired()).extracting(RuleEngine.FiredRule::file).contains("rules/tiers.drl");
        }

        @Test
        void explicitTierNeedsARule() {
            FactsBuilder b = new FactsBuilder();
            b.top("source x");
            assertThat(outcome(b)).isEqualTo("defer");
            b.allow("source *");
            assertThat(outcome(b)).isEqualTo("allow");
        }

        @Test
        void dynamicNameIsNeverApproved() {
            FactsBuilder b = new FactsBuilder().allow("*");
            b.dynamic("$CMD args", true);
            assertThat(outcome(b)).isEqualTo("defer");
            FactsBuilder n = new FactsBuilder().allow("*");
            n.dynamic("$CMD args", false);
            assertThat(outcome(n)).isEqualTo("ask");
        }
    }

    @Nested
    class Patterns {
        @Test
        void denyBeatsAllow() {
            FactsBuilder b = new FactsBuilder().allow("git *").deny("git push *");
            b.top("git push --force");
            RuleEngine.Evaluation e = eval(b);
            assertThat(e.decision().getOutcome()).isEqualTo("deny");
            assertThat(e.decision().getReason()).contains("git push --force").contains("Bash(git push *)")
                    .contains("deny rule matches sub-command");
        }

        @Test
        void denyAppliesToSafeBuiltins() {
            FactsBuilder b = new FactsBuilder().deny("echo *");
            b.top("echo secret");
            assertThat(outcome(b)).isEqualTo("deny");
        }

        @Test
        void askBeatsAllow() {
            FactsBuilder b = new FactsBuilder().allow("rm *").ask("rm -rf *");
            b.top("rm -rf /tmp/x");
            assertThat(outcome(b)).isEqualTo("ask");
        }

        @Test
        void unapprovedTopLevelDefersNestedAsks() {
            FactsBuilder b = new FactsBuilder().allow("git *");
            b.top("git status");
            b.top("curl x");
            assertThat(outcome(b)).isEqualTo("defer");
            b.nested("curl y");
            assertThat(outcome(b)).isEqualTo("ask");
        }

        @Test
        void noSubCommandsAllows() {
            assertThat(outcome(new FactsBuilder())).isEqualTo("allow");
        }
    }

    @Nested
    class Wrappers {
        @Test
        void payloadApprovalClimbsToTheWrapper() {
            FactsBuilder b = new FactsBuilder().allow("npm test");
            b.wrapped("timeout 30 npm test", "npm test", "timeout", false, true);
            assertThat(outcome(b)).isEqualTo("allow");
        }

        @Test
        void allowOnTheWrapperNameNeverApprovesThePayload() {
            FactsBuilder b = new FactsBuilder().allow("timeout *");
            b.wrapped("timeout 30 curl x", "curl x", "timeout", false, true);
            assertThat(outcome(b)).isEqualTo("ask");
        }

        @Test
        void wrapperWithoutPayloadIsNeverApproved() {
            FactsBuilder b = new FactsBuilder().allow("timeout *");
            b.wrapped("timeout 10", null, "timeout", false, true);
            assertThat(outcome(b)).isEqualTo("defer");
        }

        @Test
        void xargsPayloadNeedsATrailingWildcard() {
            FactsBuilder exact = new FactsBuilder().allow("rm /tmp/x");
            exact.top("ls");
            exact.wrapped("xargs rm /tmp/x", "rm /tmp/x", "xargs", true, true);
            assertThat(outcome(exact)).isEqualTo("ask");
            FactsBuilder wild = new FactsBuilder().allow("rm /tmp/x*");
            wild.top("ls");
            wild.wrapped("xargs rm /tmp/x", "rm /tmp/x", "xargs", true, true);
            assertThat(outcome(wild)).isEqualTo("allow");
        }

        @Test
        void denyWinsThroughStackedWrappers() {
            FactsBuilder b = new FactsBuilder().deny("rm -rf *");
            int wid = b.add("nice timeout 5 rm -rf /", true, "wrapper", -1, false, false);
            int w1 = b.nextId++;
            int inner = b.add("timeout 5 rm -rf /", true, "wrapper", w1, false, false);
            b.wrappers.add(new dev.compoundbash.facts.Wrapper(w1, "nice", wid, inner, false, false, true));
            int w2 = b.nextId++;
            int payload = b.add("rm -rf /", true, "payload", w2, false, false);
            b.wrappers.add(new dev.compoundbash.facts.Wrapper(w2, "timeout", inner, payload, false, false, true));
            assertThat(outcome(b)).isEqualTo("deny");
        }

        @Test
        void mutatingFindActionAsks() {
            FactsBuilder b = new FactsBuilder().allow("find *");
            int id = b.top("find . -delete");
            b.findActions.add(new FindAction(b.nextId++, id, "-delete", true, null));
            assertThat(outcome(b)).isEqualTo("ask");
        }
    }

    @Nested
    class Redirects {
        @Test
        void insideCwdAllowsInAModeThatApprovesWrites() {
            FactsBuilder b = new FactsBuilder();
            b.top("echo hi");
            b.redirect("out.txt", false, true, null, true);
            for (String mode : List.of("acceptEdits", "auto", "bypassPermissions")) {
                assertThat(engine.evaluate(b.facts(), b.rules, new dev.compoundbash.facts.CallContext(mode))
                        .decision().getOutcome()).as(mode).isEqualTo("allow");
            }
            // Claude Code asks before writes in default mode and refuses in dontAsk: the hook defers, unless the user
            // opted in for default mode (compoundBash.approveWritesInDefaultMode).
            for (String mode : List.of("default", "dontAsk", "plan")) {
                assertThat(engine.evaluate(b.facts(), b.rules, new dev.compoundbash.facts.CallContext(mode))
                        .decision().getOutcome()).as(mode).isEqualTo("defer");
            }
            assertThat(engine.evaluate(b.facts(), b.rules, new dev.compoundbash.facts.CallContext("default", true))
                    .decision().getOutcome()).isEqualTo("allow");
            assertThat(engine.evaluate(b.facts(), b.rules, new dev.compoundbash.facts.CallContext("dontAsk", true))
                    .decision().getOutcome()).isEqualTo("defer");
            assertThat(engine.evaluate(b.facts(), b.rules, new dev.compoundbash.facts.CallContext("plan", true))
                    .decision().getOutcome()).isEqualTo("defer");
        }

        @Test
        void outsideDynamicProtectedAsk() {
            for (Object[] c : new Object[][]{{"/etc/motd", false, false, null}, {"$F", true, false, null},
                    {".git/config", false, true, ".git"}}) {
                FactsBuilder b = new FactsBuilder();
                b.top("echo hi");
                b.redirect((String) c[0], (Boolean) c[1], (Boolean) c[2], (String) c[3], false);
                assertThat(outcome(b)).as((String) c[0]).isEqualTo("ask");
            }
        }

        @Test
        void relativeTargetAfterCdAsks() {
            FactsBuilder b = new FactsBuilder();
            b.top("cd sub");
            b.top("echo x");
            b.redirect("out.txt", false, true, null, true, true);
            assertThat(outcome(b)).isEqualTo("ask");
            // A redirect before the cd (or after one in a subshell) lands in the working directory: the extractor
            // says which (Redirect.afterDirectoryChange), not a cd anywhere in the call.
            FactsBuilder before = new FactsBuilder();
            before.top("echo x");
            before.redirect("out.txt", false, true, null, true, false);
            before.top("cd sub");
            assertThat(engine.evaluate(before.facts(), before.rules, new dev.compoundbash.facts.CallContext("acceptEdits"))
                    .decision().getOutcome()).isEqualTo("allow");
        }

        @Test
        void fdDuplicationIsNotChecked() {
            FactsBuilder b = new FactsBuilder();
            b.top("ls");
            b.redirects.add(new Redirect(b.nextId++, 1, "2", ">&", "1", true, false, true, false, false, null,
                    false, null, false));
            assertThat(outcome(b)).isEqualTo("allow");
        }
    }

    @Nested
    class UserRules {
        @Test
        void brokenUserFileIsReportedWithFileAndLine(@TempDir Path dir) throws Exception {
            Path bad = dir.resolve("team.drl");
            Files.writeString(bad, "package team\n\nrule \"broken\"\nwhen\n  $s : NoSuchFact( )\nthen\nend\n");
            RuleEngine e = RuleEngine.load(List.of(bad));
            assertThat(e.compileErrors()).hasSize(1);
            assertThat(e.compileErrors().get(0)).startsWith(bad + ":");
        }

        @Test
        void userRuleAddsAFinding(@TempDir Path dir) throws Exception {
            Path f = dir.resolve("team.drl");
            Files.writeString(f, """
                    package team
                    import dev.compoundbash.facts.SubCommand
                    import dev.compoundbash.facts.Finding
                    rule "docker asks"
                    when
                        $s : SubCommand( name == "docker" )
                    then
                        insert(new Finding(Finding.ASK, $s.getId(), $s.getLine(), "docker needs a person", drools.getRule().getName()));
                    end
                    """);
            RuleEngine e = RuleEngine.load(List.of(f));
            assertThat(e.compileErrors()).isEmpty();
            FactsBuilder b = new FactsBuilder().allow("docker *");
            b.top("docker ps");
            RuleEngine.Evaluation ev = e.evaluate(b.facts(), b.rules);
            assertThat(ev.decision().getOutcome()).isEqualTo("ask");
            assertThat(ev.fired()).contains(new RuleEngine.FiredRule("docker asks", f.toString()));
            assertThat(e.rules()).extracting(RuleEngine.RuleInfo::name).contains("docker asks",
                    "a deny finding denies the call");
        }
            /** Issue 20, finding 2: a user rule claiming an exception approves nothing past the approval preconditions. */
        @Test
        void exceptionMetadataInUserRulesIsIgnored(@TempDir Path dir) throws Exception {
            Path f = dir.resolve("claims.drl");
            Files.writeString(f, """
                    package user.claims
                    import dev.compoundbash.facts.SubCommand
                    import dev.compoundbash.facts.Approvable
                    import dev.compoundbash.rules.Findings
                    rule "git status past any prefix"
                        @pastPrefix
                        @knownSafe
                        @underPrivilege
                    when
                        $s : SubCommand( name == "git" )
                        Approvable( subjectId == $s.id )
                    then
                        insert(Findings.approve(drools, $s.getId(), $s.getLine(), "claimed"));
                    end
                    """);
            RuleEngine e = RuleEngine.load(List.of(f));
            assertThat(e.compileErrors()).isEmpty();
            FactsBuilder b = new FactsBuilder();
            b.top("LD_PRELOAD=/tmp/x.so git status");
            assertThat(e.evaluate(b.facts(), b.rules).decision().getOutcome()).isEqualTo("defer");
            // the same rule built in would pass the prefix: the metadata is what is refused, not the rule
            FactsBuilder plain = new FactsBuilder();
            plain.top("git status");
            assertThat(e.evaluate(plain.facts(), plain.rules).decision().getOutcome()).isEqualTo("allow");
        }

        /** A user file may not join the built-in package (a rule of the same name would replace a built-in one). */
        @Test
        void theBuiltInPackageIsReserved(@TempDir Path dir) throws Exception {
            Path f = dir.resolve("override.drl");
            Files.writeString(f, """
                    // joins the built-in package, where @pastPrefix would be honoured
                    package dev.compoundbash.rules.builtin
                    import dev.compoundbash.facts.SubCommand
                    import dev.compoundbash.rules.Findings
                    rule "git past any prefix"
                        @pastPrefix
                    when
                        $s : SubCommand( name == "git" )
                    then
                        insert(Findings.approve(drools, $s.getId(), $s.getLine(), "claimed"));
                    end
                    """);
            RuleEngine e = RuleEngine.load(List.of(f));
            assertThat(e.compileErrors()).singleElement().asString().startsWith(f + ":2:")
                    .contains("reserved for compound-bash's built-in rules");
            FactsBuilder b = new FactsBuilder();
            b.top("LD_PRELOAD=/tmp/x.so git status");
            assertThat(e.evaluate(b.facts(), b.rules).decision().getOutcome()).isEqualTo("ask");
        }
    }
}
