package dev.compoundbash.facts;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An option grammar declared as data, and the parse of a command's words by it ({@link #parse}). One engine serves
 * the wrappers ({@link WrapperGrammar}), the tier programs ({@code rules.TierArguments}), the builtins that assign
 * variables ({@link VariableWrites}) and rule authors (DRL can call {@link #gnu} and {@link #builtin}).
 *
 * <p>Three styles, each following its source exactly:
 * <ul>
 * <li>{@link Style#GETOPT_LONG}: glibc's {@code getopt_long} ({@code posix/getopt.c}, the same code as gnulib's):
 *     short options clustered ({@code -abc}); {@code x:} takes a required argument, attached ({@code -xVAL}) or the
 *     next word whatever it is; {@code x::} takes an optional argument only when attached; long options
 *     {@code --name}, {@code --name=VALUE}, {@code --name VALUE} (required argument only), abbreviated to any prefix
 *     that selects one option (an exact name wins; a prefix shared by several is an error unless all of them are the
 *     same option: same argument kind and same value, as {@code process_long_option} decides); {@code --} ends the
 *     options; {@code -} alone is an operand; operands and options are permuted unless the optstring starts with
 *     {@code +} (or {@code POSIXLY_CORRECT} is set: see {@link Parsed#orderDependent()}).</li>
 * <li>{@link Style#BUILTIN}: bash's {@code internal_getopt} ({@code builtins/bashgetopt.c}, bash 5.2): clusters, no
 *     long options ({@code --help} alone asks for help), options end at the first word that is not one or after
 *     {@code --}; {@code x:} as above; {@code x;} takes the next word only when it does not look like an option; a
 *     leading {@code +} in the optstring also accepts {@code +x}.</li>
 * <li>{@link Style#TCL}: flags read by {@code Tcl_GetIndexFromObj} as Expect's {@code spawn} reads them
 *     ({@code unbuffer}): every word starting with {@code -} is a flag, named in full or by a unique prefix; a flag
 *     declared {@code name:} takes the next word; the first other word ends them.</li>
 * </ul>
 *
 * <p>Words are {@link Arg}s: a word whose value is only known at run time is treated as anything it could be. When
 * it could change how the rest is read (it may be an option, or split into several words or none where the count
 * matters), the parse stops there and is not {@link Parsed#certain()}; it never reads such a word as literal text.
 *
 * <p>Declarations: an optstring as getopt takes it, and long options spelled {@code name} (no argument),
 * {@code name:} (required), {@code name::} (optional, only with {@code =}), each optionally followed by
 * {@code /x} to say it is the same option as the short option {@code x} (or {@code /other-name} for another long
 * option), as {@code struct option}'s {@code val} does. Built-in grammars of the programs the hook reads are in the
 * program schemas ({@code programs/NAME.json}, {@link #named}).
 */
public final class OptionGrammar {

    /** How a grammar reads words; see the class description. */
    public enum Style {
        /** glibc {@code getopt_long}. */
        GETOPT_LONG,
        /** bash {@code internal_getopt}. */
        BUILTIN,
        /** Tcl flags ({@code Tcl_GetIndexFromObj}). */
        TCL,
        /** git's global options ({@code git.c handle_options}). */
        GIT,
        /** git's subcommand options ({@code parse-options.c}): getopt_long's reading with {@code --no-NAME}. */
        PARSE_OPTIONS,
        /** spf13/pflag (cobra). */
        PFLAG,
        /** npm's {@code nopt}. */
        NOPT,
        /** Go's {@code flag} package. */
        GO,
        /** glibc {@code getopt_long_only}: {@code -name} and {@code --name} alike, permuting unless {@code +} (gdb). */
        GETOPT_LONG_ONLY,
        /** clap (Rust). */
        CLAP
    }

    /** Whether an option takes an argument. */
    public enum Argument {
        /** No argument. */
        NONE,
        /** A required argument: attached, after {@code =}, or the next word. */
        REQUIRED,
        /** An optional argument: only attached ({@code -xVAL}, {@code --name=VAL}); builtins' {@code x;} also the
         * next word when it does not look like an option. */
        OPTIONAL
    }

    /** A long option (or a Tcl flag): its name, argument kind and the key of the option it is. */
    private record Long(String name, Argument argument, String key) {
    }

    private final Style style;
    private final String declaration;
    private final boolean requireOrder;
    private final boolean plus;
    private final boolean abbreviations;
    private final Map<Character, Argument> shorts;
    private final List<Long> longs;

    private OptionGrammar(Style style, String declaration, boolean requireOrder, boolean plus, boolean abbreviations,
                          Map<Character, Argument> shorts, List<Long> longs) {
        this.style = style;
        this.declaration = declaration;
        this.requireOrder = requireOrder;
        this.plus = plus;
        this.abbreviations = abbreviations;
        this.shorts = shorts;
        this.longs = longs;
    }

    private static final Map<String, OptionGrammar> DECLARED = new ConcurrentHashMap<>();

    /**
     * A GNU {@code getopt_long} grammar (cached: DRL may call this on every evaluation).
     *
     * @param optstring   getopt's optstring: {@code +} first for options before operands only, then letters,
     *                    {@code x:} required argument, {@code x::} optional argument
     * @param longOptions {@code name}, {@code name:}, {@code name::}, each with an optional {@code /alias}
     * @return the grammar
     * @throws IllegalArgumentException on a declaration getopt would not accept or this engine does not model
     *                                  ({@code -} first, {@code W;})
     */
    public static OptionGrammar gnu(String optstring, String... longOptions) {
        String key = "gnu\u0000" + optstring + "\u0000" + String.join("\u0000", longOptions);
        return DECLARED.computeIfAbsent(key, k -> declareGnu(optstring, List.of(longOptions), true));
    }

    /**
     * A bash builtin's {@code internal_getopt} grammar (cached).
     *
     * @param optstring as the builtin passes it: {@code +} first to accept {@code +x} too, {@code x:} required
     *                  argument, {@code x;} optional argument
     * @return the grammar
     * @throws IllegalArgumentException on what internal_getopt's optstring cannot say, or {@code #} (numeric
     *                                  arguments, not modelled)
     */
    public static OptionGrammar builtin(String optstring) {
        return DECLARED.computeIfAbsent("builtin\u0000" + optstring, k -> declareBuiltin(optstring));
    }

    /**
     * Tcl flags as Expect's {@code spawn} reads them (cached).
     *
     * @param flags flag names without the dash; {@code name:} takes the next word
     * @return the grammar
     */
    public static OptionGrammar tcl(String... flags) {
        return DECLARED.computeIfAbsent("tcl\u0000" + String.join("\u0000", flags), k -> {
            List<Long> ls = new ArrayList<>();
            for (String f : flags) {
                boolean value = f.endsWith(":");
                String name = "-" + (value ? f.substring(0, f.length() - 1) : f);
                ls.add(new Long(name, value ? Argument.REQUIRED : Argument.NONE, name));
            }
            return new OptionGrammar(Style.TCL, "tcl " + String.join(" ", flags), true, false, true, Map.of(),
                    List.copyOf(ls));
        });
    }

    /**
     * A built-in grammar of a program the hook reads: the option table of its schema ({@code programs/NAME.json}),
     * which names its source (the program's source file and version, or its manual).
     *
     * @param name a program's name ({@code timeout}, {@code xargs}, {@code read}, ...), or {@code NAME@VARIANT} for
     *             another implementation's table ({@code xargs@bsd})
     * @return the grammar
     * @throws IllegalArgumentException when there is no such entry
     */
    public static OptionGrammar named(String name) {
        OptionGrammar g = Catalog.GRAMMARS.get(name);
        if (g == null) throw new IllegalArgumentException("no option grammar named " + name);
        return g;
    }

    /** The names of the built-in grammars ({@link #named}), in file order. */
    public static List<String> names() {
        return List.copyOf(Catalog.GRAMMARS.keySet());
    }

    /** The option tables of the program schemas ({@link ProgramSchemas}), built once. */
    private static final class Catalog {
        static final Map<String, OptionGrammar> GRAMMARS = load();

        private static Map<String, OptionGrammar> load() {
            Map<String, OptionGrammar> out = new LinkedHashMap<>();
            for (ProgramSchemas.Schema s : ProgramSchemas.all().values()) {
                OptionGrammar g = fromTable(s.options());
                if (g != null) for (String n : s.names()) out.put(n, g);
                for (Map.Entry<String, ProgramSchemas.Variant> v : s.variants().entrySet()) {
                    OptionGrammar vg = fromTable(v.getValue().options());
                    if (vg != null) out.put(s.name() + "@" + v.getKey(), vg);
                }
            }
            return Collections.unmodifiableMap(out);
        }
    }

    /**
     * The grammar of a schema's option table written as the program's source declares it (an optstring and long
     * options: the {@code getopt_long}, {@code builtin} and {@code tcl} styles).
     *
     * @param t an option table, or null
     * @return the grammar, or null when the table has none of that kind
     * @throws IllegalArgumentException on a declaration the engine does not model
     */
    static OptionGrammar fromTable(ProgramSchemas.OptionTable t) {
        if (t == null || t.partial()) return null;
        return switch (t.style()) {
            case "getopt_long" -> t.optstring() != null ? declareGnu(t.optstring(), t.longs(), !t.exact())
                    : t.declared().isEmpty() ? null : declared(t, !t.exact());
            case "builtin" -> declareBuiltin(t.optstring() == null ? "" : t.optstring());
            case "tcl" -> tcl(t.longs().toArray(String[]::new));
            default -> t.declared().isEmpty() ? null : declared(t, false);
        };
    }

    /**
     * A grammar from declared options ({@code SPELLINGS [<role>|[=<role>]|!role]}): one-letter spellings are short
     * options, {@code --name} spellings long ones, all spellings of one declaration the same option (its key the
     * first short spelling, else the first long one).
     */
    private static OptionGrammar declared(ProgramSchemas.OptionTable t, boolean abbreviations) {
        Style style = switch (t.style()) {
            case "git" -> Style.GIT;
            case "parse-options" -> Style.PARSE_OPTIONS;
            case "pflag" -> Style.PFLAG;
            case "nopt" -> Style.NOPT;
            case "go" -> Style.GO;
            case "getopt_long_only" -> Style.GETOPT_LONG_ONLY;
            case "clap" -> Style.CLAP;
            default -> Style.GETOPT_LONG;
        };
        // git's parse-options and nopt take unique abbreviations of long options; getopt_long unless exact
        if (style == Style.PARSE_OPTIONS || style == Style.NOPT) abbreviations = true;
        Map<Character, Argument> shorts = new LinkedHashMap<>();
        List<Long> longs = new ArrayList<>();
        List<String> decl = new ArrayList<>();
        for (ProgramSchemas.Declared d : t.declared()) {
            String key = null;
            for (String s : d.spellings()) if (s.length() == 2 && s.charAt(0) == '-' && key == null) key = s;
            for (String s : d.spellings()) if (s.startsWith("--") && key == null) key = s;
            for (String s : d.spellings()) if (key == null) key = s;
            for (String s : d.spellings()) {
                if (style == Style.GO || style == Style.GETOPT_LONG_ONLY) {
                    // Go's flag package: -name and --name are the same flag, whatever its length
                    longs.add(new Long(s.replaceFirst("^--?", ""), d.argument(), key));
                } else if (s.length() == 2 && s.charAt(0) == '-') {
                    // a short option: an optional value only attached, as getopt's "x::"
                    shorts.put(s.charAt(1), d.argument());
                } else if (s.startsWith("--")) {
                    longs.add(new Long(s.substring(2), d.argument(), key));
                } else if (style == Style.NOPT) {
                    // nopt's shorthands of several letters (-dd, -ddd): matched whole
                    longs.add(new Long(s, d.argument(), key));
                }
            }
            decl.add(String.join("|", d.spellings()));
        }
        return new OptionGrammar(style, t.style() + " " + String.join(" ", decl), t.operandsEnd(), false,
                abbreviations, Collections.unmodifiableMap(shorts), List.copyOf(longs));
    }

    private static OptionGrammar declareGnu(String optstring, List<String> longOptions, boolean abbreviations) {
        String s = optstring;
        boolean requireOrder = false;
        if (s.startsWith("+")) {
            requireOrder = true;
            s = s.substring(1);
        } else if (s.startsWith("-")) {
            throw new IllegalArgumentException("RETURN_IN_ORDER optstrings are not modelled: " + optstring);
        }
        if (s.startsWith(":")) s = s.substring(1); // silent errors: parsing is the same
        Map<Character, Argument> shorts = new LinkedHashMap<>();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ':' || c == ';') throw new IllegalArgumentException("bad optstring " + optstring);
            Argument a = Argument.NONE;
            if (i + 1 < s.length() && s.charAt(i + 1) == ':') {
                a = Argument.REQUIRED;
                i++;
                if (i + 1 < s.length() && s.charAt(i + 1) == ':') {
                    a = Argument.OPTIONAL;
                    i++;
                }
            } else if (c == 'W' && i + 1 < s.length() && s.charAt(i + 1) == ';') {
                throw new IllegalArgumentException("-W foo is not modelled: " + optstring);
            }
            shorts.put(c, a);
        }
        // Long options: name[:|::][/alias]; an alias names a short option (one character) or another long option.
        List<String[]> raw = new ArrayList<>();
        for (String l : longOptions) {
            int slash = l.indexOf('/');
            String head = slash < 0 ? l : l.substring(0, slash);
            String alias = slash < 0 ? null : l.substring(slash + 1);
            raw.add(new String[]{head, alias});
        }
        Map<String, String> aliasOf = new LinkedHashMap<>();
        Map<String, Argument> kinds = new LinkedHashMap<>();
        for (String[] r : raw) {
            String head = r[0];
            Argument a = Argument.NONE;
            if (head.endsWith("::")) {
                a = Argument.OPTIONAL;
                head = head.substring(0, head.length() - 2);
            } else if (head.endsWith(":")) {
                a = Argument.REQUIRED;
                head = head.substring(0, head.length() - 1);
            }
            if (head.isEmpty() || head.contains("=")) throw new IllegalArgumentException("bad long option " + r[0]);
            kinds.put(head, a);
            aliasOf.put(head, r[1]);
        }
        List<Long> longs = new ArrayList<>();
        for (var e : kinds.entrySet()) {
            longs.add(new Long(e.getKey(), e.getValue(), resolveKey(e.getKey(), aliasOf, shorts, 0)));
        }
        String decl = optstring + (longOptions.isEmpty() ? "" : " " + String.join(" ", longOptions));
        return new OptionGrammar(Style.GETOPT_LONG, decl, requireOrder, false, abbreviations,
                Collections.unmodifiableMap(shorts), List.copyOf(longs));
    }

    private static String resolveKey(String name, Map<String, String> aliasOf, Map<Character, Argument> shorts,
                                     int depth) {
        String alias = aliasOf.get(name);
        if (alias == null) return "--" + name;
        if (depth > aliasOf.size()) throw new IllegalArgumentException("alias cycle at " + name);
        if (alias.length() == 1) {
            if (!shorts.containsKey(alias.charAt(0))) {
                throw new IllegalArgumentException("--" + name + " aliases -" + alias + ", not in the optstring");
            }
            return "-" + alias;
        }
        if (!aliasOf.containsKey(alias)) throw new IllegalArgumentException("--" + name + " aliases unknown --" + alias);
        return resolveKey(alias, aliasOf, shorts, depth + 1);
    }

    private static OptionGrammar declareBuiltin(String optstring) {
        String s = optstring;
        boolean plus = false;
        if (s.startsWith("+")) {
            plus = true;
            s = s.substring(1);
        }
        Map<Character, Argument> shorts = new LinkedHashMap<>();
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == ':' || c == ';' || c == '#') throw new IllegalArgumentException("bad optstring " + optstring);
            Argument a = Argument.NONE;
            if (i + 1 < s.length()) {
                char n = s.charAt(i + 1);
                if (n == ':') a = Argument.REQUIRED;
                else if (n == ';') a = Argument.OPTIONAL;
                else if (n == '#') throw new IllegalArgumentException("numeric arguments are not modelled: " + optstring);
                if (a != Argument.NONE) i++;
            }
            shorts.put(c, a);
        }
        return new OptionGrammar(Style.BUILTIN, "builtin " + optstring, true, plus, false,
                Collections.unmodifiableMap(shorts), List.of());
    }

    /** This grammar's style. */
    public Style style() {
        return style;
    }

    /** True when options end at the first operand ({@code +} in a getopt optstring; always for builtins). */
    public boolean requiresOrder() {
        return requireOrder;
    }

    /**
     * This grammar read as getopt reads it when {@code POSIXLY_CORRECT} is set: options end at the first operand.
     *
     * @return the grammar in REQUIRE_ORDER mode (this one when it already is)
     */
    public OptionGrammar inOrder() {
        if (requireOrder) return this;
        return new OptionGrammar(style, "+" + declaration, true, plus, abbreviations, shorts, longs);
    }

    /**
     * The key of an option as a rule names it: {@code -x} for a short option, {@code --name} for a long one (a long
     * option declared the same as a short one has the short one's key). Exact names only, no abbreviations.
     *
     * @param spelled {@code -x}, {@code +x} (builtins with {@code +}), {@code --name}, or a Tcl flag {@code -name}
     * @return the key
     * @throws IllegalArgumentException when the grammar has no such option (a typo in a rule)
     */
    public String key(String spelled) {
        if (style == Style.TCL) {
            for (Long l : longs) if (l.name.equals(spelled)) return l.key;
        } else if (spelled.startsWith("--")) {
            for (Long l : longs) if (l.name.equals(spelled.substring(2))) return l.key;
        } else if (spelled.length() == 2 && (spelled.charAt(0) == '-' || (plus && spelled.charAt(0) == '+'))
                && shorts.containsKey(spelled.charAt(1))) {
            return spelled;
        }
        throw new IllegalArgumentException("option " + spelled + " is not in the grammar " + declaration);
    }

    /** The declared short options and their argument kinds, in optstring order (empty for Tcl flags). */
    public Map<Character, Argument> shortOptions() {
        return shorts;
    }

    /** The declared long options (Tcl flags with their dash) and their argument kinds, in declaration order. */
    public Map<String, Argument> longOptions() {
        Map<String, Argument> out = new LinkedHashMap<>();
        for (Long l : longs) out.put(l.name, l.argument);
        return Collections.unmodifiableMap(out);
    }

    /**
     * Whether an option takes an argument, as declared.
     *
     * @param spelled {@code -x}, {@code --name} (exact) or a Tcl flag
     * @return the argument kind
     * @throws IllegalArgumentException when the grammar has no such option
     */
    public Argument argument(String spelled) {
        if (style == Style.TCL || spelled.startsWith("--")) {
            String name = style == Style.TCL ? spelled : spelled.substring(2);
            for (Long l : longs) if (l.name.equals(name)) return l.argument;
        } else if (spelled.length() == 2 && shorts.containsKey(spelled.charAt(1))) {
            return shorts.get(spelled.charAt(1));
        }
        throw new IllegalArgumentException("option " + spelled + " is not in the grammar " + declaration);
    }

    @Override
    public String toString() {
        return style + " " + declaration;
    }

    // ---- parsing ------------------------------------------------------------------------------------------------

    /**
     * One option as read.
     *
     * @param key         the option's key ({@link #key}): {@code -x} or {@code --name}
     * @param spelled     as written: {@code -x}, {@code --na} (an abbreviation), {@code +x}
     * @param index       the index of the word it is in
     * @param value       its argument, null when it has none; {@link Arg#known()} false when only known at run time
     * @param valueIndex  the index of the word holding the argument (this word when attached), -1 when none
     * @param valueOffset where the argument starts in that word (0 when it is the next word)
     */
    public record Option(String key, String spelled, int index, Arg value, int valueIndex, int valueOffset) {
        /** The argument's text when it is known, else null (none, or only known at run time). */
        public String text() {
            return value != null && value.known() ? value.prefix() : null;
        }
    }

    /**
     * Parses words from index {@code from}.
     *
     * @param words {@link Arg}s, or strings (each read as a literal word); a command's argv with {@code from} 1
     * @param from  the index of the first word to read
     * @return the parse; indices in it are indices of {@code words}
     */
    public Parsed parse(List<?> words, int from) {
        List<Arg> args = new ArrayList<>(words.size());
        for (Object o : words) args.add(o instanceof Arg a ? a : Arg.literal(String.valueOf(o)));
        Parser p = new Parser(args, from);
        switch (style) {
            case GETOPT_LONG, PARSE_OPTIONS, CLAP -> p.getoptLong();
            case BUILTIN -> p.builtin();
            case TCL -> p.tcl();
            case GIT -> p.git();
            case PFLAG -> p.pflag();
            case NOPT -> p.nopt();
            case GO, GETOPT_LONG_ONLY -> p.go();
        }
        return p.result();
    }

    /**
     * Parses a command's arguments: {@code parse(argv, 1)}.
     *
     * @param argv the command's words, argv.get(0) its name ({@code SubCommand.getArgv()} or {@code getArgs()})
     * @return the parse
     */
    public Parsed parseCommand(List<?> argv) {
        return parse(argv, Math.min(1, argv.size()));
    }

    /** The result of {@link #lookupLong}: the option, or why there is none. */
    private record Lookup(Long option, boolean ambiguous) {
    }

    /** glibc {@code process_long_option}: an exact name, else the one option every matching prefix selects. */
    private Lookup lookupLong(String name) {
        for (Long l : longs) if (l.name.equals(name)) return new Lookup(l, false);
        if ((style == Style.PARSE_OPTIONS || style == Style.NOPT) && name.startsWith("no-") && name.length() > 3) {
            // parse-options.c and nopt read --no-NAME as NAME negated (a flag)
            Lookup l = lookupLong(name.substring(3));
            if (l.option != null) return new Lookup(new Long(name, Argument.NONE, l.option.key), false);
        }
        if (!abbreviations) return new Lookup(null, false);
        Long found = null;
        boolean ambiguous = false;
        for (Long l : longs) {
            if (!l.name.startsWith(name)) continue;
            if (found == null) {
                found = l;
            } else if (style == Style.TCL || found.argument != l.argument || !found.key.equals(l.key)) {
                ambiguous = true;
            }
        }
        return ambiguous ? new Lookup(null, true) : new Lookup(found, false);
    }

    /** True when some word {@code w} becomes could start with {@code c} and be longer than one character. */
    private static boolean mayStartWith(Arg w, char c) {
        if (w.known()) return w.prefix().length() > 1 && w.prefix().charAt(0) == c;
        if (!w.prefix().isEmpty()) return w.prefix().charAt(0) == c;
        return !w.lead();
    }

    private final class Parser {
        final List<Arg> args;
        final int n;
        int i;
        final List<Option> options = new ArrayList<>();
        final List<Integer> operands = new ArrayList<>();
        int end = -1;
        String error;
        int errorAt = -1;
        int uncertainAt = -1;
        boolean sawOperand;
        boolean orderDependent;

        Parser(List<Arg> args, int from) {
            this.args = args;
            this.n = args.size();
            this.i = from;
        }

        Parsed result() {
            if (end < 0) end = i;
            return new Parsed(OptionGrammar.this, args, options, operands, end, error, errorAt, uncertainAt,
                    orderDependent);
        }

        void error(int at, String message) {
            error = message;
            errorAt = at;
            end = at;
        }

        void uncertain(int at) {
            uncertainAt = at;
            end = at;
        }

        /** The words from {@code i} on are operands. */
        void restAreOperands() {
            end = i;
            for (int k = i; k < n; k++) operands.add(k);
            i = n;
        }

        void option(String key, String spelled, int index, Arg value, int valueIndex, int valueOffset) {
            options.add(new Option(key, spelled, index, value, valueIndex, valueOffset));
            if (sawOperand) orderDependent = true;
        }

        void getoptLong() {
            while (i < n) {
                Arg w = args.get(i);
                if (!w.mayBeOption()) {
                    if (requireOrder) {
                        restAreOperands();
                        return;
                    }
                    operands.add(i++);
                    sawOperand = true;
                    continue;
                }
                if (!w.known()) {
                    if (!unknownGnu(w)) return;
                    continue;
                }
                String t = w.prefix();
                if (t.equals("--")) {
                    // Under POSIXLY_CORRECT the operand before it would have ended the options instead.
                    if (sawOperand) orderDependent = true;
                    i++;
                    restAreOperands();
                    return;
                }
                if (t.startsWith("--")) {
                    if (!longOption(t)) return;
                } else if (!cluster(t, '-')) {
                    return;
                }
            }
            end = n;
        }

        /** {@code --name[=value]}, known text. False when parsing stopped. */
        boolean longOption(String t) {
            String body = t.substring(2);
            int eq = body.indexOf('=');
            String name = eq < 0 ? body : body.substring(0, eq);
            Lookup l = lookupLong(name);
            if (l.option == null) {
                error(i, l.ambiguous ? "option '--" + name + "' is ambiguous" : "unrecognized option '--" + name + "'");
                return false;
            }
            Long o = l.option;
            if (eq >= 0) {
                if (o.argument == Argument.NONE) {
                    error(i, "option '--" + o.name + "' doesn't allow an argument");
                    return false;
                }
                option(o.key, "--" + name, i, Arg.literal(body.substring(eq + 1)), i, eq + 3);
                i++;
                return true;
            }
            if (o.argument == Argument.REQUIRED) {
                if (i + 1 >= n) {
                    error(i, "option '--" + o.name + "' requires an argument");
                    return false;
                }
                Arg v = args.get(i + 1);
                option(o.key, "--" + name, i, v, i + 1, 0);
                if (v.many()) {
                    uncertain(i + 1); // the option is settled; its value and what follows are not
                    return false;
                }
                i += 2;
                return true;
            }
            option(o.key, "--" + name, i, null, -1, 0);
            i++;
            return true;
        }

        /** A cluster of short options in known text ({@code -abc}, or {@code +abc} for builtins). */
        boolean cluster(String t, char sign) {
            for (int k = 1; k < t.length(); k++) {
                char c = t.charAt(k);
                Argument a = shorts.get(c);
                if (a == null || c == ':') {
                    error(i, "invalid option -- '" + c + "'");
                    return false;
                }
                String key = sign + String.valueOf(c);
                if (a == Argument.NONE) {
                    option(key, key, i, null, -1, 0);
                    continue;
                }
                if (k + 1 < t.length()) {
                    // clap reads -n=VALUE as VALUE
                    int from = style == Style.CLAP && t.charAt(k + 1) == '=' ? k + 2 : k + 1;
                    option(key, key, i, Arg.literal(t.substring(from)), i, from);
                    i++;
                    return true;
                }
                if (a == Argument.OPTIONAL) {
                    if (style == Style.BUILTIN && i + 1 < n) {
                        // internal_getopt's "x;": the next word, when it does not look like an option
                        Arg v = args.get(i + 1);
                        boolean next = !mayStartWith(v, '-') && !(plus && mayStartWith(v, '+'));
                        boolean maybe = !v.known() && !next;
                        if (maybe || v.many()) {
                            uncertain(i + 1);
                            return false;
                        }
                        if (next) {
                            option(key, key, i, v, i + 1, 0);
                            i += 2;
                            return true;
                        }
                    }
                    option(key, key, i, null, -1, 0);
                    i++;
                    return true;
                }
                if (i + 1 >= n) {
                    error(i, "option requires an argument -- '" + c + "'");
                    return false;
                }
                Arg v = args.get(i + 1);
                option(key, key, i, v, i + 1, 0);
                if (v.many()) {
                    uncertain(i + 1); // the option is settled; its value and what follows are not
                    return false;
                }
                i += 2;
                return true;
            }
            i++;
            return true;
        }

        /**
         * A word only known at run time that may be an option: read what its literal prefix settles. False when
         * parsing stopped (uncertain or an error the prefix already makes).
         */
        boolean unknownGnu(Arg w) {
            if (w.many()) {
                uncertain(i);
                return false;
            }
            String p = w.prefix();
            if (p.startsWith("--")) {
                int eq = p.indexOf('=');
                if (eq < 0) {
                    uncertain(i); // the name, or "--" itself, is not settled
                    return false;
                }
                String name = p.substring(2, eq);
                Lookup l = lookupLong(name);
                if (l.option == null) {
                    error(i, l.ambiguous ? "option '--" + name + "' is ambiguous" : "unrecognized option '--" + name + "'");
                    return false;
                }
                if (l.option.argument == Argument.NONE) {
                    error(i, "option '--" + l.option.name + "' doesn't allow an argument");
                    return false;
                }
                option(l.option.key, "--" + name, i, Arg.unknown(w.text()), i, eq + 1);
                i++;
                return true;
            }
            return unknownCluster(w, '-');
        }

        /** The literal prefix of an unknown word as a cluster: settled only when an option taking an argument has
         * a non-empty attached part, or an optional one starts. */
        boolean unknownCluster(Arg w, char sign) {
            String p = w.prefix();
            if (p.length() < 2 || p.charAt(0) != sign) {
                uncertain(i);
                return false;
            }
            for (int k = 1; k < p.length(); k++) {
                char c = p.charAt(k);
                Argument a = shorts.get(c);
                if (a == null || c == ':') {
                    error(i, "invalid option -- '" + c + "'");
                    return false;
                }
                String key = sign + String.valueOf(c);
                if (a == Argument.NONE) continue;
                if (a == Argument.REQUIRED && k + 1 == p.length()) break; // the attached part may be empty
                if (a == Argument.OPTIONAL && style == Style.BUILTIN && k + 1 == p.length()) break;
                for (int m = 1; m < k; m++) {
                    String f = sign + String.valueOf(p.charAt(m));
                    option(f, f, i, null, -1, 0);
                }
                option(key, key, i, Arg.unknown(w.text()), i, k + 1);
                i++;
                return true;
            }
            uncertain(i);
            return false;
        }

        /**
         * git's {@code handle_options} (git.c, 2.39): exact names only, no clusters; a long option takes its value
         * after {@code =} or in the next word, {@code -C} and {@code -c} in the next word; an optional value only
         * after {@code =}; options end at the first word that is not one; an unknown one is a usage error.
         */
        void git() {
            while (i < n) {
                Arg w = args.get(i);
                if (!w.mayBeOption()) {
                    restAreOperands();
                    return;
                }
                if (!w.known()) {
                    uncertain(i);
                    return;
                }
                if (!exactOption(w.prefix(), false)) return;
            }
            end = n;
        }

        /**
         * One option read by its exact name ({@code -x} or {@code --name}), with {@code =VALUE} after a long one or
         * (with {@code equalsAfterShort}) a short one, a required value else in the next word. False when parsing
         * stopped.
         */
        boolean exactOption(String t, boolean equalsAfterShort) {
            int eq = t.indexOf('=');
            boolean isLong = t.startsWith("--");
            String name = isLong ? (eq < 0 ? t.substring(2) : t.substring(2, eq)) : null;
            Long o = null;
            String key = null;
            Argument a = null;
            if (isLong) {
                Lookup l = lookupLong(name);
                o = l.option;
                if (o != null) {
                    key = o.key;
                    a = o.argument;
                }
            } else if (t.length() == 2 || equalsAfterShort && t.length() > 2 && t.charAt(2) == '=') {
                a = shorts.get(t.charAt(1));
                key = "-" + t.charAt(1);
                if (!(equalsAfterShort && t.length() > 2)) eq = -1;
            }
            if (a == null) {
                error(i, "unknown option: " + t);
                return false;
            }
            String spelled = isLong ? "--" + name : t.substring(0, 2);
            if (eq >= 0) {
                option(key, spelled, i, Arg.literal(t.substring(eq + 1)), i, eq + 1);
                i++;
                return true;
            }
            if (a == Argument.REQUIRED) {
                if (i + 1 >= n) {
                    error(i, "option " + t + " requires a value");
                    return false;
                }
                Arg v = args.get(i + 1);
                option(key, spelled, i, v, i + 1, 0);
                if (v.many()) {
                    uncertain(i + 1);
                    return false;
                }
                i += 2;
                return true;
            }
            option(key, spelled, i, null, -1, 0);
            i++;
            return true;
        }

        /**
         * spf13/pflag ({@code flag.go} parseArgs, parseLongArg, parseShortArg): {@code --name=V}, {@code --name V}
         * for a flag with a value, a flag without one (or with a default when given none, {@code [=...]}) taking a
         * value only after {@code =}; {@code -n V}, {@code -nV}, {@code -n=V}; value-less shorthands clustered;
         * {@code --} ends the flags; flags and operands mix unless the command stops at its first operand (cobra's
         * {@code SetInterspersed(false)}); an unknown flag is an error.
         */
        void pflag() {
            while (i < n) {
                Arg w = args.get(i);
                if (!w.mayBeOption()) {
                    if (requireOrder) {
                        restAreOperands();
                        return;
                    }
                    operands.add(i++);
                    sawOperand = true;
                    continue;
                }
                if (!w.known()) {
                    uncertain(i);
                    return;
                }
                String t = w.prefix();
                if (t.equals("--")) {
                    i++;
                    restAreOperands();
                    return;
                }
                if (t.startsWith("--")) {
                    if (!exactOption(t, false)) return;
                    continue;
                }
                // shorthands: -abc, -nVALUE, -n=VALUE, -n VALUE
                for (int k = 1; k < t.length(); k++) {
                    char c = t.charAt(k);
                    Argument a = shorts.get(c);
                    String key = "-" + c;
                    if (a == null) {
                        error(i, "unknown shorthand flag: '" + c + "' in " + t);
                        return;
                    }
                    if (a != Argument.REQUIRED) {
                        if (k + 1 < t.length() && t.charAt(k + 1) == '=') {
                            option(key, key, i, Arg.literal(t.substring(k + 2)), i, k + 2);
                            break;
                        }
                        option(key, key, i, null, -1, 0);
                        if (k + 1 == t.length()) break;
                        continue;
                    }
                    if (k + 1 < t.length()) {
                        int from = t.charAt(k + 1) == '=' ? k + 2 : k + 1;
                        option(key, key, i, Arg.literal(t.substring(from)), i, from);
                        break;
                    }
                    if (i + 1 >= n) {
                        error(i, "flag needs an argument: '" + c + "' in " + t);
                        return;
                    }
                    Arg v = args.get(i + 1);
                    option(key, key, i, v, i + 1, 0);
                    if (v.many()) {
                        uncertain(i + 1);
                        return;
                    }
                    i++;
                    break;
                }
                i++;
            }
            end = n;
        }

        /**
         * npm's {@code nopt} ({@code lib/nopt-lib.js} parse): options anywhere before {@code --}; {@code --name=V};
         * a long option with a value takes the next word, one without (a Boolean) takes {@code true} or
         * {@code false} after it; {@code --no-name}; a unique abbreviation of a long name; a one-dash word is a
         * shorthand of that name ({@code -dd}) or a run of one-letter shorthands ({@code -gf}), the last of which
         * may take the next word. An option nopt does not know is an error here (nopt itself reads it as a Boolean).
         */
        void nopt() {
            while (i < n) {
                Arg w = args.get(i);
                if (!w.mayBeOption()) {
                    if (requireOrder) {
                        // npx-cli.js: the first positional argument ends npm's options
                        restAreOperands();
                        return;
                    }
                    operands.add(i++);
                    sawOperand = true;
                    continue;
                }
                if (!w.known()) {
                    uncertain(i);
                    return;
                }
                String t = w.prefix();
                if (t.equals("--")) {
                    i++;
                    restAreOperands();
                    return;
                }
                if (t.startsWith("--")) {
                    int eq = t.indexOf('=');
                    String name = eq < 0 ? t.substring(2) : t.substring(2, eq);
                    Lookup l = lookupLong(name);
                    if (l.option == null) {
                        error(i, "unknown option --" + name);
                        return;
                    }
                    if (eq >= 0) {
                        option(l.option.key, "--" + name, i, Arg.literal(t.substring(eq + 1)), i, eq + 1);
                        i++;
                    } else if (l.option.argument == Argument.REQUIRED && i + 1 < n) {
                        option(l.option.key, "--" + name, i, args.get(i + 1), i + 1, 0);
                        i += 2;
                    } else {
                        option(l.option.key, "--" + name, i, null, -1, 0);
                        i++;
                        if (i < n && args.get(i).known() && (args.get(i).prefix().equals("true")
                                || args.get(i).prefix().equals("false"))) i++;
                    }
                    continue;
                }
                // a shorthand of several letters matched whole, else one-letter shorthands
                Lookup whole = lookupLong(t);
                if (whole.option != null && whole.option.name.equals(t)) {
                    boolean valued = whole.option.argument == Argument.REQUIRED && i + 1 < n;
                    option(whole.option.key, t, i, valued ? args.get(i + 1) : null, valued ? i + 1 : -1, 0);
                    i += valued ? 2 : 1;
                    continue;
                }
                boolean singles = true;
                for (int k = 1; k < t.length(); k++) singles &= shorts.containsKey(t.charAt(k));
                if (!singles) {
                    error(i, "unknown shorthand " + t);
                    return;
                }
                int next = i + 1;
                for (int k = 1; k < t.length(); k++) {
                    String key = "-" + t.charAt(k);
                    boolean valued = shorts.get(t.charAt(k)) == Argument.REQUIRED && k + 1 == t.length() && next < n;
                    option(key, key, i, valued ? args.get(next) : null, valued ? next : -1, 0);
                    if (valued) next++;
                }
                i = next;
            }
            end = n;
        }

        /**
         * Go's {@code flag} package ({@code FlagSet.parseOne}): {@code -name} or {@code --name}, {@code -name=V}, a
         * flag with a value taking the next word; no clusters, no abbreviations; {@code --} or the first word that is
         * not a flag ({@code -} alone included) ends the flags; an unknown one is an error.
         */
        void go() {
            while (i < n) {
                Arg w = args.get(i);
                if (!w.mayBeOption()) {
                    if (style == Style.GETOPT_LONG_ONLY && !requireOrder) {
                        // getopt_long_only permutes: gdb PROG -ex CMD reads -ex after the program
                        operands.add(i++);
                        sawOperand = true;
                        continue;
                    }
                    restAreOperands();
                    return;
                }
                if (!w.known()) {
                    uncertain(i);
                    return;
                }
                String t = w.prefix();
                if (t.equals("--")) {
                    i++;
                    restAreOperands();
                    return;
                }
                String body = t.startsWith("--") ? t.substring(2) : t.substring(1);
                int eq = body.indexOf('=');
                String name = eq < 0 ? body : body.substring(0, eq);
                Long o = null;
                for (Long l : longs) if (l.name.equals(name)) o = l;
                if (o == null) {
                    error(i, "flag provided but not defined: -" + name);
                    return;
                }
                int at = t.length() - body.length();
                if (eq >= 0) {
                    option(o.key, t.substring(0, at + eq), i, Arg.literal(body.substring(eq + 1)), i, at + eq + 1);
                    i++;
                } else if (o.argument == Argument.REQUIRED) {
                    if (i + 1 >= n) {
                        error(i, "flag needs an argument: " + t);
                        return;
                    }
                    option(o.key, t, i, args.get(i + 1), i + 1, 0);
                    i += 2;
                } else {
                    option(o.key, t, i, null, -1, 0);
                    i++;
                }
            }
            end = n;
        }

        void builtin() {
            while (i < n) {
                Arg w = args.get(i);
                boolean dash = mayStartWith(w, '-');
                boolean plusSign = plus && mayStartWith(w, '+');
                if (!dash && !plusSign) {
                    restAreOperands();
                    return;
                }
                if (!w.known()) {
                    if (w.many() || (dash && plusSign)) {
                        uncertain(i);
                        return;
                    }
                    String p = w.prefix();
                    if (p.startsWith("--")) {
                        uncertain(i);
                        return;
                    }
                    if (!unknownCluster(w, dash ? '-' : '+')) return;
                    continue;
                }
                String t = w.prefix();
                if (t.equals("--help")) {
                    error(i, "--help: the builtin prints its help and does nothing else");
                    return;
                }
                if (t.equals("--")) {
                    i++;
                    restAreOperands();
                    return;
                }
                if (!cluster(t, t.charAt(0))) return;
            }
            end = n;
        }

        void tcl() {
            while (i < n) {
                Arg w = args.get(i);
                boolean dash = w.known() ? w.prefix().startsWith("-") : w.prefix().isEmpty() ? !w.lead()
                        : w.prefix().startsWith("-");
                if (!dash) {
                    restAreOperands();
                    return;
                }
                if (!w.known()) {
                    uncertain(i);
                    return;
                }
                String t = w.prefix();
                Lookup l = lookupLong(t);
                if (l.option == null) {
                    error(i, (l.ambiguous ? "ambiguous flag \"" : "bad flag \"") + t + "\"");
                    return;
                }
                if (l.option.argument == Argument.REQUIRED) {
                    if (i + 1 >= n) {
                        error(i, "flag " + l.option.name + " needs a value");
                        return;
                    }
                    Arg v = args.get(i + 1);
                    if (v.many()) {
                        uncertain(i + 1);
                        return;
                    }
                    option(l.option.key, t, i, v, i + 1, 0);
                    i += 2;
                } else {
                    option(l.option.key, t, i, null, -1, 0);
                    i++;
                }
            }
            end = n;
        }
    }

    /**
     * Words read by a grammar: the options in order, the operands, where options ended, and whether the reading is
     * certain. A rule asks {@link #has}, {@link #value}, {@link #operands()}; when {@link #certain()} is false, the
     * words from {@link #uncertainAt()} on were not read ({@link #mayHave} answers for them), and when {@link #ok()}
     * is false the program reports a usage error there and (for every program the hook reads) runs nothing.
     */
    public static final class Parsed {
        private final OptionGrammar grammar;
        private final List<Arg> words;
        private final List<Option> options;
        private final List<Integer> operands;
        private final int end;
        private final String error;
        private final int errorAt;
        private final int uncertainAt;
        private final boolean orderDependent;

        Parsed(OptionGrammar grammar, List<Arg> words, List<Option> options, List<Integer> operands, int end,
               String error, int errorAt, int uncertainAt, boolean orderDependent) {
            this.grammar = grammar;
            this.words = List.copyOf(words);
            this.options = List.copyOf(options);
            this.operands = List.copyOf(operands);
            this.end = end;
            this.error = error;
            this.errorAt = errorAt;
            this.uncertainAt = uncertainAt;
            this.orderDependent = orderDependent;
        }

        /** The words parsed (strings given to {@link OptionGrammar#parse} as literal {@link Arg}s). */
        public List<Arg> words() {
            return words;
        }

        /** Every option read, in order (an option given twice appears twice). */
        public List<Option> options() {
            return options;
        }

        /**
         * True when the option was read.
         *
         * @param spelled {@code -x} or {@code --name} as declared (see {@link OptionGrammar#key})
         * @throws IllegalArgumentException when the grammar has no such option
         */
        public boolean has(String spelled) {
            String k = grammar.key(spelled);
            for (Option o : options) if (o.key.equals(k)) return true;
            return false;
        }

        /**
         * True when the option was read, or may be among the words not read because the parse is not certain (a
         * deny rule's question).
         *
         * @param spelled as for {@link #has}
         */
        public boolean mayHave(String spelled) {
            return has(spelled) || !certain();
        }

        /**
         * The last value given to the option (getopt's callers keep the last), or null when it was not given or had
         * no argument or one only known at run time.
         *
         * @param spelled as for {@link #has}
         */
        public String value(String spelled) {
            String k = grammar.key(spelled);
            String v = null;
            for (Option o : options) if (o.key.equals(k)) v = o.text();
            return v;
        }

        /**
         * Every occurrence of the option, in order.
         *
         * @param spelled as for {@link #has}
         */
        public List<Option> all(String spelled) {
            String k = grammar.key(spelled);
            List<Option> out = new ArrayList<>();
            for (Option o : options) if (o.key.equals(k)) out.add(o);
            return out;
        }

        /** The operands' texts, in order (an operand only known at run time as its source text). */
        public List<String> operands() {
            List<String> out = new ArrayList<>(operands.size());
            for (int k : operands) out.add(words.get(k).text());
            return out;
        }

        /** The operands' indices in the words parsed. */
        public List<Integer> operandIndices() {
            return operands;
        }

        /** The operands as {@link Arg}s. */
        public List<Arg> operandArgs() {
            List<Arg> out = new ArrayList<>(operands.size());
            for (int k : operands) out.add(words.get(k));
            return out;
        }

        /**
         * Where reading stopped: for a grammar that requires order, the index of the first operand (the words size
         * when there is none; after {@code --} the word after it); otherwise the words size; at an error or an
         * uncertain word, that word's index.
         */
        public int end() {
            return end;
        }

        /** True when the program accepts these options (no usage error). */
        public boolean ok() {
            return error == null;
        }

        /** The usage error getopt reports, or null. */
        public String error() {
            return error;
        }

        /** The index of the word with the usage error, or -1. */
        public int errorAt() {
            return errorAt;
        }

        /** True when no word only known at run time could change the reading. */
        public boolean certain() {
            return uncertainAt < 0;
        }

        /** The index of the first word only known at run time that could change the reading, or -1. */
        public int uncertainAt() {
            return uncertainAt;
        }

        /** {@link #ok()} and {@link #certain()}: the reading is exact and the program accepts it. */
        public boolean clean() {
            return ok() && certain();
        }

        /**
         * True when an option came after an operand in a grammar that permutes: with {@code POSIXLY_CORRECT} in the
         * environment getopt would have stopped at that operand, so the reading depends on the environment.
         */
        public boolean orderDependent() {
            return orderDependent;
        }

        @Override
        public String toString() {
            StringBuilder b = new StringBuilder();
            for (Option o : options) {
                b.append(o.key);
                if (o.value != null) b.append('=').append(o.value.known() ? o.value.prefix() : "<" + o.value.text() + ">");
                b.append(' ');
            }
            b.append("operands ").append(operands()).append(" end ").append(end);
            if (error != null) b.append(" error ").append(error);
            if (uncertainAt >= 0) b.append(" uncertain at ").append(uncertainAt);
            return b.toString();
        }
    }
}
