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
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The launcher's build when the jar is missing (issue 15): one background build at a time with its log kept whole,
 * a backoff after a failure, a {@code systemMessage} once per session while the hook defers, and the failure printed
 * by every other subcommand. Each test runs {@code bin/compound-bash} from a temporary copy of the checkout (no
 * jar), with a temporary HOME. Deadlines only guard against hanging; no assertion is about time.
 */
class LauncherBuildTest {
    static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;
    Path root;
    Path home;

    record Result(int exit, String stdout, String stderr) {
        /** The systemMessage of a deferring hook answer, or null when stdout is empty. */
        String systemMessage() throws IOException {
            assertThat(exit).as(stderr).isZero();
            if (stdout.isEmpty()) return null;
            JsonNode o = JSON.readTree(stdout);
            assertThat(o.has("hookSpecificOutput")).as("a missing jar defers: " + stdout).isFalse();
            assertThat(stdout.strip()).doesNotContain("\n");
            return o.path("systemMessage").asText();
        }
    }

    @BeforeEach
    void setUp() throws IOException {
        root = tmp.resolve("checkout");
        Files.createDirectories(root.resolve("bin"));
        Files.createDirectories(root.resolve(".mvn/wrapper"));
        Files.copy(Path.of("bin/compound-bash"), root.resolve("bin/compound-bash"));
        Files.copy(Path.of("mvnw"), root.resolve("mvnw"));
        Files.copy(Path.of(".mvn/wrapper/maven-wrapper.properties"), root.resolve(".mvn/wrapper/maven-wrapper.properties"));
        Files.copy(Path.of("pom.xml"), root.resolve("pom.xml"));
        home = tmp.resolve("home");
        Files.createDirectories(home);
        ageCheckout();
    }

    /** Sets every file of the copied checkout an hour back, so that "changed since the failed build" is false. */
    void ageCheckout() throws IOException {
        FileTime old = FileTime.from(Instant.now().minus(1, ChronoUnit.HOURS));
        try (Stream<Path> s = Files.walk(root)) {
            for (Path p : s.toList()) Files.setLastModifiedTime(p, old);
        }
    }

    /** A stand-in for the Maven Wrapper: counts its builds, writes a Maven-like error, sleeps, fails. */
    void fakeWrapper(double seconds) throws IOException {
        Files.writeString(root.resolve("mvnw"), "#!/bin/sh\n"
                + "case \"$*\" in *--version*) echo 'Apache Maven (stand-in)'; exit 0;; esac\n"
                + "echo build >> \"$(dirname \"$0\")/builds\"\n"
                + "echo '[INFO] Scanning for projects...'\n"
                + "sleep " + seconds + "\n"
                + "echo '[ERROR] Failed to execute goal: Could not resolve dependencies: Cannot access central in offline mode'\n"
                + "exit 1\n");
        ageCheckout();
    }

    int builds() throws IOException {
        Path f = root.resolve("builds");
        return Files.exists(f) ? Files.readAllLines(f).size() : 0;
    }

    Result run(Map<String, String> extra, String stdin, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("sh", root.resolve("bin/compound-bash").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(tmp.toFile());
        Map<String, String> env = pb.environment();
        env.keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_BASH_") || k.startsWith("MVNW_"));
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.getOrDefault("PATH", "/usr/bin:/bin"));
        env.put("HOME", home.toString());
        env.put("XDG_RUNTIME_DIR", tmp.resolve("xdg").toString());
        env.putAll(extra);
        Path out = Files.createTempFile(tmp, "out", ""), err = Files.createTempFile(tmp, "err", "");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (stdin != null) p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        assertThat(p.waitFor(300, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), Files.readString(out), Files.readString(err));
    }

    Result hook(String session, Map<String, String> extra) throws Exception {
        return run(extra, Proc.hookInput("ls", tmp.toString(), session), "hook");
    }

    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(240);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for " + what);
            Thread.sleep(100);
        }
    }

    boolean failed() {
        return Files.exists(root.resolve("target/build.failed"));
    }

    String log() throws IOException {
        return Files.readString(root.resolve("target/build.log"));
    }

    @Test
    void parallelCallsStartOneBuildAndKeepItsLogWhole() throws Exception {
        fakeWrapper(3);
        List<Thread> threads = new ArrayList<>();
        List<Result> results = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int i = 0; i < 6; i++) {
            String session = "s" + i;
            Thread t = new Thread(() -> {
                try {
                    results.add(hook(session, Map.of()));
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
            t.start();
            threads.add(t);
        }
        for (Thread t : threads) t.join();
        assertThat(results).hasSize(6);
        for (Result r : results) assertThat(r.systemMessage()).contains("building").contains("target/build.log");
        // more calls while the build runs neither start another nor truncate its log
        for (int i = 0; i < 3; i++) hook("later" + i, Map.of());
        await(this::failed, "the build to fail");
        assertThat(builds()).isEqualTo(1);
        assertThat(log()).contains("[INFO] Scanning for projects...")
                .contains("[ERROR] Failed to execute goal: Could not resolve dependencies")
                .contains("build failed (exit 1)");
    }

    @Test
    void failedBuildBacksOffTellsEachSessionOnceAndRetriesWhenTheCheckoutChanges() throws Exception {
        fakeWrapper(0);
        assertThat(hook("one", Map.of()).systemMessage()).contains("building");
        await(this::failed, "the build to fail");
        String told = hook("one", Map.of()).systemMessage();
        assertThat(told).contains("build failed").contains(root.resolve("target/build.log").toString())
                .contains("Maven could not download").contains("bin/compound-bash --version");
        assertThat(hook("one", Map.of()).systemMessage()).as("once per session").isNull();
        assertThat(hook("two", Map.of()).systemMessage()).contains("build failed");
        assertThat(hook("two", Map.of()).systemMessage()).isNull();
        assertThat(builds()).as("no retry inside the backoff").isEqualTo(1);

        // ten minutes later: retried
        Files.setLastModifiedTime(root.resolve("target/build.failed"),
                FileTime.from(Instant.now().minus(11, ChronoUnit.MINUTES)));
        hook("two", Map.of());
        await(() -> {
            try {
                return builds() == 2 && failed();
            } catch (IOException e) {
                return false;
            }
        }, "the retry after the backoff");

        // the checkout changes: retried at once
        Files.setLastModifiedTime(root.resolve("pom.xml"), FileTime.from(Instant.now().plusSeconds(5)));
        hook("three", Map.of());
        await(() -> {
            try {
                return builds() == 3 && failed();
            } catch (IOException e) {
                return false;
            }
        }, "the retry after the checkout changed");
    }

    @Test
    void everyOtherSubcommandPrintsTheFailureAndTheLogPath() throws Exception {
        fakeWrapper(0);
        for (String[] args : List.of(new String[]{"--version"}, new String[]{"explain", "ls"},
                new String[]{"doctor"})) {
            Result r = run(Map.of(), null, args);
            assertThat(r.exit()).isEqualTo(1);
            assertThat(r.stdout()).isEmpty();
            assertThat(r.stderr()).contains("build of " + root.resolve("target/compound-bash.jar") + " failed")
                    .contains("log: " + root.resolve("target/build.log"))
                    .contains("[ERROR] Failed to execute goal")
                    .contains("cause: Maven could not download");
        }
    }

    /** Maven's settings for a cut network: every repository behind a mirror nobody listens on, an empty cache. */
    void cutNetwork() throws IOException {
        Path settings = tmp.resolve("settings.xml");
        Files.writeString(settings, "<settings><mirrors><mirror><id>unreachable</id><mirrorOf>*</mirrorOf>"
                + "<url>http://127.0.0.1:9/</url></mirror></mirrors></settings>\n");
        Files.writeString(root.resolve(".mvn/maven.config"), "-s\n" + settings + "\n-Dmaven.repo.local="
                + tmp.resolve("empty-repo") + "\n");
        ageCheckout();
    }

    @Test
    void noNetworkAndNoMavenCacheTheUserIsToldAndTheLogHoldsMavensError() throws Exception {
        cutNetwork();
        assertThat(hook("s", Map.of()).systemMessage()).contains("building");
        await(this::failed, "the real Maven build to fail");
        assertThat(log()).contains("[ERROR]").contains("Could not transfer artifact").contains("127.0.0.1:9");
        String told = hook("s", Map.of()).systemMessage();
        assertThat(told).contains("build failed").contains("Maven could not download")
                .contains(root.resolve("target/build.log").toString());
        Result version = run(Map.of(), null, "--version");
        assertThat(version.exit()).isEqualTo(1);
        assertThat(version.stderr()).contains("Could not transfer artifact").contains("log: ");
    }

    /** A PATH of links to every program in /usr/bin and /bin but mvn, with this JDK first. */
    Path pathWithoutMaven() throws IOException {
        Path shim = tmp.resolve("path");
        Files.createDirectories(shim);
        for (String dir : List.of("/usr/bin", "/bin")) {
            try (Stream<Path> s = Files.list(Path.of(dir))) {
                for (Path p : s.toList()) {
                    String n = p.getFileName().toString();
                    if (n.startsWith("mvn") || Files.exists(shim.resolve(n), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                        continue;
                    }
                    Files.createSymbolicLink(shim.resolve(n), p);
                }
            }
        }
        return shim;
    }

    @Test
    void aWrapperThatCannotDownloadMavenAndNoMvnIsReported() throws Exception {
        cutNetwork();
        Map<String, String> env = new HashMap<>();
        env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + pathWithoutMaven());
        env.put("MAVEN_USER_HOME", tmp.resolve("empty-maven-home").toString());
        env.put("MVNW_REPOURL", "http://127.0.0.1:9");
        assertThat(hook("s", env).systemMessage()).contains("building");
        await(this::failed, "the wrapper to fail");
        assertThat(log()).contains("Failed to fetch").contains("no mvn on PATH");
        assertThat(hook("s", env).systemMessage()).contains("build failed").contains("Maven could not download");
    }
}
