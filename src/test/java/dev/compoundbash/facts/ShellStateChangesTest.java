package dev.compoundbash.facts;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** ShellStateChanges: which builtins and variables change the shell's state (measured in bash 5.2). */
class ShellStateChangesTest {
    @Test
    void everydayOptionsChangeNothing() {
        for (List<String> argv : List.of(List.of("set", "-e"), List.of("set", "-euo", "pipefail"),
                List.of("set", "-x"), List.of("set", "+e"), List.of("set", "-o", "nounset"), List.of("set", "--", "a"),
                List.of("alias"), List.of("alias", "-p"), List.of("alias", "g"), List.of("alias", "-p", "g"), List.of("trap", "-p"), List.of("shopt", "-p"))) {
            assertThat(ShellStateChanges.builtinChange(argv)).as(argv.toString()).isNull();
        }
    }

    @Test
    void otherChangesAreReported() {
        for (List<String> argv : List.of(List.of("set", "-k"), List.of("set", "-o", "history"), List.of("set", "-H"),
                List.of("set", "-f"), List.of("shopt", "-s", "cdable_vars"), List.of("alias", "g=git"),
                List.of("unalias", "-a"), List.of("fc", "-s"), List.of("enable", "-n", "echo"),
                List.of("trap", "x", "EXIT"), List.of("history", "-s", "x"))) {
            assertThat(ShellStateChanges.builtinChange(argv)).as(argv.toString()).isNotNull();
        }
    }

    @Test
    void codeVariablesAndImportedFunctions() {
        assertThat(ShellStateChanges.variableChange("PS4=$(git push)", false)[1]).isEqualTo("echo $(git push)");
        assertThat(ShellStateChanges.variableChange("PROMPT_COMMAND=git push", true)[1]).isEqualTo("git push");
        assertThat(ShellStateChanges.variableChange("BASH_FUNC_ls%%=() { x; }", false)[1]).isEqualTo("f_ls() { x; }");
        assertThat(ShellStateChanges.variableChange("PS1=> ", true)).isNull();
        assertThat(ShellStateChanges.variableChange("IFS=x", false)).isNull(); // a prefix: that command's splitting
        assertThat(ShellStateChanges.variableChange("IFS=x", true)).isNotNull();
        assertThat(ShellStateChanges.calledImplicitly("command_not_found_handle")).isTrue();
        assertThat(ShellStateChanges.calledImplicitly("echo")).isFalse();
    }

    @Test
    void theListsAreData() {
        // shell/shell-state.json, one loader: every list the class reads is there
        for (String l : List.of("harmlessSetLetters", "harmlessSetOptions", "stateBuiltins", "codeVariables",
                "fileVariables", "splitVariables", "implicitFunctions", "builtins")) {
            assertThat(ShellStateChanges.list(l)).as(l).isNotEmpty();
        }
        assertThat(ShellStateChanges.list("harmlessSetOptions")).contains("pipefail");
        assertThat(ShellStateChanges.list("codeVariables")).containsAll(ShellStateChanges.list("fileVariables"));
    }
}
