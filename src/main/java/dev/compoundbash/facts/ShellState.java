package dev.compoundbash.facts;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * What the variable and shell-state flow ({@link FlowPass}) knows of the shell at one point of the walk, as an
 * immutable value handed to the later passes: the later passes read it, never the flow's working state. It plays
 * the part of mvdan/sh's {@code expand.Environ}: what {@link WordExpansion} expands words against.
 *
 * @param constants        variables the command assigned a static value on the way here, for deny and ask
 *                         matching ({@code x=push; git $x})
 * @param loopValues       the words of the for loops in scope whose words are all static, by variable
 * @param bases            the directories a relative path may be taken against here: the start directory and
 *                         every directory an earlier cd/pushd may have moved to; null once a directory change went
 *                         somewhere only known at run time
 * @param directoryChanged a cd, pushd or popd ran earlier in this shell
 */
record ShellState(Map<String, String> constants, Map<String, List<Arg>> loopValues, List<Path> bases,
                  boolean directoryChanged) {
}
