package dev.compoundbash.settings;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shell Claude Code 2.1.332 picks (read in its shipped program, measured with claude-e2e; docs/CLAUDE-CODE.md
 * section S): CLAUDE_CODE_SHELL, then SHELL when they name bash or zsh and are executable, then zsh before bash
 * (bash first when SHELL's name is bash) on PATH and in the standard directories.
 */
class ClaudeCodeShellTest {
    @TempDir
    Path tmp;

    private Path exe(String rel) throws IOException {
        Path p = tmp.resolve(rel);
        Files.createDirectories(p.getParent());
        Files.writeString(p, "#!/bin/sh\n");
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        return p;
    }

    private ClaudeCodeShell.Choice pick(Map<String, String> env) {
        Map<String, String> e = new HashMap<>(env);
        e.putIfAbsent("PATH", tmp.resolve("nowhere").toString());
        return ClaudeCodeShell.of(e, List.of(tmp.resolve("bin").toString(), tmp.resolve("usr/bin").toString()));
    }

    @Test
    void shellNamingAnExecutableBashOrZshRuns() throws IOException {
        Path zsh = exe("opt/zsh");
        exe("bin/bash");
        assertThat(pick(Map.of("SHELL", zsh.toString()))).satisfies(c -> {
            assertThat(c.kind()).isEqualTo("zsh");
            assertThat(c.path()).isEqualTo(zsh.toString());
            assertThat(c.from()).isEqualTo("SHELL");
        });
    }

    @Test
    void claudeCodeShellComesBeforeShell() throws IOException {
        Path bash = exe("opt/bash");
        Path zsh = exe("opt/zsh");
        ClaudeCodeShell.Choice c = pick(Map.of("CLAUDE_CODE_SHELL", bash.toString(), "SHELL", zsh.toString()));
        assertThat(c.kind()).isEqualTo("bash");
        assertThat(c.from()).isEqualTo("CLAUDE_CODE_SHELL");
    }

    @Test
    void aMissingShellFallsBackToZshBeforeBashInTheStandardDirectories() throws IOException {
        exe("bin/bash");
        exe("usr/bin/zsh");
        // SHELL names zsh but the file is missing: zsh from the directories, before /bin/bash (measured: zsh ran)
        ClaudeCodeShell.Choice c = pick(Map.of("SHELL", tmp.resolve("gone/zsh").toString()));
        assertThat(c.kind()).isEqualTo("zsh");
        assertThat(c.path()).isEqualTo(tmp.resolve("usr/bin/zsh").toString());
    }

    @Test
    void aMissingBashShellSearchesBashFirst() throws IOException {
        exe("bin/zsh");
        exe("usr/bin/bash");
        ClaudeCodeShell.Choice c = pick(Map.of("SHELL", tmp.resolve("gone/bash").toString()));
        assertThat(c.kind()).isEqualTo("bash");
        assertThat(c.path()).isEqualTo(tmp.resolve("usr/bin/bash").toString());
    }

    @Test
    void aShellThatIsNeitherBashNorZshIsNotACandidate() throws IOException {
        exe("opt/fish");
        exe("bin/bash");
        exe("bin/zsh");
        ClaudeCodeShell.Choice c = pick(Map.of("SHELL", tmp.resolve("opt/fish").toString()));
        assertThat(c.kind()).isEqualTo("zsh");
        assertThat(c.from()).isEqualTo(tmp.resolve("bin").toString());
    }

    @Test
    void pathIsSearchedBeforeTheStandardDirectories() throws IOException {
        Path onPath = exe("path/zsh");
        exe("bin/bash");
        ClaudeCodeShell.Choice c = pick(Map.of("PATH", onPath.getParent().toString()));
        assertThat(c.path()).isEqualTo(onPath.toString());
        assertThat(c.from()).isEqualTo("PATH");
    }

    @Test
    void noShellAtAllIsBashWithNoPath() {
        ClaudeCodeShell.Choice c = pick(Map.of());
        assertThat(c.kind()).isEqualTo("bash");
        assertThat(c.path()).isNull();
    }

    @Test
    void theKindIsReadFromTheFileNameFirst() {
        assertThat(ClaudeCodeShell.kindOfName("/usr/bin/zsh")).isEqualTo("zsh");
        assertThat(ClaudeCodeShell.kindOfName("/opt/zsh-5.9/bin/bash")).isEqualTo("bash");
        assertThat(ClaudeCodeShell.kindOfName("/opt/bash/bin/zsh5")).isEqualTo("zsh");
        assertThat(ClaudeCodeShell.kindOfName("/opt/zsh/bin/sh")).isEqualTo("zsh");
        assertThat(ClaudeCodeShell.kindOfName("C:\\Git\\bin\\bash.exe")).isEqualTo("bash");
        assertThat(ClaudeCodeShell.kindOfName("/bin/fish")).isNull();
    }
}
