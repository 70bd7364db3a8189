package dev.compoundbash.shell;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which command substitutions the parser finds where bash reads text like double-quoted text or decodes
 * {@code $'...'} and expands it again (issue 14, classes 1 to 3). The names expected are the ones bash 5.2 ran under
 * {@code bash -c} with shims (a name listed where bash did not run it is marked: the parser holds every reading bash
 * may use there). Each name is the first word of a command the parser found inside a substitution.
 */
class ExpansionContextTest {

    static Stream<Arguments> scripts() {
        return Stream.of(
                // arithmetic: single quotes are plain, $'...' is decoded and expanded again
                Arguments.of("echo $(( '$(c1)' + 2 ))", List.of("c1")),
                Arguments.of("echo $(( $'\\x24(c1)' + 2 ))", List.of("c1")),
                Arguments.of("echo $(( $'\\x24'(c1) + 2 ))", List.of()),
                Arguments.of("echo $(( '\\$(c1)' ))", List.of()),
                Arguments.of("(( x = '$(c1)' ))", List.of("c1")),
                Arguments.of("for (( i='$(c1)'; i<1; i++ )); do :; done", List.of("c1")),
                Arguments.of("echo $[ '$(c1)' + 1 ]", List.of("c1")),
                Arguments.of("s=abc; echo ${s:'$(c1)':2}", List.of("c1")),
                Arguments.of("s=abc; echo ${s:1:'$(c1)'}", List.of("c1")),
                Arguments.of("echo ${a['$(c1)']}", List.of("c1")),
                Arguments.of("b['$(c1)']=5", List.of("c1")),
                Arguments.of("b[\\$(c1)]=5", List.of()),
                // compound elements and declaration operands: the expanded subscript is evaluated again
                Arguments.of("a=(['$(c1)']=7)", List.of("c1")),
                Arguments.of("a=([\\$(c1)]=7)", List.of("c1")),
                Arguments.of("declare a['$(c1)']=1", List.of("c1")),
                Arguments.of("a=([<(c1)]=1)", List.of("c1")),
                // an index with expansions of its own: the text its quoted parts leave is evaluated too
                Arguments.of("x=1; b=([$x==\\$(c1)]=7)", List.of("c1")),
                Arguments.of("b=([\"$(c2)\"'+$(c1)']=1)", List.of("c2", "c1")),
                Arguments.of("x=1; declare -a b=([$x+\\$(c1)]=1)", List.of("c1")),
                Arguments.of("x=1; declare b[$x+'$(c1)']=1", List.of("c1")),
                Arguments.of("x=1; b=([${x}\"\\$(c1 q)\"]=1)", List.of("c1")),
                Arguments.of("x=1; b=([$(c2)+`c3`+\\$(c1)]=1)", List.of("c2", "c3", "c1")),
                // a process substitution is part of a declaration argument's subscript, not the end of the word
                Arguments.of("declare c[<(c1)*'$(c7)'+1]=1", List.of("c1", "c7")),
                // an associative array's key is expanded once (bash runs no c1); the parser cannot know the type
                Arguments.of("x=1; declare -A b=([$x\\$(c1)]=1)", List.of("c1")), // over-read
                Arguments.of("cat <<EOF\n$(( '$(c1)' + 1 ))\nEOF", List.of("c1")),
                Arguments.of("echo \"$(( '$(c1)' ))\"", List.of("c1")),
                // double-quoted ${...}: decoded $'...' inserted as it is (also read as written: extquote off)
                Arguments.of("echo \"${x:-$'\\x24(c1)'}\"", List.of("c1")),
                Arguments.of("echo \"${x-$'\\x24(c1)'}\"", List.of("c1")),
                Arguments.of("x=1; echo \"${x:+$'\\x24(c1)'}\"", List.of("c1")),
                Arguments.of("echo \"${x:?$'\\x24(c1)'}\"", List.of("c1")),
                Arguments.of("echo \"${x:-$'\\x24'(c1)}\"", List.of("c1")),
                Arguments.of("echo \"${a[$'\\x24(c1)']}\"", List.of("c1")),
                Arguments.of("echo \"$[ $'\\x24(c1)' ]\"", List.of("c1")),
                Arguments.of("echo ${x:-$'\\x24(c1)'}", List.of()),
                Arguments.of("echo \"${x:-$'\\\\$(c1)'}\"", List.of("c1")), // bash: no (extquote on); yes with it off
                Arguments.of("x=abc; echo \"${x#<(c1)}\"", List.of("c1")),
                Arguments.of("echo ${u:-<(c1)}", List.of("c1")),
                // here-documents: the end-of-token rule inside $( ), and a heredoc body's substring word
                Arguments.of("echo \"$(cat <<EOF\nEOF c1 )\nEOF\n)\"", List.of("cat", "c1")),
                // bash fails on this body and runs neither; c1 is body text of c2's here-document in every reading
                Arguments.of("cat <<X\n$(c2 <<E\nE c1 )\nE\n)\nX", List.of("c2")),
                Arguments.of("s=abc; cat <<EOF\n${s:$'\\x24(c1)'}\nEOF", List.of("c1")),
                Arguments.of("cat <<EOF\n${u:-$'\\x24(c1)'}\nEOF", List.of()));
    }

    @ParameterizedTest
    @MethodSource("scripts")
    void findsTheCommandsBashRuns(String script, List<String> bash) throws Exception {
        Script s = Parser.parse(script);
        List<String> found = new ArrayList<>();
        for (Node n : Walker.all(s)) {
            CommandList body = null;
            if (n instanceof WordPart.CommandSubstitution cs) body = cs.body();
            if (n instanceof WordPart.ProcessSubstitution ps) body = ps.body();
            if (body == null) continue;
            for (Node m : Walker.all(body)) {
                if (m instanceof Command.Simple c && !c.words().isEmpty()) {
                    String name = WordValue.of(c.words().get(0), script).text();
                    if (!found.contains(name)) found.add(name);
                }
            }
        }
        assertThat(found).as(script).containsExactlyInAnyOrderElementsOf(bash);
    }
}
