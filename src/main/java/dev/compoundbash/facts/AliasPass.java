package dev.compoundbash.facts;

import dev.compoundbash.shell.Command;
import dev.compoundbash.shell.ListItem;
import dev.compoundbash.shell.Node;
import dev.compoundbash.shell.ParseException;
import dev.compoundbash.shell.Parser;
import dev.compoundbash.shell.Script;
import dev.compoundbash.shell.Word;
import dev.compoundbash.shell.WordPart;
import dev.compoundbash.shell.WordValue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Pass 0 of the extractor, aliases (issue 19): the aliases a bash command defines, expanded in the lines after the
 * definition as Claude Code's shell expands them ({@code expand_aliases} is on, the command is read by {@code eval}),
 * so that the expanded command is what the later passes judge: {@code alias g=git} then {@code g push} on a later
 * line is {@code git push}.
 *
 * <p>What bash does, measured in the replica ({@code bash -c 'shopt -s expand_aliases; eval "$1" < /dev/null'}),
 * bash(1) ALIASES: eval parses and runs one complete command (a line: the lists up to a newline, a compound command
 * spanning lines whole, its here-documents) at a time, so an alias applies from the next line on, never to the rest
 * of the line defining it, and never inside a compound command that holds the definition; it applies to the first
 * word of every simple command of the line (inside compound commands, subshells, pipelines, after {@code &&},
 * {@code !}, {@code time}, after assignment words, in function bodies as they are defined), and to the word after
 * an alias whose value ends in a blank; the first word of a value is expanded again, except an alias already being
 * expanded; after a value ending in a blank, the next word is checked only when the outermost value so ending was
 * the last expanded ({@code alias a=b b='echo '}: {@code a c} runs {@code echo c}); a quoted or escaped word is not
 * expanded; command and process substitutions (and function bodies' substitutions) are parsed when they run.
 *
 * <p>Followed exactly: {@code alias NAME=VALUE}, {@code alias NAME}, {@code alias -p}, {@code unalias NAME},
 * {@code unalias -a} as items of the command's top-level list (not in the background, not in a pipeline or a
 * list with {@code &&}/{@code ||}), with static words, names of plain characters that are not reserved words, and
 * values of plain words (no operator, expansion, quote of an expansion, comment or assignment first), not empty.
 * Anything else with an alias in it (a definition in a compound command, a function body, a substitution; a word
 * {@code alias} anywhere else; a function named like an alias; a substitution in a line that changes aliases or
 * in a function body after a definition) is not followed: {@link Result#followed()} is false and the alias
 * builtins stay a shell-state change the hook does not follow ({@link ShellStateChanges}). zsh is not read here:
 * its eval parses the whole text before running it, so an alias never applies within the call (measured).
 */
final class AliasPass {
    private AliasPass() {
    }

    /**
     * The pass's product.
     *
     * @param script   the command with the aliases expanded (the input itself when nothing was expanded)
     * @param followed every alias change of the command was followed exactly (true when there is none)
     * @param defined  the command defines an alias the pass followed: code read at run time in the same shell
     *                 ({@code eval}, {@code source}) may use it
     */
    record Result(Script script, boolean followed, boolean defined) {
    }

    /** Bash's reserved words (bash(1) RESERVED WORDS): an alias so named or valued is not followed. */
    private static final Set<String> RESERVED = Set.of("!", "case", "coproc", "do", "done", "elif", "else", "esac",
            "fi", "for", "function", "if", "in", "select", "then", "until", "while", "{", "}", "time", "[[", "]]");
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.:+@%,][A-Za-z0-9_.:+@%,-]*");
    /** One word of a value: plain characters and quotes holding no expansion. */
    private static final Pattern VALUE_WORD = Pattern.compile(
            "(?:[A-Za-z0-9_./:,+%@^~=*?\\[\\]-]|'[^']*'|\"[^\"$`\\\\!]*\")+");
    private static final Pattern VALUE = Pattern.compile("[ \\t]*(?:" + VALUE_WORD + "[ \\t]+)*(?:" + VALUE_WORD
            + ")?[ \\t]*");

    /**
     * Expands the aliases {@code script} defines in the lines after each definition.
     *
     * @param script the parsed command
     * @return the expanded command and whether every alias change was followed; never null
     */
    static Result expand(Script script) {
        String src = script.source();
        if (!src.contains("alias")) return new Result(script, true, false);
        // BASH_ALIASES[name]=value defines an alias too: not followed
        if (src.contains("BASH_ALIASES")) return new Result(script, false, false);
        List<ListItem> items = script.body().items();
        // the alias builtins the pass may follow: direct items of the top-level list
        Set<Command.Simple> direct = new HashSet<>();
        for (ListItem it : items) {
            if (!it.background() && aliasBuiltin(it.command(), src) != null) direct.add(aliasBuiltin(it.command(), src));
        }
        for (Command.Simple s : dev.compoundbash.shell.Walker.all(script, Command.Simple.class)) {
            if (direct.contains(s)) continue;
            for (Word w : s.words()) {
                String t = WordValue.of(w, src).text();
                if (t.contains("alias")) return new Result(script, false, false);
            }
            for (var a : s.assignments()) if (a.span().text(src).contains("alias")) {
                // an assignment's value may hold the word; only a command word matters, but stay on the safe side
                if (a.value() != null && !WordValue.of(a.value(), src).isStatic()) return new Result(script, false, false);
            }
        }
        Map<String, String> table = new LinkedHashMap<>();
        boolean defined = false;
        StringBuilder out = new StringBuilder();
        int copied = 0;
        int i = 0;
        while (i < items.size()) {
            // one complete command as eval reads it: the items up to the one a newline ends
            int j = i;
            while (j + 1 < items.size() && !lineEnds(items.get(j), items.get(j + 1), src)) j++;
            List<ListItem> unit = items.subList(i, j + 1);
            List<int[]> spans = new ArrayList<>();
            List<String> texts = new ArrayList<>();
            boolean changes = false, substitutes = false;
            for (ListItem it : unit) {
                changes |= direct.contains(aliasBuiltin(it.command(), src));
                if (!table.isEmpty() && !expandIn(it, table, src, spans, texts, false)) {
                    return new Result(script, false, defined);
                }
                substitutes |= hasSubstitution(it);
            }
            if (changes && substitutes) return new Result(script, false, defined);
            List<Integer> order = new ArrayList<>();
            for (int k = 0; k < spans.size(); k++) order.add(k);
            order.sort(java.util.Comparator.comparingInt(k -> spans.get(k)[0]));
            for (int k : order) {
                int[] s = spans.get(k);
                out.append(src, copied, s[0]).append(texts.get(k));
                copied = s[1];
            }
            // then what the line's alias builtins do, for the lines after it
            for (ListItem it : unit) {
                Command.Simple a = aliasBuiltin(it.command(), src);
                if (a == null || !direct.contains(a)) continue;
                if (!apply(a, src, table)) return new Result(script, false, defined);
                defined |= !table.isEmpty();
            }
            i = j + 1;
        }
        if (copied == 0) return new Result(script, true, defined);
        out.append(src.substring(copied));
        try {
            return new Result(Parser.parse(out.toString()), true, defined);
        } catch (ParseException | RuntimeException e) {
            return new Result(script, false, defined);
        }
    }

    /** The simple command {@code alias ...} or {@code unalias ...} a list item is, or null. */
    private static Command.Simple aliasBuiltin(Command c, String src) {
        if (c instanceof Command.Pipeline p && p.commands().size() == 1 && !p.negated() && !p.timed()) {
            c = p.commands().get(0);
        }
        if (!(c instanceof Command.Simple s) || s.words().isEmpty()) return null;
        String name = s.words().get(0).span().text(src);
        return name.equals("alias") || name.equals("unalias") ? s : null;
    }

    /** Whether bash's eval ends a complete command between two top-level items (a newline between them). */
    private static boolean lineEnds(ListItem a, ListItem b, String src) {
        if ("\n".equals(a.separator())) return true;
        int from = Math.min(a.command().span().end(), b.span().start());
        return src.substring(from, b.span().start()).indexOf('\n') >= 0;
    }

    private static boolean hasSubstitution(Node n) {
        for (Node x : dev.compoundbash.shell.Walker.all(n)) {
            if (x instanceof WordPart.CommandSubstitution || x instanceof WordPart.ProcessSubstitution) return true;
        }
        return false;
    }

    /**
     * Collects the replacements of the alias words in the simple commands under {@code n}, in source order.
     *
     * @return false when the node holds an alias use the pass does not follow
     */
    private static boolean expandIn(Node n, Map<String, String> table, String src, List<int[]> spans,
                                    List<String> texts, boolean inFunction) {
        if (n instanceof Command.FunctionDef f) {
            if (table.containsKey(f.name())) return false; // bash expands the name: a function of another name
            inFunction = true;
        }
        if (inFunction && (n instanceof WordPart.CommandSubstitution || n instanceof WordPart.ProcessSubstitution)) {
            return false; // parsed when the function runs, with the aliases of that time
        }
        if (n instanceof Command.Simple s && !s.words().isEmpty()) {
            List<String> words = new ArrayList<>();
            for (Word w : s.words()) words.add(plain(w, src));
            List<String> expanded = new ArrayList<>();
            int used = expandWords(words, table, new HashSet<>(), expanded);
            if (used > 0) {
                spans.add(new int[] {s.words().get(0).span().start(), s.words().get(used - 1).span().end()});
                texts.add(String.join(" ", expanded));
            }
        }
        List<Node> children = new ArrayList<>(n.children());
        children.sort(dev.compoundbash.shell.Walker.BY_POSITION);
        for (Node c : children) if (!expandIn(c, table, src, spans, texts, inFunction)) return false;
        return true;
    }

    /** The word's text when it is one unquoted literal (what bash may take as an alias name), else null. */
    private static String plain(Word w, String src) {
        if (w.parts().size() != 1 || !(w.parts().get(0) instanceof WordPart.Literal)) return null;
        String raw = w.span().text(src);
        return NAME.matcher(raw).matches() ? raw : null;
    }

    /**
     * Expands the leading words of a command as bash's reader does.
     *
     * @param words    the words' plain texts (null for a word that is not one unquoted literal)
     * @param table    the aliases in force
     * @param active   the aliases being expanded (not expanded again)
     * @param out      receives the words the expanded ones become
     * @return how many of {@code words} were replaced (0 when the first is no alias)
     */
    private static int expandWords(List<String> words, Map<String, String> table, Set<String> active,
                                   List<String> out) {
        int i = 0;
        boolean check = true;
        while (i < words.size() && check) {
            String w = words.get(i);
            if (w == null || !table.containsKey(w) || active.contains(w)) break;
            String value = table.get(w);
            List<String> inner = valueWords(value);
            Set<String> deeper = new HashSet<>(active);
            deeper.add(w);
            List<String> innerOut = new ArrayList<>();
            List<String> plainInner = new ArrayList<>();
            for (String v : inner) plainInner.add(NAME.matcher(v).matches() ? v : null);
            int used = expandWords(plainInner, table, deeper, innerOut);
            out.addAll(innerOut);
            out.addAll(inner.subList(used, inner.size()));
            check = value.endsWith(" ") || value.endsWith("\t");
            i++;
        }
        return i;
    }

    private static List<String> valueWords(String value) {
        List<String> out = new ArrayList<>();
        Matcher m = VALUE_WORD.matcher(value);
        while (m.find()) out.add(m.group());
        return out;
    }

    /**
     * Applies an alias builtin to the table.
     *
     * @return false when it does something the pass does not follow
     */
    private static boolean apply(Command.Simple s, String src, Map<String, String> table) {
        if (!s.assignments().isEmpty()) return false;
        List<String> args = new ArrayList<>();
        for (Word w : s.words().subList(1, s.words().size())) {
            WordValue v = WordValue.of(w, src);
            if (!v.isStatic() || v.braceExpansion()) return false;
            args.add(v.value());
        }
        boolean unalias = s.words().get(0).span().text(src).equals("unalias");
        int k = 0;
        if (unalias) {
            if (!args.isEmpty() && args.get(0).equals("-a")) {
                if (args.size() > 1) return false;
                table.clear();
                return true;
            }
            if (!args.isEmpty() && args.get(0).equals("--")) k = 1;
            for (String a : args.subList(k, args.size())) {
                if (a.startsWith("-")) return false;
                table.remove(a);
            }
            return true;
        }
        while (k < args.size() && (args.get(k).equals("-p") || args.get(k).equals("--"))) {
            if (args.get(k++).equals("--")) break;
        }
        for (String a : args.subList(k, args.size())) {
            int eq = a.indexOf('=');
            if (eq < 0) {
                if (a.startsWith("-")) return false;
                continue; // prints the alias (or fails): no change
            }
            String name = a.substring(0, eq), value = a.substring(eq + 1);
            if (!NAME.matcher(name).matches() || RESERVED.contains(name) || name.equals("alias")
                    || name.equals("unalias")) return false;
            if (!VALUE.matcher(value).matches()) return false;
            List<String> ws = valueWords(value);
            if (ws.isEmpty() || RESERVED.contains(ws.get(0)) || ws.get(0).contains("=")) return false;
            table.put(name, value);
        }
        return true;
    }
}
