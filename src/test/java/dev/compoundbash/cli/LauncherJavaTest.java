package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 20, finding 6: the launcher finds a JDK 17 or newer ({@code JAVA_HOME}, then {@code PATH}, then the usual
 * install places) instead of running an old {@code java} first on {@code PATH}, and says plainly what is missing:
 * on stderr for a subcommand (exit 1), as a {@code systemMessage} in hook mode (the call defers, exit 0). The old
 * java is a stand-in script that answers {@code -version} like OpenJDK 11 and fails like it on a class of ours.
 */
class LauncherJavaTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final String REAL_JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();

    @TempDir
    Path tmp;
    Path oldJava;
    Path jar;

    record Result(int exit, String stdout, String stderr) {
    }

    @BeforeEach
    void setUp() throws IOException {
        Path bin = Files.createDirectories(tmp.resolve("old-jdk/bin"));
        oldJava = bin.resolve("java");
        Files.writeString(oldJava, """
                #!/bin/sh
                if [ "$1" = -version ]; then echo 'openjdk version "11.0.2" 2019-01-15' >&2; exit 0; fi
                echo 'Error: LinkageError occurred while loading main class dev.compoundbash.cli.Main' >&2
                echo '	java.lang.UnsupportedClassVersionError: class file version 61.0, this version of the Java Runtime only recognizes class file versions up to 55.0' >&2
                exit 1
                """);
        Files.setPosixFilePermissions(oldJava, PosixFilePermissions.fromString("rwxr-xr-x"));
        jar = tmp.resolve("stand-in.jar");
        Files.writeString(jar, "a jar");
        Files.createDirectories(tmp.resolve("home"));
    }

    /** Runs the launcher with PATH = the old java's directory, then /usr/bin:/bin (no other java there on purpose). */
    Result run(Map<String, String> extra, String stdin, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("sh", Path.of("bin/compound-bash").toAbsolutePath().toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_BASH_") || k.equals("JAVA_HOME"));
        env.put("PATH", oldJava.getParent() + ":/usr/bin:/bin");
        env.put("HOME", tmp.resolve("home").toString());
        env.put("XDG_RUNTIME_DIR", tmp.resolve("xdg").toString());
        env.put("COMPOUND_BASH_JAR", jar.toString());
        env.put("COMPOUND_BASH_CLASSPATH", System.getProperty("surefire.test.class.path",
                System.getProperty("java.class.path")));
        env.put("COMPOUND_BASH_WARM", "0");
        env.putAll(extra);
        Path out = Files.createTempFile(tmp, "out", ""), err = Files.createTempFile(tmp, "err", "");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (stdin != null) p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    @Test
    void anOldJavaFirstOnPathIsPassedOverForAJdkInAUsualPlace() throws Exception {
        Result r = run(Map.of("COMPOUND_BASH_JAVA_PLACES", REAL_JAVA), null, "--version");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).startsWith("compound-bash ");
        assertThat(r.stderr()).doesNotContain("UnsupportedClassVersionError");
    }

    @Test
    void javaHomeComesFirst() throws Exception {
        Result r = run(Map.of("JAVA_HOME", System.getProperty("java.home"), "COMPOUND_BASH_JAVA_PLACES", ""), null,
                "--version");
        assertThat(r.exit()).as(r.stderr()).isZero();
        assertThat(r.stdout()).startsWith("compound-bash ");
    }

    @Test
    void withoutASuitableJdkEveryCommandSaysWhatIsMissing() throws Exception {
        for (String sub : new String[]{"--version", "doctor", "explain"}) {
            Result r = run(Map.of("COMPOUND_BASH_JAVA_PLACES", ""), null, sub);
            assertThat(r.exit()).as(sub).isEqualTo(1);
            assertThat(r.stdout()).isEmpty();
            assertThat(r.stderr()).as(sub).contains("needs Java 17 or newer").contains(oldJava + " is Java 11")
                    .contains("JAVA_HOME").doesNotContain("UnsupportedClassVersionError");
        }
    }

    @Test
    void withoutASuitableJdkTheHookDefersAndTellsTheUser() throws Exception {
        String input = JSON.writeValueAsString(Map.of("tool_name", "Bash", "hook_event_name", "PreToolUse",
                "session_id", "s-" + java.util.UUID.randomUUID(), "cwd", tmp.toString(), "tool_input",
                Map.of("command", "ls")));
        Result r = run(Map.of("COMPOUND_BASH_JAVA_PLACES", ""), input, "hook");
        assertThat(r.exit()).isZero();
        JsonNode o = JSON.readTree(r.stdout());
        assertThat(o.has("hookSpecificOutput")).as("defers").isFalse();
        assertThat(o.path("systemMessage").asText()).contains("needs Java 17 or newer").contains("is Java 11");
    }
}
