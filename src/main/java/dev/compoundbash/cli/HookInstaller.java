package dev.compoundbash.cli;

import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.github.difflib.DiffUtils;
import com.github.difflib.UnifiedDiffUtils;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Adds or removes compound-bash's PreToolUse hook entry in a Claude Code {@code settings.json} (Claude Code docs,
 * "Hooks reference": {@code hooks.PreToolUse[] = {matcher, hooks: [{type: "command", command, timeout}]}}). Every
 * other key is kept with its value; the file is re-printed the way Claude Code prints it (two-space indent). An
 * entry is ours when its command runs {@code compound-bash hook}; it is never added twice.
 */
public final class HookInstaller {
    /** Matches a hook command that runs compound-bash in hook mode, whatever its path or quoting. */
    static final Pattern OURS = Pattern.compile("(?s).*compound-bash[\"']?\\s+hook\\s*");
    /** Our SessionStart hook: {@code compound-bash warm} starts the evaluator so a session's first call is warm. */
    static final Pattern OURS_WARM = Pattern.compile("(?s).*compound-bash[\"']?\\s+warm\\s*");

    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(com.fasterxml.jackson.databind.SerializationFeature.INDENT_OUTPUT)
            .build();

    /**
     * The text before and after an edit; equal when there was nothing to do. An empty {@code after} with a
     * non-empty {@code before} removes the file ({@link #apply}): an uninstall of a file install created.
     */
    public record Edit(Path file, String before, String after) {
        /** True when the edit changes the file. */
        public boolean changes() {
            return !before.equals(after);
        }

        /** True when the edit removes the file. */
        public boolean removes() {
            return after.isEmpty() && !before.isEmpty();
        }

        /** A unified diff (java-diff-utils) of the edit, empty when nothing changes. */
        public String diff() {
            if (!changes()) return "";
            List<String> a = lines(before), b = lines(after);
            List<String> d = UnifiedDiffUtils.generateUnifiedDiff(file + " (before)", file + " (after)", a,
                    DiffUtils.diff(a, b), 3);
            return String.join("\n", d) + "\n";
        }

        private static List<String> lines(String s) {
            return s.isEmpty() ? List.of() : Arrays.asList(s.split("\n"));
        }
    }

    private HookInstaller() {
    }

    /**
     * Computes the install edit: appends {@code {"matcher": "Bash", "hooks": [{"type": "command", "command":
     * command, "timeout": 30}]}} to {@code hooks.PreToolUse}, unless an entry of ours is already there, and a
     * {@code hooks.SessionStart} entry running the same launcher's {@code warm} (the evaluator starts with every
     * session), unless one of ours is there.
     *
     * @param file    the settings file (missing: an empty object)
     * @param command the hook command, e.g. {@code /opt/compound-bash/bin/compound-bash hook}
     * @return the edit
     * @throws IOException when the file cannot be read or is not a JSON object
     */
    public static Edit install(Path file, String command) throws IOException {
        String before = read(file);
        ObjectNode root = parse(file, before);
        // SessionStart: `compound-bash warm` starts the evaluator in the background and prints nothing, so every
        // session's first Bash call is warm, also after a reboot (Claude Code docs, "Hooks reference": SessionStart)
        String warm = command.replaceFirst("\\s+hook\\s*$", " warm");
        boolean needPre = !installed(root);
        boolean needWarm = !warm.equals(command) && !warmInstalled(root);
        if (!needPre && !needWarm) return new Edit(file, before, before);
        JsonNode hooksNode = root.get("hooks");
        ObjectNode hooks = hooksNode instanceof ObjectNode o ? o : root.putObject("hooks");
        if (needPre) {
            JsonNode pre = hooks.get("PreToolUse");
            ArrayNode list = pre instanceof ArrayNode a ? a : hooks.putArray("PreToolUse");
            ObjectNode entry = list.addObject();
            entry.put("matcher", "Bash");
            ObjectNode h = entry.putArray("hooks").addObject();
            h.put("type", "command");
            h.put("command", command);
            h.put("timeout", 30);
        }
        if (needWarm) {
            JsonNode ss = hooks.get("SessionStart");
            ArrayNode starts = ss instanceof ArrayNode a ? a : hooks.putArray("SessionStart");
            ObjectNode w = starts.addObject().putArray("hooks").addObject();
            w.put("type", "command");
            w.put("command", warm);
            w.put("timeout", 10);
        }
        return new Edit(file, before, print(root));
    }

    /**
     * Computes the uninstall edit: removes every hook of ours from {@code hooks.PreToolUse}, then any matcher
     * group, {@code PreToolUse} list or {@code hooks} object that this leaves empty. What is left is written back
     * the way the user had it: when a backup {@code FILE.*.bak} holds the same JSON, its text exactly (the newest
     * such backup: install's, made before it edited the file); else, when nothing is left (an empty object: the file
     * install created where there was none), the file is removed; else the JSON re-printed.
     *
     * @param file the settings file
     * @return the edit (no change when nothing of ours is there or the file is missing)
     * @throws IOException when the file cannot be read or is not a JSON object
     */
    public static Edit uninstall(Path file) throws IOException {
        String before = read(file);
        if (before.isEmpty()) return new Edit(file, before, before);
        ObjectNode root = parse(file, before);
        if (!installed(root)) return new Edit(file, before, before);
        ObjectNode hooks = (ObjectNode) root.get("hooks");
        ArrayNode pre = (ArrayNode) hooks.get("PreToolUse");
        for (Iterator<JsonNode> groups = pre.elements(); groups.hasNext(); ) {
            JsonNode g = groups.next();
            if (!(g.get("hooks") instanceof ArrayNode inner)) continue;
            boolean removed = false;
            for (Iterator<JsonNode> it = inner.elements(); it.hasNext(); ) {
                if (ours(it.next())) {
                    it.remove();
                    removed = true;
                }
            }
            if (removed && inner.isEmpty()) groups.remove();
        }
        if (pre.isEmpty()) hooks.remove("PreToolUse");
        if (hooks.get("SessionStart") instanceof ArrayNode starts) {
            for (Iterator<JsonNode> groups = starts.elements(); groups.hasNext(); ) {
                JsonNode g = groups.next();
                if (!(g.get("hooks") instanceof ArrayNode inner)) continue;
                boolean removed = false;
                for (Iterator<JsonNode> it = inner.elements(); it.hasNext(); ) {
                    JsonNode h = it.next();
                    if (h.path("command").isTextual() && OURS_WARM.matcher(h.path("command").asText()).matches()) {
                        it.remove();
                        removed = true;
                    }
                }
                if (removed && inner.isEmpty()) groups.remove();
            }
            if (starts.isEmpty()) hooks.remove("SessionStart");
        }
        if (hooks.isEmpty()) root.remove("hooks");
        String backup = backupHolding(file, root);
        if (backup != null) return new Edit(file, before, backup);
        return new Edit(file, before, root.isEmpty() ? "" : print(root));
    }

    /**
     * The text of the newest backup {@code FILE.<stamp>.bak} ({@link #apply}) whose JSON equals {@code root}, or
     * null: the user's own text of what uninstall leaves, formatting and all.
     */
    private static String backupHolding(Path file, JsonNode root) {
        Path dir = file.toAbsolutePath().getParent();
        if (dir == null || !Files.isDirectory(dir)) return null;
        Pattern name = Pattern.compile(Pattern.quote(file.getFileName().toString()) + "\\.[0-9-]+\\.bak");
        List<Path> backups;
        try (java.util.stream.Stream<Path> s = Files.list(dir)) {
            backups = s.filter(p -> name.matcher(p.getFileName().toString()).matches())
                    .sorted(java.util.Comparator.comparing((Path p) -> p.getFileName().toString()).reversed())
                    .toList();
        } catch (IOException e) {
            return null;
        }
        for (Path b : backups) {
            try {
                String text = Files.readString(b, StandardCharsets.UTF_8);
                if (!text.isBlank() && JSON.readTree(text).equals(root)) return text;
            } catch (IOException | RuntimeException e) {
                // unreadable or not JSON: not the one
            }
        }
        return null;
    }

    /**
     * Computes the edit that adds permission rules to {@code permissions.KIND} (created when missing), keeping every
     * other key with its value; a rule already in that list is not added again (Claude Code docs, "Settings",
     * "Permission settings").
     *
     * @param file  the settings file (missing: an empty object)
     * @param kind  {@code allow}, {@code ask} or {@code deny}
     * @param rules the rules, e.g. {@code Bash(git diff *)}
     * @return the edit (no change when every rule is there already)
     * @throws IOException when the file cannot be read, is not a JSON object, or its {@code permissions.KIND} is not
     *                     a list
     */
    public static Edit addPermissionRules(Path file, String kind, List<String> rules) throws IOException {
        String before = read(file);
        ObjectNode root = parse(file, before);
        JsonNode permsNode = root.get("permissions");
        if (permsNode != null && !(permsNode instanceof ObjectNode)) {
            throw new IOException(file + ": \"permissions\" is not an object");
        }
        ObjectNode perms = permsNode instanceof ObjectNode o ? o : root.putObject("permissions");
        JsonNode listNode = perms.get(kind);
        if (listNode != null && !(listNode instanceof ArrayNode)) {
            throw new IOException(file + ": \"permissions." + kind + "\" is not a list");
        }
        ArrayNode list = listNode instanceof ArrayNode a ? a : perms.putArray(kind);
        boolean added = false;
        for (String r : rules) {
            boolean present = false;
            for (JsonNode n : list) if (n.isTextual() && n.asText().equals(r)) present = true;
            if (!present) {
                list.add(r);
                added = true;
            }
        }
        return added ? new Edit(file, before, print(root)) : new Edit(file, before, before);
    }

    /**
     * Writes an edit: first a backup copy {@code settings.json.<yyyyMMdd-HHmmss>.bak} of the old file (when there
     * is one), then the new text through a temporary file renamed over the old one.
     *
     * @param edit the edit; nothing is written when it changes nothing
     * @return the backup written, or null
     * @throws IOException when writing fails
     */
    public static Path apply(Edit edit) throws IOException {
        if (!edit.changes()) return null;
        if (edit.removes()) {
            Path file = edit.file().toAbsolutePath();
            Path backup = backup(file);
            Files.deleteIfExists(file);
            return backup;
        }
        Path file = edit.file().toAbsolutePath();
        Files.createDirectories(file.getParent());
        Path backup = backup(file);
        Path tmp = Files.createTempFile(file.getParent(), ".settings-", ".tmp");
        Files.writeString(tmp, edit.after(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        return backup;
    }

    /** Copies {@code file} to {@code FILE.<yyyyMMdd-HHmmss-SSS>[-N].bak} when it exists; returns the copy or null. */
    private static Path backup(Path file) throws IOException {
        if (!Files.exists(file)) return null;
        String stamp = LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
        Path backup = file.resolveSibling(file.getFileName() + "." + stamp + ".bak");
        for (int n = 1; Files.exists(backup); n++) {
            backup = file.resolveSibling(file.getFileName() + "." + stamp + "-" + n + ".bak");
        }
        Files.copy(file, backup, StandardCopyOption.COPY_ATTRIBUTES);
        return backup;
    }

    /** True when {@code hooks.PreToolUse} of {@code root} already holds a hook of ours. */
    static boolean installed(JsonNode root) {
        for (JsonNode g : root.path("hooks").path("PreToolUse")) {
            for (JsonNode h : g.path("hooks")) if (ours(h)) return true;
        }
        return false;
    }

    /** True when {@code hooks.SessionStart} of {@code root} already holds our warm-up hook. */
    static boolean warmInstalled(JsonNode root) {
        for (JsonNode g : root.path("hooks").path("SessionStart")) {
            for (JsonNode h : g.path("hooks")) {
                if (h.path("command").isTextual() && OURS_WARM.matcher(h.path("command").asText()).matches()) return true;
            }
        }
        return false;
    }

    private static boolean ours(JsonNode hook) {
        return hook.path("command").isTextual() && OURS.matcher(hook.path("command").asText()).matches();
    }

    private static String read(Path file) throws IOException {
        return Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private static ObjectNode parse(Path file, String text) throws IOException {
        if (text.isBlank()) return JSON.createObjectNode();
        JsonNode n;
        try {
            n = JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(dev.compoundbash.settings.JsonErrors.at(file, e) + ": not valid JSON, left "
                    + "unchanged: " + dev.compoundbash.settings.JsonErrors.message(e), e);
        } catch (IOException e) {
            throw new IOException(file + " cannot be read: " + e.getMessage(), e);
        }
        if (!(n instanceof ObjectNode o)) throw new IOException(file + " does not hold a JSON object");
        return o;
    }

    /** Prints like JSON.stringify(value, null, 2) plus a final newline, as Claude Code writes settings. */
    static String print(JsonNode root) throws IOException {
        DefaultPrettyPrinter pp = new DefaultPrettyPrinter(Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withObjectEmptySeparator("").withArrayEmptySeparator(""));
        pp.indentArraysWith(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"));
        pp.indentObjectsWith(DefaultIndenter.SYSTEM_LINEFEED_INSTANCE.withLinefeed("\n"));
        return JSON.writer(pp).writeValueAsString(root) + "\n";
    }
}
