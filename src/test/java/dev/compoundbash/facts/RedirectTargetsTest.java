package dev.compoundbash.facts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Redirect target resolution with real directories and symlinks. */
class RedirectTargetsTest {
    @TempDir
    Path tmp;

    RedirectTargets targets(Path cwd, String... extra) {
        return new RedirectTargets(new Environment(cwd, List.of(extra), "Linux", null));
    }

    @Test
    void relativeTargetInsideCwd() throws Exception {
        Path cwd = Files.createDirectory(tmp.resolve("work"));
        RedirectTargets.Classified c = targets(cwd).classify("sub/out.txt");
        assertThat(c.inside()).isTrue();
        assertThat(c.resolvedPath()).isEqualTo(cwd.toRealPath().resolve("sub/out.txt").toString());
    }

    @Test
    void parentOfCwdIsOutside() throws Exception {
        Path cwd = Files.createDirectory(tmp.resolve("work"));
        assertThat(targets(cwd).classify("../outside.txt").inside()).isFalse();
    }

    @Test
    void symlinkedDirectoryPointingOutsideCannotSmuggleAWrite() throws Exception {
        Path cwd = Files.createDirectory(tmp.resolve("work"));
        Path outside = Files.createDirectory(tmp.resolve("outside"));
        Files.createSymbolicLink(cwd.resolve("link"), outside);
        RedirectTargets.Classified c = targets(cwd).classify("link/new/file.txt");
        assertThat(c.inside()).isFalse();
        assertThat(c.resolvedPath()).startsWith(outside.toRealPath().toString());
    }

    @Test
    void danglingSymlinkIsFollowedToWhereTheWriteLands() throws Exception {
        Path cwd = Files.createDirectory(tmp.resolve("work"));
        Files.createSymbolicLink(cwd.resolve("out.txt"), tmp.resolve("elsewhere/created.txt"));
        assertThat(targets(cwd).classify("out.txt").inside()).isFalse();
    }

    @Test
    void dotDotAfterASymlinkIsPhysical() throws Exception {
        Path cwd = Files.createDirectory(tmp.resolve("work"));
        Path deep = Files.createDirectories(tmp.resolve("a/b"));
        Files.createSymbolicLink(cwd.resolve("link"), deep);
        // Lexically "link/../x" is cwd/x; the kernel resolves it to a/x, outside.
        assertThat(targets(cwd).classify("link/../x").inside()).isFalse();
    }

    @Test
    void symlinkedCwdIsResolvedToo() throws Exception {
        Path real = Files.createDirectory(tmp.resolve("real"));
        Path cwd = Files.createSymbolicLink(tmp.resolve("cwdlink"), real);
        assertThat(targets(cwd).classify(real.resolve("x").toString()).inside()).isTrue();
    }

    @Test
    void protectedComponentsBelowTheRoot() throws Exception {
        Path cwd = Files.createDirectory(tmp.resolve("work"));
        assertThat(targets(cwd).classify(".git/config").protectedComponent()).isEqualTo(".git");
        assertThat(targets(cwd).classify("sub/.claude/settings.json").protectedComponent()).isEqualTo(".claude");
        assertThat(targets(cwd).classify("sub/git/x").protectedComponent()).isNull();
    }

    @Test
    void additionalDirectoriesAreResolvedAsClaudeCodeResolvesThem() throws Exception {
        Path cwd = Files.createDirectory(tmp.resolve("work"));
        Path extra = Files.createDirectory(tmp.resolve("extra"));
        assertThat(targets(cwd, extra.toString()).classify(extra.resolve("x").toString()).inside()).isTrue();
        assertThat(targets(cwd, extra.toString()).configurationError()).isFalse();
        // relative to the start directory (Claude Code documents "../docs/"; measured: "../home" counts)
        RedirectTargets rel = targets(cwd, "../extra");
        assertThat(rel.configurationError()).isFalse();
        assertThat(rel.classify(extra.resolve("x").toString()).inside()).isTrue();
        // ~ is the home directory; without one known, the entry cannot be read
        Path home = Files.createDirectory(tmp.resolve("home"));
        RedirectTargets tilde = new RedirectTargets(new Environment(cwd, List.of("~/notes"), "Linux", null,
                home.toString()));
        assertThat(tilde.classify(home.resolve("notes/a").toString()).inside()).isTrue();
        assertThat(targets(cwd, "~/notes").configurationError()).isTrue();
        assertThat(targets(cwd, "~other/notes").configurationError()).isTrue();
    }

    @Test
    void macTmpAliases() throws Exception {
        Path cwd = Files.createDirectory(tmp.resolve("work"));
        String fakeTmpDir = "/var/folders/xy/T";
        RedirectTargets mac = new RedirectTargets(new Environment(cwd, List.of("/tmp"), "Mac OS X", fakeTmpDir));
        assertThat(mac.roots()).contains(RedirectTargets.resolve(Path.of("/private/tmp")), Path.of(fakeTmpDir));
        assertThat(mac.classify("/var/folders/xy/T/out.txt").inside()).isTrue();
        assertThat(mac.classify("/private/tmp/out.txt").inside()).isTrue();
        RedirectTargets linux = new RedirectTargets(new Environment(cwd, List.of("/tmp"), "Linux", fakeTmpDir));
        assertThat(linux.roots()).doesNotContain(Path.of(fakeTmpDir));
        assertThat(linux.classify("/var/folders/xy/T/out.txt").inside()).isFalse();
    }

    @Test
    void symlinkLoopDoesNotHang() throws Exception {
        Path cwd = Files.createDirectory(tmp.resolve("work"));
        Files.createSymbolicLink(cwd.resolve("a"), cwd.resolve("b"));
        Files.createSymbolicLink(cwd.resolve("b"), cwd.resolve("a"));
        assertThat(targets(cwd).classify("a/x").resolvedPath()).isNotNull();
    }
}
