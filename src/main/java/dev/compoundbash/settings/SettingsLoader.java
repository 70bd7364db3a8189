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
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads the {@code permissions} section of Claude Code settings files.
 *
 * <p>Never throws: every problem (bad JSON, wrong types, invalid UTF-8, oversized or unreadable
 * file) becomes an entry of {@link PermissionSettings#warnings()} and the offending file is skipped
 * as a whole; only non-string entries inside an otherwise valid list are skipped one by one.
 *
 * <p>Source: Claude Code docs, Settings ("Settings files": user {@code ~/.claude/settings.json},
 * project {@code .claude/settings.json}, local project {@code .claude/settings.local.json};
 * "Permission settings"). Managed (enterprise) settings and {@code CLAUDE_CONFIG_DIR} are not read.
 */
public final class SettingsLoader {

    /** Files larger than this are skipped with a warning. */
    public static final long MAX_FILE_BYTES = 10L * 1024 * 1024;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private static final String[] KEYS = {"allow", "ask", "deny", "additionalDirectories"};

    private SettingsLoader() {
    }

    /**
     * Loads and merges, in this order, {@code $HOME/.claude/settings.json},
     * {@code $HOME/.claude/settings.local.json}, {@code $CLAUDE_PROJECT_DIR/.claude/settings.json} and
     * {@code $CLAUDE_PROJECT_DIR/.claude/settings.local.json}. {@code HOME} and
     * {@code CLAUDE_PROJECT_DIR} are taken from {@code env} only (never from the JVM's
     * {@code user.home}); an unset or empty variable skips its files ({@code HOME} unset also adds a
     * warning). Missing files are skipped silently. Lists are concatenated in file order and
     * de-duplicated keeping the first occurrence.
     *
     * @param env the process environment (e.g. {@code System.getenv()}); null is treated as empty
     * @return the merged settings; never null, never throws
     */
    public static PermissionSettings load(Map<String, String> env) {
        try {
            Map<String, String> e = env == null ? Map.of() : env;
            Acc acc = new Acc();
            String home = e.get("HOME");
            if (home == null || home.isEmpty()) {
                acc.warnings.add("HOME is not set: user settings (~/.claude/settings*.json) skipped");
            } else {
                readStandard(acc, home, "settings.json");
                readStandard(acc, home, "settings.local.json");
            }
            String project = e.get("CLAUDE_PROJECT_DIR");
            if (project != null && !project.isEmpty()) {
                readStandard(acc, project, "settings.json");
                readStandard(acc, project, "settings.local.json");
            }
            return acc.result();
        } catch (RuntimeException | StackOverflowError ex) {
            return new PermissionSettings(null, null, null, null, null,
                    List.of("unexpected error while loading settings: " + ex));
        }
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
                        readFile(acc, f, true);
                    }
                }
            }
            return acc.result();
        } catch (RuntimeException | StackOverflowError ex) {
            return new PermissionSettings(null, null, null, null, null,
                    List.of("unexpected error while loading settings: " + ex));
        }
    }

    private static void readStandard(Acc acc, String dir, String name) {
        Path file;
        try {
            file = Path.of(dir, ".claude", name);
        } catch (RuntimeException ex) { // InvalidPathException (e.g. NUL in the variable)
            acc.warnings.add("invalid directory " + quote(dir) + ": " + ex.getMessage());
            return;
        }
        readFile(acc, file, false);
    }

    private static void readFile(Acc acc, Path file, boolean reportMissing) {
        List<List<String>> lists;
        try {
            if (!Files.exists(file)) {
                if (reportMissing) {
                    acc.warnings.add(file + ": file not found");
                }
                return;
            }
            if (!Files.isRegularFile(file)) {
                acc.warnings.add(file + ": not a regular file, skipped");
                return;
            }
            byte[] bytes = readBounded(file);
            if (bytes == null) {
                acc.warnings.add(file + ": larger than " + MAX_FILE_BYTES + " bytes, skipped");
                return;
            }
            String text = decodeUtf8(bytes);
            lists = parse(file, text, acc.warnings);
        } catch (CharacterCodingException ex) {
            acc.warnings.add(file + ": not valid UTF-8, skipped");
            return;
        } catch (JsonProcessingException ex) {
            acc.warnings.add(file + ": invalid JSON, skipped: " + oneLine(ex.getOriginalMessage()));
            return;
        } catch (NoSuchFileException ex) {
            if (reportMissing) {
                acc.warnings.add(file + ": file not found");
            }
            return;
        } catch (IOException | RuntimeException | StackOverflowError ex) {
            acc.warnings.add(file + ": cannot read, skipped: " + oneLine(String.valueOf(ex)));
            return;
        }
        if (lists == null) {
            return; // structural problem, warning already recorded
        }
        for (int i = 0; i < KEYS.length; i++) {
            acc.lists.get(i).addAll(lists.get(i));
        }
        acc.files.add(file);
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
    private static List<List<String>> parse(Path file, String text, List<String> warnings)
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
        JsonNode perms = root.get("permissions");
        if (perms == null || perms.isNull()) {
            return out;
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
        return out;
    }

    private static String oneLine(String s) {
        return s == null ? "" : s.replace('\n', ' ').replace('\r', ' ');
    }

    private static String quote(String s) {
        return "\"" + oneLine(s).replace("\0", "\\0") + "\"";
    }

    /** Mutable accumulator for one load. */
    private static final class Acc {
        final List<List<String>> lists = new ArrayList<>();
        final List<Path> files = new ArrayList<>();
        final List<String> warnings = new ArrayList<>();

        Acc() {
            for (int i = 0; i < KEYS.length; i++) {
                lists.add(new ArrayList<>());
            }
        }

        PermissionSettings result() {
            return new PermissionSettings(dedup(lists.get(0)), dedup(lists.get(1)), dedup(lists.get(2)),
                    dedup(lists.get(3)), files, warnings);
        }

        private static List<String> dedup(List<String> in) {
            Set<String> seen = new LinkedHashSet<>(in);
            return new ArrayList<>(seen);
        }
    }
}
