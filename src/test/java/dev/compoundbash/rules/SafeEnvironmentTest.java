package dev.compoundbash.rules;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Which prefix variables an allow rule may approve past, and which statements change what runs. */
class SafeEnvironmentTest {

    @ParameterizedTest(name = "{0} safe={1} changesWhatRuns={2}")
    @CsvSource({
            "LANG,true,false", "LC_ALL,true,false", "LC_MESSAGES,true,false", "TZ,true,false",
            "NO_COLOR,true,false", "FORCE_COLOR,true,false", "CI,true,false", "NODE_ENV,true,false",
            "RUST_BACKTRACE,true,false", "TERM,true,false", "COLUMNS,true,false", "GOOS,true,false",
            "PYTHONUNBUFFERED,true,true",
            "PATH,false,true", "LD_PRELOAD,false,true", "LD_LIBRARY_PATH,false,true", "DYLD_INSERT_LIBRARIES,false,true",
            "BASH_ENV,false,true", "ENV,false,true", "IFS,false,false", "GIT_SSH_COMMAND,false,true",
            "GIT_EXTERNAL_DIFF,false,true", "PAGER,false,true", "EDITOR,false,true", "PROMPT_COMMAND,false,true",
            "PYTHONPATH,false,true", "NODE_OPTIONS,false,true", "HOME,false,true", "BASH_FUNC_ls%%,false,true",
            "FOO,false,false", "lc_all,false,false", "LC_,false,false", "SHELL,false,true",
    })
    void lists(String name, boolean safe, boolean changesWhatRuns) {
        assertThat(SafeEnvironment.isSafe(name)).isEqualTo(safe);
        assertThat(SafeEnvironment.changesWhatRuns(name)).isEqualTo(changesWhatRuns);
    }

    @Test
    void everyNameMustBeSafe() {
        assertThat(SafeEnvironment.allSafe(List.of())).isTrue();
        assertThat(SafeEnvironment.allSafe(List.of("LANG", "TZ"))).isTrue();
        assertThat(SafeEnvironment.allSafe(List.of("LANG", "PATH"))).isFalse();
        assertThat(dev.compoundbash.facts.NameList.of(dev.compoundbash.facts.NameList.CHANGES_WHAT_RUNS)
                .firstIn(List.of("x", "PATH", "IFS"))).isEqualTo("PATH");
        assertThat(dev.compoundbash.facts.NameList.of(dev.compoundbash.facts.NameList.CHANGES_WHAT_RUNS)
                .firstIn(List.of("x", "y"))).isNull();
        // A name only known at run time may be any of them.
        assertThat(SafeEnvironment.changesWhatRuns(null)).isTrue();
    }
}
