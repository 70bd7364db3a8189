package dev.compoundbash.facts;

import dev.compoundbash.shell.Command;
import dev.compoundbash.shell.CommandList;
import dev.compoundbash.shell.ListItem;
import dev.compoundbash.shell.Node;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The pass that renders every pipeline and list the walk met, at any depth, as {@link JoinedCommands}: the text a
 * permission rule written across control operators ({@code Bash(curl * | sh)}) is matched against. It runs after the
 * walk, reading what the walk produced: which {@link SubCommand} each simple command became ({@link #command}),
 * the {@link Wrapper}s to their payloads, and the functions the call defines.
 *
 * <p>Follows the Bash Reference Manual §3.2.3 "Pipelines" ({@code |}, {@code |&}) and §3.2.4 "Lists of Commands"
 * ({@code &&}, {@code ||}, {@code ;}, {@code &}, newline). What Claude Code does with such rules was measured
 * (docs/CLAUDE-CODE.md, "Rules across control operators"): it matches them against the whole command text only, so
 * the hook matches them against every pipeline and list it sees.
 */
final class PipelinesAndLists {
    /** Alternatives kept per command: its own forms and those of the commands its wrappers run. */
    private static final int MAX_ALTERNATIVES = 24;
    private static final String ANY = String.valueOf(JoinedCommands.ANY_COMMANDS);

    /** A pipeline, and-or list or command list met by the walk: the node, its source text, where it stood. */
    record Met(Node node, String source, boolean topLevel, List<String> contextPath) {
    }

    /** One part of the joined text: the texts that may stand there, known and as shapes. */
    private record Part(List<String> known, List<String> shapes) {
    }

    private final Map<Command.Simple, SubCommand> asWritten;
    private final Map<Integer, SubCommand> byId = new java.util.HashMap<>();
    private final Map<Integer, List<Integer>> payloads = new java.util.HashMap<>();
    private final Set<String> functions;

    /**
     * @param asWritten   the sub-command each simple command became (identity map), as written
     * @param subCommands every sub-command
     * @param wrappers    every wrapper link
     * @param functions   the names of the functions the call defines
     */
    PipelinesAndLists(Map<Command.Simple, SubCommand> asWritten, List<SubCommand> subCommands, List<Wrapper> wrappers,
                      Set<String> functions) {
        this.asWritten = asWritten;
        for (SubCommand s : subCommands) byId.put(s.getId(), s);
        for (Wrapper w : wrappers) {
            if (w.getPayloadId() >= 0) payloads.computeIfAbsent(w.getCommandId(), k -> new ArrayList<>()).add(w.getPayloadId());
        }
        this.functions = functions;
    }

    /**
     * The facts of the pipelines and lists met.
     *
     * @param met    in walk order
     * @param nextId the first free fact id
     * @return one fact per pipeline of two or more commands, and-or list, and list of two or more members
     */
    List<JoinedCommands> facts(List<Met> met, int nextId) {
        List<JoinedCommands> out = new ArrayList<>();
        Set<Node> done = java.util.Collections.newSetFromMap(new IdentityHashMap<>());
        for (Met m : met) {
            if (!done.add(m.node())) continue; // a function body walked at each call: one fact
            List<Node> elements = new ArrayList<>();
            List<Part> ops = new ArrayList<>();
            if (m.node() instanceof Command.Pipeline p) {
                elements.addAll(p.commands());
                for (String op : p.operators()) ops.add(op.equals("|&") ? operator(" |& ", " | ") : operator(" | "));
            } else if (m.node() instanceof Command.AndOrList a) {
                elements.addAll(a.commands());
                for (String op : a.operators()) ops.add(operator(" " + op + " "));
            } else if (m.node() instanceof CommandList l) {
                for (ListItem i : l.items()) elements.add(i.command());
                for (int k = 0; k + 1 < l.items().size(); k++) {
                    ops.add(l.items().get(k).background() ? operator(" & ") : operator("; "));
                }
            }
            if (elements.size() < 2) continue;
            List<Part> parts = new ArrayList<>();
            List<Integer> starts = new ArrayList<>(), ends = new ArrayList<>();
            List<Integer> ids = new ArrayList<>();
            for (int k = 0; k < elements.size(); k++) {
                if (k > 0) parts.add(ops.get(k - 1));
                starts.add(parts.size());
                render(elements.get(k), m.source(), parts, ids);
                ends.add(parts.size());
            }
            boolean shaped = false;
            for (Part p : parts) shaped |= !p.shapes().equals(p.known());
            out.add(new JoinedCommands(nextId++, oneLine(m.node().span().text(m.source())), m.topLevel(),
                    m.contextPath(), parts.stream().map(Part::known).toList(),
                    shaped ? parts.stream().map(Part::shapes).toList() : List.of(), starts, ends, ids));
        }
        return out;
    }

    private static Part operator(String... spellings) {
        return new Part(List.of(spellings), List.of(spellings));
    }

    /** Appends the parts of command {@code c} (written in {@code source}) and the sub-commands it joins. */
    private void render(Node c, String source, List<Part> parts, List<Integer> ids) {
        if (c instanceof Command.Simple s) {
            parts.add(simple(s, source, ids));
        } else if (c instanceof Command.Pipeline p) {
            for (int k = 0; k < p.commands().size(); k++) {
                if (k > 0) parts.add(p.operators().get(k - 1).equals("|&") ? operator(" |& ", " | ") : operator(" | "));
                render(p.commands().get(k), source, parts, ids);
            }
        } else if (c instanceof Command.AndOrList a) {
            for (int k = 0; k < a.commands().size(); k++) {
                if (k > 0) parts.add(operator(" " + a.operators().get(k - 1) + " "));
                render(a.commands().get(k), source, parts, ids);
            }
        } else if (c instanceof CommandList l) {
            for (int k = 0; k < l.items().size(); k++) {
                if (k > 0) parts.add(l.items().get(k - 1).background() ? operator(" & ") : operator("; "));
                render(l.items().get(k).command(), source, parts, ids);
            }
        } else if (c instanceof Command.Subshell s) {
            render(s.body(), source, parts, ids); // ( list ): its commands stand where it stands
        } else if (c instanceof Command.Group g) {
            render(g.body(), source, parts, ids);
        } else if (c instanceof Command.Conditional || c instanceof Command.ArithmeticCommand) {
            String t = oneLine(c.span().text(source)); // a test: runs nothing of its own
            parts.add(new Part(List.of(t), List.of(t)));
        } else {
            // a loop, an if, a case, a function definition, a coprocess: what it runs is not one text
            parts.add(new Part(List.of(), List.of(ANY)));
        }
    }

    /** The part of a simple command: its forms, and those of the commands its wrappers run. */
    private Part simple(Command.Simple s, String source, List<Integer> ids) {
        SubCommand sc = asWritten.get(s);
        if (sc == null) {
            String t = oneLine(s.span().text(source)); // assignments only: the words as written
            return s.words().isEmpty() ? new Part(List.of(t), List.of(t)) : new Part(List.of(), List.of(ANY));
        }
        ids.add(sc.getId());
        if (!sc.isDynamicName() && functions.contains(sc.getName())) {
            // a function the call defines: its body runs here, which is no one text
            return new Part(List.of(), List.of(ANY));
        }
        Set<String> known = new LinkedHashSet<>();
        Set<String> shapes = new LinkedHashSet<>();
        boolean unknown = false;
        java.util.ArrayDeque<SubCommand> todo = new java.util.ArrayDeque<>(List.of(sc));
        Set<Integer> seen = new java.util.HashSet<>();
        while (!todo.isEmpty() && known.size() < MAX_ALTERNATIVES) {
            SubCommand x = todo.poll();
            if (!seen.add(x.getId())) continue;
            known.add(x.getLine());
            known.add(x.getBaseLine());
            known.add(x.getPrefixedLine());
            known.addAll(x.getMatchLines());
            if (x.getShapeLines().isEmpty()) {
                shapes.add(x.getLine());
                shapes.add(x.getBaseLine());
            } else {
                unknown = true;
                shapes.addAll(x.getShapeLines());
            }
            for (int p : payloads.getOrDefault(x.getId(), List.of())) {
                SubCommand y = byId.get(p);
                if (y != null) todo.add(y);
            }
        }
        List<String> k = new ArrayList<>(known);
        return new Part(k, unknown ? new ArrayList<>(shapes) : k);
    }

    /** Source text on one line (newlines shown as {@code \n}), cut to 200 characters. */
    private static String oneLine(String s) {
        String t = s.strip().replace("\n", "\\n");
        return t.length() > 200 ? t.substring(0, 197) + "..." : t;
    }
}
