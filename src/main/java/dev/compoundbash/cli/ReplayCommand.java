package dev.compoundbash.cli;

import dev.compoundbash.audit.Replay;
import dev.compoundbash.hook.UserRules;
import dev.compoundbash.rules.RuleEngine;
import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.settings.SettingsLoader;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code compound-bash replay [--rules DIR] [--settings FILE]... [--since TIME] [--cwd DIR] LOG...}: audit replay.
 * Re-evaluates every command of the logs under the current (or given) rules and settings through the hook's own
 * {@code HookRunner.decide}, prints old → new counts, then each changed decision with both reasons, and the
 * throughput. Exit status: 0 when nothing changed, 1 when a decision changed, 2 on a usage or rule error.
 */
@Command(name = "replay", mixinStandardHelpOptions = true,
        description = {"Re-evaluate every command of decision logs (JSONL or text) under the current or given rules "
                + "and settings; report the decisions that changed.",
                "Exit status: 0 nothing changed, 1 some decision changed, 2 error."})
public final class ReplayCommand implements Callable<Integer> {
    static PrintStream out = System.out;

    @Option(names = "--rules", paramLabel = "DIR",
            description = "Judge with the built-in rules plus DIR/*.drl instead of your own rules directory.")
    Path rulesDir;

    @Option(names = "--settings", paramLabel = "FILE",
            description = "Read permission rules from FILE (repeatable) instead of the Claude Code settings files.")
    List<Path> settingsFiles = new ArrayList<>();

    @Option(names = "--since", paramLabel = "TIME",
            description = "Only entries at or after TIME: 2026-11-23, 2026-11-23T10:00, an ISO-8601 time with offset, "
                    + "or an age such as 7d, 12h, 30m.")
    String since;

    @Option(names = "--cwd", paramLabel = "DIR",
            description = "Working directory for entries that record none (the text log); default: the current one.")
    Path cwd;

    @Parameters(arity = "1..*", paramLabel = "LOG", description = "Decision logs: compound-bash.jsonl or compound-bash.log.")
    List<Path> logs;

    @Override
    public Integer call() throws Exception {
        Map<String, String> env = System.getenv();
        OffsetDateTime from;
        try {
            from = since == null ? null : parseSince(since, OffsetDateTime.now());
        } catch (IllegalArgumentException e) {
            System.err.println("compound-bash replay: " + e.getMessage());
            return 2;
        }
        List<Path> ruleFiles = rulesDir != null ? UserRules.drlFiles(rulesDir) : UserRules.files(env);
        if (rulesDir != null && !Files.isDirectory(rulesDir)) {
            System.err.println("compound-bash replay: no such rules directory: " + rulesDir);
            return 2;
        }
        RuleEngine engine = RuleEngine.load(ruleFiles);
        if (!engine.compileErrors().isEmpty()) {
            for (String e : engine.compileErrors()) System.err.println(e);
            System.err.println("compound-bash replay: the rules do not compile; every call would ask");
            return 2;
        }
        Function<String, PermissionSettings> settings;
        if (!settingsFiles.isEmpty()) {
            PermissionSettings fixed = SettingsLoader.loadFiles(settingsFiles);
            settings = c -> fixed;
        } else {
            Map<String, PermissionSettings> cache = new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<String, PermissionSettings> e) {
                    return size() > 64;
                }
            };
            settings = c -> cache.computeIfAbsent(c == null ? "" : c, dir -> {
                Map<String, String> e = new HashMap<>(env);
                if (!dir.isEmpty()) e.put("CLAUDE_PROJECT_DIR", dir);
                return SettingsLoader.load(e);
            });
        }
        String defaultCwd = (cwd != null ? cwd : Path.of("")).toAbsolutePath().toString();
        Replay replay = new Replay(engine, settings, defaultCwd, env.get("TMPDIR"), from).home(env.get("HOME"));
        boolean terminal = stderrIsTerminal();
        long start = System.nanoTime();
        for (Path log : logs) {
            if (!Files.isReadable(log)) {
                System.err.println("compound-bash replay: cannot read " + log);
                return 2;
            }
            long size = Files.size(log);
            Progress bar = terminal && size > 256 * 1024 ? new Progress(log.getFileName().toString(), size) : null;
            replay.replay(log, bar == null ? null : bar::update);
            if (bar != null) bar.done();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        replay.report(out);
        out.printf("throughput: %d decision(s) in %.2f s, %.0f decisions/s%n", replay.total(), seconds,
                seconds > 0 ? replay.total() / seconds : 0.0);
        return replay.changed() > 0 ? 1 : 0;
    }

    /**
     * Parses {@code --since}: an age ({@code 7d 12h 30m 45s 2w}) before {@code now}, an ISO-8601 time with offset, a
     * local date-time or a date (both in the system zone).
     *
     * @throws IllegalArgumentException when {@code s} is none of these
     */
    static OffsetDateTime parseSince(String s, OffsetDateTime now) {
        Matcher m = Pattern.compile("(\\d+)([smhdw])").matcher(s.trim());
        if (m.matches()) {
            long n = Long.parseLong(m.group(1));
            Duration d = switch (m.group(2)) {
                case "s" -> Duration.ofSeconds(n);
                case "m" -> Duration.ofMinutes(n);
                case "h" -> Duration.ofHours(n);
                case "d" -> Duration.ofDays(n);
                default -> Duration.ofDays(7 * n);
            };
            return now.minus(d);
        }
        try {
            return OffsetDateTime.parse(s);
        } catch (DateTimeParseException ignored) {
            // next form
        }
        ZoneId zone = ZoneId.systemDefault();
        try {
            return LocalDateTime.parse(s).atZone(zone).toOffsetDateTime();
        } catch (DateTimeParseException ignored) {
            // next form
        }
        try {
            return LocalDate.parse(s).atStartOfDay(zone).toOffsetDateTime();
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("--since: not a time or an age: " + s);
        }
    }

    /** True when stderr, where the progress bar goes, is a terminal (Linux {@code /proc}, else the console). */
    static boolean stderrIsTerminal() {
        try {
            Path fd2 = Path.of("/proc/self/fd/2");
            if (Files.exists(fd2)) {
                String target = fd2.toRealPath().toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (Exception e) {
            // fall back to the console check
        }
        return System.console() != null;
    }

    /** A one-line progress bar on stderr, redrawn at most ten times a second. */
    private static final class Progress {
        private final String name;
        private final long size;
        private long last;

        Progress(String name, long size) {
            this.name = name;
            this.size = size;
        }

        void update(long bytes) {
            long now = System.nanoTime();
            if (now - last < 100_000_000L) return;
            last = now;
            int pct = (int) Math.min(100, bytes * 100 / Math.max(1, size));
            int filled = pct * 30 / 100;
            System.err.print("\r" + name + " [" + "#".repeat(filled) + " ".repeat(30 - filled) + "] " + pct + "%");
            System.err.flush();
        }

        void done() {
            System.err.print("\r" + " ".repeat(name.length() + 40) + "\r");
            System.err.flush();
        }
    }
}
