package dev.compoundbash.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Syntax errors, decided as bash decides, and robustness against hostile input. */
class ParseErrorTest {

    @ParameterizedTest
    @ValueSource(strings = {
            "\"unterminated", "'unterminated", "echo $'x", "echo `x", "echo $(x", "echo ${x", "echo $((1",
            "if a; then b", "if a; then b; else c", "if; then a; fi", "if a then b fi", "fi", "then", "do", "done",
            "esac", "}", "in", ")", "(", "( )", "{ }", "{ a }", "{a;}", ";;", "a ;;", "a;;b", ";", "&", "a |", "| a",
            "a | | b", "a &&", "a && || b", "a ||", "a & & b", "&& a", "echo | ! cat", "f() echo", "function f echo",
            "while a; do b", "while a; b; done", "until a", "for x in a b", "for x in a b do :; done", "for ((;;))",
            "for ((i=0)); do :; done", "case x in a) b", "case x a) ;; esac", "case x in a) ;; b",
            "case x in a b) ;; esac", "[[ a", "[[ ]]", "[[ -f ]]", "[[ a == ]]", "[[ a b ]]", "[[ a && ]]",
            "[[ ( a ]]", "[[ a =~ b;c ]]", "]]", "a=(1 2", "echo a=(1)", "x=1 (a)", "echo (", "echo )",
            "cat <", "cat >", "cat < ;", "2>", "echo ${x!y}", "echo ${}", "coproc", "(a) b", "{ a; } b",
            "if a; then b; fi c", "a; else", "case x in (a) ;; esac)", "echo $(a; fi)", "echo $(case x in a) b)",
            "a && \n", "!!\n|",
            // a delimiter whose bytes depend on the locale (AnsiC.localeDependent): where the body ends too
            "cat <<$'\\u00e9'\nx\n\\u00E9\nrm y\n\u00e9\n", "cat <<x$'\\U0001F600'\nx\n",
            // a } in a ${...} subscript ends the ${ for bash's reader: the word, and the command, may end there
            "echo \"${b[}]}\"", "echo \"${b[}\"\\\\ x\nrm y #\"]}\"", "echo ${b[a}]}", "cat <<E\n${b[}]}\nE\n"})
    void rejects(String src) {
        assertThatThrownBy(() -> Parser.parse(src)).isInstanceOf(ParseException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "", " ", "\n\n", "# comment", "a # comment", "!", "! ! a", "time", "time ! a", "a | time b", "$( )",
            "cat <<EOF", "(( ))", "$(( ))", "echo $((1 +))", "echo $((ls); (pwd))", "[[ ! ]]", "a;", "a&", "a\n",
            "a &&\nb", "case x in esac", "case x in a) esac", "for x\ndo :; done", "echo }", "echo {", "echo ]]",
            "echo if then fi", "a=1 if", "{ a; }; { b; }", "f(){ :;}", "echo a\\", "echo \\\n",
            "cat <<$'\\u0041'\nx\nA\n", "echo \"${b['}']}\" ${b[\"}\"]} ${b[\\}]} ${b[${x}]} ${b[$(echo })]}"})
    void accepts(String src) {
        assertThatCode(() -> Parser.parse(src)).doesNotThrowAnyException();
    }

    @Test
    void errorCarriesPosition() {
        assertThatThrownBy(() -> Parser.parse("echo ok\nif a; then b; fu"))
                .isInstanceOfSatisfying(ParseException.class, e -> {
                    assertThat(e.line()).isGreaterThanOrEqualTo(1);
                    assertThat(e.column()).isGreaterThanOrEqualTo(1);
                });
        assertThatThrownBy(() -> Parser.parse("echo ok\necho )"))
                .isInstanceOfSatisfying(ParseException.class, e -> {
                    assertThat(e.line()).isEqualTo(2);
                    assertThat(e.column()).isEqualTo(6);
                });
    }

    private static void onlyParseExceptionOrSuccess(String src) {
        try {
            Parser.parse(src);
        } catch (ParseException e) {
            assertThat(e.getMessage()).as(src).doesNotContain("internal parser error");
        }
    }

    @Test
    @Timeout(180) // a guard against a hang or a quadratic parse, not a speed test (the speed is in bench/RESULTS.md)
    void deepNestingIsAParseExceptionNotStackOverflow() {
        int n = 10_000;
        String[] inputs = {
                "( ".repeat(n) + "a" + " )".repeat(n),
                "echo " + "$(".repeat(n) + "a" + ")".repeat(n),
                "{ ".repeat(n) + "a; " + "}; ".repeat(n),
                "echo " + "${x:-".repeat(n) + "a" + "}".repeat(n),
                "echo " + "\"$(".repeat(n),
                "echo " + "$((".repeat(n),
                "[[ " + "( ".repeat(n) + "a" + " )".repeat(n) + " ]]",
                "[[ " + "! ".repeat(n) + "a ]]",
                "if a; then ".repeat(n) + "b" + "; fi".repeat(n),
                "echo " + "@(".repeat(n),
                "a=(" + "$(".repeat(n),
                "echo " + "<(".repeat(n),
                "((".repeat(n),
                "while a; do ".repeat(n),
                "f() { ".repeat(n),
                "case x in a) ".repeat(n),
                "echo " + "`echo \\".repeat(30),
        };
        for (String src : inputs) {
            assertThatThrownBy(() -> Parser.parse(src)).as(src.substring(0, 12)).isInstanceOf(ParseException.class);
        }
        // 10,000 nested ( without spaces is a valid arithmetic command, as in bash
        assertThatCode(() -> Parser.parse("(".repeat(n) + "a" + ")".repeat(n))).doesNotThrowAnyException();
    }

    @Test
    void depthLimitExactlyAtMaxDepth() throws Exception {
        // On the launcher's thread stack (-Xss4m), the depth guard, not the stack, stops deep input.
        onLauncherStack(() -> {
            String ok = "echo " + "$(".repeat(20) + "a" + ")".repeat(20);
            assertThatCode(() -> Parser.parse(ok)).doesNotThrowAnyException();
            String deep = "echo " + "$(".repeat(Parser.MAX_DEPTH) + "a" + ")".repeat(Parser.MAX_DEPTH);
            assertThatThrownBy(() -> Parser.parse(deep)).isInstanceOf(ParseException.class)
                    .hasMessageContaining("nesting");
        });
    }

    @Test
    void hundredsOfNestedQuotedSubstitutionsParse() throws Exception {
        // Issue 8 finding: the guard counted several steps per "$(...)", so 100 levels (which bash runs) were
        // rejected. 300 levels parse on the launcher's stack; 100 parse on a default 1 MB stack too.
        String hundred = "echo " + "\"$(echo ".repeat(100) + "a" + ")\"".repeat(100);
        assertThatCode(() -> Parser.parse(hundred)).doesNotThrowAnyException();
        onLauncherStack(() -> {
            String three = "echo " + "\"$(echo ".repeat(299) + "a" + ")\"".repeat(299);
            assertThatCode(() -> Parser.parse(three)).doesNotThrowAnyException();
            String over = "echo " + "\"$(echo ".repeat(400) + "a" + ")\"".repeat(400);
            assertThatThrownBy(() -> Parser.parse(over)).isInstanceOf(ParseException.class)
                    .hasMessageContaining("nesting");
        });
    }

    @Test
    void aSmallStackEndsInParseExceptionNotAnError() throws Exception {
        // A caller's thread stack smaller than the depth guard assumes: the overflow is a ParseException.
        Throwable[] seen = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try {
                Parser.parse("echo " + "\"$(echo ".repeat(299) + "a" + ")\"".repeat(299));
            } catch (Throwable e) {
                seen[0] = e;
            }
        }, "small-stack", 128 * 1024);
        t.start();
        t.join();
        assertThat(seen[0]).isInstanceOf(ParseException.class).hasMessageContaining("too deeply");
    }

    /** Runs {@code body} on a thread with the launcher's stack size (bin/compound-bash passes -Xss4m). */
    static void onLauncherStack(Runnable body) throws Exception {
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(null, () -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure[0] = e;
            }
        }, "launcher-stack", 4L << 20);
        t.start();
        t.join();
        if (failure[0] instanceof Error e) throw e;
        if (failure[0] instanceof Exception e) throw e;
    }

    @Test
    void hostileCharacters() {
        assertThatCode(() -> Parser.parse("echo \0 a\0b '\0' \"\0\"")).doesNotThrowAnyException();
        assertThatCode(() -> Parser.parse("echo \ud800 '\udc00' \"\ud800\" $'\\ud800'")).doesNotThrowAnyException();
        onlyParseExceptionOrSuccess("\ud800(\udc00");
        onlyParseExceptionOrSuccess("$'\\U7fffffff' $'\\UFFFFFFFF'");
    }

    @Test
    @Timeout(180) // a guard against a hang or a quadratic parse, not a speed test (the speed is in bench/RESULTS.md)
    void largeInputsParseInLinearTime() {
        String line = "echo hello world | grep x && ls -la \"$HOME\"; ";
        String big = line.repeat((1 << 20) / line.length());
        assertThatCode(() -> Parser.parse(big)).doesNotThrowAnyException();
        assertThatCode(() -> Parser.parse("echo " + "a".repeat(1 << 20))).doesNotThrowAnyException();
        assertThatCode(() -> Parser.parse("echo \"" + "$x ".repeat(1 << 18) + "\"")).doesNotThrowAnyException();
        assertThatCode(() -> Parser.parse("cat <<EOF\nx\nEOF\n".repeat(20_000))).doesNotThrowAnyException();
        onlyParseExceptionOrSuccess("(".repeat(1 << 20));
        onlyParseExceptionOrSuccess("\"".repeat((1 << 20) + 1));
        onlyParseExceptionOrSuccess("$((".repeat(1 << 18));
        onlyParseExceptionOrSuccess("a[".repeat(1 << 18));
        onlyParseExceptionOrSuccess("echo " + "$((a) ".repeat(2000) + ")".repeat(2000));
    }

    @Test
    void randomBytesNeverThrowAnythingElse() {
        java.util.Random r = new java.util.Random(42);
        String alphabet = "ab $(){}[]<>|&;'\"`\\\n\t#!~@*?+-=:/%^,0123456789xEOF";
        for (int i = 0; i < 20_000; i++) {
            int len = r.nextInt(40);
            StringBuilder sb = new StringBuilder();
            for (int k = 0; k < len; k++) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
            onlyParseExceptionOrSuccess(sb.toString());
        }
    }
}
