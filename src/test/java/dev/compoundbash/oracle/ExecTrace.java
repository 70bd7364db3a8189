package dev.compoundbash.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The file accesses of one sandboxed command, read from {@code strace -ff -y} (one file per process): every
 * successful {@code open}, {@code openat} and {@code creat} with the path the kernel resolved (strace's {@code -y}
 * prints the descriptor's path, so {@code /dev/stdout}, {@code /dev/fd/3}, {@code /proc/self/cwd/..} and symbolic
 * links appear as the file they reached), and the program the process ran when it opened it (the base name of its
 * last {@code execve}; a process that never ran one is a fork of the shell). {@code mkdir}, {@code link},
 * {@code rename} and {@code unlink} calls count as writes of the path as given (made absolute against the
 * descriptor strace names, where it names one).
 *
 * <p>Source: strace(1), options {@code -ff}, {@code -y}, {@code --seccomp-bpf}, {@code -e status=successful}.
 */
final class ExecTrace {
    private ExecTrace() {
    }

    /** One access: the program, whether it writes, the resolved path, and the trace line. */
    record Access(String program, boolean write, String path, String line) {
    }

    /** The options strace runs with; the driver adds {@code -o DIR/t}. */
    static final List<String> STRACE = List.of("-f", "-ff", "-qq", "-y", "--seccomp-bpf", "-e", "signal=none",
            "-e", "trace=execve,open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,link,linkat,symlink,"
                    + "symlinkat,unlink,unlinkat,truncate",
            "-e", "status=successful");

    private static final Pattern EXECVE = Pattern.compile("^execve\\(\"([^\"]*)\"");
    private static final Pattern OPEN = Pattern.compile("^(open|openat|creat)\\((.*)\\) = \\d+<(.*)>$");
    private static final Pattern PATH_CALL = Pattern.compile(
            "^(mkdir|mkdirat|rename|renameat|renameat2|link|linkat|symlink|symlinkat|unlink|unlinkat|truncate)\\((.*)\\) = 0$");
    private static final Pattern DIRFD_STRING = Pattern.compile("(?:AT_FDCWD|\\d+)<([^>]*)>, \"([^\"]*)\"");
    private static final Pattern STRING = Pattern.compile("\"([^\"]*)\"");

    /** Whether strace can run here (it is an optional tool: without it the file checks are skipped). */
    static boolean available() {
        try {
            Process p = new ProcessBuilder("strace", "-V").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    /** Every access recorded in the trace files of {@code dir} (none when it does not exist). */
    static List<Access> read(Path dir) throws IOException {
        List<Access> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.sorted().toList()) {
                String program = "bash";
                for (String line : new String(Files.readAllBytes(f), StandardCharsets.UTF_8).split("\n")) {
                    Matcher m = EXECVE.matcher(line);
                    if (m.find()) {
                        String p = m.group(1);
                        program = p.substring(p.lastIndexOf('/') + 1);
                        continue;
                    }
                    m = OPEN.matcher(line);
                    if (m.matches()) {
                        String args = m.group(2);
                        boolean write = m.group(1).equals("creat") || args.contains("O_WRONLY")
                                || args.contains("O_RDWR") || args.contains("O_CREAT") || args.contains("O_TRUNC")
                                || args.contains("O_APPEND");
                        out.add(new Access(program, write, m.group(3), line));
                        continue;
                    }
                    m = PATH_CALL.matcher(line);
                    if (m.matches()) {
                        String args = m.group(2);
                        Matcher d = DIRFD_STRING.matcher(args);
                        List<String> paths = new ArrayList<>();
                        while (d.find()) paths.add(absolute(d.group(1), d.group(2)));
                        if (paths.isEmpty()) {
                            Matcher q = STRING.matcher(args);
                            while (q.find()) paths.add(q.group(1));
                        }
                        // symlink's first string is the link's text, not a path written
                        if (m.group(1).startsWith("symlink") && !paths.isEmpty()) paths.remove(0);
                        for (String p : paths) out.add(new Access(program, true, p, line));
                    }
                }
            }
        }
        return out;
    }

    private static String absolute(String dir, String path) {
        if (path.startsWith("/")) return path;
        return dir.endsWith("/") ? dir + path : dir + "/" + path;
    }

    /** {@code path} lexically normalised ({@code .} and {@code ..} removed); relative paths stay relative. */
    static String normalise(String path) {
        if (!path.startsWith("/")) return path;
        return Path.of(path).normalize().toString();
    }
}
