package dev.compoundbash.facts;

/**
 * A redirection found anywhere in the command (Bash Reference Manual §3.6), with its target classified against
 * the working directory and the allowed directories. A Drools fact; {@code redirects.drl} judges it.
 */
public final class Redirect {
    private final int id;
    private final int commandId;
    private final String fd;
    private final String operator;
    private final String target;
    private final boolean output;
    private final boolean dynamic;
    private final boolean fdDuplication;
    private final boolean safeDevice;
    private final boolean relative;
    private final String resolvedPath;
    private final boolean insideAllowedDirectory;
    private final String protectedComponent;
    private final boolean configurationError;
    private final boolean afterDirectoryChange;

    /**
     * @param commandId              id of the {@link SubCommand} it belongs to, or -1 (compound command)
     * @param fd                     the fd as written ({@code "2"}, {@code "{fd}"}) or null
     * @param operator               the redirection operator
     * @param target                 the target word's value, or its source text when dynamic
     * @param output                 true when the file is opened for writing
     * @param dynamic                the target contains an expansion, a tilde or a glob: its path is unknown
     * @param fdDuplication          {@code >&N}, {@code >&-}: no file is opened
     * @param safeDevice             one of the harmless devices ({@code /dev/null} ...)
     * @param relative               the target is a relative path
     * @param resolvedPath           the absolute path after symlink resolution, or null when dynamic
     * @param insideAllowedDirectory the resolved path lies inside cwd or an additional directory
     * @param protectedComponent     {@code ".git"} or {@code ".claude"} when the path below the allowed root has
     *                               such a component, else null
     * @param configurationError     an additional directory was not absolute: redirects cannot be trusted
     */
    public Redirect(int id, int commandId, String fd, String operator, String target, boolean output,
                    boolean dynamic, boolean fdDuplication, boolean safeDevice, boolean relative, String resolvedPath,
                    boolean insideAllowedDirectory, String protectedComponent, boolean configurationError) {
        this(id, commandId, fd, operator, target, output, dynamic, fdDuplication, safeDevice, relative, resolvedPath,
                insideAllowedDirectory, protectedComponent, configurationError, false);
    }

    /**
     * The full constructor.
     *
     * @param afterDirectoryChange a cd, pushd or popd may have run before it in the same shell (not one inside a
     *                             subshell or substitution, whose directory change ends there): a relative target's
     *                             directory is then not the working directory
     */
    public Redirect(int id, int commandId, String fd, String operator, String target, boolean output,
                    boolean dynamic, boolean fdDuplication, boolean safeDevice, boolean relative, String resolvedPath,
                    boolean insideAllowedDirectory, String protectedComponent, boolean configurationError,
                    boolean afterDirectoryChange) {
        this.afterDirectoryChange = afterDirectoryChange;
        this.id = id;
        this.commandId = commandId;
        this.fd = fd;
        this.operator = operator;
        this.target = target;
        this.output = output;
        this.dynamic = dynamic;
        this.fdDuplication = fdDuplication;
        this.safeDevice = safeDevice;
        this.relative = relative;
        this.resolvedPath = resolvedPath;
        this.insideAllowedDirectory = insideAllowedDirectory;
        this.protectedComponent = protectedComponent;
        this.configurationError = configurationError;
    }

    public int getId() { return id; }
    public int getCommandId() { return commandId; }
    public String getFd() { return fd; }
    public String getOperator() { return operator; }
    public String getTarget() { return target; }
    public boolean isOutput() { return output; }
    public boolean isDynamic() { return dynamic; }
    public boolean isFdDuplication() { return fdDuplication; }
    public boolean isSafeDevice() { return safeDevice; }
    public boolean isRelative() { return relative; }
    public String getResolvedPath() { return resolvedPath; }
    public boolean isInsideAllowedDirectory() { return insideAllowedDirectory; }
    public String getProtectedComponent() { return protectedComponent; }
    public boolean isConfigurationError() { return configurationError; }
    public boolean isAfterDirectoryChange() { return afterDirectoryChange; }

    /** The redirection as written, e.g. {@code 2> out.txt}. */
    public String getText() {
        return (fd == null ? "" : fd) + operator + " " + target;
    }

    @Override
    public String toString() {
        return "Redirect#" + id + "[" + getText() + "]";
    }
}
