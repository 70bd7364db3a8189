package dev.compoundbash.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Here-documents (§3.6.6) and here-strings (§3.6.7). */
class HereDocTest {

    private static List<Redirection> redirs(String src) throws ParseException {
        return Walker.all(Parser.parse(src), Redirection.class);
    }

    private static String bodyValue(HereDoc h, String src) {
        return WordValue.of(h.body(), src).text();
    }

    @Test
    void unquotedBodyIsParsedForExpansions() throws ParseException {
        String src = "cat <<EOF\nhello $USER $(id) `w` ${x:-y} $((1+2))\nEOF\necho next";
        Script s = Parser.parse(src);
        Redirection r = Walker.all(s, Redirection.class).get(0);
        HereDoc h = r.hereDoc();
        assertThat(h).isNotNull();
        assertThat(h.delimiter()).isEqualTo("EOF");
        assertThat(h.quoted()).isFalse();
        assertThat(h.body().parts()).hasAtLeastOneElementOfType(WordPart.ParamExpansion.class)
                .hasAtLeastOneElementOfType(WordPart.CommandSubstitution.class)
                .hasAtLeastOneElementOfType(WordPart.ArithExpansion.class);
        assertThat(h.span().text(src)).isEqualTo("hello $USER $(id) `w` ${x:-y} $((1+2))\n");
        assertThat(s.body().items()).hasSize(2);
        assertThat(AstPrinter.print(s.body().items().get(1).command())).isEqualTo("(cmd echo next)");
    }

    @Test
    void quotedDelimitersGiveOneLiteral() throws ParseException {
        for (String d : List.of("'EOF'", "\"EOF\"", "\\EOF", "E\"O\"F", "E'OF'")) {
            String src = "cat <<" + d + "\n$x `y` $(z)\nEOF\n";
            HereDoc h = redirs(src).get(0).hereDoc();
            assertThat(h.delimiter()).as(d).isEqualTo("EOF");
            assertThat(h.quoted()).as(d).isTrue();
            assertThat(h.body().parts()).as(d).hasSize(1).first().isInstanceOf(WordPart.Literal.class);
            assertThat(bodyValue(h, src)).isEqualTo("$x `y` $(z)\n");
        }
    }

    @Test
    void unquotedBackslashEscapesOnlyDollarBacktickBackslashNewline() throws ParseException {
        String src = "cat <<EOF\n\\$x \\\\ \\a \"q\" 'r' a\\\nb\nEOF\n";
        HereDoc h = redirs(src).get(0).hereDoc();
        assertThat(bodyValue(h, src)).isEqualTo("$x \\ \\a \"q\" 'r' ab\n");
    }

    @Test
    void stripTabs() throws ParseException {
        String src = "cat <<-EOF\n\tone\n\t\ttwo $x\n\tEOF\necho after";
        Script s = Parser.parse(src);
        HereDoc h = Walker.all(s, HereDoc.class).get(0);
        assertThat(h.stripTabs()).isTrue();
        assertThat(WordValue.of(h.body(), src).isStatic()).isFalse();
        StringBuilder sb = new StringBuilder();
        for (WordPart p : h.body().parts()) if (p instanceof WordPart.Literal l) sb.append(l.value());
        assertThat(sb.toString()).isEqualTo("one\ntwo \n");
        assertThat(s.body().items()).hasSize(2);
        String q = "cat <<-'EOF'\n\tone\n\tEOF\n";
        assertThat(bodyValue(redirs(q).get(0).hereDoc(), q)).isEqualTo("one\n");
    }

    @Test
    void severalOnOneLineInOrder() throws ParseException {
        String src = "cat <<A <<'B'; echo x\nbody a\nA\nbody $b\nB\necho y\n";
        Script s = Parser.parse(src);
        List<HereDoc> hs = Walker.all(s, HereDoc.class);
        assertThat(hs).extracting(HereDoc::delimiter).containsExactly("A", "B");
        assertThat(bodyValue(hs.get(0), src)).isEqualTo("body a\n");
        assertThat(bodyValue(hs.get(1), src)).isEqualTo("body $b\n");
        assertThat(AstPrinter.print(s.body())).isEqualTo(
                "{(cmd cat <<A<<[body a\n] <<'B'<<[body $b\n]); (cmd echo x)\\n (cmd echo y)\\n}");
    }

    @Test
    void insideCommandSubstitutionSpanningLines() throws ParseException {
        String src = "x=$(cat <<EOF\n$(id)\nEOF\n)\necho done";
        Script s = Parser.parse(src);
        HereDoc h = Walker.all(s, HereDoc.class).get(0);
        assertThat(Walker.all(h, WordPart.CommandSubstitution.class)).hasSize(1);
        assertThat(s.body().items()).hasSize(2);
    }

    @Test
    void insideOneLineCommandSubstitutionBodyFollowsTheLine() throws ParseException {
        String src = "echo $(cat <<EOF) after\nbody $(id)\nEOF\necho next";
        Script s = Parser.parse(src);
        HereDoc h = Walker.all(s, HereDoc.class).get(0);
        assertThat(h.span().text(src)).isEqualTo("body $(id)\n");
        assertThat(s.body().items()).hasSize(2);
        Command.Simple first = (Command.Simple) s.body().items().get(0).command();
        assertThat(first.words()).hasSize(3);
    }

    @Test
    void unterminatedRunsToEndOfInput() throws ParseException {
        String src = "cat <<EOF\nline1\nline2";
        HereDoc h = redirs(src).get(0).hereDoc();
        assertThat(bodyValue(h, src)).isEqualTo("line1\nline2");
        String bare = "cat <<EOF";
        assertThat(redirs(bare).get(0).hereDoc()).isNotNull();
    }

    @Test
    void delimiterOnLastLineWithoutNewline() throws ParseException {
        String src = "cat <<EOF\nx\nEOF";
        assertThat(bodyValue(redirs(src).get(0).hereDoc(), src)).isEqualTo("x\n");
    }

    @Test
    void inPipelineAndAfterCompound() throws ParseException {
        String src = "cat <<EOF | grep a && { cat <<X; }\nbody\nEOF\nxb\nX\n";
        List<HereDoc> hs = Walker.all(Parser.parse(src), HereDoc.class);
        assertThat(hs).hasSize(2);
        assertThat(hs.get(1).span().text(src)).isEqualTo("xb\n");
    }

    @Test
    void bodySpansStayInsideParents() throws ParseException {
        String src = "f() { cat <<EOF; }\nb $(c)\nEOF\nwhile cat <<A; do :; done\na\nA\n";
        Script s = Parser.parse(src);
        Walker.walk(s, (n, anc) -> {
            if (!anc.isEmpty()) assertThat(anc.get(anc.size() - 1).span().contains(n.span())).as(n.toString()).isTrue();
            return true;
        });
    }

    @Test
    void hereString() throws ParseException {
        Redirection r = redirs("cat <<< \"$x y\"").get(0);
        assertThat(r.operator()).isEqualTo("<<<");
        assertThat(r.hereDoc()).isNull();
    }

    @Test
    void backquotedHereDoc() throws ParseException {
        String src = "echo `cat <<EOF\nhi $x\nEOF\n`";
        List<HereDoc> hs = Walker.all(Parser.parse(src), HereDoc.class);
        assertThat(hs).hasSize(1);
    }
}
