package dev.compoundbash.rules;

import java.util.Set;

/**
 * The built-in rules whose {@code ask} is a prompt the hook adds on its own (a hazard Claude Code's check cannot
 * see), as opposed to an ask the user wrote (an ask rule, a user DRL rule). {@code modes.drl} turns only these into
 * a defer in {@code bypassPermissions} mode; a built-in ask rule missing here keeps asking there, the safe default.
 */
public final class HookPrompts {
    /** The names of the built-in hazard-prompt rules, as declared in the DRL files. */
    public static final Set<String> RULES = Set.of(
            "unapproved nested command asks",
            "xargs payload matched only by an exact rule asks",
            "unapproved payload asks when an allow rule matches the wrapper as written",
            "mutating find action asks",
            "find payload that cannot be read asks",
            "output to a dynamic target asks",
            "output outside the allowed directories asks",
            "output into .git or .claude asks",
            "relative output after a directory change asks",
            "output with a misconfigured additional directory asks",
            "relative output under a wrapper that changes directory asks",
            "redirection to a network connection asks");

    private HookPrompts() {
    }

    /**
     * @param ruleName the name of the rule that inserted a finding
     * @return true when that rule is one of the hook's own hazard prompts
     */
    public static boolean isHookPrompt(String ruleName) {
        return RULES.contains(ruleName);
    }
}
