package dev.compoundbash.shell;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Combinators;

/**
 * Properties over scripts generated from a small bash grammar (and over arbitrary strings): parsing throws
 * nothing but {@link ParseException}, generated scripts parse, and every node's span lies inside its parent's.
 */
class ParserPropertiesTest {

    @Provide
    Arbitrary<String> scripts() {
        return list(2);
    }

    private Arbitrary<String> word(int depth) {
        Arbitrary<String> lit = Arbitraries.of("a", "b1", "x.txt", "-f", "~", "~/d", "'q s'", "\"d $v\"", "$x",
                "${y:-z}", "${#a[@]}", "$'\\t'", "a\\ b", "*.c", "@(a|b)", "{a,b}", "$((1+2))", "\"\"", "$1", "$@");
        if (depth <= 0) return lit;
        Arbitrary<String> sub = Combinators.combine(list(depth - 1), Arbitraries.of("$(%s)", "`%s`", "<(%s)",
                "\"$(%s)\"", "${v:-$(%s)}")).as((l, f) -> f.contains("`") && l.contains("`")
                // Backquotes do not nest unescaped; deleting the inner ones would splice their words into the outer
                // command (`a a=(p q)` then puts an array assignment after the command name: invalid bash).
                ? String.format("$(%s)", l)
                : String.format(f, l));
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, lit),
                net.jqwik.api.Tuple.of(1, sub),
                net.jqwik.api.Tuple.of(2, Combinators.combine(lit, lit).as((a, b) -> a + b)));
    }

    private Arbitrary<String> simple(int depth) {
        Arbitrary<String> words = word(depth).list().ofMinSize(1).ofMaxSize(4).map(l -> String.join(" ", l));
        Arbitrary<String> prefix = Arbitraries.of("", "", "v=1 ", "a[2]=x ", "a=(p q) ");
        Arbitrary<String> redir = Arbitraries.of("", "", " >f", " 2>&1", " <in", " &>/dev/null", " <<< s",
                " {fd}>o");
        return Combinators.combine(prefix, words, redir).as((p, w, r) -> p + w + r);
    }

    private Arbitrary<String> command(int depth) {
        if (depth <= 0) return simple(0);
        Arbitrary<String> inner = list(depth - 1);
        Arbitrary<String> compound = Combinators.combine(inner, inner, Arbitraries.integers().between(0, 11))
                .as((a, b, k) -> switch (k) {
                    case 0 -> "( " + a + " )";
                    case 1 -> "{ " + a + "; }";
                    case 2 -> "if " + a + "; then " + b + "; else " + a + "; fi";
                    case 3 -> "while " + a + "; do " + b + "; done";
                    case 4 -> "for i in 1 2; do " + b + "; done";
                    case 5 -> "case $x in a|b) " + a + " ;; *) " + b + " ;& esac";
                    case 6 -> "f() { " + a + "; }";
                    case 7 -> "[[ -n $x && ( a == b || ! -f c ) ]]";
                    case 8 -> "(( i += 2 ))";
                    case 9 -> "for ((i=0;i<2;i++)); do " + a + "; done";
                    case 10 -> "{ ! " + a + "; }";
                    default -> "( time " + a + " )";
                });
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(3, simple(depth)),
                net.jqwik.api.Tuple.of(2, compound));
    }

    private Arbitrary<String> list(int depth) {
        Arbitrary<String> pipeline = command(depth).list().ofMinSize(1).ofMaxSize(3)
                .map(l -> String.join(" | ", l));
        Arbitrary<String> andOr = Combinators.combine(pipeline, pipeline, Arbitraries.of("", " && ", " || "))
                .as((a, b, op) -> op.isEmpty() ? a : a + op + b);
        return andOr.list().ofMinSize(1).ofMaxSize(3)
                .flatMap(l -> Arbitraries.of("; ", "\n", " & ").map(sep -> String.join(sep, l)));
    }

    @Property(tries = 150)
    void generatedScriptsParseWithNestedSpans(@ForAll("scripts") String src) throws ParseException {
        Script s = Parser.parse(src);
        assertThat(s.span().end()).isEqualTo(src.length());
        Walker.walk(s, (node, ancestors) -> {
            assertThat(node.span().start()).isGreaterThanOrEqualTo(0);
            assertThat(node.span().end()).isBetween(node.span().start(), src.length());
            if (!ancestors.isEmpty()) {
                Node parent = ancestors.get(ancestors.size() - 1);
                assertThat(parent.span().contains(node.span()))
                        .as("%s inside %s in %s", node.getClass().getSimpleName(),
                                parent.getClass().getSimpleName(), src)
                        .isTrue();
            }
            return true;
        });
    }

    @Property(tries = 150)
    void heredocScriptsKeepSpansNested(@ForAll("scripts") String a, @ForAll("scripts") String b)
            throws ParseException {
        String src = "cat <<EOF; " + a.replace("\n", "; ") + "\nbody $(x) $y\nEOF\n" + b;
        Script s = Parser.parse(src);
        Walker.walk(s, (node, ancestors) -> {
            if (!ancestors.isEmpty()) {
                assertThat(ancestors.get(ancestors.size() - 1).span().contains(node.span())).as(src).isTrue();
            }
            return true;
        });
    }

    @Property(tries = 1500)
    void arbitraryStringsOnlyThrowParseException(@ForAll("noise") String src) {
        try {
            Script s = Parser.parse(src);
            Walker.walk(s, (node, ancestors) -> {
                if (!ancestors.isEmpty()) {
                    assertThat(ancestors.get(ancestors.size() - 1).span().contains(node.span())).as(src).isTrue();
                }
                return true;
            });
        } catch (ParseException e) {
            assertThat(e.getMessage()).doesNotContain("internal parser error");
        }
    }

    @Property(tries = 600)
    void hereDocumentBodiesWithContinuationsKeepSpansNested(@ForAll("noise") String body,
                                                             @ForAll("hereDocOps") String op) {
        // unquoted bodies are parsed from their joined text (backslash-newline removed) with offsets mapped back
        String src = "cat " + op + "\n" + body + "\nEO\\\nF\n" + body;
        try {
            Script s = Parser.parse(src);
            Walker.walk(s, (node, ancestors) -> {
                assertThat(node.span().start()).as(src).isGreaterThanOrEqualTo(0);
                assertThat(node.span().end()).as(src).isBetween(node.span().start(), src.length());
                if (!ancestors.isEmpty()) {
                    assertThat(ancestors.get(ancestors.size() - 1).span().contains(node.span())).as(src).isTrue();
                }
                return true;
            });
        } catch (ParseException e) {
            assertThat(e.getMessage()).doesNotContain("internal parser error");
        }
    }

    @Provide
    Arbitrary<String> hereDocOps() {
        return Arbitraries.of("<<EOF", "<<-EOF", "<<'EOF'", "<<EO\\\nF", "<<-EO\\\nF", "<<\"EO\\\nF\"");
    }

    @Provide
    Arbitrary<String> noise() {
        return Arbitraries.strings().withChars("ab $(){}[]<>|&;'\"`\\\n\t#!~@*?+-=:/%^,0EOF").ofMaxLength(60);
    }

    @Property(tries = 300)
    void mutatedScriptsOnlyThrowParseException(@ForAll("scripts") String src, @ForAll("cuts") int cut) {
        String mutated = src.substring(0, Math.min(cut, src.length()));
        try {
            Parser.parse(mutated);
        } catch (ParseException e) {
            assertThat(e.getMessage()).doesNotContain("internal parser error");
        }
    }

    @Provide
    Arbitrary<Integer> cuts() {
        return Arbitraries.integers().between(0, 200);
    }
}
