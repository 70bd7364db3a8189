package dev.compoundbash.facts;

import dev.compoundbash.shell.Parser;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** AliasPass: the expanded text and whether it followed, as measured in the replica of Claude Code's bash. */
class AliasPassTest {
    private static AliasPass.Result expand(String command) throws Exception {
        return AliasPass.expand(Parser.parse(command));
    }

    private static String text(String command) throws Exception {
        AliasPass.Result r = expand(command);
        assertThat(r.followed()).as(command).isTrue();
        return r.script().source();
    }

    @Test
    void laterLinesAreExpandedTheDefiningLineIsNot() throws Exception {
        assertThat(text("alias g=git\ng push origin")).isEqualTo("alias g=git\ngit push origin");
        assertThat(text("alias g=git; g push")).isEqualTo("alias g=git; g push");
        assertThat(text("alias g=git\nif g status; then (g log); fi | g x && ! g y"))
                .isEqualTo("alias g=git\nif git status; then (git log); fi | git x && ! git y");
        assertThat(text("alias g=git\nX=1 g push; echo g; \\g push; 'g' push"))
                .isEqualTo("alias g=git\nX=1 git push; echo g; \\g push; 'g' push");
    }

    @Test
    void blanksRecursionAndUnalias() throws Exception {
        assertThat(text("alias n='nice ' g=git\nn g push")).isEqualTo("alias n='nice ' g=git\nnice git push");
        assertThat(text("alias a='b ' b='echo ' c=X\na c d")).isEqualTo("alias a='b ' b='echo ' c=X\necho X d");
        assertThat(text("alias a=b b='echo ' c=X\na c")).isEqualTo("alias a=b b='echo ' c=X\necho c");
        assertThat(text("alias ls='ls -a' l=ls\nl x")).isEqualTo("alias ls='ls -a' l=ls\nls -a x");
        assertThat(text("alias g=git\nunalias g\ng push")).isEqualTo("alias g=git\nunalias g\ng push");
        assertThat(text("alias g=git\nunalias -a\ng push")).isEqualTo("alias g=git\nunalias -a\ng push");
        assertThat(text("alias g=git\nalias -p\nalias g\ng s")).endsWith("\ngit s");
    }

    @Test
    void whatItCannotFollow() throws Exception {
        for (String c : new String[] {"if true; then alias g=git; fi\ng push", "{ alias g=git; }\ng push",
                "alias g=git &\ng push", "alias g=git && true\ng push", "f() { alias g=git; }\nf\ng push",
                "alias g='echo; git'\ng push", "alias g=$v\ng push", "alias x=''\nx", "alias g=git\ng() { :; }",
                "alias g=git; echo $(g push)", "alias g=git\nf() { echo $(g push); }", "builtin alias g=git\ng",
                "BASH_ALIASES[g]=git; alias c=cat\nc x", "alias fi=echo\nls"}) {
            assertThat(expand(c).followed()).as(c).isFalse();
        }
    }
}
