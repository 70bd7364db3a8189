package dev.compoundbash.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * The program schemas: one JSON file per program under the resource directory {@code programs/}, read once into
 * immutable records (the format is {@code docs/PROGRAMS.md}). Every other class that needs to know what a program
 * does asks here: {@link ProgramTable} (path operands), {@link OptionGrammar#named} (option grammars),
 * {@link ConfigCode} and {@link ProgramReadings} (configuration, subcommands, other readings), {@link NameList}
 * (the program lists), {@link WrapperGrammar} (which reader unwraps a program), the tiers ({@code rules/tiers.drl},
 * {@code rules.TierArguments}) and {@link ProgramKnowledge}.
 *
 * <p>The loader is strict: a field the format does not have, a role or style outside its lists, an option declaration
 * it cannot read, or a name two files claim is an error ({@link IllegalStateException}: a defect of this build, which
 * {@code ProgramSchemasTest} catches first).
 */
public final class ProgramSchemas {
    /** The directory of the schema files among the resources. */
    public static final String DIRECTORY = "programs";

    /** The option styles: each follows one real parser ({@link OptionGrammar.Style}). */
    public static final Set<String> STYLES = Set.of("getopt_long", "getopt_long_only", "builtin", "tcl", "git",
            "parse-options", "pflag", "nopt", "go", "clap");
    /** What an option (or its value) does. */
    public static final Set<String> ROLES = Set.of("inert", "read", "write", "list", "names", "names-operands",
            "directory", "script", "runs", "code", "config", "exits", "changes");
    /** What a configuration key, environment variable or variable definition does. */
    public static final Set<String> KEY_ROLES = Set.of("script", "program", "alias", "goal");
    /** The name lists a program may belong to ({@link NameList}). */
    public static final Set<String> LISTS = Set.of("runs-code", "version-control", "directory-changers",
            "makes-links", "copies-files");
    /** The safety tiers. */
    public static final Set<String> TIERS = Set.of("always-safe", "safe-builtin");

    /**
     * One program's schema.
     *
     * @param file                    the file it was read from ({@code git.json})
     * @param names                   the names it runs under, the first its own
     * @param source                  what it was read from
     * @param runsCommands            it runs other commands or code its words or configuration choose
     * @param lists                   the name lists it is on
     * @param options                 its own options (before its subcommand), or null when not modelled
     * @param subcommands             its subcommands by name (empty when it has none)
     * @param subcommandAbbreviations how a subcommand may be abbreviated ({@code npm}), or null
     * @param config                  configuration given on the command line, or null
     * @param environment             the environment variables it reads, or null
     * @param variables               command-line variable definitions ({@code make NAME=VALUE}), or null
     * @param paths                   its path operands as Claude Code checks them, or null
     * @param tier                    its read-only form, or null
     * @param payload                 how it runs another command, or null
     * @param shell                   what it does as a shell, or null
     * @param readings                the name of its other readings ({@link ProgramReadings}), or null
     * @param variants                other implementations' option tables by name
     * @param language                the language of the program text among its words ({@code sed}, {@code awk}:
     *                                {@link ProgramText} reads it), or null
     * @param script                  how an interpreter names the script it runs ({@code first-operand}: a first word
     *                                that is a file name, not an option; what the script does is the sandbox's
     *                                business, issue 18), or null
     * @param scriptOptions           the options whose value names what an interpreter runs as its script
     *                                ({@code python3 -m MODULE}); empty when none
     */
    public record Schema(String file, List<String> names, String source, boolean runsCommands, List<String> lists,
                         OptionTable options, Map<String, Node> subcommands, String subcommandAbbreviations,
                         KeyTable config, KeyTable environment, KeyTable variables, Paths paths, Tier tier,
                         Payload payload, Shell shell, String readings, Map<String, Variant> variants,
                         String language, String script, List<String> scriptOptions) {
        /** The program's own name (the first of {@link #names()}). */
        public String name() {
            return names.get(0);
        }

        /** The subcommand named {@code word} at the top level: by name or alias; null when there is none. */
        public Node subcommand(String word) {
            return Node.find(subcommands, word);
        }
    }

    /**
     * An option table: how a program reads its options, and what each does.
     *
     * @param style       the engine style ({@link #STYLES})
     * @param optstring   getopt's optstring, or null
     * @param longs       getopt_long's long options as the source declares them
     * @param exact       long options are matched whole (no abbreviations)
     * @param declared    the options in {@code SPELLINGS [<role>|[=<role>]|!role]} form
     * @param roles       the roles of optstring/long options by spelling
     * @param persistent  the options may stand after the subcommand too
     * @param operandsEnd the first operand ends the options
     * @param partial     only the options with a role are listed: the others are not read
     */
    public record OptionTable(String style, String optstring, List<String> longs, boolean exact,
                              List<Declared> declared, Map<String, String> roles, boolean persistent,
                              boolean operandsEnd, boolean partial) {
        /** The declared option spelled {@code spelled} exactly, or null. */
        public Declared declaredOption(String spelled) {
            for (Declared d : declared) if (d.spellings().contains(spelled)) return d;
            return null;
        }

        /** The role of an option by one of its spellings: declared, or by {@link #roles()}; inert when not given. */
        public String role(String spelled) {
            Declared d = declaredOption(spelled);
            if (d != null) return d.role();
            String r = roles.get(spelled);
            return r == null ? "inert" : r;
        }

        /** Every declared spelling whose option has {@code role}. */
        public List<String> spellingsWithRole(String role) {
            List<String> out = new ArrayList<>();
            for (Declared d : declared) if (d.role().equals(role)) out.addAll(d.spellings());
            for (Map.Entry<String, String> e : roles.entrySet()) if (e.getValue().equals(role)) out.add(e.getKey());
            return out;
        }
    }

    /**
     * One declared option.
     *
     * @param spellings its spellings ({@code -n}, {@code --namespace})
     * @param argument  whether it takes a value
     * @param role      what it (or its value) does
     */
    public record Declared(List<String> spellings, OptionGrammar.Argument argument, String role) {
        /** True when it takes a value (required or optional). */
        public boolean valued() {
            return argument != OptionGrammar.Argument.NONE;
        }
    }

    /**
     * A subcommand.
     *
     * @param aliases      other names at the same level
     * @param sameAs       the path of the subcommand this one is a shortcut for (empty: none)
     * @param options      its own options, or null when not modelled
     * @param subcommands  its subcommands (empty when none)
     * @param readOnly     the form is read-only
     * @param runsCommands it runs what its words say
     * @param payload      how it runs another command, or null
     */
    public record Node(List<String> aliases, List<String> sameAs, OptionTable options, Map<String, Node> subcommands,
                       boolean readOnly, boolean runsCommands, Payload payload) {
        static Node find(Map<String, Node> subcommands, String word) {
            Node n = subcommands.get(word);
            if (n != null) return n;
            for (Node c : subcommands.values()) if (c.aliases().contains(word)) return c;
            return null;
        }

        /** The subcommand named {@code word} below this one, by name or alias; null when there is none. */
        public Node subcommand(String word) {
            return find(subcommands, word);
        }
    }

    /**
     * A table of configuration keys, environment variables or variable definitions.
     *
     * @param inert           the keys that pass ({@code *} one dotted part, or a name's end)
     * @param keys            keys with a role ({@link #KEY_ROLES})
     * @param option          the options that take {@code KEY=VALUE}
     * @param writers         subcommands that write configuration
     * @param caseInsensitive keys compare in lower case
     * @param namespace       (environment) prefixes of the variables that are the program's own: one of them that
     *                        the table does not list is unknown
     * @param writes          (config) subcommand paths ({@code "config set"}) that write configuration later runs of
     *                        the program read, each with how its operands are read ({@link #WRITE_MODES}:
     *                        {@code options} KEY VALUE or KEY=VALUE, KEY one of the program's own options;
     *                        {@code keys} KEY=VALUE judged by this table; {@code alias} NAME EXPANSION)
     * @param files           (config) the configuration files the program reads ({@code .npmrc}): a file written
     *                        earlier in the call with one of these names (or path ends) changes what later runs do
     * @param repository      (config) where the program finds the repository whose files it reads ({@code git}:
     *                        {@code -C}, {@code --git-dir}, {@code .git} found upwards), or null
     */
    public record KeyTable(List<String> inert, Map<String, String> keys, List<String> option, List<String> writers,
                           boolean caseInsensitive, List<String> namespace, Map<String, String> writes,
                           List<String> files, Repository repository) {
        /** The role of {@code key} ({@link #KEY_ROLES}), or null when it has none. */
        public String role(String key) {
            String k = caseInsensitive ? key.toLowerCase(java.util.Locale.ROOT) : key;
            for (Map.Entry<String, String> e : keys.entrySet()) if (matches(e.getKey(), k)) return e.getValue();
            return null;
        }

        /** True when {@code key} is listed as inert. */
        public boolean isInert(String key) {
            String k = caseInsensitive ? key.toLowerCase(java.util.Locale.ROOT) : key;
            for (String p : inert) if (matches(p, k)) return true;
            return false;
        }

        /** The keys with {@code role}, as written in the table. */
        public List<String> keysWithRole(String role) {
            List<String> out = new ArrayList<>();
            keys.forEach((k, r) -> {
                if (r.equals(role)) out.add(k);
            });
            return out;
        }

        /**
         * A table key with {@code *} standing for one dotted part ({@code diff.*.command}), or a whole last part
         * ({@code pager.*}), or the end of a name ({@code GIT_CONFIG_KEY_*}).
         */
        public static boolean matches(String pattern, String key) {
            if (pattern.equals(key)) return true;
            if (pattern.endsWith("_*")) return key.startsWith(pattern.substring(0, pattern.length() - 1));
            if (!pattern.contains("*")) return false;
            String[] p = pattern.split("\\.", -1);
            if (p.length == 2 && p[1].equals("*")) return key.startsWith(p[0] + ".") && key.length() > p[0].length() + 1;
            if (p.length != 3) return false;
            if (!key.startsWith(p[0] + ".")) return false;
            int last = key.lastIndexOf('.');
            if (!(last > p[0].length())) return false;
            return p[2].equals("*") || key.substring(last + 1).equals(p[2]);
        }
    }

    /**
     * The words Claude Code path-checks ({@link ProgramTable}).
     *
     * @param access             {@code read}, {@code write} or {@code create}
     * @param operands           the operand reader
     * @param verb               Claude Code's wording
     * @param options            option spellings ({@code |}-joined) to roles
     * @param follows            traversal conditions
     * @param followsDirectories the option that stops following links in directory operands, or null
     * @param responseFiles      {@code @FILE} holds more arguments
     * @param recursive          conditions under which the program reads the files below a directory operand
     *                           (option groups joined by {@code  + }, each group's spellings by {@code |}; a
     *                           spelling {@code -d=recurse} is the option with that value; {@code ""}: always)
     * @param subcommands        for a program with subcommands (git): the files each subcommand names, by its name
     */
    public record Paths(String access, String operands, String verb, Map<String, String> options,
                        List<String> follows, String followsDirectories, boolean responseFiles,
                        List<String> recursive, Map<String, SubcommandPaths> subcommands) {
        /** A table entry that reads no directory recursively. */
        public Paths(String access, String operands, String verb, Map<String, String> options,
                     List<String> follows, String followsDirectories, boolean responseFiles) {
            this(access, operands, verb, options, follows, followsDirectories, responseFiles, List.of(), Map.of());
        }
    }

    /**
     * The repository a program reads its configuration from, and the files of it that may choose what it runs
     * (git(1) "-C", "--git-dir"; gitrepository-layout(5): {@code config}, {@code hooks/}, {@code commondir}; git's
     * setup.c {@code setup_git_directory_gently}: from the starting directory upwards, {@code DIR/.git} is the
     * repository, else {@code DIR} itself when it is a bare one).
     *
     * @param directoryOptions global options that change the starting directory, in order ({@code -C})
     * @param gitDirOptions    global options that name the repository directory itself ({@code --git-dir})
     * @param discovery        the name of the repository directory in a work tree ({@code .git})
     * @param files            the files of a repository directory the program reads (a name ending in {@code /}
     *                         is a directory of them: {@code hooks/})
     * @param bareMarker       a file whose presence makes a directory a bare repository, which ends the search
     *                         upwards ({@code HEAD})
     * @param bareOptions      global options that make the starting directory the repository ({@code --bare})
     */
    public record Repository(List<String> directoryOptions, List<String> gitDirOptions, String discovery,
                             List<String> files, String bareMarker, List<String> bareOptions) {
    }

    /**
     * The files one subcommand names ({@code paths.subcommands} of a schema; {@code docs/PROGRAMS.md}).
     *
     * @param access    what it does with its operands: {@code read}, {@code write} or {@code create}
     * @param operands  the operand reader: {@code all} (every word not an option or an option's value),
     *                  {@code grep} (the words after the pattern), {@code revisions} (only the {@code PATH} of a
     *                  {@code REV:PATH} word), {@code none}, {@code pathspecs} (as {@code all}, each a git pathspec:
     *                  one with glob characters or magic reads every file it may match, gitglossary(7)
     *                  "pathspec"), {@code moves} (as {@code all}, every operand but the last also read: the
     *                  sources of {@code git mv})
     * @param from      the first operand that is a path (those before it are a repository, a verb: {@code clone URL
     *                  DIR}, {@code worktree add DIR}); every later operand is one, so an option whose value is not
     *                  known only adds paths
     * @param valued    options that take the next word as their value (so it is not an operand)
     * @param options   option spellings ({@code |}-joined) to roles, as a program's {@code paths.options}
     * @param recursive conditions under which it reads every file below its directory operands, or the working
     *                  directory when it names none (as a program's {@code recursive}; {@code ""}: always)
     */
    public record SubcommandPaths(String access, String operands, int from, Set<String> valued,
                                  Map<String, String> options, List<String> recursive) {
    }

    /**
     * A read-only form.
     *
     * @param tier      {@code always-safe} or {@code safe-builtin}
     * @param arguments the check of its arguments ({@code rules.TierArguments}), or null for any
     */
    public record Tier(String tier, String arguments) {
    }

    /**
     * How a program runs another command.
     *
     * @param reader               the reader ({@link WrapperGrammar})
     * @param after                for {@code words-script}: the word after which the words are a script
     * @param skip                 for {@code words-script}: options skipped before the script
     * @param operands             for {@code runner}: the operands before the command (ssh's host, docker exec's
     *                             container, kubectl exec's pod, docker run's image)
     * @param optionsAfterOperands for {@code runner}: the options are read again after each of those operands, in
     *                             order (OpenSSH's {@code ssh.c} restarts getopt after the host)
     * @param command              for {@code runner}: {@code argv} (the words are a command, run directly) or
     *                             {@code script} (the words joined with spaces are shell source: ssh's remote
     *                             command) or {@code each} (every word is shell source of its own: hyperfine's
     *                             and concurrently's commands) or {@code none} (an {@code at} entry for a level
     *                             the runner paths pass through: its options are read, it runs nothing itself:
     *                             {@code podman compose -f F run})
     * @param shellMode            for {@code runner}: options that make the command words, joined with spaces,
     *                             shell source ({@code pnpm exec -c})
     * @param packageSpec          for {@code runner}: the first command word is a package specification, its
     *                             program the package's bin: {@code npm} ({@code @scope/name@version}) or
     *                             {@code python} ({@code name[extra]==version}, {@code name@version})
     * @param packageOptions       for {@code runner}: options whose value is a package to install; with one, the
     *                             first command word is a program name as written, and without a command the
     *                             first such package's bin runs
     * @param inherits             for {@code runner}: the options of the levels above apply here too (cobra's
     *                             persistent flags)
     * @param entrypoint           for {@code runner}: options whose value is the program run instead of the first
     *                             command word ({@code docker run --entrypoint})
     * @param at                   for {@code runner} at the program's level: the subcommand paths (words joined by
     *                             a space) that run a command, each with its own description ({@code pnpm dlx},
     *                             {@code uv tool run}); a program whose subcommands are open (any other word runs a
     *                             script) lists its runners here rather than in {@code subcommands}
     * @param options              for an {@code at} entry: the runner's own option table
     * @param remote               for {@code runner}: the command runs on another machine or in a container, VM or
     *                             another root (ssh, docker exec, kubectl exec): its paths name files there, not the
     *                             local ones, so local path and file rules do not judge them
     * @param commandAfter         for {@code runner}: the command is the words after the first of these words
     *                             ({@code mise exec TOOL@V -- CMD}, {@code nix shell PKG -c CMD}, {@code gdb --args});
     *                             the words before it are options and operands, and without one there is no command
     * @param assignments          for {@code runner}: {@code NAME=VALUE} words before the command are its environment
     *                             ({@code cross-env NODE_ENV=production webpack})
     */
    public record Payload(String reader, String after, List<String> skip, int operands, boolean optionsAfterOperands,
                          String command, List<String> shellMode, String packageSpec, List<String> packageOptions,
                          boolean inherits, List<String> entrypoint, Map<String, Payload> at, OptionTable options,
                          boolean remote, List<String> commandAfter, boolean assignments) {
        /** A payload description of a reader other than {@code runner}. */
        public Payload(String reader, String after, List<String> skip) {
            this(reader, after, skip, 0, false, "argv", List.of(), null, List.of(), false, List.of(), Map.of(), null,
                    false, List.of(), false);
        }
    }

    /**
     * What a shell does.
     *
     * @param braceExpansion false when it may do no brace expansion
     * @param sameShell      it runs its script in the current shell ({@code eval}, {@code source})
     */
    public record Shell(boolean braceExpansion, boolean sameShell) {
    }

    /**
     * Another implementation's options.
     *
     * @param source  what it was read from
     * @param options its option table
     */
    public record Variant(String source, OptionTable options) {
    }

    private record Catalog(Map<String, Schema> byFile, Map<String, Schema> byName) {
    }

    private static volatile Catalog catalog;

    private ProgramSchemas() {
    }

    private static Catalog catalog() {
        Catalog c = catalog;
        if (c != null) return c;
        synchronized (ProgramSchemas.class) {
            if (catalog == null) catalog = load();
            return catalog;
        }
    }

    /** Every schema by its file name without {@code .json}, in file-name order. */
    public static Map<String, Schema> all() {
        return catalog().byFile();
    }

    /**
     * The schema of the program named {@code name} (no directory), or null when no schema knows it.
     *
     * @param name a command name as written, any directory removed
     */
    public static Schema of(String name) {
        if (name == null) return null;
        return catalog().byName().get(name);
    }

    /** The schema of a command name as written: its directory removed first ({@code /usr/bin/git}). */
    public static Schema ofCommand(String written) {
        if (written == null) return null;
        int slash = written.lastIndexOf('/');
        return of(slash >= 0 && slash < written.length() - 1 ? written.substring(slash + 1) : written);
    }

    /**
     * The tier of a command name exactly as written (tiers match the name as written: {@code /bin/ls} is not in
     * them), for {@code tiers.drl}.
     *
     * @return {@code always-safe}, {@code safe-builtin}, or null
     */
    public static String tier(String written) {
        Schema s = of(written);
        return s == null || s.tier() == null || !s.names().contains(written) ? null : s.tier().tier();
    }

    /** The argument check of the tier of the program {@code name} ({@code rules.TierArguments}), or null. */
    public static String tierArguments(String name) {
        Schema s = of(name);
        return s == null || s.tier() == null ? null : s.tier().arguments();
    }

    /** The names of the programs on the name list {@code list}, in file order. */
    public static List<String> onList(String list) {
        List<String> out = new ArrayList<>();
        for (Schema s : all().values()) if (s.lists().contains(list)) out.addAll(s.names());
        return out;
    }

    // ---- loading ------------------------------------------------------------------------------------------------

    private static Catalog load() {
        ObjectMapper mapper = new ObjectMapper();
        Map<String, Schema> byFile = new LinkedHashMap<>();
        Map<String, Schema> byName = new LinkedHashMap<>();
        for (String file : files()) {
            String resource = DIRECTORY + "/" + file;
            try (InputStream in = ProgramSchemas.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) throw new IllegalStateException("missing resource " + resource);
                Schema s = schema(file, mapper.readTree(in));
                byFile.put(file.substring(0, file.length() - ".json".length()), s);
                for (String n : s.names()) {
                    Schema other = byName.put(n, s);
                    if (other != null) throw new IllegalStateException(n + " is named by " + other.file() + " and " + file);
                }
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + resource, e);
            } catch (RuntimeException e) {
                throw new IllegalStateException(resource + ": " + e.getMessage(), e);
            }
        }
        return new Catalog(Collections.unmodifiableMap(byFile), Collections.unmodifiableMap(byName));
    }

    /** The schema files' names, sorted: listed from the directory or the jar the resources are in. */
    static List<String> files() {
        URL url = ProgramSchemas.class.getClassLoader().getResource(DIRECTORY);
        if (url == null) throw new IllegalStateException("missing resource directory " + DIRECTORY);
        Set<String> out = new TreeSet<>();
        try {
            if (url.getProtocol().equals("jar")) {
                JarURLConnection c = (JarURLConnection) url.openConnection();
                c.setUseCaches(true);
                JarFile jar = c.getJarFile();
                String prefix = DIRECTORY + "/";
                for (Iterator<JarEntry> it = jar.entries().asIterator(); it.hasNext(); ) {
                    String n = it.next().getName();
                    if (n.startsWith(prefix) && n.endsWith(".json") && n.indexOf('/', prefix.length()) < 0) {
                        out.add(n.substring(prefix.length()));
                    }
                }
            } else {
                try (Stream<Path> s = Files.list(Path.of(url.toURI()))) {
                    s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".json")).forEach(out::add);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + url, e);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("cannot list " + url, e);
        }
        if (out.isEmpty()) throw new IllegalStateException("no program schemas in " + url);
        return List.copyOf(out);
    }

    /**
     * Reads one schema file.
     *
     * @param file the file's name
     * @param n    its JSON
     * @return the schema
     * @throws IllegalArgumentException when it is malformed
     */
    static Schema schema(String file, JsonNode n) {
        fields(n, "schema", "names", "source", "runsCommands", "lists", "options", "subcommands",
                "subcommandAbbreviations", "config", "environment", "variables", "paths", "tier", "payload", "shell",
                "readings", "variants", "language", "script", "scriptOptions");
        List<String> names = strings(n.get("names"), "names");
        if (names.isEmpty()) throw new IllegalArgumentException("no names");
        if (!n.path("source").isTextual() || n.get("source").asText().isBlank()) {
            throw new IllegalArgumentException("no source");
        }
        List<String> lists = strings(n.get("lists"), "lists");
        for (String l : lists) if (!LISTS.contains(l)) throw new IllegalArgumentException("unknown list " + l);
        String abbreviations = text(n, "subcommandAbbreviations");
        if (abbreviations != null && !abbreviations.equals("npm")) {
            throw new IllegalArgumentException("unknown subcommandAbbreviations " + abbreviations);
        }
        String readings = text(n, "readings");
        if (readings != null && !Set.of("make-operands", "npm-commands", "git-config", "cargo-commands")
                .contains(readings)) throw new IllegalArgumentException("unknown readings " + readings);
        String script = text(n, "script");
        if (script != null && !script.equals("first-operand")) throw new IllegalArgumentException("unknown script " + script);
        String language = text(n, "language");
        if (language != null && !ProgramText.LANGUAGES.contains(language)) {
            throw new IllegalArgumentException("unknown language " + language);
        }
        Map<String, Variant> variants = new LinkedHashMap<>();
        if (n.has("variants")) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.get("variants").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                fields(e.getValue(), "variant " + e.getKey(), "source", "options");
                variants.put(e.getKey(), new Variant(e.getValue().path("source").asText(""),
                        options(e.getValue().get("options"))));
            }
        }
        return new Schema(file, names, n.get("source").asText(), bool(n, "runsCommands"), lists,
                options(n.get("options")), subcommands(n.get("subcommands")), abbreviations,
                keys(n.get("config"), "config"), keys(n.get("environment"), "environment"),
                keys(n.get("variables"), "variables"), paths(n.get("paths")), tier(n.get("tier")),
                payload(n.get("payload")), shell(n.get("shell")), readings, Collections.unmodifiableMap(variants),
                language, script, strings(n.get("scriptOptions"), "scriptOptions"));
    }

    private static OptionTable options(JsonNode n) {
        if (n == null) return null;
        fields(n, "options", "style", "optstring", "long", "exact", "declared", "roles", "persistent", "operandsEnd",
                "partial");
        String style = n.path("style").asText("getopt_long");
        if (!STYLES.contains(style)) throw new IllegalArgumentException("unknown style " + style);
        List<Declared> declared = new ArrayList<>();
        for (String d : strings(n.get("declared"), "declared")) declared.add(declared(d));
        Map<String, String> roles = new LinkedHashMap<>();
        if (n.has("roles")) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.get("roles").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String role = e.getValue().asText();
                if (!ROLES.contains(role)) throw new IllegalArgumentException("unknown role " + role);
                for (String s : e.getKey().split("\\|")) roles.put(s, role);
            }
        }
        String optstring = text(n, "optstring");
        List<String> longs = strings(n.get("long"), "long");
        if ((optstring != null || !longs.isEmpty()) && !Set.of("getopt_long", "builtin", "tcl").contains(style)) {
            throw new IllegalArgumentException("optstring and long are for getopt_long, builtin and tcl, not " + style);
        }
        return new OptionTable(style, optstring, longs, bool(n, "exact"), List.copyOf(declared),
                Collections.unmodifiableMap(roles), bool(n, "persistent"), bool(n, "operandsEnd"), bool(n, "partial"));
    }

    /**
     * One option declaration, {@code SPELLINGS [<role>|[=<role>]|!role]}.
     *
     * @throws IllegalArgumentException when it is malformed
     */
    static Declared declared(String d) {
        String t = d.trim();
        int sp = t.indexOf(' ');
        String spelled = sp < 0 ? t : t.substring(0, sp);
        String rest = sp < 0 ? "" : t.substring(sp + 1).trim();
        OptionGrammar.Argument argument = OptionGrammar.Argument.NONE;
        String role = "inert";
        if (spelled.endsWith("[=<inert>]") || spelled.contains("[=<")) {
            // --name[=<role>] written without a space
            int at = spelled.indexOf("[=<");
            rest = spelled.substring(at);
            spelled = spelled.substring(0, at);
        }
        if (rest.startsWith("<") && rest.endsWith(">")) {
            argument = OptionGrammar.Argument.REQUIRED;
            role = rest.substring(1, rest.length() - 1);
        } else if (rest.startsWith("[=<") && rest.endsWith(">]")) {
            argument = OptionGrammar.Argument.OPTIONAL;
            role = rest.substring(3, rest.length() - 2);
        } else if (rest.startsWith("!")) {
            role = rest.substring(1);
        } else if (!rest.isEmpty()) {
            throw new IllegalArgumentException("cannot read option declaration \"" + d + "\"");
        }
        if (!ROLES.contains(role)) throw new IllegalArgumentException("unknown role " + role + " in \"" + d + "\"");
        List<String> spellings = List.of(spelled.split("\\|"));
        for (String s : spellings) {
            if (!s.matches("[-+][-+]?[A-Za-z0-9?_][A-Za-z0-9_.:?-]*") && !s.equals("-.")) { // rg -. (--hidden)
                throw new IllegalArgumentException("bad spelling " + s + " in \"" + d + "\"");
            }
        }
        return new Declared(spellings, argument, role);
    }

    private static Map<String, Node> subcommands(JsonNode n) {
        if (n == null) return Map.of();
        Map<String, Node> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            fields(v, "subcommand " + e.getKey(), "aliases", "sameAs", "options", "subcommands", "readOnly",
                    "runsCommands", "payload");
            out.put(e.getKey(), new Node(strings(v.get("aliases"), "aliases"), strings(v.get("sameAs"), "sameAs"),
                    options(v.get("options")), subcommands(v.get("subcommands")), bool(v, "readOnly"),
                    bool(v, "runsCommands"), payload(v.get("payload"))));
        }
        return Collections.unmodifiableMap(out);
    }

    private static KeyTable keys(JsonNode n, String what) {
        if (n == null) return null;
        fields(n, what, "inert", "keys", "option", "writers", "caseInsensitive", "namespace", "writes", "files",
                "repository");
        Map<String, String> keys = new LinkedHashMap<>();
        if (n.has("keys")) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.get("keys").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String role = e.getValue().asText();
                if (!KEY_ROLES.contains(role)) throw new IllegalArgumentException("unknown key role " + role);
                keys.put(e.getKey(), role);
            }
        }
        return new KeyTable(strings(n.get("inert"), "inert"), Collections.unmodifiableMap(keys),
                strings(n.get("option"), "option"), strings(n.get("writers"), "writers"), bool(n, "caseInsensitive"),
                strings(n.get("namespace"), "namespace"), writes(n.get("writes")), strings(n.get("files"), "files"),
                repository(n.get("repository")));
    }

    private static Repository repository(JsonNode n) {
        if (n == null) return null;
        fields(n, "repository", "directoryOptions", "gitDirOptions", "discovery", "files", "bareMarker",
                "bareOptions");
        return new Repository(strings(n.get("directoryOptions"), "directoryOptions"),
                strings(n.get("gitDirOptions"), "gitDirOptions"), n.path("discovery").asText(""),
                strings(n.get("files"), "files"), n.path("bareMarker").asText(""),
                strings(n.get("bareOptions"), "bareOptions"));
    }

    /** How a configuration writer's operands are read ({@link KeyTable#writes()}). */
    public static final Set<String> WRITE_MODES = Set.of("options", "keys", "alias");

    private static Map<String, String> writes(JsonNode n) {
        if (n == null) return Map.of();
        Map<String, String> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            String mode = e.getValue().asText();
            if (!WRITE_MODES.contains(mode)) throw new IllegalArgumentException("unknown write mode " + mode);
            out.put(e.getKey(), mode);
        }
        return Collections.unmodifiableMap(out);
    }

    private static Paths paths(JsonNode n) {
        if (n == null) return null;
        fields(n, "paths", "access", "operands", "verb", "options", "follows", "followsDirectories", "responseFiles",
                "recursive", "subcommands");
        String access = n.path("access").asText("read");
        if (!Set.of("read", "write", "create").contains(access)) throw new IllegalArgumentException("access " + access);
        Map<String, String> options = new LinkedHashMap<>();
        if (n.has("options")) n.get("options").fields().forEachRemaining(e -> options.put(e.getKey(), e.getValue().asText()));
        return new Paths(access, n.path("operands").asText("standard"), n.path("verb").asText("read files in"),
                Collections.unmodifiableMap(options), strings(n.get("follows"), "follows"),
                n.has("followsDirectories") ? n.get("followsDirectories").asText() : null, bool(n, "responseFiles"),
                strings(n.get("recursive"), "recursive"), subcommandPaths(n.get("subcommands")));
    }

    private static final Set<String> SUBCOMMAND_OPERANDS = Set.of("all", "grep", "revisions", "none",
            "pathspecs", "moves");

    private static Map<String, SubcommandPaths> subcommandPaths(JsonNode n) {
        if (n == null) return Map.of();
        Map<String, SubcommandPaths> out = new LinkedHashMap<>();
        n.fields().forEachRemaining(e -> {
            JsonNode v = e.getValue();
            fields(v, "paths.subcommands." + e.getKey(), "access", "operands", "from", "valued", "options",
                    "recursive");
            String access = v.path("access").asText("read");
            if (!Set.of("read", "write", "create").contains(access)) throw new IllegalArgumentException("access " + access);
            String operands = v.path("operands").asText("all");
            if (!SUBCOMMAND_OPERANDS.contains(operands)) throw new IllegalArgumentException("operands " + operands);
            Map<String, String> options = new LinkedHashMap<>();
            if (v.has("options")) v.get("options").fields().forEachRemaining(o -> options.put(o.getKey(), o.getValue().asText()));
            for (String role : options.values()) {
                if (!Set.of("read", "write", "read-write", "names", "list", "prefix", "names-operands").contains(role)) {
                    throw new IllegalArgumentException("unknown path role " + role);
                }
            }
            out.put(e.getKey(), new SubcommandPaths(access, operands, v.path("from").asInt(0),
                    Set.copyOf(strings(v.get("valued"), "valued")), Collections.unmodifiableMap(options),
                    strings(v.get("recursive"), "recursive")));
        });
        return Collections.unmodifiableMap(out);
    }

    private static Tier tier(JsonNode n) {
        if (n == null) return null;
        fields(n, "tier", "tier", "arguments");
        String t = n.path("tier").asText("");
        if (!TIERS.contains(t)) throw new IllegalArgumentException("unknown tier " + t);
        return new Tier(t, text(n, "arguments"));
    }

    private static Payload payload(JsonNode n) {
        return payload(n, null);
    }

    private static Payload payload(JsonNode n, String defaultReader) {
        if (n == null) return null;
        fields(n, "payload", "reader", "after", "skip", "operands", "optionsAfterOperands", "command", "shellMode",
                "packageSpec", "packageOptions", "inherits", "entrypoint", "at", "options", "remote", "commandAfter",
                "assignments");
        String reader = n.has("reader") ? text(n, "reader") : defaultReader;
        Map<String, Payload> at = new LinkedHashMap<>();
        if (n.has("at")) {
            for (Iterator<Map.Entry<String, JsonNode>> it = n.get("at").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                at.put(e.getKey(), payload(e.getValue(), "runner"));
            }
        }
        if (reader == null) throw new IllegalArgumentException("payload without a reader");
        String command = n.path("command").asText("argv");
        if (!Set.of("argv", "script", "each", "none").contains(command)) throw new IllegalArgumentException("payload command " + command);
        String spec = text(n, "packageSpec");
        if (spec != null && !Set.of("npm", "python").contains(spec)) {
            throw new IllegalArgumentException("payload packageSpec " + spec);
        }
        return new Payload(reader, text(n, "after"), strings(n.get("skip"), "skip"), n.path("operands").asInt(0),
                bool(n, "optionsAfterOperands"), command, strings(n.get("shellMode"), "shellMode"), spec,
                strings(n.get("packageOptions"), "packageOptions"), bool(n, "inherits"),
                strings(n.get("entrypoint"), "entrypoint"), Collections.unmodifiableMap(at), options(n.get("options")),
                bool(n, "remote"), strings(n.get("commandAfter"), "commandAfter"), bool(n, "assignments"));
    }

    private static Shell shell(JsonNode n) {
        if (n == null) return null;
        fields(n, "shell", "braceExpansion", "sameShell");
        return new Shell(n.path("braceExpansion").asBoolean(true), bool(n, "sameShell"));
    }

    private static void fields(JsonNode n, String what, String... allowed) {
        if (!n.isObject()) throw new IllegalArgumentException(what + " is not an object");
        Set<String> ok = Set.of(allowed);
        for (Iterator<String> it = n.fieldNames(); it.hasNext(); ) {
            String f = it.next();
            if (!ok.contains(f)) throw new IllegalArgumentException(what + ": unknown field " + f);
        }
    }

    private static List<String> strings(JsonNode n, String what) {
        if (n == null) return List.of();
        if (!n.isArray()) throw new IllegalArgumentException(what + " is not a list");
        List<String> out = new ArrayList<>();
        for (JsonNode x : n) {
            if (!x.isTextual()) throw new IllegalArgumentException(what + " holds a non-string");
            out.add(x.asText());
        }
        return List.copyOf(out);
    }

    private static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null) return null;
        if (!v.isTextual()) throw new IllegalArgumentException(field + " is not a string");
        return v.asText();
    }

    private static boolean bool(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null) return false;
        if (!v.isBoolean()) throw new IllegalArgumentException(field + " is not true or false");
        return v.asBoolean();
    }
}
