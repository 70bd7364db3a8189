package dev.compoundbash.cli;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs {@code compound-bash} (its {@link Main}, on the test class path) as a separate JVM with a chosen environment. */
final class Proc {
    record Result(int exit, String stdout, String stderr) {
    }

    private Proc() {
    }

    /**
     * @param dir   working directory of the process
     * @param env   variables to set (every inherited CLAUDE_* and COMPOUND_* variable is removed first)
     * @param stdin bytes for stdin, or null for none
     * @param args  the command line
     */
    static Result run(Path dir, Map<String, String> env, String stdin, String... args) throws Exception {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xlog:disable", "-Xlog:all=warning:stderr",
                "-cp", cp, "dev.compoundbash.cli.Main"));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile());
        pb.environment().keySet().removeIf(k -> k.startsWith("CLAUDE_") || k.startsWith("COMPOUND_"));
        pb.environment().putAll(env);
        Path out = Files.createTempFile("proc-out", ".txt"), err = Files.createTempFile("proc-err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        Process p = pb.start();
        if (stdin != null) p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("timed out: " + cmd);
        }
        Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
        Files.deleteIfExists(out);
        Files.deleteIfExists(err);
        return r;
    }

    /** The PreToolUse input JSON of a Bash call. */
    static String hookInput(String command, String cwd, String session) throws Exception {
        return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(Map.of("tool_name", "Bash",
                "hook_event_name", "PreToolUse", "session_id", session, "cwd", cwd,
                "tool_input", Map.of("command", command)));
    }
}
