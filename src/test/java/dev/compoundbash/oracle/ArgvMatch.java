package dev.compoundbash.oracle;

import dev.compoundbash.facts.SubCommand;

import java.util.List;

/**
 * Whether an argv recorded by a shim is the one the hook saw for a sub-command: same command name (by base name, as
 * {@code execve} finds it on {@code PATH}), same arguments, where a word only known at run time (an expansion, a
 * glob, a brace expansion, find's {@code {}}, xargs' replace string) stands for any number of arguments, and an
 * xargs payload may have arguments appended (GNU findutils manual, "xargs" and "find -exec").
 */
final class ArgvMatch {
    private ArgvMatch() {
    }

    static boolean matches(SubCommand s, List<String> recorded) {
        List<String> fact = s.getArgv();
        if (fact.isEmpty() || recorded.isEmpty()) return false;
        if (!baseName(fact.get(0)).equals(recorded.get(0))) return false;
        return tokens(fact, 1, recorded, 1, s.isArgumentsAppended());
    }

    private static boolean tokens(List<String> f, int i, List<String> r, int j, boolean appended) {
        if (i == f.size()) return j == r.size() || appended;
        if (wild(f.get(i))) {
            for (int k = j; k <= r.size(); k++) if (tokens(f, i + 1, r, k, appended)) return true;
            return false;
        }
        return j < r.size() && f.get(i).equals(r.get(j)) && tokens(f, i + 1, r, j + 1, appended);
    }

    private static boolean wild(String t) {
        for (char c : t.toCharArray()) if ("$*?[{~`<>(".indexOf(c) >= 0) return true;
        return false;
    }

    private static String baseName(String name) {
        int slash = name.lastIndexOf('/');
        return slash < 0 ? name : name.substring(slash + 1);
    }
}
