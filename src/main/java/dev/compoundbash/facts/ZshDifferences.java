package dev.compoundbash.facts;

import dev.compoundbash.shell.Arithmetic;
import dev.compoundbash.shell.Assignment;
import dev.compoundbash.shell.Command;
import dev.compoundbash.shell.HereDoc;
import dev.compoundbash.shell.Node;
import dev.compoundbash.shell.Redirection;
import dev.compoundbash.shell.Script;
import dev.compoundbash.shell.TestExpr;
import dev.compoundbash.shell.Walker;
import dev.compoundbash.shell.Word;
import dev.compoundbash.shell.WordPart;
import dev.compoundbash.shell.WordValue;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The conservative guard for zsh, until the hook models zsh: the forms of a command, parsed as bash, whose meaning
 * differs when Claude Code runs it in zsh with the options it sets ({@code setopt NO_EXTENDED_GLOB
 * NO_BARE_GLOB_QUAL NO_BRACE_CCL NO_MAGIC_EQUAL_SUBST NO_RC_QUOTES NO_EQUALS}, docs/CLAUDE-CODE.md section S). A
 * command holding none of them runs the same programs with the same words in both shells; one holding any of them
 * is not approved (rules/call.drl). A closed list of the forms known to read alike would be the model; this is the
 * list of the forms measured to differ (zsh 5.9 against bash 5.2 in the replica of Claude Code's shell,
 * ClaudeShellReplica in the tests), each named by what zsh does:
 * <ul>
 *   <li>an unquoted parameter expansion: zsh neither splits nor globs its value, and an array expands to all its
 *       elements ({@code x='a b'; ls $x}; zsh manual 14.3, SH_WORD_SPLIT and GLOB_SUBST off);</li>
 *   <li>an expansion of a name the command assigned an array, quoted or not ({@code "$a"} joins every element),
 *       a subscript ({@code ${a[1]}}: zsh counts from 1) and a length {@code ${#a}} (the element count);</li>
 *   <li>{@code $name[...]} and {@code $name:mod} (subscripts and modifiers without braces), and the zsh parameter
 *       flags {@code $+x $=x $~x $^x} and {@code ${(e)x}} (14.3.1, 14.3.2);</li>
 *   <li>{@code $"..."}: zsh has no locale translation, it is a {@code $} and a string;</li>
 *   <li>{@code ~name}, {@code ~+}, {@code ~-}, {@code ~N}: named directories and the directory stack (14.7);
 *       and {@code x=~/y} as an argument, which bash expands and zsh (NO_MAGIC_EQUAL_SUBST) does not;</li>
 *   <li>{@code **} and {@code ***} in a glob: recursive, {@code ***} through links (14.8.6);</li>
 *   <li>brace expansion: zsh keeps the empty words it makes ({@code git {,push} origin} runs {@code git '' push
 *       origin}; bash drops them), measured by the execution oracle in the zsh replica;</li>
 *   <li>{@code <N-M>}: a numeric glob, where bash reads two redirections;</li>
 *   <li>bash's extended globs {@code @(...)} and friends: zsh reads a glob group;</li>
 *   <li>an {@code echo} argument holding a backslash, or known only at run time, where the echo's output is read
 *       as data (a pipeline, a substitution): zsh's echo reads escapes ({@code \n}, {@code \x41});</li>
 *   <li>a command of redirections only: zsh runs {@code $NULLCMD} ({@code cat}) or {@code $READNULLCMD}
 *       ({@code more});</li>
 *   <li>two input redirections of one descriptor ({@code bash 0<<< 'a' <<< 'b'}): zsh (MULTIOS) reads both, bash
 *       the last; measured by the execution oracle in the zsh replica;</li>
 *   <li>{@code >!} and {@code >>!}: zsh's clobbering redirections, where bash writes to a file named {@code !};</li>
 *   <li>an assignment to a parameter that is special in zsh and changes what runs: {@code path}, {@code fpath},
 *       {@code module_path}, {@code cdpath}, {@code NULLCMD}, {@code READNULLCMD}, {@code ZDOTDIR}, the prompts;</li>
 *   <li>a function zsh calls by its name: {@code TRAP*}, {@code command_not_found_handler}, the hook functions;</li>
 *   <li>{@code cd}/{@code chdir}/{@code pushd} with two operands: zsh substitutes in {@code $PWD}; and
 *       {@code cd +N}/{@code cd -N}: an entry of zsh's directory stack, where bash reads a directory name or an
 *       option;</li>
 *   <li>zsh's own grammar ({@link Script#zshForms()}: {@code repeat}, {@code foreach}, short loops, anonymous
 *       functions, {@code always}, {@code &|}, {@code =(...)}, ...), read by the parser so that deny rules see the
 *       commands in it;</li>
 *   <li>the hook arrays ({@code chpwd_functions}, {@code precmd_functions}, ...), whose functions zsh calls by
 *       itself, and {@code ARGV0} and {@code STTY} in a command's environment (argv[0] of the program, an
 *       {@code stty} run before it; zsh manual 15.6);</li>
 *   <li>{@code set} with an option letter other than those meaning the same in both shells ({@code -e -u -x -v -n
 *       -a -C -m}): zsh's letters name other options ({@code -y} SH_WORD_SPLIT, {@code -T} CDABLE_VARS, {@code -f}
 *       NO_RCS where bash's is noglob; zsh manual 16.3 "Single Letter Options"), {@code set -o}/{@code +o} with an
 *       option other than {@code errexit nounset xtrace verbose pipefail noexec allexport noclobber}, and
 *       {@code set -A}/{@code +A} (an array assignment); {@code read -A} (an array) and {@code r} (zsh's
 *       {@code fc -e -}, which runs a command from the history);</li>
 *   <li>{@code emulate}, {@code zparseopts}, {@code zregexparse}, {@code private}: state builtins like
 *       {@code setopt}, also named after {@code builtin}, {@code command}, {@code noglob} or a quoted or escaped
 *       name ({@code \setopt});</li>
 * </ul>
 */
public final class ZshDifferences {
    /** Parameters special in zsh whose value changes which program or file runs (zsh manual 15.6). */
    public static final Set<String> SPECIAL_PARAMETERS = Set.of("path", "fpath", "FPATH", "module_path",
            "MODULE_PATH", "cdpath", "NULLCMD", "READNULLCMD", "ZDOTDIR", "PS1", "PS2", "PS3", "PS4", "PROMPT",
            "PROMPT2", "PROMPT3", "PROMPT4", "RPROMPT", "RPS1", "RPROMPT2", "RPS2", "histchars", "HISTCHARS",
            "manpath", "MANPATH", "mailpath", "MAILPATH", "watch", "WATCH", "TMPPREFIX", "argv",
            // the zsh/parameter module's tables: what a name runs (commands is the command hash table, functions
            // and the alias tables define code), which options are on, named directories (zsh manual 22.21)
            "commands", "functions", "functions_source", "aliases", "galiases", "saliases", "dis_aliases",
            "dis_galiases", "dis_saliases", "dis_functions", "dis_builtins", "dis_reswords", "builtins", "reswords",
            "options", "nameddirs", "userdirs", "modules", "parameters", "widgets", "zsh_scheduled_events",
            // the hook arrays: zsh calls the functions they name by itself (zsh manual 9.3.1 "Hook Functions"),
            // chpwd's on every directory change; ARGV0 sets argv[0] of an external command, STTY runs stty before
            // it (15.6 "Parameters Used By The Shell")
            "chpwd_functions", "precmd_functions", "preexec_functions", "periodic_functions", "zshexit_functions",
            "zshaddhistory_functions", "zsh_directory_name_functions", "ARGV0", "STTY", "PERIOD", "TMOUT");

    /**
     * zsh builtins that change what later commands run or how they are read, whatever their words: options
     * ({@code setopt}/{@code unsetopt}: {@code unsetopt noequals} turns {@code =rm} back into {@code /usr/bin/rm}),
     * the tables of names ({@code unhash}, {@code disable}, {@code enable}, {@code unfunction}, {@code autoload},
     * {@code functions}), modules and emulation (zsh manual 17 "Shell Builtin Commands"). {@code hash} is read on its
     * own: only its listing forms leave the table as it is.
     */
    static final Set<String> STATE_BUILTINS = Set.of("setopt", "unsetopt", "unhash", "disable", "enable",
            "unfunction", "autoload", "functions", "emulate", "zmodload", "bindkey", "zle", "sched", "zstyle",
            "compdef", "zcompile", "zformat", "zparseopts", "zregexparse", "private", "r");

    /** Function names zsh calls by itself (zsh manual 9.3, 9.3.1 "Hook Functions", 9.3.2 "Trap Functions"). */
    private static final Pattern CALLED_BY_NAME = Pattern.compile(
            "TRAP[A-Z0-9]+|command_not_found_handler|precmd|preexec|chpwd|periodic|zshexit|zshaddhistory"
            + "|zsh_directory_name");
    /** {@code set} option letters that name the same option in zsh as in bash (zsh manual 16.3, bash set). */
    private static final String SAME_SET_LETTERS = "euxvnaCm";
    /** {@code set -o} names that mean the same in both shells (zsh reads them case- and underscore-blind). */
    private static final Set<String> SAME_SET_NAMES = Set.of("errexit", "nounset", "xtrace", "verbose", "pipefail",
            "noexec", "allexport", "noclobber");

    private static final Pattern BRACES = Pattern.compile("\\{[^{}]*(,|\\.\\.)");
    private static final Pattern NUMERIC_GLOB = Pattern.compile("<[0-9]*-[0-9]*>");
    private static final Pattern FLAG_PREFIX = Pattern.compile("\\$\\{?[+=~^]|\\$\\{\\(");
    /** Pipeline readers that take their input as text only, never as words, paths or code. */
    private static final Set<String> TEXT_FILTERS = Set.of("wc", "head", "tail", "sort", "uniq", "cat", "grep",
            "cut", "tr", "less", "more", "nl", "rev", "tac", "fold", "column", "sed", "awk");
    private static final Set<String> CHANGES_DIRECTORY = Set.of("cd", "chdir", "pushd");

    private ZshDifferences() {
    }

    /**
     * The forms of {@code script} whose meaning differs in zsh, each as a short description naming the text.
     *
     * @param script the command parsed as bash
     * @param source the command text
     * @return the descriptions, in source order, without repeats; empty when zsh reads the command as bash does
     */
    public static List<String> find(Script script, String source) {
        Set<String> out = new LinkedHashSet<>(script.zshForms());
        Matcher m = NUMERIC_GLOB.matcher(source);
        if (m.find()) out.add("the numeric glob " + m.group());
        m = FLAG_PREFIX.matcher(source);
        if (m.find()) out.add("the zsh parameter flag " + m.group());
        Set<String> arrays = new HashSet<>();
        for (Assignment a : Walker.all(script, Assignment.class)) {
            if (a.array() != null) arrays.add(a.name());
        }
        for (Word w : Walker.all(script, Word.class)) {
            for (WordPart p : w.parts()) {
                if (p instanceof WordPart.ArrayLiteral) arrays.add(assignedName(text(w, source)));
            }
        }
        Walker.walk(script, (node, ancestors) -> {
            visit(node, ancestors, source, arrays, out);
            return true;
        });
        return List.copyOf(out);
    }

    private static void visit(Node node, List<Node> ancestors, String source, Set<String> arrays, Set<String> out) {
        if (node instanceof WordPart.ParamExpansion p) {
            param(p, ancestors, source, arrays, out);
        } else if (node instanceof WordPart.DoubleQuoted d && d.localized()) {
            out.add("$\"...\", which zsh does not translate");
        } else if (node instanceof WordPart.Tilde t && t.user() != null && !t.user().isEmpty()) {
            out.add("~" + t.user() + ", a named directory or the directory stack in zsh");
        } else if (node instanceof WordPart.Tilde t && !ancestors.isEmpty()
                && ancestors.get(ancestors.size() - 1) instanceof Word w && w.parts().indexOf(t) > 0
                && !inside(ancestors, Assignment.class)) {
            out.add("the tilde in " + text(w, source) + ", which bash expands after = and zsh does not");
        } else if (node instanceof WordPart.ExtGlob g) {
            out.add("the glob " + g.operator() + "(...), a glob group in zsh");
        } else if (node instanceof Word w && !quoted(ancestors)
                && w.parts().stream().anyMatch(p -> p instanceof WordPart.Literal l && l.raw().contains("{"))
                && BRACES.matcher(text(w, source)).find()) {
            out.add("the brace expansion in " + text(w, source) + ", whose empty words zsh keeps");
        } else if (node instanceof WordPart.Literal l && !quoted(ancestors)) {
            if (l.raw().contains("**")) out.add("the recursive glob ** in " + l.raw());
            if (!inside(ancestors, Assignment.class) && (l.raw().contains("=~") || l.raw().contains(":~"))) {
                out.add("a tilde after = or : in " + l.raw() + ", which bash expands and zsh does not");
            }
        } else if (node instanceof Assignment a && SPECIAL_PARAMETERS.contains(a.name())) {
            out.add("an assignment to " + a.name() + ", special in zsh");
        } else if (node instanceof Command.FunctionDef f && CALLED_BY_NAME.matcher(f.name()).matches()) {
            out.add("the function " + f.name() + ", which zsh calls by its name");
        } else if (node instanceof Redirection r && r.target() != null && text(r.target(), source).startsWith("!")) {
            out.add("the redirection " + r.operator() + text(r.target(), source) + ", zsh's clobbering form");
        } else if (node instanceof Command.Simple s) {
            simple(s, ancestors, source, out);
        } else if (node instanceof Command.Compound c) {
            multios(c.redirections(), out);
        }
    }

    private static void simple(Command.Simple s, List<Node> ancestors, String source, Set<String> out) {
        if (s.words().isEmpty() && s.assignments().isEmpty() && !s.redirections().isEmpty()) {
            out.add("a command of redirections only, which runs $NULLCMD or $READNULLCMD in zsh");
        }
        multios(s.redirections(), out);
        if (s.words().isEmpty()) return;
        WordValue name = WordValue.of(s.words().get(0), source);
        String program = name.isStatic() ? name.value() : "";
        if (program.equals("echo") && readAsData(s, ancestors, source)) {
            for (Word w : s.words().subList(1, s.words().size())) {
                WordValue v = WordValue.of(w, source);
                if (!v.isStatic() || v.value().indexOf('\\') >= 0) {
                    out.add("the echo argument " + text(w, source) + ", whose escapes zsh's echo reads");
                    break;
                }
            }
        }
        if (program.equals("-") || program.equals("nocorrect") || program.equals("noglob")
                && s.words().size() > 1 && text(s.words().get(1), source).equals("-")) {
            // - CMD runs CMD with a dash before its argv[0] (zsh manual 6.2 "Precommand Modifiers")
            out.add("the precommand modifier " + program + ", which runs the words after it as a command in zsh");
        }
        for (int i = 0; i < s.words().size(); i++) {
            // builtin -, exec -, command -: the precommand modifier after another one
            String t = text(s.words().get(i), source);
            if (i > 0 && t.equals("-") && Set.of("builtin", "exec", "command", "noglob", "nocorrect", "-")
                    .contains(text(s.words().get(i - 1), source))) {
                out.add("the precommand modifier - after " + text(s.words().get(i - 1), source));
            }
        }
        String state = program;
        int at = 0;
        for (int i = 0; i + 1 < s.words().size() && Set.of("builtin", "command", "noglob", "nocorrect", "-", "exec")
                .contains(state); i++) {
            WordValue v = WordValue.of(s.words().get(i + 1), source);
            state = v.isStatic() ? v.value() : "";
            at = i + 1;
        }
        if (state.equals("set")) setOptions(s.words().subList(at + 1, s.words().size()), source, out);
        if (state.equals("read") && s.words().stream().skip(at + 1).map(w -> text(w, source))
                .anyMatch(t -> t.startsWith("-") && t.indexOf('A') > 0)) {
            out.add("\"read -A\", which reads an array in zsh");
        }
        if (STATE_BUILTINS.contains(state)) {
            out.add("\"" + state + "\", which changes zsh's state for what follows");
        } else if (state.equals("hash")) {
            // hash NAME=PATH binds NAME, hash -d NAME=DIR a named directory; -r empties the table, -L and a bare
            // hash list it (zsh manual 17: hash)
            for (Word w : s.words()) {
                String t = text(w, source);
                if (t.indexOf('=') > 0 || t.startsWith("-") && !t.equals("-r") && !t.equals("-L") && !t.equals("-")
                        && !t.equals("--")) {
                    out.add("\"hash " + t + "\", which binds a name in zsh's tables");
                    break;
                }
            }
        }
        if (CHANGES_DIRECTORY.contains(program) || program.equals("popd")) {
            long operands = s.words().stream().skip(1).filter(w -> !text(w, source).startsWith("-")).count();
            if (operands >= 2) out.add(program + " with two operands, which substitutes in $PWD in zsh");
            for (Word w : s.words().subList(1, s.words().size())) {
                WordValue v = WordValue.of(w, source);
                if (v.isStatic() && v.value().matches("[+-][0-9]+")) {
                    out.add(program + " " + text(w, source) + ", which may name an entry of zsh's directory stack");
                    break;
                }
            }
        }
        for (Word w : s.words()) {
            if (isDeclaration(program) && SPECIAL_PARAMETERS.contains(assignedName(text(w, source)))) {
                out.add("an assignment to " + assignedName(text(w, source)) + ", special in zsh");
            }
        }
    }

    /** zsh's {@code set}: the option words before the operands (zsh manual 17 "set", 16.3). */
    private static void setOptions(List<Word> words, String source, Set<String> out) {
        for (int i = 0; i < words.size(); i++) {
            WordValue v = WordValue.of(words.get(i), source);
            if (!v.isStatic()) {
                out.add("set " + text(words.get(i), source) + ", whose options zsh reads otherwise");
                return;
            }
            String t = v.value();
            if (t.equals("--") || t.equals("-") || !(t.startsWith("-") || t.startsWith("+"))) return;
            for (int k = 1; k < t.length(); k++) {
                char c = t.charAt(k);
                if (c == 'o') {
                    String name = k + 1 < t.length() ? t.substring(k + 1)
                            : i + 1 < words.size() ? WordValue.of(words.get(++i), source).value() : "";
                    String norm = name == null ? "" : name.toLowerCase(java.util.Locale.ROOT).replace("_", "");
                    if (!norm.isEmpty() && !SAME_SET_NAMES.contains(norm)) {
                        out.add("set -o " + name + ", a zsh option");
                    }
                    break;
                }
                if (SAME_SET_LETTERS.indexOf(c) < 0) {
                    out.add("set " + t + ": zsh's option letter " + c + (c == 'A' ? " assigns an array"
                            : " names another option than bash's"));
                    return;
                }
            }
        }
    }

    private static void param(WordPart.ParamExpansion p, List<Node> ancestors, String source, Set<String> arrays,
                              Set<String> out) {
        String text = source.substring(p.span().start(), p.span().end());
        int end = p.span().end();
        if (!p.braced() && end < source.length() && (source.charAt(end) == '[' || source.charAt(end) == ':')) {
            out.add(text + source.charAt(end) + "..., a subscript or modifier in zsh");
        }
        if (arrays.contains(p.name())) out.add(text + ", an array: zsh expands every element");
        if (p.braced() && (p.index() != null || "#".equals(p.prefix()))) {
            out.add(text + ", which counts or subscripts differently in zsh");
        }
        if (quoted(ancestors) || exempt(ancestors)) return;
        String n = p.name();
        if (n.equals("?") || n.equals("#") || n.equals("$") || n.equals("!") || n.equals("-")
                || n.chars().allMatch(Character::isDigit)) {
            return;
        }
        out.add("the unquoted " + text + ", which zsh neither splits nor globs");
    }

    private static void multios(List<Redirection> redirections, Set<String> out) {
        Set<String> inputs = new HashSet<>();
        for (Redirection r : redirections) {
            if (!r.operator().startsWith("<") || r.operator().equals("<>")) continue;
            String fd = r.fd() == null || r.fd().isEmpty() ? "0" : r.fd();
            if (!inputs.add(fd)) {
                out.add("two inputs for descriptor " + fd + ", which zsh reads one after the other (MULTIOS)");
                return;
            }
        }
    }

    /**
     * Output the hook may read as data: piped into a command other than a text filter (xargs, a shell), or in a
     * command or process substitution.
     */
    private static boolean readAsData(Command.Simple echo, List<Node> ancestors, String source) {
        for (Node a : ancestors) {
            if (a instanceof Command.Pipeline p && p.commands().size() > 1) {
                for (Command c : p.commands()) {
                    if (c == echo) continue;
                    if (!(c instanceof Command.Simple t) || t.words().isEmpty()) return true;
                    WordValue n = WordValue.of(t.words().get(0), source);
                    if (!n.isStatic() || !TEXT_FILTERS.contains(n.value())) return true;
                }
            }
            if (a instanceof WordPart.CommandSubstitution || a instanceof WordPart.ProcessSubstitution) return true;
        }
        return false;
    }

    /** Inside an assignment value, [[ ]], arithmetic or a here-document body no shell splits an expansion. */
    private static boolean exempt(List<Node> ancestors) {
        for (Node a : ancestors) {
            if (a instanceof Assignment || a instanceof TestExpr || a instanceof Arithmetic
                    || a instanceof Command.Conditional || a instanceof HereDoc) {
                return true;
            }
        }
        return false;
    }

    /** Inside double quotes, and not in a command or process substitution within them (where quoting starts anew). */
    private static boolean quoted(List<Node> ancestors) {
        for (int i = ancestors.size() - 1; i >= 0; i--) {
            Node a = ancestors.get(i);
            if (a instanceof WordPart.CommandSubstitution || a instanceof WordPart.ProcessSubstitution) return false;
            if (a instanceof WordPart.DoubleQuoted) return true;
        }
        return false;
    }

    private static boolean inside(List<Node> ancestors, Class<? extends Node> type) {
        for (Node a : ancestors) {
            if (type.isInstance(a)) return true;
        }
        return false;
    }

    private static boolean isDeclaration(String program) {
        return Set.of("export", "declare", "typeset", "local", "readonly", "integer", "float").contains(program);
    }

    private static String assignedName(String word) {
        int eq = word.indexOf('=');
        String name = eq < 0 ? word : word.substring(0, eq);
        if (name.endsWith("+")) name = name.substring(0, name.length() - 1);
        return name;
    }

    private static String text(Node n, String source) {
        return source.substring(n.span().start(), n.span().end());
    }
}
