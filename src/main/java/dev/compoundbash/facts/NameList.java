package dev.compoundbash.facts;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A named list of names that the rules read as data, as a Drools fact: which variables change what runs, which
 * environment prefixes are safe, which variables are the shell's own state. The built-in lists are in the resource
 * {@code rules/names.json} (read once, {@link #builtIn()}; the members of the lists of programs, {@code runs-code},
 * {@code version-control}, {@code directory-changers}, {@code makes-links} and {@code copies-files}, come from the program schemas'
 * {@code lists}, {@link ProgramSchemas}); every evaluation inserts them, so DRL (user rules too)
 * can see and test them: {@code NameList( name == "changes-what-runs", contains($n) )}.
 *
 * <p>A name is in the list when it is one of {@link #getNames()}, or starts with one of {@link #getPrefixes()} and
 * is not one of {@link #getExcept()}. Case matters, as it does for shell variables.
 */
public final class NameList {
    /** Variables whose setting may change which program runs or what code it loads (PATH, LD_*, BASH_ENV, ...). */
    public static final String CHANGES_WHAT_RUNS = "changes-what-runs";
    /** Environment-prefix variables an approval may pass (LANG, LC_*, NO_COLOR, ...). */
    public static final String SAFE_ENVIRONMENT = "safe-environment";
    /** The shell's own state variables (IFS, PWD, OPTIND, BASH*, ...). */
    public static final String SHELL_STATE = "shell-state";

    private final String name;
    private final String why;
    private final Set<String> names;
    private final List<String> prefixes;
    private final Set<String> except;

    /**
     * @param name     the list's name
     * @param why      what its members have in common, for a person
     * @param names    exact members
     * @param prefixes a name starting with one of these (and longer) is a member...
     * @param except   ...unless it is one of these
     */
    public NameList(String name, String why, Set<String> names, List<String> prefixes, Set<String> except) {
        this.name = name;
        this.why = why;
        this.names = Set.copyOf(names);
        this.prefixes = List.copyOf(prefixes);
        this.except = Set.copyOf(except);
    }

    public String getName() { return name; }
    public String getWhy() { return why; }
    public Set<String> getNames() { return names; }
    public List<String> getPrefixes() { return prefixes; }
    public Set<String> getExcept() { return except; }

    /**
     * @param n a name; null is never a member
     * @return true when {@code n} is in the list
     */
    public boolean contains(String n) {
        if (n == null) return false;
        if (names.contains(n)) return true;
        if (except.contains(n)) return false;
        for (String p : prefixes) if (n.length() > p.length() && n.startsWith(p)) return true;
        return false;
    }

    /**
     * @param ns names
     * @return true when every one is in the list (true for none)
     */
    public boolean containsAll(List<String> ns) {
        for (String n : ns) if (!contains(n)) return false;
        return true;
    }

    /**
     * @param ns names
     * @return the first that is in the list, or null
     */
    public String firstIn(List<String> ns) {
        for (String n : ns) if (contains(n)) return n;
        return null;
    }

    private static volatile Map<String, NameList> builtIn;

    /**
     * The built-in lists, read once from {@code rules/names.json}.
     *
     * @return the lists by name, in file order
     * @throws IllegalStateException when the resource is missing or malformed (a defect of this build)
     */
    public static Map<String, NameList> builtIn() {
        Map<String, NameList> b = builtIn;
        if (b != null) return b;
        synchronized (NameList.class) {
            if (builtIn == null) builtIn = read();
            return builtIn;
        }
    }

    /**
     * One built-in list.
     *
     * @param listName one of {@link #CHANGES_WHAT_RUNS}, {@link #SAFE_ENVIRONMENT}, {@link #SHELL_STATE}
     * @return the list
     * @throws IllegalArgumentException when there is no such list
     */
    public static NameList of(String listName) {
        NameList l = builtIn().get(listName);
        if (l == null) throw new IllegalArgumentException("no name list " + listName);
        return l;
    }

    private static Map<String, NameList> read() {
        try (InputStream in = NameList.class.getClassLoader().getResourceAsStream("rules/names.json")) {
            if (in == null) throw new IllegalStateException("missing resource rules/names.json");
            JsonNode root = new ObjectMapper().readTree(in);
            Map<String, NameList> out = new LinkedHashMap<>();
            for (Iterator<Map.Entry<String, JsonNode>> it = root.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                if (e.getKey().startsWith("_")) continue;
                JsonNode v = e.getValue();
                List<String> names = strings(v.path("names"));
                if (v.path("programs").asBoolean(false)) {
                    // a list of programs: its members are the programs whose schemas name it (docs/PROGRAMS.md)
                    names = ProgramSchemas.onList(e.getKey());
                }
                out.put(e.getKey(), new NameList(e.getKey(), v.path("why").asText(""), Set.copyOf(names),
                        strings(v.path("prefixes")), Set.copyOf(strings(v.path("except")))));
            }
            return Map.copyOf(out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read rules/names.json", e);
        }
    }

    private static List<String> strings(JsonNode n) {
        List<String> out = new ArrayList<>();
        n.forEach(x -> out.add(x.asText()));
        return out;
    }

    @Override
    public String toString() {
        return "NameList[" + name + "]";
    }
}
