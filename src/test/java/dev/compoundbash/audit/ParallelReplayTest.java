package dev.compoundbash.audit;

import dev.compoundbash.rules.Decider;
import dev.compoundbash.hook.HookLog;
import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ParallelReplayTest {
    @Test
    void parallelVerdictsEqualSequentialOnesInOrder(@TempDir Path cwd) {
        RuleEngine engine = RuleEngine.load(List.of());
        PermissionSettings settings = new PermissionSettings(List.of("Bash(git *)", "Bash(npm test:*)"), List.of(),
                List.of("Bash(git push *)"), List.of(), List.of(), List.of());
        String[] base = {"git status && ls", "git push origin main", "echo $(curl x)", "curl x", "npm test | tail",
                "if then fi", "rm -rf / > /etc/passwd", "find . -name '*.o' -delete"};
        List<String> commands = new ArrayList<>();
        for (int i = 0; i < 400; i++) commands.add(base[i % base.length] + (i % 3 == 0 ? "" : " # " + i));
        List<Decider.Verdict> parallel = ParallelReplay.decideAll(commands, cwd.toString(), settings, engine, null, 4);
        assertThat(parallel).hasSize(commands.size());
        for (int i = 0; i < commands.size(); i++) {
            Decider.Verdict seq = HookRunner.decide(new Decider.Call(commands.get(i), cwd.toString(), null, settings, null), engine, HookLog.open(Map.of(), "t"));
            assertThat(parallel.get(i).outcome()).as(commands.get(i)).isEqualTo(seq.outcome());
            assertThat(parallel.get(i).reason()).as(commands.get(i)).isEqualTo(seq.reason());
        }
        assertThat(parallel).extracting(Decider.Verdict::outcome).contains("allow", "deny", "ask", "defer");
    }
}
