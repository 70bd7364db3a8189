package dev.compoundbash.facts;

/**
 * A word a command opens as a file or directory, resolved the way Claude Code's working-directory boundary
 * resolves it and the way bash will (see {@link PathResolver}), as a Drools fact: {@code boundary.drl} defers a call
 * whose command reads, writes or changes into a path outside the working directories.
 */
public final class PathOperand {
    /**
     * The access of a word of a program whose paths no schema describes: it may be a file the program opens, or
     * not a path at all ({@code PathPass}); a file rule asks for it, nothing approves or denies by it.
     */
    public static final String MENTION = "mention";
    /** Resolved inside the start directory or an additional directory, every way it can be read. */
    public static final String INSIDE = "inside";
    /** Resolved outside them. */
    public static final String OUTSIDE = "outside";
    /** Its path is only known at run time (a variable, {@code ~user}, a brace expansion, a process-relative path). */
    public static final String UNKNOWN = "unknown";

    private final int id;
    private final int commandId;
    private final String program;
    private final String word;
    private final String access;
    private final String status;
    private final String resolvedPath;
    private final String why;
    private final String protectedComponent;
    private final boolean exists;
    private final boolean afterUnknownDirectoryChange;
    private boolean globPattern;
    private boolean recursive;

    /**
     * @param id           unique among the facts of one evaluation
     * @param commandId    the {@link SubCommand} it belongs to
     * @param program      the program's name (its table entry)
     * @param word         the word as written (its value when static)
     * @param access       {@code read}, {@code write} or {@code create} (cd and pushd: {@code read}), or {@link #MENTION}
     * @param status       {@link #INSIDE}, {@link #OUTSIDE} or {@link #UNKNOWN}
     * @param resolvedPath the absolute path it resolves to, or null when unknown
     * @param why          for a person: why it is outside or unknown; null when inside
     * @param protectedComponent {@code .git} or {@code .claude} when the path lies in such a directory below an
     *                     allowed root (where a write can plant hooks or settings), else null
     * @param exists       the path (or the link it is) exists when the hook resolves it
     */
    public PathOperand(int id, int commandId, String program, String word, String access, String status,
                       String resolvedPath, String why, String protectedComponent, boolean exists) {
        this(id, commandId, program, word, access, status, resolvedPath, why, protectedComponent, exists, false);
    }

    /**
     * {@link #PathOperand(int, int, String, String, String, String, String, String, String, boolean)}, noting
     * whether the word is a relative path after a directory change only known at run time ({@code cd "$d"},
     * {@code cd -}, {@code popd}, a wrapper's other directory): then its directory, perhaps a {@code .git} or
     * {@code .claude} one, is not known.
     */
    public PathOperand(int id, int commandId, String program, String word, String access, String status,
                       String resolvedPath, String why, String protectedComponent, boolean exists,
                       boolean afterUnknownDirectoryChange) {
        this.afterUnknownDirectoryChange = afterUnknownDirectoryChange;
        this.protectedComponent = protectedComponent;
        this.exists = exists;
        this.id = id;
        this.commandId = commandId;
        this.program = program;
        this.word = word;
        this.access = access;
        this.status = status;
        this.resolvedPath = resolvedPath;
        this.why = why;
    }

    public int getId() { return id; }
    public int getCommandId() { return commandId; }
    public String getProgram() { return program; }
    public String getWord() { return word; }
    public String getAccess() { return access; }
    public String getStatus() { return status; }
    public String getResolvedPath() { return resolvedPath; }
    public String getWhy() { return why; }
    public String getProtectedComponent() { return protectedComponent; }
    public boolean isExists() { return exists; }
    public boolean isAfterUnknownDirectoryChange() { return afterUnknownDirectoryChange; }

    /**
     * True when the word, as Claude Code reads it, is a glob pattern: an unquoted glob character, or one of
     * {@code * ? [ ]} in its static value (Claude Code tests the argument's text: "Glob patterns are not allowed in
     * write operations", measured with 2.1.332 for {@code rm -rf src/*}).
     */
    public boolean isGlobPattern() { return globPattern; }

    /**
     * Notes whether the word is a glob pattern ({@link #isGlobPattern()}); the path pass calls it once, before the
     * fact is inserted.
     *
     * @param glob whether it is
     * @return this fact
     */
    public PathOperand withGlobPattern(boolean glob) {
        this.globPattern = glob;
        return this;
    }

    /**
     * True when the program reads the files below this path if it is a directory ({@code grep -r}, {@code rg}: the
     * schema's {@code paths.recursive}), and the path is not known to be a file.
     */
    public boolean isRecursive() { return recursive; }

    /**
     * Notes whether the program reads below the path ({@link #isRecursive()}); the path pass calls it once, before
     * the fact is inserted.
     *
     * @param recursive whether it does
     * @return this fact
     */
    public PathOperand withRecursive(boolean recursive) {
        this.recursive = recursive;
        return this;
    }

    /** True when it is inside every way it can be read. */
    public boolean isInside() { return INSIDE.equals(status); }

    @Override
    public String toString() {
        return "PathOperand#" + id + "[" + program + " " + word + " " + status
                + (resolvedPath != null ? " " + resolvedPath : "") + "]";
    }
}
