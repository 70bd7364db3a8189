package dev.compoundbash.settings;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Reads the {@code permissions} section of Claude Code settings files.
 *
 * <p>Never throws: every problem (bad JSON, wrong types, invalid UTF-8, oversized or unreadable
 * file) becomes an entry of {@link PermissionSettings#warnings()} and the offending file is skipped
 * as a whole; only non-string entries inside an otherwise valid list are skipped one by one.
 *
 * <p>Source: Claude Code docs, Settings ("Settings files": user {@code ~/.claude/settings.json},
 * project {@code .claude/settings.json}, local project {@code .claude/settings.local.json};
 * "Permission settings"), and "Deploy managed settings" for the managed files; where the files are comes from
 * {@link SettingsSources}.
 */
public final class SettingsLoader {

    /** Files larger than this are skipped with a warning. */
    public static final long MAX_FILE_BYTES = 10L * 1024 * 1024;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final String[] KEYS = {"allow", "ask", "deny", "additionalDirectories"};

    /** The managed-only top-level key that makes only managed permission rules count. */
    public static final String MANAGED_ONLY_KEY = "allowManagedPermissionRulesOnly";

    private SettingsLoader() {
    }

    /**
     * Loads the settings files Claude Code reads for this process: {@link #loadFrom(SettingsSources)} with
     * {@link SettingsSources#of(Map, String)} of {@code env} and the JVM's {@code os.name}.
     *
     * @param env the process environment (e.g. {@code System.getenv()}); null is treated as empty
     * @return the merged settings; never null, never throws
     */
    public static PermissionSettings load(Map<String, String> env) {
        return loadFrom(SettingsSources.of(env, System.getProperty("os.name")));
    }

    /**
     * Loads and merges every settings file of {@code sources}, in increasing precedence:
     * <ol>
     *   <li>user: {@code USERDIR/settings.json}, then {@code USERDIR/settings.local.json};</li>
     *   <li>shared project: {@code PROJECT/.claude/settings.json};</li>
     *   <li>local project: {@code GITROOT/.claude/settings.local.json} when the git root is above the project
     *       directory, then {@code PROJECT/.claude/settings.local.json};</li>
     *   <li>managed: {@code MANAGED/managed-settings.json}, then every {@code MANAGED/managed-settings.d/*.json}
     *       in alphabetical order (names starting with a dot are skipped).</li>
     * </ol>
     * The {@code permissions} lists of every file are concatenated in that order and de-duplicated keeping the first
     * occurrence: list keys merge across scopes, so a deny rule from any scope stays in force. When the managed files
     * set {@code allowManagedPermissionRulesOnly} to {@code true} (a scalar: the last managed file that sets it wins),
     * only the managed files' {@code allow}, {@code ask} and {@code deny} rules are kept; {@code additionalDirectories}
     * still merge from every scope. Missing files are skipped silently; every file read goes into
     * {@link PermissionSettings#filesRead()}.
     *
     * <p>Source: Claude Code docs, "Settings" (scopes, precedence managed &gt; command line &gt; local &gt; project
     * &gt; user, array settings merge) and "Deploy managed settings" ({@code managed-settings.d},
     * {@code allowManagedPermissionRulesOnly}). Command-line {@code --settings} files of the session are not visible
     * to a hook and are not read.
     *
     * @param sources where the files are; null reads nothing
     * @return the merged settings; never null, never throws
     */
    public static PermissionSettings loadFrom(SettingsSources sources) {
        try {
            Acc acc = new Acc();
            if (sources == null) return acc.result();
            acc.warnings.addAll(sources.warnings());
            if (sources.userDir() != null) {
                readFile(acc, sources.userDir().resolve("settings.json"), false, false);
                Parsed user = acc.lastParsed;
                if (user != null && user.writesInDefaultMode() != null) acc.writesInDefaultMode = user.writesInDefaultMode();
                // Claude Code does not read the user scope's settings.local.json (measured, 2.1.328): its ask and
                // deny rules still count here (stricter is safe), its allow rules and directories never do.
                readFile(acc, sources.userDir().resolve("settings.local.json"), false, false,
                        "Claude Code does not read this file");
            }
            Path project = sources.projectDir();
            if (project != null) {
                // A workspace Claude Code does not trust gives ask and deny rules only (its allow rules are dropped).
                String untrusted = sources.projectTrusted() ? null : "the workspace is not trusted in Claude Code"
                        + " (no projects[DIR].hasTrustDialogAccepted in its global config)";
                readStandard(acc, project, "settings.json", untrusted);
                Path root = sources.gitRoot();
                if (root != null && !sameDirectory(root, project)) {
                    readStandard(acc, root, "settings.local.json", untrusted);
                }
                readStandard(acc, project, "settings.local.json", untrusted);
            }
            if (sources.managedDir() != null) {
                readFile(acc, sources.managedDir().resolve("managed-settings.json"), false, true);
                if (acc.lastParsed != null && acc.lastParsed.writesInDefaultMode() != null) {
                    acc.writesInDefaultMode = acc.lastParsed.writesInDefaultMode();
                }
                for (Path f : dropIns(sources.managedDir().resolve("managed-settings.d"), acc.warnings)) {
                    readFile(acc, f, false, true);
                    if (acc.lastParsed != null && acc.lastParsed.writesInDefaultMode() != null) {
                        acc.writesInDefaultMode = acc.lastParsed.writesInDefaultMode();
                    }
                }
            }
            return acc.result();
        } catch (RuntimeException | StackOverflowError ex) {
            return new PermissionSettings(null, null, null, null, null,
                    List.of("unexpected error while loading settings: " + ex));
        }
    }

    /** The {@code *.json} files of a drop-in directory in alphabetical order, hidden files left out. */
    private static List<Path> dropIns(Path dir, List<String> warnings) {
        List<Path> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) return out;
        try (Stream<Path> s = Files.list(dir)) {
            s.filter(p -> {
                String n = p.getFileName().toString();
                return n.endsWith(".json") && !n.startsWith(".");
            }).sorted(Comparator.comparing(p -> p.getFileName().toString())).forEach(out::add);
        } catch (IOException | RuntimeException ex) {
            warnings.add(dir + ": cannot list, skipped: " + oneLine(String.valueOf(ex)));
        }
        return out;
    }

    private static boolean sameDirectory(Path a, Path b) {
        return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }

    /**
     * Loads and merges explicitly named settings files (e.g. {@code --settings FILE}), in list order,
     * with the same merge rules as {@link #load(Map)}. Unlike {@link #load(Map)}, a missing file is
     * reported in the warnings, since it was asked for explicitly.
     *
     * @param files the files to read; null or null elements are ignored
     * @return the merged settings; never null, never throws
     */
    public static PermissionSettings loadFiles(List<Path> files) {
        try {
            Acc acc = new Acc();
            if (files != null) {
                for (Path f : files) {
                    if (f != null) {
                        readFile(acc, f, true, false);
                        if (acc.lastParsed != null && acc.lastParsed.writesInDefaultMode() != null) {
                            acc.writesInDefaultMode = acc.lastParsed.writesInDefaultMode();
                        }
                    }
                }
            }
            return acc.result();
        } catch (RuntimeException | StackOverflowError ex) {
            return new PermissionSettings(null, null, null, null, null,
                    List.of("unexpected error while loading settings: " + ex));
        }
    }

    private static void readStandard(Acc acc, Path dir, String name, String askDenyOnly) {
        Path file;
        try {
            file = dir.resolve(".claude").resolve(name);
        } catch (RuntimeException ex) { // InvalidPathException
            acc.warnings.add("invalid directory " + quote(dir.toString()) + ": " + ex.getMessage());
            return;
        }
        readFile(acc, file, false, false, askDenyOnly);
    }

    private static void readFile(Acc acc, Path file, boolean reportMissing, boolean managed) {
        readFile(acc, file, reportMissing, managed, null);
    }

    /**
     * Reads one file into {@code acc}; with {@code askDenyOnly} (why, for the note), only its ask and deny rules
     * count.
     */
    private static void readFile(Acc acc, Path file, boolean reportMissing, boolean managed, String askDenyOnly) {
        acc.lastParsed = null;
        Parsed parsed;
        try {
            if (surelyAbsent(file)) {
                if (reportMissing) {
                    acc.warnings.add(file + ": file not found");
                }
                return;
            }
            if (!Files.exists(file)) {
                // Neither there nor surely absent: a directory above it cannot be searched.
                acc.unreadable(file + ": cannot tell whether it exists (a directory above it cannot be searched)");
                return;
            }
            if (!Files.isRegularFile(file)) {
                acc.unreadable(file + ": not a regular file, skipped");
                return;
            }
            // The stamp before the read: a file changed while it is read is read again next time (FileMemo).
            List<Object> stamp = FileMemo.stamp(file);
            Read kept = READ.get(file, stamp);
            if (kept == null) {
                byte[] bytes = readBounded(file);
                if (bytes == null) {
                    acc.unreadable(file + ": larger than " + MAX_FILE_BYTES + " bytes, skipped");
                    return;
                }
                String text = decodeUtf8(bytes);
                List<String> warnings = new ArrayList<>();
                Parsed p = parse(file, text, warnings);
                kept = new Read(p, List.copyOf(warnings));
                READ.put(file, stamp, kept);
            }
            acc.warnings.addAll(kept.warnings());
            parsed = kept.parsed();
        } catch (CharacterCodingException ex) {
            acc.unreadable(file + ": not valid UTF-8, skipped");
            return;
        } catch (JsonProcessingException ex) {
            acc.unreadable(JsonErrors.at(file, ex) + ": invalid JSON, skipped: " + oneLine(JsonErrors.message(ex)));
            return;
        } catch (NoSuchFileException ex) {
            if (reportMissing) {
                acc.warnings.add(file + ": file not found");
            }
            return;
        } catch (IOException | RuntimeException | StackOverflowError ex) {
            acc.unreadable(file + ": cannot read, skipped: " + oneLine(String.valueOf(ex)));
            return;
        }
        if (parsed == null) {
            // A structural problem (warning already recorded); an empty file holds no rules to lose.
            String last = acc.warnings.isEmpty() ? "" : acc.warnings.get(acc.warnings.size() - 1);
            if (!last.endsWith(": empty file, skipped")) acc.unreadableFiles.add(last);
            return;
        }
        for (int i = 0; i < KEYS.length; i++) {
            if (askDenyOnly != null && (i == 0 || i == 3)) continue;
            acc.lists.get(i).addAll(parsed.lists().get(i));
            if (managed) acc.managedLists.get(i).addAll(parsed.lists().get(i));
        }
        if (askDenyOnly != null && (!parsed.lists().get(0).isEmpty() || !parsed.lists().get(3).isEmpty())) {
            acc.notes.add(file + ": " + parsed.lists().get(0).size() + " allow rule(s) and " + parsed.lists().get(3).size()
                    + " additional director(ies) not used: " + askDenyOnly + ", so only its ask and deny rules count");
        }
        acc.lastParsed = parsed;
        acc.blockReadsOutside |= parsed.blockReadsOutside(); // the stricter setting wins, in any file
        if (managed && parsed.managedRulesOnly() != null) {
            acc.managedRulesOnly = parsed.managedRulesOnly();
        }
        acc.files.add(file);
    }

    /**
     * True when {@code path} surely does not exist: the file system says so, or a path above it exists and is not a
     * directory (ENOTDIR). False when it exists or cannot be told (a directory above it cannot be searched): a file
     * that may exist may hold rules, and must not be taken as absent.
     *
     * @param path the path
     * @return whether it is surely absent
     */
    public static boolean surelyAbsent(Path path) {
        if (Files.notExists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return true;
        if (Files.exists(path, java.nio.file.LinkOption.NOFOLLOW_LINKS)) return false;
        for (Path p = path.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
            if (Files.exists(p) && !Files.isDirectory(p)) return true;
        }
        return false;
    }

    /** Returns the file's bytes, or null when it exceeds {@link #MAX_FILE_BYTES}. */
    private static byte[] readBounded(Path file) throws IOException {
        if (Files.size(file) > MAX_FILE_BYTES) {
            return null;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes((int) MAX_FILE_BYTES + 1);
            return bytes.length > MAX_FILE_BYTES ? null : bytes;
        }
    }

    private static String decodeUtf8(byte[] bytes) throws CharacterCodingException {
        String s = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
        return s.startsWith("\uFEFF") ? s.substring(1) : s; // tolerate a UTF-8 BOM
    }

    /**
     * Parses one file; returns the four lists (in {@link #KEYS} order) or null when the file is
     * structurally wrong (a warning is then added).
     */
    private static Parsed parse(Path file, String text, List<String> warnings)
            throws JsonProcessingException {
        JsonNode root = MAPPER.readTree(text);
        if (root == null || root.isMissingNode()) {
            warnings.add(file + ": empty file, skipped");
            return null;
        }
        if (!root.isObject()) {
            warnings.add(file + ": top level is not a JSON object, skipped");
            return null;
        }
        List<List<String>> out = new ArrayList<>();
        for (int i = 0; i < KEYS.length; i++) {
            out.add(new ArrayList<>());
        }
        Boolean managedOnly = null;
        JsonNode only = root.get(MANAGED_ONLY_KEY);
        if (only != null && !only.isNull()) {
            if (only.isBoolean()) {
                managedOnly = only.booleanValue();
            } else {
                warnings.add(file + ": \"" + MANAGED_ONLY_KEY + "\" is not a boolean, ignored");
            }
        }
        Boolean writes = null;
        JsonNode w = root.path("compoundBash").get(WRITES_KEY);
        if (w != null && !w.isNull()) {
            if (w.isBoolean()) writes = w.booleanValue();
            else warnings.add(file + ": \"compoundBash." + WRITES_KEY + "\" is not a boolean, ignored");
        }
        JsonNode perms = root.get("permissions");
        if (perms == null || perms.isNull()) {
            return new Parsed(out, managedOnly, writes, false);
        }
        boolean blockReads = false;
        JsonNode block = perms.get(BLOCK_READS_KEY);
        if (block != null && !block.isNull()) {
            if (block.isBoolean()) blockReads = block.booleanValue();
            else warnings.add(file + ": \"permissions." + BLOCK_READS_KEY + "\" is not a boolean, ignored");
        }
        if (!perms.isObject()) {
            warnings.add(file + ": \"permissions\" is not an object, file skipped");
            return null;
        }
        for (int i = 0; i < KEYS.length; i++) {
            JsonNode list = perms.get(KEYS[i]);
            if (list == null || list.isNull()) {
                continue;
            }
            if (!list.isArray()) {
                warnings.add(file + ": \"permissions." + KEYS[i] + "\" is not an array, file skipped");
                return null;
            }
            for (int j = 0; j < list.size(); j++) {
                JsonNode entry = list.get(j);
                if (entry.isTextual()) {
                    out.get(i).add(entry.textValue());
                } else {
                    warnings.add(file + ": \"permissions." + KEYS[i] + "[" + j + "]\" is not a string ("
                            + entry.getNodeType().name().toLowerCase() + "), ignored");
                }
            }
        }
        return new Parsed(out, managedOnly, writes, blockReads);
    }

    /**
     * One file's four lists (in {@link #KEYS} order), its {@code allowManagedPermissionRulesOnly} and its
     * {@code compoundBash.approveWritesInDefaultMode}, each null when not set.
     */
    private record Parsed(List<List<String>> lists, Boolean managedRulesOnly, Boolean writesInDefaultMode,
                          boolean blockReadsOutside) {
        /** Copies the lists: a parse is kept across calls ({@link #READ}) and must not change. */
        Parsed {
            lists = lists.stream().map(List::copyOf).toList();
        }
    }

    /** One file's parse (null when structurally wrong) and the warnings the parse gave. */
    private record Read(Parsed parsed, List<String> warnings) {
    }

    /** The parses of unchanged files, kept across calls of the warm evaluator. */
    private static final FileMemo<Read> READ = new FileMemo<>();

    /** Claude Code's setting that asks before every read outside the working directories. */
    public static final String BLOCK_READS_KEY = "blockReadsOutsideWorkingDirectories";

    /** The hook's own setting that approves writes inside the allowed directories in default mode too. */
    public static final String WRITES_KEY = "approveWritesInDefaultMode";

    private static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ');
    }

    private static String quote(String s) {
        return "\"" + oneLine(s).replace("\0", "\\0") + "\"";
    }

    /** Mutable accumulator for one load. */
    private static final class Acc {
        final List<List<String>> lists = new ArrayList<>();
        final List<List<String>> managedLists = new ArrayList<>();
        boolean managedRulesOnly;
        final List<Path> files = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        boolean writesInDefaultMode;
        boolean blockReadsOutside;
        Parsed lastParsed;
        /** Files whose permission rules could not be read in whole (PermissionSettings#unreadable). */
        final List<String> unreadableFiles = new ArrayList<>();

        /** A file that exists but whose rules could not be read: a warning, and an unreadable file. */
        void unreadable(String why) {
            warnings.add(why);
            unreadableFiles.add(why);
        }

        Acc() {
            for (int i = 0; i < KEYS.length; i++) {
                lists.add(new ArrayList<>());
                managedLists.add(new ArrayList<>());
            }
        }

        PermissionSettings result() {
            List<List<String>> rules = managedRulesOnly ? managedLists : lists;
            return new PermissionSettings(dedup(rules.get(0)), dedup(rules.get(1)), dedup(rules.get(2)),
                    dedup(lists.get(3)), files, warnings, managedRulesOnly, notes, writesInDefaultMode,
                    blockReadsOutside, unreadableFiles);
        }

        private static List<String> dedup(List<String> in) {
            Set<String> seen = new LinkedHashSet<>(in);
            return new ArrayList<>(seen);
        }
    }
}
