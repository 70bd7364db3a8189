package dev.compoundbash.oracle;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A replica of the shell Claude Code runs a Bash tool call in, for the oracles (issue 19, deliverable 4). Measured in
 * Claude Code 2.1.332 with claude-e2e and read in its shipped program (docs/CLAUDE-CODE.md section S):
 * <ol>
 *   <li>once per session it makes a <b>snapshot</b>: {@code SHELL -c -l} sources the user's {@code ~/.bashrc}
 *       ({@code ~/.zshrc} for zsh) and writes a file that replays {@code shopt -p} (bash), the functions
 *       ({@code declare -f}/{@code typeset -f}, names with one leading underscore left out), the options that are on
 *       ({@code set -o}, plus {@code set -o monitor} always; zsh: {@code setopt}), {@code shopt -s expand_aliases},
 *       the aliases, and its own {@code find} (bfs: {@code -S dfs -regextype findutils-default}), {@code grep}
 *       (ugrep: {@code -G --ignore-files --hidden -I --encoding=UTF-8 --exclude-dir=.git ...}, GNU grep for the
 *       option shapes it lists) and {@code rg} functions; without a config file, bash gets only
 *       {@code shopt -s expand_aliases} and the functions, zsh only the functions;</li>
 *   <li>each call runs {@code SHELL -c 'source SNAPSHOT 2>/dev/null || true && \builtin shopt -u extglob ... &&
 *       eval QUOTED [< /dev/null] && pwd -P >| CWDFILE'} (no {@code -l} when the snapshot exists); zsh gets
 *       {@code \builtin setopt NO_EXTENDED_GLOB NO_BARE_GLOB_QUAL NO_BRACE_CCL NO_MAGIC_EQUAL_SUBST NO_RC_QUOTES
 *       NO_EQUALS} instead of the shopt; {@code < /dev/null} is added unless the command holds a here-document or
 *       an input redirection.</li>
 * </ol>
 * Here the snapshot is made the same way, by the real shell, from a chosen config file; Claude Code's own
 * {@code claude.exe} (with {@code ARGV0=bfs}/{@code ugrep}) is replaced by Debian's {@code bfs} and {@code ugrep}
 * where installed (else GNU find and grep run, as in Claude Code when its binary is missing), and the snapshot's
 * {@code export PATH=...} is left out so that the oracles' PATH holds.
 */
final class ClaudeShellReplica {
    /** The options Claude Code sets in zsh before the command (2.1.332, NO_RC_QUOTES behind a default-on flag). */
    static final String ZSH_OPTIONS = "NO_EXTENDED_GLOB NO_BARE_GLOB_QUAL NO_BRACE_CCL NO_MAGIC_EQUAL_SUBST "
            + "NO_RC_QUOTES NO_EQUALS";
    /** The options Claude Code's grep function passes to ugrep before the caller's words. */
    static final List<String> UGREP_PREFIX = List.of("-G", "--ignore-files", "--hidden", "-I", "--encoding=UTF-8",
            "--exclude-dir=.git", "--exclude-dir=.svn", "--exclude-dir=.hg", "--exclude-dir=.bzr", "--exclude-dir=.jj",
            "--exclude-dir=.sl");
    /** Where the replica's final {@code pwd -P} writes (Claude Code's own write, not the command's). */
    static final String CWD_FILE = "/tmp/claude-replica-cwd";

    /**
     * The options Claude Code's find function passes to bfs before the caller's words: {@code -S dfs -regextype
     * findutils-default}; Debian 12's bfs 2.6 knows no {@code findutils-default} regex type, so there the replica
     * passes {@code -S dfs} only (the regex type matters to {@code -regex} alone).
     */
    static final List<String> BFS_PREFIX = bfsPrefix();

    private static List<String> bfsPrefix() {
        Path bfs = find("bfs");
        if (bfs == null) return List.of("-S", "dfs");
        try {
            Process p = new ProcessBuilder(bfs.toString(), "-S", "dfs", "-regextype", "findutils-default", "/",
                    "-quit").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (p.waitFor(10, TimeUnit.SECONDS) && p.exitValue() == 0) {
                return List.of("-S", "dfs", "-regextype", "findutils-default");
            }
        } catch (IOException e) {
            // fall through
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return List.of("-S", "dfs");
    }

    /** A user's config file for the snapshot: a representative one (empty) and one with unusual options. */
    record UserConfig(String name, String bashrc, String zshrc) {
        static final UserConfig REPRESENTATIVE = new UserConfig("representative", "", "");
        static final UserConfig UNUSUAL = new UserConfig("unusual",
                "shopt -s cdable_vars extglob globstar dotglob nocaseglob\nset -o noclobber\nalias ll='ls -l'\n"
                        + "gs() { git status; }\n",
                "setopt globsubst cdablevars autocd\nalias ll='ls -l'\ngs() { git status; }\n");
    }

    private final String shell;
    private final Path program;
    private final Path snapshot;

    private ClaudeShellReplica(String shell, Path program, Path snapshot) {
        this.shell = shell;
        this.program = program;
        this.snapshot = snapshot;
    }

    /** The shell kind: bash or zsh. */
    String shell() { return shell; }

    /** The shell's executable. */
    Path program() { return program; }

    /** The snapshot file. */
    Path snapshot() { return snapshot; }

    /** Whether the shell of this kind is installed. */
    static boolean available(String shell) {
        return find(shell) != null;
    }

    static Path find(String name) {
        for (String d : List.of("/usr/bin", "/bin", "/usr/local/bin")) {
            Path p = Path.of(d, name);
            if (Files.isExecutable(p)) return p;
        }
        return null;
    }

    /**
     * Makes the snapshot of {@code config} for {@code shell} in {@code dir} (a scratch home is made there) the way
     * Claude Code makes it, by the real shell started as a login shell.
     *
     * @param shell  bash or zsh
     * @param config the user's config file
     * @param dir    a directory for the scratch home and the snapshot
     * @return the replica
     * @throws IOException when the shell is missing or the snapshot could not be made
     */
    static ClaudeShellReplica create(String shell, UserConfig config, Path dir) throws IOException {
        Path program = find(shell);
        if (program == null) throw new IOException(shell + " is not installed");
        Path home = Files.createDirectories(dir.resolve("snapshot-home-" + shell + "-" + config.name()));
        boolean zsh = shell.equals("zsh");
        Path rc = home.resolve(zsh ? ".zshrc" : ".bashrc");
        Files.writeString(rc, zsh ? config.zshrc() : config.bashrc());
        Path snap = dir.resolve("snapshot-" + shell + "-" + config.name() + ".sh");
        String script = "SNAPSHOT_FILE=" + quote(snap.toString()) + "\n"
                + "source " + quote(rc.toString()) + " < /dev/null\n"
                + "echo '# Snapshot file' >| \"$SNAPSHOT_FILE\"\n"
                + "echo 'unalias -a 2>/dev/null || true' >> \"$SNAPSHOT_FILE\"\n"
                + (zsh ? ZSH_SNAPSHOT : BASH_SNAPSHOT)
                + "cat >> \"$SNAPSHOT_FILE\" <<'CLAUDE_CODE_END'\n" + functions() + "CLAUDE_CODE_END\n";
        ProcessBuilder pb = new ProcessBuilder(program.toString(), "-c", "-l", script).redirectErrorStream(true);
        pb.environment().clear();
        pb.environment().putAll(Map.of("HOME", home.toString(), "PATH", "/usr/local/bin:/usr/bin:/bin",
                "LANG", "C.UTF-8", "SHELL", program.toString()));
        pb.directory(home.toFile());
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(60, TimeUnit.SECONDS) || !Files.isRegularFile(snap)) {
                throw new IOException("no snapshot made by " + shell + ": " + out);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
        return new ClaudeShellReplica(shell, program, snap);
    }

    /** What Claude Code's snapshot script adds for bash with a config file (2.1.332). */
    static final String BASH_SNAPSHOT = """
            echo '# Shopt' >> "$SNAPSHOT_FILE"
            shopt -p >> "$SNAPSHOT_FILE"
            echo '# Functions' >> "$SNAPSHOT_FILE"
            declare -f > /dev/null 2>&1
            declare -F | while read func; do
              func=${func##* }
              [[ "$func" == _[!_]* ]] || printf 'eval %q > /dev/null 2>&1\\n' "$(declare -f "$func")" >> "$SNAPSHOT_FILE"
            done
            echo '# Shell Options' >> "$SNAPSHOT_FILE"
            set -o | awk '$2 == "on" || $1 == "monitor" {print "set -o " $1}' >> "$SNAPSHOT_FILE"
            echo "shopt -s expand_aliases" >> "$SNAPSHOT_FILE"
            echo '# Aliases' >> "$SNAPSHOT_FILE"
            \\alias -p | sed -e '1001,$d' -e 's/^alias -- /alias /' -e 's/^alias /alias -- /' >> "$SNAPSHOT_FILE"
            """;

    /** What Claude Code's snapshot script adds for zsh with a config file (2.1.332). */
    static final String ZSH_SNAPSHOT = """
            echo '# Functions' >> "$SNAPSHOT_FILE"
            typeset -f > /dev/null 2>&1
            typeset +f | grep -vE '^_[^_]' | while read func; do
              typeset -f "$func" >> "$SNAPSHOT_FILE"
            done
            echo '# Shell Options' >> "$SNAPSHOT_FILE"
            setopt | command awk 'NF == 1 || $2 == "on" { print "setopt " $1 }' | head -n 1000 >> "$SNAPSHOT_FILE"
            echo '# Aliases' >> "$SNAPSHOT_FILE"
            alias | sed -e '1001,$d' -e 's/^alias //g' -e 's/^/alias -- /' >> "$SNAPSHOT_FILE"
            """;

    /** Claude Code's find, grep and rg functions, with Debian's bfs and ugrep standing in for its binary. */
    static String functions() {
        String bfs = find("bfs") != null ? "command bfs " + String.join(" ", BFS_PREFIX) : "command find";
        String ugrep = find("ugrep") != null ? "command ugrep " + String.join(" ", UGREP_PREFIX) : "command grep";
        return "unalias find 2>/dev/null || true\nunalias grep 2>/dev/null || true\n"
                + "function find {\n  " + bfs + " ${1+\"$@\"}\n}\n"
                + "function grep {\n  local _cc_a\n  for _cc_a in ${1+\"$@\"}; do\n"
                + "    case \"$_cc_a\" in -*-filter*|-*-pager*|-*-view*|-*-format-open*|-*-config*|---*|-@*|"
                + "-*-save-config*|-[Zz]*|-[!-]*[Zz]*|--null|--null-data) command grep ${1+\"$@\"}; return ;; esac\n"
                + "  done\n  " + ugrep + " ${1+\"$@\"}\n}\n";
    }

    private static final Pattern HEREDOC = Pattern.compile("<<-?\\s*(?:(['\"]?)(\\w+)\\1|\\\\(\\w+))");
    private static final Pattern INPUT_REDIRECT = Pattern.compile("(?:^|[\\s;&|])<(?![<(])\\s*\\S+");

    /**
     * The {@code -c} text Claude Code runs for {@code command} (buildExecCommand, 2.1.332), with this replica's
     * snapshot and {@code cwdFile} for its {@code pwd -P}.
     *
     * @param command the Bash tool's command
     * @param cwdFile where the final {@code pwd -P} writes (Claude Code reads its next working directory there)
     * @return the script for {@code SHELL -c}
     */
    String script(String command, String cwdFile) {
        boolean heredoc = HEREDOC.matcher(command).find();
        boolean stdin = !heredoc && !INPUT_REDIRECT.matcher(command).find();
        String quoted = "'" + command.replace("'", "'\"'\"'") + "'" + (stdin ? " < /dev/null" : "");
        List<String> parts = new ArrayList<>();
        parts.add("source " + quote(snapshot.toString()) + " 2>/dev/null || true");
        parts.add(shell.equals("zsh") ? "\\builtin setopt " + ZSH_OPTIONS + " 2>/dev/null || true"
                : "\\builtin shopt -u extglob 2>/dev/null || true");
        for (String n : List.of("which", "unsetenv")) {
            parts.add("{ \\builtin unalias -- '" + n + "'; \\builtin unset -f -- '" + n + "'; } >/dev/null 2>&1 || true");
        }
        parts.add("eval " + quoted);
        parts.add("pwd -P >| " + quote(cwdFile));
        return String.join(" && ", parts);
    }

    /** The argv a recording of the replica's grep or find function stands for: {@code grep ARGS}, {@code find ARGS}. */
    static List<String> asCalled(List<String> argv) {
        if (argv.isEmpty()) return argv;
        List<String> prefix = argv.get(0).equals("ugrep") ? UGREP_PREFIX : argv.get(0).equals("bfs") ? BFS_PREFIX : null;
        if (prefix == null || argv.size() <= prefix.size() || !argv.subList(1, prefix.size() + 1).equals(prefix)) {
            return argv;
        }
        List<String> out = new ArrayList<>();
        out.add(argv.get(0).equals("ugrep") ? "grep" : "find");
        out.addAll(argv.subList(prefix.size() + 1, argv.size()));
        return out;
    }

    static String quote(String s) {
        return "'" + s.replace("'", "'\"'\"'") + "'";
    }
}
