package dev.compoundbash.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.compoundbash.settings.CodexRules;
import dev.compoundbash.settings.GeminiRules;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Writes and removes compound-bash's hook in the configuration of Codex CLI, Gemini CLI and GitHub Copilot CLI
 * ({@code install --agent}, {@code uninstall --agent}); every other key and hook is kept, a backup is written first
 * ({@link HookInstaller#apply}), nothing is added twice. Where each agent keeps hooks (docs/AGENTS.md):
 * <ul>
 *   <li>Codex: {@code $CODEX_HOME/hooks.json} ({@code CODEX_HOME} defaults to {@code ~/.codex}; {@code --project}:
 *       {@code .codex/hooks.json}), a {@code PreToolUse} and a {@code PermissionRequest} group, matcher {@code Bash}.
 *       Codex runs a hook only once the user has trusted it: the trust is the hook's {@code trusted_hash} under
 *       {@code [hooks.state."FILE:EVENT:GROUP:HANDLER"]} in {@code $CODEX_HOME/config.toml}, the SHA-256 of the
 *       hook's normalized identity ({@code codex-rs/hooks/src/engine/discovery.rs}, {@code command_hook_hash};
 *       {@code codex-rs/config/src/fingerprint.rs}), which install writes (the user running install is the
 *       review), and uninstall removes.</li>
 *   <li>Gemini CLI: {@code hooks.BeforeTool} of {@code ~/.gemini/settings.json} ({@code --project}:
 *       {@code .gemini/settings.json}), matcher {@code run_shell_command}, timeout in milliseconds.</li>
 *   <li>Copilot CLI: a file of its own, {@code ~/.copilot/hooks/compound-bash.json} ({@code COPILOT_HOME};
 *       {@code --project}: {@code .github/hooks/compound-bash.json}), {@code preToolUse}.</li>
 * </ul>
 */
public final class AgentInstaller {
    /** A hook command of ours for {@code agent}: runs compound-bash's {@code hook --agent AGENT}. */
    static Pattern ours(String agent) {
        return Pattern.compile("(?s).*compound-bash[\"']?\\s+hook\\s+--agent\\s+[\"']?" + Pattern.quote(agent)
                + "[\"']?\\s*");
    }

    /** The hook's timeout, seconds. */
    static final int TIMEOUT_S = 30;

    private static final ObjectMapper CANONICAL = JsonMapper.builder()
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS).build();
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String[] CODEX_EVENTS = {"PreToolUse", "PermissionRequest"};

    private AgentInstaller() {
    }

    /**
     * The files an agent's hook lives in.
     *
     * @param hooks   the file holding the hook
     * @param trust   Codex's {@code config.toml} (the trust), or null for the other agents
     */
    record Files2(Path hooks, Path trust) {
    }

    /**
     * Where {@code agent}'s hook goes.
     *
     * @param agent   {@code codex}, {@code gemini} or {@code copilot}
     * @param project true for the project's configuration, in {@code projectDir}
     * @param env     the environment
     * @param projectDir the project directory
     * @return the files
     * @throws IllegalStateException when the user's directory cannot be found (no {@code HOME})
     * @throws IllegalArgumentException for an unknown agent
     */
    static Files2 files(String agent, boolean project, Map<String, String> env, Path projectDir) {
        switch (agent) {
            case "codex" -> {
                Path home = CodexRules.home(env);
                if (home == null) throw new IllegalStateException("neither HOME nor CODEX_HOME is set");
                Path hooks = project ? projectDir.resolve(".codex").resolve("hooks.json") : home.resolve("hooks.json");
                return new Files2(hooks, home.resolve("config.toml"));
            }
            case "gemini" -> {
                if (project) return new Files2(projectDir.resolve(".gemini").resolve("settings.json"), null);
                Path home = GeminiRules.home(env);
                if (home == null) throw new IllegalStateException("neither HOME nor GEMINI_CLI_HOME is set");
                return new Files2(home.resolve("settings.json"), null);
            }
            case "copilot" -> {
                if (project) {
                    return new Files2(projectDir.resolve(".github").resolve("hooks").resolve("compound-bash.json"), null);
                }
                String ch = env.get("COPILOT_HOME");
                String home = env.get("HOME");
                Path dir = ch != null && !ch.isEmpty() ? Path.of(ch)
                        : home != null && !home.isEmpty() ? Path.of(home, ".copilot") : null;
                if (dir == null) throw new IllegalStateException("neither HOME nor COPILOT_HOME is set");
                return new Files2(dir.resolve("hooks").resolve("compound-bash.json"), null);
            }
            default -> throw new IllegalArgumentException("unknown agent " + agent + " (codex, gemini, copilot)");
        }
    }

    /**
     * The edits that install {@code command} as {@code agent}'s hook.
     *
     * @param agent   {@code codex}, {@code gemini} or {@code copilot}
     * @param f       where ({@link #files})
     * @param command the hook command, e.g. {@code /opt/compound-bash/bin/compound-bash hook --agent codex}
     * @return the edits, the hook file first; each may change nothing
     * @throws IOException when a file cannot be read or is not what it should be
     */
    static List<HookInstaller.Edit> install(String agent, Files2 f, String command) throws IOException {
        String before = read(f.hooks());
        ObjectNode root = parse(f.hooks(), before);
        List<HookInstaller.Edit> out = new ArrayList<>();
        switch (agent) {
            case "codex" -> {
                ObjectNode hooks = object(root, "hooks", f.hooks());
                for (String event : CODEX_EVENTS) {
                    ArrayNode groups = array(hooks, event, f.hooks());
                    if (find(groups, agent) == null) {
                        ObjectNode g = groups.addObject();
                        g.put("matcher", "Bash");
                        ObjectNode h = g.putArray("hooks").addObject();
                        h.put("type", "command");
                        h.put("command", command);
                        h.put("timeout", TIMEOUT_S);
                    }
                }
                out.add(edit(f.hooks(), before, root));
                out.add(codexTrust(f, root, true));
            }
            case "gemini" -> {
                ObjectNode hooks = object(root, "hooks", f.hooks());
                ArrayNode groups = array(hooks, "BeforeTool", f.hooks());
                if (find(groups, agent) == null) {
                    ObjectNode g = groups.addObject();
                    g.put("matcher", "run_shell_command");
                    ObjectNode h = g.putArray("hooks").addObject();
                    h.put("type", "command");
                    h.put("name", "compound-bash");
                    h.put("command", command);
                    h.put("timeout", TIMEOUT_S * 1000);
                }
                out.add(edit(f.hooks(), before, root));
            }
            case "copilot" -> {
                if (!root.has("version")) root.put("version", 1);
                ObjectNode hooks = object(root, "hooks", f.hooks());
                ArrayNode list = array(hooks, "preToolUse", f.hooks());
                boolean present = false;
                for (JsonNode h : list) present |= ours(agent).matcher(h.path("bash").asText("")).matches();
                if (!present) {
                    ObjectNode h = list.addObject();
                    h.put("type", "command");
                    h.put("bash", command);
                    h.put("timeoutSec", TIMEOUT_S);
                }
                out.add(edit(f.hooks(), before, root));
            }
            default -> throw new IllegalArgumentException("unknown agent " + agent);
        }
        return out;
    }

    /**
     * The edits that remove {@code agent}'s hook of ours (and, for Codex, its trust; the trust of Codex hooks after
     * it moves with their positions). A Copilot hook file left without hooks is removed.
     *
     * @param agent {@code codex}, {@code gemini} or {@code copilot}
     * @param f     where
     * @return the edits
     * @throws IOException when a file cannot be read or is not what it should be
     */
    static List<HookInstaller.Edit> uninstall(String agent, Files2 f) throws IOException {
        String before = read(f.hooks());
        List<HookInstaller.Edit> out = new ArrayList<>();
        if (before.isBlank()) {
            out.add(new HookInstaller.Edit(f.hooks(), before, before));
            return out;
        }
        ObjectNode root = parse(f.hooks(), before);
        String trustBefore = f.trust() == null ? "" : read(f.trust());
        String trust = trustBefore;
        switch (agent) {
            case "codex", "gemini" -> {
                JsonNode hooks = root.get("hooks");
                for (String event : agent.equals("codex") ? CODEX_EVENTS : new String[]{"BeforeTool"}) {
                    if (!(hooks instanceof ObjectNode h) || !(h.get(event) instanceof ArrayNode groups)) continue;
                    for (int gi = groups.size() - 1; gi >= 0; gi--) {
                        JsonNode g = groups.get(gi);
                        if (!(g.get("hooks") instanceof ArrayNode inner)) continue;
                        boolean removed = false;
                        for (int hi = inner.size() - 1; hi >= 0; hi--) {
                            if (ours(agent).matcher(inner.get(hi).path("command").asText("")).matches()) {
                                inner.remove(hi);
                                removed = true;
                                if (agent.equals("codex")) trust = shiftTrust(trust, f.hooks(), event, gi, hi, false);
                            }
                        }
                        if (removed && inner.isEmpty()) {
                            groups.remove(gi);
                            if (agent.equals("codex")) trust = shiftTrust(trust, f.hooks(), event, gi, -1, true);
                        }
                    }
                    if (groups.isEmpty()) h.remove(event);
                }
                if (hooks instanceof ObjectNode h && h.isEmpty()) root.remove("hooks");
            }
            case "copilot" -> {
                if (root.get("hooks") instanceof ObjectNode h && h.get("preToolUse") instanceof ArrayNode list) {
                    for (Iterator<JsonNode> it = list.elements(); it.hasNext(); ) {
                        if (ours(agent).matcher(it.next().path("bash").asText("")).matches()) it.remove();
                    }
                    if (list.isEmpty()) h.remove("preToolUse");
                    if (h.isEmpty()) root.remove("hooks");
                }
                if (root.size() == 1 && root.has("version") || root.isEmpty()) {
                    out.add(new HookInstaller.Edit(f.hooks(), before, ""));
                    return out;
                }
            }
            default -> throw new IllegalArgumentException("unknown agent " + agent);
        }
        out.add(edit(f.hooks(), before, root));
        if (f.trust() != null) out.add(new HookInstaller.Edit(f.trust(), trustBefore, trust));
        return out;
    }

    /**
     * Writes an edit as {@link HookInstaller#apply} does; an edit to the empty text removes the file (after the
     * backup).
     *
     * @param e the edit
     * @return the backup, or null
     * @throws IOException when writing fails
     */
    static Path apply(HookInstaller.Edit e) throws IOException {
        if (!e.changes()) return null;
        if (!e.after().isEmpty()) return HookInstaller.apply(e);
        Path file = e.file().toAbsolutePath();
        if (!Files.exists(file)) return null;
        String stamp = java.time.LocalDateTime.now().format(
                java.time.format.DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS"));
        Path backup = file.resolveSibling(file.getFileName() + "." + stamp + ".bak");
        for (int n = 1; Files.exists(backup); n++) {
            backup = file.resolveSibling(file.getFileName() + "." + stamp + "-" + n + ".bak");
        }
        Files.move(file, backup);
        return backup;
    }

    // ---- doctor ---------------------------------------------------------------------------------------------------

    /**
     * The doctor's check of one agent: where its hook of ours is (user and project scope), whether the agent will run
     * it (Codex: the feature on and the hook trusted; Gemini CLI: hooks enabled and ours not disabled), whether its
     * command's launcher exists, and the rules its hook applies ({@link dev.compoundbash.settings.AgentSettings}).
     *
     * @param agent      {@code codex}, {@code gemini} or {@code copilot}
     * @param env        the environment
     * @param projectDir the project directory
     * @param always     report even when nothing of ours is installed ({@code doctor --agent})
     * @return the check, or null when nothing is installed and {@code always} is false
     */
    static Doctor.Check check(String agent, Map<String, String> env, Path projectDir, boolean always) {
        String name = "agent " + agent;
        List<String> details = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        String fix = null;
        int found = 0;
        for (boolean project : new boolean[]{false, true}) {
            Files2 f;
            try {
                f = files(agent, project, env, projectDir);
            } catch (RuntimeException e) {
                continue;
            }
            JsonNode root;
            try {
                root = parse(f.hooks(), read(f.hooks()));
            } catch (IOException e) {
                if (Files.exists(f.hooks())) problems.add(e.getMessage());
                continue;
            }
            List<String> commands = new ArrayList<>();
            List<String> events = new ArrayList<>();
            switch (agent) {
                case "codex" -> {
                    for (String ev : CODEX_EVENTS) {
                        JsonNode groups = root.path("hooks").path(ev);
                        for (int gi = 0; gi < groups.size(); gi++) {
                            JsonNode inner = groups.get(gi).path("hooks");
                            for (int hi = 0; hi < inner.size(); hi++) {
                                String c = inner.get(hi).path("command").asText("");
                                if (!ours(agent).matcher(c).matches()) continue;
                                commands.add(c);
                                events.add(ev);
                                String want = codexHash(ev, groups.get(gi).path("matcher").isTextual()
                                        ? groups.get(gi).get("matcher").asText() : null, c,
                                        inner.get(hi).path("timeout").asInt(600));
                                String have;
                                try {
                                    have = trustedHash(read(f.trust()), codexKey(f.hooks(), ev, gi, hi));
                                } catch (IOException e) {
                                    have = null;
                                }
                                if (!want.equals(have)) {
                                    problems.add(ev + " hook in " + f.hooks() + " is " + (have == null ? "not trusted"
                                            : "changed since it was trusted") + ": Codex does not run it");
                                    fix = "run install --agent codex again (it writes the trust), or trust it in "
                                            + "Codex with /hooks";
                                }
                            }
                        }
                    }
                    try {
                        String toml = read(f.trust());
                        if (toml.matches("(?s).*(?m)^\\s*\\[features\\][^\\[]*^\\s*(codex_)?hooks\\s*=\\s*false.*")) {
                            problems.add(f.trust() + " turns hooks off ([features] hooks = false)");
                            fix = "remove hooks = false from [features] in " + f.trust();
                        }
                    } catch (IOException e) {
                        // reported with the hook file
                    }
                }
                case "gemini" -> {
                    JsonNode g = find(root.path("hooks").path("BeforeTool"), agent);
                    if (g != null) {
                        for (JsonNode h : g.path("hooks")) {
                            if (ours(agent).matcher(h.path("command").asText("")).matches()) {
                                commands.add(h.path("command").asText());
                                events.add("BeforeTool");
                                for (JsonNode d : root.path("hooksConfig").path("disabled")) {
                                    if (d.asText().equals(h.path("name").asText("-"))
                                            || d.asText().equals(h.path("command").asText())) {
                                        problems.add(f.hooks() + " lists the hook in hooksConfig.disabled");
                                    }
                                }
                            }
                        }
                    }
                    if (root.path("hooksConfig").path("enabled").isBoolean()
                            && !root.path("hooksConfig").path("enabled").asBoolean()) {
                        problems.add(f.hooks() + " turns hooks off (hooksConfig.enabled: false)");
                    }
                }
                default -> {
                    for (JsonNode h : root.path("hooks").path("preToolUse")) {
                        if (ours(agent).matcher(h.path("bash").asText("")).matches()) {
                            commands.add(h.path("bash").asText());
                            events.add("preToolUse");
                        }
                    }
                }
            }
            if (commands.isEmpty()) continue;
            found += commands.size();
            details.add((project ? "project: " : "user: ") + f.hooks() + " (" + String.join(", ", events) + ")");
            for (String c : commands) {
                String launcher = launcherOf(c);
                if (launcher != null && !Files.isRegularFile(Path.of(launcher))) {
                    problems.add("the hook command's launcher " + launcher + " does not exist");
                    fix = "run " + "install --agent " + agent + " again from the checkout in use";
                }
            }
        }
        if (found == 0) {
            if (!always && problems.isEmpty()) return null;
            return new Doctor.Check(name, problems.isEmpty() ? Doctor.Status.WARN : Doctor.Status.FAIL,
                    "compound-bash's hook is not installed", problems,
                    "compound-bash install --agent " + agent + " [--project]");
        }
        dev.compoundbash.settings.AgentSettings.Loaded l =
                dev.compoundbash.settings.AgentSettings.load(agent, env, projectDir);
        details.add("rules: " + l.settings().allow().size() + " allow, " + l.settings().ask().size() + " ask, "
                + l.settings().deny().size() + " deny from " + l.settings().filesRead());
        details.addAll(l.settings().warnings());
        if (!problems.isEmpty()) {
            details.addAll(0, problems);
            return new Doctor.Check(name, Doctor.Status.FAIL, agent + " will not run compound-bash's hook", details,
                    fix != null ? fix : "see above");
        }
        return new Doctor.Check(name, l.settings().warnings().isEmpty() ? Doctor.Status.OK : Doctor.Status.WARN,
                "hook installed" + (agent.equals("codex") ? " and trusted" : ""), details,
                l.settings().warnings().isEmpty() ? null : "fix the rule files named above");
    }

    /** The launcher path of a hook command ({@code [env VAR=.. ] PATH/compound-bash hook ...}), or null. */
    private static String launcherOf(String command) {
        Matcher m = Pattern.compile("(?:^|\\s)'?([^\\s']*compound-bash)'?\\s+hook").matcher(command);
        return m.find() && m.group(1).startsWith("/") ? m.group(1) : null;
    }

    // ---- Codex trust ------------------------------------------------------------------------------------------

    /**
     * The trust edit of Codex's {@code config.toml}: for every hook of ours in {@code root}, its
     * {@code [hooks.state."KEY"]} table with the current {@code trusted_hash} (an older table of the same key is
     * replaced).
     */
    private static HookInstaller.Edit codexTrust(Files2 f, ObjectNode root, boolean add) throws IOException {
        String before = read(f.trust());
        String text = before;
        for (String event : CODEX_EVENTS) {
            JsonNode groups = root.path("hooks").path(event);
            for (int gi = 0; gi < groups.size(); gi++) {
                JsonNode g = groups.get(gi);
                JsonNode inner = g.path("hooks");
                for (int hi = 0; hi < inner.size(); hi++) {
                    JsonNode h = inner.get(hi);
                    if (!ours("codex").matcher(h.path("command").asText("")).matches()) continue;
                    String key = codexKey(f.hooks(), event, gi, hi);
                    String hash = codexHash(event, g.path("matcher").isTextual() ? g.get("matcher").asText() : null,
                            h.path("command").asText(), h.path("timeout").asInt(600));
                    if (add && hash.equals(trustedHash(text, key))) continue;
                    text = removeTable(text, key);
                    if (add) {
                        if (!text.isEmpty() && !text.endsWith("\n")) text += "\n";
                        text += "\n[hooks.state." + tomlString(key) + "]\ntrusted_hash = " + tomlString(hash) + "\n";
                    }
                }
            }
        }
        return new HookInstaller.Edit(f.trust(), before, text);
    }

    /**
     * Codex's trust key of a hook: {@code FILE:EVENT:GROUP:HANDLER}, the event in snake case.
     *
     * @param file  the hooks file (absolute)
     * @param event {@code PreToolUse} or {@code PermissionRequest}
     * @param group the matcher group's index
     * @param hook  the handler's index in the group
     * @return the key
     */
    static String codexKey(Path file, String event, int group, int hook) {
        return file.toAbsolutePath().normalize() + ":" + snake(event) + ":" + group + ":" + hook;
    }

    /**
     * The {@code trusted_hash} Codex computes for a command hook: SHA-256 of the canonical (keys sorted, compact)
     * JSON of {@code {event_name, matcher, hooks: [{type: "command", command, timeout, async: false}]}}, fields
     * without a value left out ({@code command_hook_hash}; verified with Codex 0.169.0, which runs a hook installed
     * so without asking for trust).
     *
     * @param event   {@code PreToolUse} or {@code PermissionRequest}
     * @param matcher the group's matcher, or null
     * @param command the command
     * @param timeout the timeout in seconds
     * @return {@code sha256:HEX}
     */
    static String codexHash(String event, String matcher, String command, int timeout) {
        ObjectNode id = CANONICAL.createObjectNode();
        id.put("event_name", snake(event));
        if (matcher != null) id.put("matcher", matcher);
        ObjectNode h = id.putArray("hooks").addObject();
        h.put("type", "command");
        h.put("command", command);
        h.put("timeout", Math.max(1, timeout));
        h.put("async", false);
        try {
            Object tree = CANONICAL.treeToValue(id, Object.class);
            byte[] bytes = CANONICAL.writeValueAsBytes(tree);
            return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (IOException | NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * The trust Codex's {@code config.toml} holds for a key, or null.
     *
     * @param configToml the file's text
     * @param key        the hook's key
     * @return the {@code trusted_hash} value
     */
    static String trustedHash(String configToml, String key) {
        Matcher m = Pattern.compile("(?m)^\\s*\\[\\s*hooks\\.state\\." + Pattern.quote(tomlString(key))
                + "\\s*]\\s*$").matcher(configToml);
        if (!m.find()) return null;
        int end = nextHeader(configToml, m.end());
        Matcher v = Pattern.compile("(?m)^\\s*trusted_hash\\s*=\\s*\"([^\"]*)\"").matcher(
                configToml.substring(m.end(), end));
        return v.find() ? v.group(1) : null;
    }

    private static String snake(String event) {
        return event.replaceAll("([a-z])([A-Z])", "$1_$2").toLowerCase();
    }

    /** The text without the table {@code [hooks.state."KEY"]} (its header to the next header). */
    private static String removeTable(String text, String key) {
        Matcher m = Pattern.compile("(?m)^\\s*\\[\\s*hooks\\.state\\." + Pattern.quote(tomlString(key))
                + "\\s*]\\s*\\n?").matcher(text);
        if (!m.find()) return text;
        int end = nextHeader(text, m.end());
        String head = text.substring(0, m.start());
        if (head.endsWith("\n\n")) head = head.substring(0, head.length() - 1);
        return head + text.substring(end);
    }

    private static int nextHeader(String text, int from) {
        Matcher n = Pattern.compile("(?m)^\\s*\\[").matcher(text);
        return n.find(from) ? n.start() : text.length();
    }

    /**
     * Moves Codex trust entries after a removed hook ({@code hook >= 0}) or group ({@code group} removed): the
     * removed one's table goes, the later ones' keys move down by one.
     */
    private static String shiftTrust(String text, Path file, String event, int group, int hook, boolean wholeGroup) {
        String prefix = file.toAbsolutePath().normalize() + ":" + snake(event) + ":";
        Pattern header = Pattern.compile("(?m)^(\\s*\\[\\s*hooks\\.state\\.)\"" + Pattern.quote(prefix)
                + "(\\d+):(\\d+)\"(\\s*]\\s*)$");
        if (!wholeGroup) text = removeTable(text, prefix + group + ":" + hook);
        Matcher m = header.matcher(text);
        StringBuilder b = new StringBuilder();
        while (m.find()) {
            int g = Integer.parseInt(m.group(2)), h = Integer.parseInt(m.group(3));
            if (wholeGroup && g > group) g--;
            else if (!wholeGroup && g == group && h > hook) h--;
            m.appendReplacement(b, Matcher.quoteReplacement(m.group(1) + "\"" + prefix + g + ":" + h + "\"" + m.group(4)));
        }
        m.appendTail(b);
        return b.toString();
    }

    private static String tomlString(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) b.append(String.format("\\u%04X", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }

    // ---- JSON helpers ---------------------------------------------------------------------------------------------

    /** The matcher group of {@code groups} holding a hook of ours, or null. */
    static JsonNode find(JsonNode groups, String agent) {
        for (JsonNode g : groups) {
            for (JsonNode h : g.path("hooks")) {
                if (ours(agent).matcher(h.path("command").asText("")).matches()) return g;
            }
        }
        return null;
    }

    private static ObjectNode object(ObjectNode parent, String key, Path file) throws IOException {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) return parent.putObject(key);
        if (!(n instanceof ObjectNode o)) throw new IOException(file + ": \"" + key + "\" is not an object");
        return o;
    }

    private static ArrayNode array(ObjectNode parent, String key, Path file) throws IOException {
        JsonNode n = parent.get(key);
        if (n == null || n.isNull()) return parent.putArray(key);
        if (!(n instanceof ArrayNode a)) throw new IOException(file + ": \"" + key + "\" is not a list");
        return a;
    }

    private static HookInstaller.Edit edit(Path file, String before, ObjectNode root) throws IOException {
        String after = HookInstaller.print(root);
        // an unchanged file keeps its own formatting
        if (!before.isBlank() && JSON.readTree(before).equals(root)) after = before;
        return new HookInstaller.Edit(file, before, after);
    }

    private static String read(Path file) throws IOException {
        return file != null && Files.exists(file) ? Files.readString(file, StandardCharsets.UTF_8) : "";
    }

    private static ObjectNode parse(Path file, String text) throws IOException {
        if (text.isBlank()) return JSON.createObjectNode();
        JsonNode n;
        try {
            n = JSON.readTree(text);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IOException(dev.compoundbash.settings.JsonErrors.at(file, e) + ": not valid JSON (comments "
                    + "are not kept, so it is left alone): "
                    + dev.compoundbash.settings.JsonErrors.message(e), e);
        }
        if (!(n instanceof ObjectNode o)) throw new IOException(file + " does not hold a JSON object");
        return o;
    }
}
