package dev.compoundbash.rules;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * Neutral text operators for DRL: regular expressions over a command's words (compiled once per expression). The
 * rules say what to look for; this class only looks.
 */
public final class Text {
    private static final Map<String, Pattern> COMPILED = new ConcurrentHashMap<>();

    private Text() {
    }

    /**
     * @param words words (a command's {@code argv})
     * @param from  the first index to look at
     * @param regex a Java regular expression, matched with {@code find()}
     * @return true when some word from {@code from} on contains a match
     */
    public static boolean anyFind(List<String> words, int from, String regex) {
        Pattern p = COMPILED.computeIfAbsent(regex, Pattern::compile);
        for (int i = Math.max(0, from); i < words.size(); i++) if (p.matcher(words.get(i)).find()) return true;
        return false;
    }
}
