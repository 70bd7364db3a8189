package dev.compoundbash.cli;

import dev.compoundbash.hook.HookRunner;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.shell.Parser;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import picocli.CommandLine;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20, finding 12: {@code explain} honours {@code NO_COLOR} (https://no-color.org), never shows an internal id
 * ({@code #-1}), and outlines every compound command as what it is: its header (a for loop's variable and words,
 * a case's subject, a conditional's test) and its parts (a loop's condition and body, an if's branches, a case's
 * patterns), named with the Bash Reference Manual's terms (§3.2.5, §3.2.6, §3.3).
 */
class ExplainOutputTest {
    static RuleEngine engine;
    @TempDir
    static Path tmp;

    @BeforeAll
    static void load() {
        engine = RuleEngine.load(List.of());
    }

    @AfterAll
    static void restore() {
        ExplainCommand.engines = HookRunner.LOAD;
        ExplainCommand.env = System.getenv();
        ExplainCommand.out = System.out;
    }

    static List<String> outline(String command) {
        try {
            return Outline.of(Parser.parse(command));
        } catch (dev.compoundbash.shell.ParseException e) {
            throw new AssertionError(command, e);
        }
    }

    @Test
    void forLoopShowsItsVariableWordsAndBody() {
        assertThat(outline("for f in *.md; do cat \"$f\"; done > out.txt")).containsExactly(
                "for loop: for f in *.md",
                "  body (do ... done):",
                "    simple command: cat \"$f\"",
                "  redirection > out.txt");
        assertThat(outline("for a; do echo \"$a\"; done")).first().isEqualTo(
                "for loop: for a (over the positional parameters \"$@\")");
        assertThat(outline("for ((i=0;i<3;i++)); do echo $i; done")).containsExactly(
                "for loop: for (( i=0; i<3; i++ ))",
                "  body (do ... done):",
                "    simple command: echo $i");
        assertThat(outline("select x in a b; do echo $x; done")).first().isEqualTo("select command: select x in a b");
    }

    @Test
    void whileAndUntilShowTheirConditionAndBody() {
        assertThat(outline("while read l; do echo $l; done < in.txt")).containsExactly(
                "while loop",
                "  condition (while it succeeds):",
                "    simple command: read l",
                "  body (do ... done):",
                "    simple command: echo $l",
                "  redirection < in.txt");
        assertThat(outline("until false; do ls; done")).containsExactly(
                "until loop",
                "  condition (until it succeeds):",
                "    simple command: false",
                "  body (do ... done):",
                "    simple command: ls");
    }

    @Test
    void ifShowsEachConditionAndBranch() {
        assertThat(outline("if test -f x; then ls; elif [[ -d y ]]; then pwd; else date; fi")).containsExactly(
                "if command",
                "  condition:",
                "    simple command: test -f x",
                "  then:",
                "    simple command: ls",
                "  elif condition:",
                "    conditional command: [[ -d y ]]",
                "  then:",
                "    simple command: pwd",
                "  else:",
                "    simple command: date");
    }

    @Test
    void caseShowsItsSubjectAndPatterns() {
        assertThat(outline("case $x in a|b) ls;; *) pwd;& esac")).containsExactly(
                "case command: case $x in",
                "  pattern a | b)",
                "    simple command: ls",
                "  pattern *) (falls through: ;&)",
                "    simple command: pwd");
    }

    @Test
    void functionsSubshellsGroupsAndCoprocesses() {
        assertThat(outline("f() { ls; }; f")).containsExactly(
                "function definition: f (its body runs where it is called)",
                "  group command { }: runs in the current shell",
                "    simple command: ls",
                "simple command: f");
        assertThat(outline("(cd /tmp && ls)")).containsExactly(
                "subshell ( ): runs in a child shell",
                "  and-or list &&",
                "    simple command: cd /tmp",
                "    simple command: ls");
        assertThat(outline("coproc W { cat; }")).containsExactly(
                "coprocess W: runs asynchronously in a child shell",
                "  group command { }: runs in the current shell",
                "    simple command: cat");
        assertThat(outline("coproc cat")).first().isEqualTo("coprocess: runs asynchronously in a child shell");
    }

    @Test
    void testsArithmeticBackgroundAndPipelines() {
        assertThat(outline("[[ -f $(ls) ]]")).containsExactly(
                "conditional command: [[ -f $(ls) ]]",
                "  command substitution $( )",
                "    simple command: ls");
        assertThat(outline("(( x = 1 + 2 ))")).containsExactly("arithmetic command: (( x = 1 + 2 ))");
        assertThat(outline("sleep 1 & wait")).containsExactly(
                "asynchronous (&): runs in the background",
                "  simple command: sleep 1",
                "simple command: wait");
        assertThat(outline("! ls | wc -l")).containsExactly(
                "pipeline | (! negates its status)",
                "  simple command: ls",
                "  simple command: wc -l");
    }

    String explain(Map<String, String> env, String command) {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        ExplainCommand.out = new PrintStream(b, true, StandardCharsets.UTF_8);
        ExplainCommand.env = env;
        ExplainCommand.engines = (files, e) -> engine;
        int rc = new CommandLine(new ExplainCommand()).execute("--cwd", tmp.toString(), command);
        assertThat(rc).isZero();
        return b.toString(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @ValueSource(strings = {"timeout 5", "env -S \"$x\"", "sudo -s", "bash -c \"$S\"", "eval \"$x\"", "watch \"$x\"",
            "ls | xargs -I{} sh -c \"{}\"", "echo ${x:=3}", "find . -exec \"$x\" {} \\;"})
    void noInternalIdIsShown(String command) {
        Map<String, String> env = Map.of("HOME", tmp.toString());
        String out = explain(env, command);
        assertThat(out).doesNotContain("#-").doesNotContain("-1 ");
    }

    @Test
    void aWrapperWhosePayloadCannotBeReadSaysSo() {
        String out = explain(Map.of("HOME", tmp.toString()), "timeout 5");
        assertThat(out).contains("wrapper timeout: #1 runs no command the hook can name (payload cannot be read)");
    }

    @Test
    void noColorAndDumbTerminalsTurnColoursOff() {
        assertThat(Terminal.colourAllowed(Map.of())).isTrue();
        assertThat(Terminal.colourAllowed(Map.of("NO_COLOR", "1"))).isFalse();
        assertThat(Terminal.colourAllowed(Map.of("NO_COLOR", "yes please"))).isFalse();
        assertThat(Terminal.colourAllowed(Map.of("NO_COLOR", ""))).isTrue(); // no-color.org: present and not empty
        assertThat(Terminal.colourAllowed(Map.of("TERM", "dumb"))).isFalse();
    }

    /**
     * On a real terminal (util-linux {@code script} gives the process a pseudo-terminal), explain and doctor colour
     * their output, and {@code NO_COLOR=1} turns it off.
     */
    @Test
    void onATerminalNoColorTurnsColoursOff() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/script")),
                "needs util-linux script for a pseudo-terminal");
        String plain = onTerminal(Map.of("NO_COLOR", "1"), "explain", "git status");
        String coloured = onTerminal(Map.of(), "explain", "git status");
        assertThat(coloured).contains("\u001b[1mcommand: \u001b[0m").contains("decision: ");
        assertThat(plain).contains("command: git status").doesNotContain("\u001b[");
        assertThat(onTerminal(Map.of("NO_COLOR", "1"), "doctor", "--no-round-trip")).contains("hook registration")
                .doesNotContain("\u001b[");
    }

    /** Runs compound-bash under a pseudo-terminal and returns what it printed (stdout and stderr together). */
    static String onTerminal(Map<String, String> extra, String... args) throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xlog:disable", "-cp", cp, "dev.compoundbash.cli.Main"));
        cmd.addAll(List.of(args));
        StringBuilder line = new StringBuilder();
        for (String c : cmd) line.append('\'').append(c.replace("'", "'\\''")).append("' ");
        Path home = Files.createTempDirectory(tmp, "home");
        Files.createDirectories(home.resolve(".claude"));
        ProcessBuilder pb = new ProcessBuilder("/usr/bin/script", "-qec", line.toString(), "/dev/null")
                .directory(home.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_") || k.equals("NO_COLOR"));
        env.put("HOME", home.toString());
        env.put("TERM", "xterm");
        env.putAll(new HashMap<>(extra));
        Path out = Files.createTempFile(tmp, "pty", ".out");
        pb.redirectOutput(out.toFile()).redirectErrorStream(true);
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        return Files.readString(out);
    }
}
