package dev.compoundbash.hook;

import dev.compoundbash.settings.PermissionSettings;
import dev.compoundbash.settings.SettingsLoader;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The answer for a call the hook could not judge within its time budget (issue 20): the user's rule files still
 * compiling, a loaded machine, a JVM that did not start in time.
 *
 * <p>Deferring lets Claude Code decide with its own checks: exactly what the user has without the hook. That is
 * safe only when no rule the hook applies beyond Claude Code could cover the call. Claude Code applies settings
 * deny and ask rules itself, but not to what it cannot read (an xargs payload, {@code eval}, {@code find -exec}, an
 * inline script); and user or project DRL only the hook applies. So the safe outcome <b>asks</b> when any of these
 * may apply: a user or trusted-project rule file, a rules folder that exists but cannot be listed, a deny or ask
 * rule in a settings file, a settings file that could not be read whole. Otherwise it <b>defers</b>, with a
 * {@code systemMessage} saying the call was not judged. {@code bin/compound-bash} applies the same rule in sh when
 * a JVM does not answer at all.
 */
public final class SafeOutcome {
    private SafeOutcome() {
    }

    /**
     * The JSON line to print for a call that was not judged.
     *
     * @param env the requester's environment ({@code HOME}, {@code CLAUDE_CONFIG_DIR}, {@code CLAUDE_PROJECT_DIR})
     * @param why what ran out, for the user ("the rules did not load within 15 s")
     * @return an {@code ask} decision, or a {@code systemMessage} alone (defer); never null
     */
    public static String json(Map<String, String> env, String why) {
        List<String> reasons = reasonsToAsk(env);
        if (!reasons.isEmpty()) {
            return HookOutput.json(HookOutput.ASK, "compound-bash: " + why + ", and " + reasons.get(0)
                    + " may cover this call: asking");
        }
        return HookOutput.systemMessage("compound-bash did not judge this call: " + why
                + ". Claude Code decides as usual.");
    }

    /**
     * Why deferring could miss a rule: each entry names one rule source the hook applies beyond Claude Code.
     *
     * @param env the requester's environment
     * @return the reasons; empty when deferring is safe
     */
    public static List<String> reasonsToAsk(Map<String, String> env) {
        List<String> out = new ArrayList<>();
        for (Path dir : new Path[]{UserRules.directory(env), UserRules.projectDirectory(env)}) {
            if (dir == null) continue;
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(dir)) {
                if (!Files.isDirectory(dir) || !Files.isReadable(dir) || !Files.isExecutable(dir)) {
                    out.add("the rules folder " + dir + ", which cannot be read,");
                }
            }
        }
        try {
            List<Path> files = UserRules.files(env);
            if (!files.isEmpty()) out.add("your rule file " + files.get(0));
        } catch (RuntimeException e) {
            out.add("your rule files, which cannot be listed,");
        }
        try {
            PermissionSettings s = SettingsLoader.load(env);
            if (!s.deny().isEmpty()) out.add("the deny rule " + s.deny().get(0));
            else if (!s.ask().isEmpty()) out.add("the ask rule " + s.ask().get(0));
            else if (!s.warnings().isEmpty()) out.add("a settings file that could not be read whole");
        } catch (RuntimeException e) {
            out.add("a settings file that could not be read");
        }
        return out;
    }
}
