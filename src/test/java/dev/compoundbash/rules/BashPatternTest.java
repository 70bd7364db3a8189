package dev.compoundbash.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class BashPatternTest {

    // ---------------------------------------------------------------- innerPattern

    static Stream<Arguments> innerPatterns() {
        return Stream.of(
                Arguments.of("Bash", "*"),
                Arguments.of("Bash(*)", "*"),
                Arguments.of("Bash(npm run build)", "npm run build"),
                Arguments.of("  Bash(ls *)\n", "ls *"),
                Arguments.of(" Bash ", "*"),
                Arguments.of("Bash()", ""),
                Arguments.of("Bash(git:*)", "git:*"),
                Arguments.of("Bash(echo (a))", "echo (a)"),
                Arguments.of("Bash( ls )", " ls "),
                Arguments.of("Read(./x)", null),
                Arguments.of("WebFetch", null),
                Arguments.of("WebFetch(domain:example.com)", null),
                Arguments.of("mcp__x", null),
                Arguments.of("mcp__server__tool", null),
                Arguments.of("bash(ls)", null),
                Arguments.of("BashOutput", null),
                Arguments.of("Bash(ls", null),
                Arguments.of("Bash ls)", null),
                Arguments.of("", null),
                Arguments.of(null, null));
    }

    @ParameterizedTest(name = "[{index}] innerPattern({0}) = {1}")
    @MethodSource("innerPatterns")
    void innerPattern(String rule, String expected) {
        assertThat(BashPattern.innerPattern(rule)).isEqualTo(expected);
    }

    // ---------------------------------------------------------------- matches

    static Stream<Arguments> matchTable() {
        return Stream.of(
                // exact
                Arguments.of("Bash(npm run build)", "npm run build", true),
                Arguments.of("Bash(npm run build)", "npm run build --watch", false),
                Arguments.of("Bash(npm run build)", "npm run buil", false),
                Arguments.of("Bash(jq)", "jq", true),
                Arguments.of("Bash(jq)", "jq .", false),
                // whole tool
                Arguments.of("Bash", "rm -rf /", true),
                Arguments.of("Bash", "", true),
                Arguments.of("Bash(*)", "anything at all / with slashes", true),
                Arguments.of("Bash(*)", "", true),
                // empty pattern
                Arguments.of("Bash()", "", true),
                Arguments.of("Bash()", "ls", false),
                // word boundary before trailing *
                Arguments.of("Bash(ls *)", "ls", true),
                Arguments.of("Bash(ls *)", "ls -la", true),
                Arguments.of("Bash(ls *)", "ls -la /tmp/a b", true),
                Arguments.of("Bash(ls *)", "lsof", false),
                Arguments.of("Bash(ls *)", "ls ", true),
                Arguments.of("Bash(ls *)", "l", false),
                Arguments.of("Bash(ls *)", "xls -la", false),
                // no boundary
                Arguments.of("Bash(ls*)", "ls", true),
                Arguments.of("Bash(ls*)", "ls -la", true),
                Arguments.of("Bash(ls*)", "lsof", true),
                Arguments.of("Bash(ls*)", "l", false),
                // leading / middle wildcards
                Arguments.of("Bash(* --version)", "npm --version", true),
                Arguments.of("Bash(* --version)", "--version", false),
                Arguments.of("Bash(* --version)", "npm --version --verbose", false),
                Arguments.of("Bash(* --version)", "a b c --version", true),
                Arguments.of("Bash(git * main)", "git push origin main", true),
                Arguments.of("Bash(git * main)", "git merge main", true),
                Arguments.of("Bash(git * main)", "git main", false),
                Arguments.of("Bash(git * main)", "git push origin main2", false),
                Arguments.of("Bash(git * main)", "git push origin/main", false),
                Arguments.of("Bash(git * main)", "git -c core.pager=x diff main", true),
                Arguments.of("Bash(rm /tmp/x*)", "rm /tmp/x", true),
                Arguments.of("Bash(rm /tmp/x*)", "rm /tmp/xyz/a /etc/passwd", true),
                Arguments.of("Bash(rm /tmp/x*)", "rm /tmp/y", false),
                Arguments.of("Bash(a*b*c)", "abc", true),
                Arguments.of("Bash(a*b*c)", "aXbYc", true),
                Arguments.of("Bash(a*b*c)", "aXbYcZ", false),
                Arguments.of("Bash(a*b*c)", "acb", false),
                Arguments.of("Bash(**)", "x", true),
                Arguments.of("Bash(git * main *)", "git push origin main", true),
                Arguments.of("Bash(git * main *)", "git push origin main --force", true),
                Arguments.of("Bash(git * main *)", "git push origin mainline", false),
                // legacy :*
                Arguments.of("Bash(git:*)", "git log --oneline", true),
                Arguments.of("Bash(git:*)", "git", true),
                Arguments.of("Bash(git:*)", "gitk", false),
                Arguments.of("Bash(git:*)", "git:log", false),
                Arguments.of("Bash(npm run test:*)", "npm run test", true),
                Arguments.of("Bash(npm run test:*)", "npm run test --coverage", true),
                Arguments.of("Bash(npm run test:*)", "npm run testing", false),
                // :* in the middle is a literal colon followed by a wildcard
                Arguments.of("Bash(a:*b)", "a:b", true),
                Arguments.of("Bash(a:*b)", "a:xyzb", true),
                Arguments.of("Bash(a:*b)", "a b", false),
                Arguments.of("Bash(a:*b)", "a xb", false),
                Arguments.of("Bash(a:*b)", "ab", false),
                // colon without star is literal
                Arguments.of("Bash(echo a:b)", "echo a:b", true),
                Arguments.of("Bash(echo a:)", "echo a", false),
                // case sensitive, unicode
                Arguments.of("Bash(LS *)", "ls -la", false),
                Arguments.of("Bash(echo é*)", "echo éà", true));
    }

    @ParameterizedTest(name = "[{index}] {0} vs \"{1}\" -> {2}")
    @MethodSource("matchTable")
    void matches(String rule, String commandLine, boolean expected) {
        String pattern = BashPattern.innerPattern(rule);
        assertThat(pattern).as("inner pattern of %s", rule).isNotNull();
        assertThat(BashPattern.matches(pattern, commandLine)).isEqualTo(expected);
    }

    @Test
    void nullArgumentsNeverMatch() {
        assertThat(BashPattern.matches(null, "ls")).isFalse();
        assertThat(BashPattern.matches("*", null)).isFalse();
    }

    // ---------------------------------------------------------------- toleratesTrailingArguments

    static Stream<Arguments> trailing() {
        return Stream.of(
                Arguments.of("rm *", true),
                Arguments.of("rm /tmp/x*", true),
                Arguments.of("*", true),
                Arguments.of("git:*", true),
                Arguments.of("ls*", true),
                Arguments.of("rm -rf build", false),
                Arguments.of("* --version", false),
                Arguments.of("a:*b", false),
                Arguments.of("git:", false),
                Arguments.of("", false),
                Arguments.of(null, false));
    }

    @ParameterizedTest(name = "[{index}] toleratesTrailingArguments({0}) = {1}")
    @MethodSource("trailing")
    void toleratesTrailingArguments(String pattern, boolean expected) {
        assertThat(BashPattern.toleratesTrailingArguments(pattern)).isEqualTo(expected);
    }

    @Test
    void toleratingPatternsReallyAcceptAppendedArguments() {
        for (String p : new String[] {"rm *", "rm /tmp/x*", "*", "git:*"}) {
            String base = p.replace(":*", "").replace("*", "").strip();
            assertThat(BashPattern.matches(p, base + " extra -f /etc/x")).as(p).isTrue();
        }
    }

    // ---------------------------------------------------------------- pathological

    @Test
    @Timeout(120) // an exponential matcher never finishes these; a shared, loaded machine may be slow (not a speed test)
    void pathologicalPatternsAreFast() {
        String pattern = "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
        String text = "a".repeat(20_000);
        long start = System.nanoTime();
        assertThat(BashPattern.matches(pattern, text)).isFalse();
        assertThat(BashPattern.matches(pattern, text + "b")).isTrue();
        assertThat(BashPattern.matches("* * * * * * * * * * * * x *", "a ".repeat(10_000))).isFalse();
        assertThat(BashPattern.matches("*" + "a*".repeat(200) + "b", "a".repeat(5_000))).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(60));
    }

    // ---------------------------------------------------------------- mayMatch (shapes: \0 is any text)

    static Stream<Arguments> mayMatchCases() {
        return Stream.of(
                Arguments.of("git push *", "git p\0 origin", true),
                Arguments.of("git push *", "git \0 origin", true),
                Arguments.of("git push *", "git \0", true),
                Arguments.of("git push *", "git pu\0sh origin", true),
                Arguments.of("git push *", "git log --format=\0 -1", false),
                Arguments.of("git push *", "git pull\0", false),
                Arguments.of("git push *", "r\0", false),
                Arguments.of("rm *", "\0 -rf y", true),
                Arguments.of("rm *", "r\0 -rf y", true),
                Arguments.of("rm *", "x\0", false),
                Arguments.of("npm publish", "npm \0lish", true),
                Arguments.of("npm publish", "npm \0lish x", false),
                Arguments.of("make deploy", "make \0", true),
                Arguments.of("ls", "ls\0", true),
                Arguments.of("ls", "l\0s", true),
                Arguments.of("ls", "l\0x", false),
                Arguments.of("git:*", "git\0", true),
                Arguments.of("a*b*c", "\0b", false),
                Arguments.of("a*b*c", "\0b\0", true),
                Arguments.of("", "\0", true),
                Arguments.of("", "", true),
                Arguments.of("x", "", false));
    }

    @ParameterizedTest(name = "[{index}] {0} may match \"{1}\" -> {2}")
    @MethodSource("mayMatchCases")
    void mayMatch(String pattern, String shape, boolean expected) {
        assertThat(BashPattern.mayMatch(pattern, shape)).isEqualTo(expected);
    }

    /**
     * Checked against the definition: a shape without unknown text may match exactly when it matches, and every
     * value of the unknown text that matches makes mayMatch hold (random patterns and values over a small
     * alphabet).
     */
    @Test
    void mayMatchAgreesWithMatchesOnEveryValue() {
        java.util.Random r = new java.util.Random(7);
        String alphabet = "ab *";
        for (int n = 0; n < 20_000; n++) {
            String pattern = random(r, alphabet, 6);
            String shape = random(r, "ab \0", 6);
            String value = shape.replace("\0", random(r, "ab ", 3));
            if (BashPattern.matches(pattern, value)) {
                assertThat(BashPattern.mayMatch(pattern, shape)).as("%s / %s / %s", pattern, shape, value).isTrue();
            }
            String literal = random(r, "ab *", 6);
            assertThat(BashPattern.mayMatch(pattern, literal)).as("%s / %s", pattern, literal)
                    .isEqualTo(BashPattern.matches(pattern, literal));
        }
    }

    private static String random(java.util.Random r, String alphabet, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = r.nextInt(max + 1); i > 0; i--) sb.append(alphabet.charAt(r.nextInt(alphabet.length())));
        return sb.toString();
    }

    // ---------------------------------------------------------------- rules across control operators (issue 20, 10)

    /** Elements as single-alternative parts joined by {@code ops}: {@code j(["curl x", "sh"], " | ")}. */
    static boolean joined(String pattern, String op, String... elements) {
        java.util.List<java.util.List<String>> parts = new java.util.ArrayList<>();
        java.util.List<Integer> starts = new java.util.ArrayList<>(), ends = new java.util.ArrayList<>();
        for (int k = 0; k < elements.length; k++) {
            if (k > 0) parts.add(java.util.List.of(op));
            starts.add(parts.size());
            parts.add(java.util.List.of(elements[k]));
            ends.add(parts.size());
        }
        return BashPattern.matchesJoined(pattern, parts, starts, ends);
    }

    @Test
    void patternsAcrossOperatorsAreReadInOneSpelling() {
        assertThat(BashPattern.joinedForm("curl *|sh")).isEqualTo("curl * | sh");
        assertThat(BashPattern.joinedForm("curl *  |   sh")).isEqualTo("curl * | sh");
        assertThat(BashPattern.joinedForm("a&&b||c|&d;e")).isEqualTo("a && b || c |& d; e");
        assertThat(BashPattern.joinedForm("find * -exec rm {} \\;")).isEqualTo("find * -exec rm {} \\;");
        assertThat(BashPattern.joinedForm("make 2>&1")).isEqualTo("make 2>&1");
        assertThat(BashPattern.spansOperators("curl * | sh")).isTrue();
        assertThat(BashPattern.spansOperators("git fetch && git push")).isTrue();
        assertThat(BashPattern.spansOperators("a; b")).isTrue();
        assertThat(BashPattern.spansOperators("rm -rf *")).isFalse();
        assertThat(BashPattern.spansOperators("make 2>&1")).isFalse();
        assertThat(BashPattern.spansPipesOrAndOr("a; b")).isFalse();
        assertThat(BashPattern.spansPipesOrAndOr("a || b")).isTrue();
    }

    @Test
    void aRuleAcrossOperatorsMatchesAnyRunOfElements() {
        assertThat(joined("curl * | sh", " | ", "curl -s x", "sh")).isTrue();
        assertThat(joined("curl *|sh", " | ", "curl -s x", "sh")).isTrue();
        assertThat(joined("curl * | sh", " | ", "curl x", "tee f", "sh")).isTrue(); // * spans an operator
        assertThat(joined("curl * | sh", " | ", "ls", "curl x", "sh")).isTrue(); // a run inside
        assertThat(joined("curl * | sh", " | ", "curl x", "sh", "cat")).isTrue(); // the run curl x | sh
        assertThat(joined("curl * | sh", " | ", "curl x", "bash")).isFalse();
        assertThat(joined("curl * | sh", " | ", "curl x", "sh -s")).isFalse();
        assertThat(joined("curl * | sh", " && ", "curl x", "sh")).isFalse();
        assertThat(joined("git fetch && git push", " && ", "git fetch", "git push", "ls")).isTrue();
        assertThat(joined("git fetch && git push", " && ", "git fetchx", "git push")).isFalse();
        assertThat(joined("git fetch * && git push *", " && ", "git fetch origin", "git push origin")).isTrue();
        assertThat(joined("a; b", "; ", "x", "a", "b")).isTrue();
        assertThat(joined("ls *", " | ", "ls", "wc")).isTrue(); // a run of one: the element itself
        assertThat(joined("git push", " && ", "git pus", "h")).isFalse(); // runs start and end at elements
    }

    @Test
    void aWordKnownOnlyAtRunTimeMakesNoOperatorButACommandMayMakeAny() {
        String unknown = String.valueOf(dev.compoundbash.facts.Arg.UNKNOWN);
        String any = String.valueOf(dev.compoundbash.facts.JoinedCommands.ANY_COMMANDS);
        assertThat(joined("curl * | sh", " | ", "curl x", unknown)).isTrue(); // curl x | $s
        assertThat(joined("curl * | sh", " | ", "ls", unknown)).isFalse(); // ls | $s: $s alone is no pipe
        assertThat(joined("curl * | sh", " | ", "ls", any)).isTrue(); // ls | while ...; done
        assertThat(joined("curl * | sh", " | ", "curl " + unknown, "sh")).isTrue();
        assertThat(joined("git fetch && git push", " && ", "git fetch", "git " + unknown)).isTrue();
        assertThat(joined("git fetch && git push", " && ", unknown, "ls")).isFalse();
    }
}
