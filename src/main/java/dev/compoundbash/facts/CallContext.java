package dev.compoundbash.facts;

import java.util.Set;

/**
 * What the hook knows about the call as a whole rather than about one command in it, as a Drools fact: the session's
 * permission mode from the hook input, and the shell Claude Code runs the command in. {@code rules/modes.drl} reads
 * the mode.
 *
 * <p>Source: Claude Code docs, "Hooks reference" (common input field {@code permission_mode}) and "Permission modes"
 * ({@code default}, {@code acceptEdits}, {@code plan}, {@code auto}, {@code dontAsk}, {@code bypassPermissions}).
 */
public final class CallContext {
    /** The permission modes Claude Code documents; any other value is treated as {@link #DEFAULT_MODE}. */
    public static final Set<String> KNOWN_MODES = Set.of("default", "acceptEdits", "plan", "auto", "dontAsk",
            "bypassPermissions");

    /** The shell kind bash (the default). */
    public static final String BASH = "bash";

    /** The shell kind zsh: Claude Code runs zsh where the user's shell is zsh (docs/CLAUDE-CODE.md section S). */
    public static final String ZSH = "zsh";

    /** The mode assumed when the input names none or one this hook does not know. */
    public static final String DEFAULT_MODE = "default";

    private final String permissionMode;
    private final String declaredMode;
    private final boolean writesInDefaultMode;
    private final boolean blockReadsOutside;
    private final java.util.List<FileRule> fileRules;
    private final String agent;
    private final String shell;
    private final String event;

    /** The agent whose hook called: Claude Code (its PreToolUse hook), the default. */
    public static final String CLAUDE_CODE = "claude-code";

    /**
     * @param declaredMode the hook input's {@code permission_mode} as written; null when absent. {@code manual}, the
     *                     documented alias of {@code default}, and unknown values are read as {@code default}
     */
    public CallContext(String declaredMode) {
        this(declaredMode, false);
    }

    /**
     * @param declaredMode        as for {@link #CallContext(String)}
     * @param writesInDefaultMode the user's {@code compoundBash.approveWritesInDefaultMode} setting
     */
    public CallContext(String declaredMode, boolean writesInDefaultMode) {
        this(declaredMode, writesInDefaultMode, false);
    }

    /**
     * @param declaredMode        as for {@link #CallContext(String)}
     * @param writesInDefaultMode the user's {@code compoundBash.approveWritesInDefaultMode} setting
     * @param blockReadsOutside   Claude Code's {@code permissions.blockReadsOutsideWorkingDirectories} is on
     */
    public CallContext(String declaredMode, boolean writesInDefaultMode, boolean blockReadsOutside) {
        this(declaredMode, writesInDefaultMode, blockReadsOutside, java.util.List.of());
    }

    /**
     * @param declaredMode        as for {@link #CallContext(String)}
     * @param writesInDefaultMode the user's {@code compoundBash.approveWritesInDefaultMode} setting
     * @param blockReadsOutside   Claude Code's {@code permissions.blockReadsOutsideWorkingDirectories} is on
     * @param fileRules           the deny and ask rules of Claude Code's file tools ({@code Read(...)},
     *                            {@code Edit(...)}), which the rules apply to path operands and redirections
     */
    public CallContext(String declaredMode, boolean writesInDefaultMode, boolean blockReadsOutside,
                       java.util.List<FileRule> fileRules) {
        this(declaredMode, writesInDefaultMode, blockReadsOutside, fileRules, BASH);
    }

    /**
     * A context of Claude Code's PreToolUse hook.
     *
     * @param declaredMode        as for {@link #CallContext(String)}
     * @param writesInDefaultMode the user's {@code compoundBash.approveWritesInDefaultMode} setting
     * @param blockReadsOutside   Claude Code's {@code permissions.blockReadsOutsideWorkingDirectories} is on
     * @param fileRules           the deny and ask rules of Claude Code's file tools
     * @param shell               the shell Claude Code runs the command in: {@link #ZSH}, else {@link #BASH}
     *                            (settings.ClaudeCodeShell reads it from the hook's environment)
     */
    public CallContext(String declaredMode, boolean writesInDefaultMode, boolean blockReadsOutside,
                       java.util.List<FileRule> fileRules, String shell) {
        this(declaredMode, writesInDefaultMode, blockReadsOutside, fileRules, CLAUDE_CODE, shell, "PreToolUse");
    }

    /**
     * @param declaredMode        as for {@link #CallContext(String)}
     * @param writesInDefaultMode the user's {@code compoundBash.approveWritesInDefaultMode} setting
     * @param blockReadsOutside   Claude Code's {@code permissions.blockReadsOutsideWorkingDirectories} is on
     * @param fileRules           the deny and ask rules of the file tools
     * @param agent               the agent whose hook called: {@value #CLAUDE_CODE}, {@code codex}, {@code gemini},
     *                            {@code copilot}; null means {@value #CLAUDE_CODE}
     * @param shell               the shell that runs the command ({@code bash}, {@code zsh}, {@code sh},
     *                            {@code powershell}, ...); null means {@value #BASH}
     * @param event               the hook event that asked: {@code PreToolUse} (before the tool runs) or
     *                            {@code PermissionRequest} (the agent is about to ask the user); null means
     *                            {@code PreToolUse}
     */
    public CallContext(String declaredMode, boolean writesInDefaultMode, boolean blockReadsOutside,
                       java.util.List<FileRule> fileRules, String agent, String shell, String event) {
        this.agent = agent == null ? CLAUDE_CODE : agent;
        this.shell = shell == null ? BASH : shell;
        this.event = event == null ? "PreToolUse" : event;
        this.fileRules = java.util.List.copyOf(fileRules);
        this.blockReadsOutside = blockReadsOutside;
        this.declaredMode = declaredMode;
        this.permissionMode = declaredMode != null && KNOWN_MODES.contains(declaredMode) ? declaredMode : DEFAULT_MODE;
        this.writesInDefaultMode = writesInDefaultMode;
    }

    /**
     * True when the user opted into approving output redirections inside the allowed directories in default mode
     * ({@code compoundBash.approveWritesInDefaultMode}), where Claude Code itself asks before a shell command writes.
     */
    public boolean isWritesInDefaultMode() { return writesInDefaultMode; }

    /**
     * True when a settings file sets Claude Code's {@code permissions.blockReadsOutsideWorkingDirectories}: Claude
     * Code then asks before reads outside the working directories by any program (not only the ones it path-checks)
     * and before every construct it cannot analyse (measured, docs/CLAUDE-CODE.md section G).
     */
    public boolean isBlockReadsOutside() { return blockReadsOutside; }

    /** The deny and ask rules of Claude Code's file tools, patterns made absolute; empty when there are none. */
    public java.util.List<FileRule> getFileRules() { return fileRules; }

    /** The context of a call whose input names no permission mode. */
    public static CallContext defaultMode() {
        return new CallContext(null);
    }

    /** The permission mode the rules act on: one of {@link #KNOWN_MODES}. */
    public String getPermissionMode() { return permissionMode; }

    /**
     * The agent whose hook asked: {@value #CLAUDE_CODE} (the default), {@code codex}, {@code gemini} or
     * {@code copilot} (docs/AGENTS.md). {@code rules/agents.drl} reads it.
     */
    public String getAgent() { return agent; }

    /**
     * The shell that runs the command, as its front end knows it: {@code bash} (the default; what the parser reads),
     * or another ({@code zsh}, {@code sh}, {@code powershell}, ...), whose reading may differ from bash's.
     */
    public String getShell() { return shell; }

    /** True when the command runs in zsh. */
    public boolean isZsh() { return ZSH.equals(shell); }

    /**
     * The hook event: {@code PreToolUse} (before the tool runs), or {@code PermissionRequest} (Codex's hook before it
     * asks the user; only an approval of what it asks about matters there).
     */
    public String getEvent() { return event; }

    private java.util.List<String> workingDirectories = java.util.List.of();

    /**
     * This context with the call's working directories: its {@code cwd} first, then the additional directories of
     * the settings, absolute. Read by the rules of agents that path-check every word ({@code rules/agents.drl}).
     *
     * @param dirs the directories
     * @return a copy
     */
    public CallContext withWorkingDirectories(java.util.List<String> dirs) {
        CallContext c = new CallContext(declaredMode, writesInDefaultMode, blockReadsOutside, fileRules, agent, shell,
                event);
        c.workingDirectories = java.util.List.copyOf(dirs);
        return c;
    }

    /** The working directories ({@link #withWorkingDirectories}); empty when not given. */
    public java.util.List<String> getWorkingDirectories() { return workingDirectories; }

    /** The {@code permission_mode} as the hook input wrote it, or null. */
    public String getDeclaredMode() { return declaredMode; }

    @Override
    public String toString() {
        return "CallContext(permissionMode=" + permissionMode
                + (declaredMode != null && !declaredMode.equals(permissionMode) ? ", declared=" + declaredMode : "")
                + (agent.equals(CLAUDE_CODE) ? "" : ", agent=" + agent + ", event=" + event)
                + (shell.equals(BASH) ? "" : ", shell=" + shell)
                + ")";
    }
}
