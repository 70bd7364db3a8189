package dev.compoundbash.audit;

import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LogReaderTest {
    static List<LogReader.Entry> read(String text) throws Exception {
        List<LogReader.Entry> out = new ArrayList<>();
        LogReader.read("log", new BufferedReader(new StringReader(text)), out::add);
        return out;
    }

    @Test
    void readsJsonlEntries() throws Exception {
        List<LogReader.Entry> e = read("""
                {"time":"2026-11-30T04:48:53.989Z","cwd":"/w","command":"ls","decision":"allow","reason":"r"}
                not json at all
                {"time":"x","command":"a\\nb","decision":"ask"}
                """);
        assertThat(e).hasSize(2);
        assertThat(e.get(0).cwd()).isEqualTo("/w");
        assertThat(e.get(0).oldDecision()).isEqualTo("allow");
        assertThat(e.get(0).time().toInstant().toString()).isEqualTo("2026-11-30T04:48:53.989Z");
        assertThat(e.get(0).source()).isEqualTo("log:1");
        assertThat(e.get(1).command()).isEqualTo("a\nb");
        assertThat(e.get(1).time()).isNull();
        assertThat(e.get(1).cwd()).isNull();
    }

    @Test
    void readsTextLogEvaluatingLinesWithTheirFinalDecision() throws Exception {
        List<LogReader.Entry> e = read("""
                2026-11-30T04:48:53.100+00:00 [0.1.0] loaded 1 allow, 0 ask, 0 deny patterns from []
                2026-11-30T04:48:53.101+00:00 [0.1.0] evaluating: git status && curl x
                2026-11-30T04:48:53.102+00:00 [0.1.0] parsed 2 sub-command(s)
                2026-11-30T04:48:53.103+00:00 [0.1.0] DEFER [curl]: not in allow list: "curl x"
                2026-11-30T04:48:53.104+00:00 [0.1.0] DEFER: defer [curl x]: not in allow list
                2026-11-30T04:48:54.000+00:00 [0.1.0] evaluating: cat <<'EOF'\\nhi\\nEOF
                2026-11-30T04:48:54.001+00:00 [0.1.0] ALLOW: all 1 sub-command(s) matched
                2026-11-30T04:48:55.000+00:00 [0.1.0] evaluating: printf '\\u001b'
                """);
        assertThat(e).extracting(LogReader.Entry::oldDecision).containsExactly("defer", "allow", "unknown");
        assertThat(e.get(0).command()).isEqualTo("git status && curl x");
        assertThat(e.get(0).oldReason()).isEqualTo("defer [curl x]: not in allow list");
        assertThat(e.get(1).command()).isEqualTo("cat <<'EOF'\nhi\nEOF");
        assertThat(e.get(2).command()).isEqualTo("printf '\u001b'");
        assertThat(e.get(0).source()).isEqualTo("log:2");
    }

    @Test
    void readsThePermissionModeOfEachEntry() throws Exception {
        // Replay judges an entry in the mode it was decided in (before, every entry was judged in default mode).
        List<LogReader.Entry> e = read("""
                {"cwd":"/w","permission_mode":"plan","command":"git push","decision":"defer"}
                {"cwd":"/w","command":"ls","decision":"allow"}
                2026-11-30T04:48:53.100+00:00 [0.1.0] permission mode: bypassPermissions
                2026-11-30T04:48:53.101+00:00 [0.1.0] evaluating: echo $(curl x)
                2026-11-30T04:48:53.104+00:00 [0.1.0] DEFER: bypassPermissions mode, no prompt for: ask
                2026-11-30T04:48:54.000+00:00 [0.1.0] permission mode: default (input said "bogus")
                2026-11-30T04:48:54.001+00:00 [0.1.0] evaluating: ls
                2026-11-30T04:48:54.002+00:00 [0.1.0] ALLOW: all 1 sub-command(s) approved
                2026-11-30T04:48:55.000+00:00 [0.1.0] evaluating: ls
                2026-11-30T04:48:55.001+00:00 [0.1.0] ALLOW: all 1 sub-command(s) approved
                """);
        assertThat(e).extracting(LogReader.Entry::permissionMode)
                .containsExactly("plan", null, "bypassPermissions", "default", null);
        assertThat(e.get(2).oldDecision()).isEqualTo("defer");
    }

    @Test
    void unescapeUndoesHookLogEscape() {
        String raw = "a\nb\rc\u0007d\\e\\u00zz";
        assertThat(LogReader.unescape(dev.compoundbash.hook.HookLog.escape(raw))).isEqualTo(raw);
    }
}
