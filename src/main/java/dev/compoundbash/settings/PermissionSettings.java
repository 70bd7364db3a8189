package dev.compoundbash.settings;

import java.nio.file.Path;
import java.util.List;

/**
 * The merged {@code permissions} section of the Claude Code settings files that were read.
 *
 * <p>Rule strings are kept raw, exactly as written in the files (e.g. {@code "Bash(ls *)"},
 * {@code "Read(./x)"}); interpreting them is left to the caller (see
 * {@code dev.compoundbash.rules.BashPattern}). All lists are immutable and never null.
 *
 * <p>Source: Claude Code docs, Settings ("Settings files", "Permission settings":
 * {@code allow}, {@code ask}, {@code deny}, {@code additionalDirectories}).
 *
 * @param allow                 {@code permissions.allow} entries, merged in file order, first occurrence kept
 * @param ask                   {@code permissions.ask} entries, merged likewise
 * @param deny                  {@code permissions.deny} entries, merged likewise
 * @param additionalDirectories {@code permissions.additionalDirectories} entries, merged likewise
 * @param filesRead             the files that existed and parsed, in the order they were read
 * @param warnings              human-readable problems met while reading (malformed files, wrong types...)
 * @param managedRulesOnly      true when managed settings set {@code allowManagedPermissionRulesOnly}, so that
 *                              {@code allow}, {@code ask} and {@code deny} hold the managed files' rules only
 * @param notes                 what was read but does not count, for a person (the allow rules of
 *                              {@code ~/.claude/settings.local.json}, a file Claude Code does not read)
 * @param writesInDefaultMode   the user's {@code compoundBash.approveWritesInDefaultMode}: output redirections
 *                              inside the allowed directories are approved in default mode too
 * @param blockReadsOutside     {@code permissions.blockReadsOutsideWorkingDirectories} is true in a settings file
 *                              read (any file: the stricter setting wins). Claude Code then asks before any read
 *                              outside the working directories, by any program, and before every construct it
 *                              cannot analyse (measured, docs/CLAUDE-CODE.md section G)
 * @param unreadable            settings files that exist (or may) but whose permission rules could not be read in
 *                              whole, each as {@code FILE: why} (invalid JSON, not UTF-8, no permission, a
 *                              {@code permissions} list of the wrong type...): their deny rules may be missing, so
 *                              the hook approves nothing while one is listed (issue 20, finding 1)
 */
public record PermissionSettings(
        List<String> allow,
        List<String> ask,
        List<String> deny,
        List<String> additionalDirectories,
        List<Path> filesRead,
        List<String> warnings,
        boolean managedRulesOnly,
        List<String> notes,
        boolean writesInDefaultMode,
        boolean blockReadsOutside,
        List<String> unreadable) {

    /**
     * Copies every list into an immutable list; a null list becomes empty.
     *
     * @param allow                 {@code permissions.allow} entries
     * @param ask                   {@code permissions.ask} entries
     * @param deny                  {@code permissions.deny} entries
     * @param additionalDirectories {@code permissions.additionalDirectories} entries
     * @param filesRead             the files that were read
     * @param warnings              problems met while reading
     * @throws NullPointerException if a list contains a null element
     */
    public PermissionSettings {
        allow = copy(allow);
        ask = copy(ask);
        deny = copy(deny);
        additionalDirectories = copy(additionalDirectories);
        filesRead = copy(filesRead);
        warnings = copy(warnings);
        notes = copy(notes);
        unreadable = copy(unreadable);
    }

    /**
     * Settings all of whose files were read in whole.
     *
     * @see #PermissionSettings(List, List, List, List, List, List, boolean, List, boolean, boolean, List)
     */
    public PermissionSettings(List<String> allow, List<String> ask, List<String> deny,
                              List<String> additionalDirectories, List<Path> filesRead, List<String> warnings,
                              boolean managedRulesOnly, List<String> notes, boolean writesInDefaultMode,
                              boolean blockReadsOutside) {
        this(allow, ask, deny, additionalDirectories, filesRead, warnings, managedRulesOnly, notes,
                writesInDefaultMode, blockReadsOutside, List.of());
    }

    /**
     * Settings without notes and without the default-mode write opt-in.
     *
     * @see #PermissionSettings(List, List, List, List, List, List, boolean, List, boolean)
     */
    public PermissionSettings(List<String> allow, List<String> ask, List<String> deny,
                              List<String> additionalDirectories, List<Path> filesRead, List<String> warnings,
                              boolean managedRulesOnly) {
        this(allow, ask, deny, additionalDirectories, filesRead, warnings, managedRulesOnly, List.of(), false, false);
    }

    /**
     * Settings without the read block.
     *
     * @see #PermissionSettings(List, List, List, List, List, List, boolean, List, boolean, boolean)
     */
    public PermissionSettings(List<String> allow, List<String> ask, List<String> deny,
                              List<String> additionalDirectories, List<Path> filesRead, List<String> warnings,
                              boolean managedRulesOnly, List<String> notes, boolean writesInDefaultMode) {
        this(allow, ask, deny, additionalDirectories, filesRead, warnings, managedRulesOnly, notes,
                writesInDefaultMode, false);
    }

    /**
     * These settings with the default-mode write opt-in set as given.
     *
     * @param on {@code compoundBash.approveWritesInDefaultMode}
     * @return a copy
     */
    public PermissionSettings withWritesInDefaultMode(boolean on) {
        return new PermissionSettings(allow, ask, deny, additionalDirectories, filesRead, warnings, managedRulesOnly,
                notes, on, blockReadsOutside, unreadable);
    }

    /**
     * Settings not restricted to managed rules (the files named on a command line, decision cases).
     *
     * @param allow                 {@code permissions.allow} entries
     * @param ask                   {@code permissions.ask} entries
     * @param deny                  {@code permissions.deny} entries
     * @param additionalDirectories {@code permissions.additionalDirectories} entries
     * @param filesRead             the files that were read
     * @param warnings              problems met while reading
     * @throws NullPointerException if a list contains a null element
     */
    public PermissionSettings(List<String> allow, List<String> ask, List<String> deny,
                              List<String> additionalDirectories, List<Path> filesRead, List<String> warnings) {
        this(allow, ask, deny, additionalDirectories, filesRead, warnings, false);
    }

    /**
     * Settings with no rules, no files and no warnings.
     *
     * @return an empty instance
     */
    public static PermissionSettings empty() {
        return new PermissionSettings(List.of(), List.of(), List.of(), List.of(), List.of(), List.of());
    }

    private static <T> List<T> copy(List<T> list) {
        return list == null ? List.of() : List.copyOf(list);
    }
}
