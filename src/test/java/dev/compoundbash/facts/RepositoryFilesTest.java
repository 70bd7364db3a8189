package dev.compoundbash.facts;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link RepositoryFiles}: the files of the repository one git run reads, as git's setup.c finds it (-C, --git-dir,
 * --bare, .git or a bare directory upwards; measured with git 2.39.5: an alias in a bare x/config ran under
 * {@code git -C x}, {@code git -C x/sub}, {@code git --git-dir=x}).
 */
class RepositoryFilesTest {
    @TempDir
    Path dir;

    private List<RepositoryFiles.Watched> of(String... argv) {
        ProgramSchemas.Schema git = ProgramSchemas.of("git");
        List<Arg> args = Arrays.stream(argv).map(Arg::literal).toList();
        return RepositoryFiles.of(git.config().repository(), git.options(), args, List.of(dir));
    }

    private String reaches(List<RepositoryFiles.Watched> w, String relative) {
        return RepositoryFiles.reaches(w, dir.resolve(relative).toString());
    }

    @Test
    void aWorkTreesRepositoryIsItsDotGit() throws Exception {
        Files.createDirectories(dir.resolve(".git"));
        List<RepositoryFiles.Watched> w = of("git", "status");
        assertThat(reaches(w, ".git/config")).isEqualTo("file");
        assertThat(reaches(w, ".git/hooks/pre-commit")).isEqualTo("file");
        assertThat(reaches(w, ".git")).isEqualTo("holder");
        // .git exists: the working directory is no bare repository, its ./config is an ordinary file
        assertThat(reaches(w, "config")).isNull();
        assertThat(reaches(w, "a.txt")).isNull();
    }

    @Test
    void dashCAndGitDirNameTheRepository() {
        assertThat(reaches(of("git", "-C", "x", "log"), "x/config")).isEqualTo("file");
        assertThat(reaches(of("git", "-C", "x", "log"), "x/.git/config")).isEqualTo("file");
        assertThat(reaches(of("git", "-C", "x/sub", "log"), "x/config")).isEqualTo("file");
        assertThat(reaches(of("git", "-C", "x", "log"), "x")).isEqualTo("holder");
        assertThat(reaches(of("git", "--git-dir=x", "status"), "x/config")).isEqualTo("file");
        assertThat(reaches(of("git", "--git-dir", "x", "status"), "x/hooks/post-checkout")).isEqualTo("file");
        assertThat(reaches(of("git", "--git-dir", "x", "status"), "x/.git/config")).isNull();
        assertThat(reaches(of("git", "-C", "w", "--git-dir=.", "log"), "w/config")).isEqualTo("file");
        assertThat(reaches(of("git", "--bare", "log"), "config")).isEqualTo("file");
        assertThat(reaches(of("git", "-C", "y", "status"), "x/config")).isNull();
    }

    @Test
    void aDirectoryOnlyKnownAtRunTimeIsLeftToTheClosedWorld() {
        ProgramSchemas.Schema git = ProgramSchemas.of("git");
        List<Arg> args = List.of(Arg.literal("git"), Arg.literal("-C"), Arg.unknown("$d"), Arg.literal("log"));
        assertThat(RepositoryFiles.of(git.config().repository(), git.options(), args, List.of(dir))).isNull();
        assertThat(RepositoryFiles.of(git.config().repository(), git.options(), List.of(Arg.literal("git")), null))
                .isNull();
    }
}
