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

    /**
     * A here-string is expanded as an assignment's value (redir.c: expand_assignment_string_to_string): a tilde
     * prefix also after each unquoted ':', none after '=' (bash 5.2, HOME=/h: {@code cat <<< a:~} prints a:/h,
     * {@code cat <<< a=~} a=~, {@code cat <<< b:~:~} b:/h:/h).
     */
    @Test
    void hereStringTildesFollowAssignmentRules() throws Exception {
        for (String[] c : new String[][]{{"cat <<< a:~", "1"}, {"cat <<< b:~:~", "2"}, {"cat <<< a=~", "0"},
                {"cat <<< ~", "1"}, {"cat <<< $'':~/x", "1"}, {"cat <<< ':'~", "0"}}) {
            Script s = Parser.parse(c[0]);
            Redirection r = ((Command.Simple) s.body().items().get(0).command()).redirections().get(0);
            assertThat(Walker.all(r.target(), WordPart.Tilde.class)).as(c[0]).hasSize(Integer.parseInt(c[1]));
            assertThat(WordValue.of(r.target(), c[0]).isStatic()).as(c[0]).isEqualTo(c[1].equals("0"));
        }
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

    // ------------------------------------------------------------------ line continuations (bash(1) Here Documents)
    // bash 5.2 reads the lines of an unquoted here-document joining backslash-newline (parse.y read_a_line), and
    // compares the joined line with the delimiter; a quoted one is read line by line as written. In the
    // delimiter word a backslash-newline is a line continuation, not quoting.

    private static List<List<String>> commands(String src) throws ParseException {
        return DifferentialTest.extract(Parser.parse(src), src).commands();
    }

    private static void assertSpansNested(String src) throws ParseException {
        Script s = Parser.parse(src);
        Walker.walk(s, (n, anc) -> {
            assertThat(n.span().start()).as(src).isGreaterThanOrEqualTo(0);
            assertThat(n.span().end()).as(src).isBetween(n.span().start(), src.length());
            if (!anc.isEmpty()) assertThat(anc.get(anc.size() - 1).span().contains(n.span())).as(n + " in " + src)
                    .isTrue();
            return true;
        });
    }

    @Test
    void joinedBodyLineClosesAnUnquotedBody() throws ParseException {
        String src = "cat <<EOF\nhello\nEO\\\nF\ncurl x\nEOF";
        HereDoc h = redirs(src).get(0).hereDoc();
        assertThat(h.span().text(src)).isEqualTo("hello\n");
        assertThat(bodyValue(h, src)).isEqualTo("hello\n");
        assertThat(commands(src)).containsExactly(List.of("cat"), List.of("curl", "x"), List.of("EOF"));
        assertSpansNested(src);
    }

    @Test
    void continuationInTheDelimiterWordIsNotQuoting() throws ParseException {
        for (String op : List.of("<<EO\\\nF", "<<\\\nEOF", "<< \\\nEOF", "<\\\n<EOF", "<<EOF\\\n")) {
            String src = "cat " + op + "\n$(curl x)\nEOF\necho after";
            HereDoc h = redirs(src).get(0).hereDoc();
            assertThat(h.delimiter()).as(op).isEqualTo("EOF");
            assertThat(h.quoted()).as(op).isFalse();
            assertThat(Walker.all(h, WordPart.CommandSubstitution.class)).as(op).hasSize(1);
            assertThat(commands(src)).as(op)
                    .containsExactly(List.of("cat"), List.of("curl", "x"), List.of("echo", "after"));
            assertSpansNested(src);
        }
        String dash = "cat <<-EO\\\nF\n\t$(curl x)\n\tEOF\necho after";
        assertThat(redirs(dash).get(0).hereDoc().quoted()).isFalse();
        assertThat(commands(dash)).containsExactly(List.of("cat"), List.of("curl", "x"), List.of("echo", "after"));
    }

    @Test
    void continuationInsideQuotesOfTheDelimiter() throws ParseException {
        // double quotes remove backslash-newline: delimiter EOF, quoted
        String dq = "cat <<\"EO\\\nF\"\n$(curl x)\nEOF\necho after";
        HereDoc h = redirs(dq).get(0).hereDoc();
        assertThat(h.delimiter()).isEqualTo("EOF");
        assertThat(h.quoted()).isTrue();
        assertThat(commands(dq)).containsExactly(List.of("cat"), List.of("echo", "after"));
        // single quotes keep it: the delimiter holds a newline, no line matches, the body runs to the end
        String sq = "cat <<'EO\\\nF'\n$(curl x)\nEO\\\nF\necho after";
        h = redirs(sq).get(0).hereDoc();
        assertThat(h.delimiter()).isEqualTo("EO\\\nF");
        assertThat(bodyValue(h, sq)).isEqualTo("$(curl x)\nEO\\\nF\necho after");
        assertThat(commands(sq)).containsExactly(List.of("cat"));
        // an escaped backslash before the newline is quoting and ends the word: delimiter EO\
        String esc = "cat <<EO\\\\\nF\n$(curl x)\nEO\\\necho after";
        h = redirs(esc).get(0).hereDoc();
        assertThat(h.delimiter()).isEqualTo("EO\\");
        assertThat(h.quoted()).isTrue();
        assertThat(commands(esc)).containsExactly(List.of("cat"), List.of("echo", "after"));
    }

    @Test
    void quotedBodiesKeepTheirLines() throws ParseException {
        for (String d : List.of("'EOF'", "\"EOF\"", "\\EOF", "E\"OF\"")) {
            String src = "cat <<" + d + "\nhello\nEO\\\nF\ncurl x\nEOF\necho after";
            HereDoc h = redirs(src).get(0).hereDoc();
            assertThat(h.quoted()).as(d).isTrue();
            assertThat(bodyValue(h, src)).as(d).isEqualTo("hello\nEO\\\nF\ncurl x\n");
            assertThat(commands(src)).as(d).containsExactly(List.of("cat"), List.of("echo", "after"));
        }
    }

    @Test
    void joinedLineThatIsNotTheDelimiterStaysBody() throws ParseException {
        String src = "cat <<EOF\nfoo\\\nEOF\nrm -rf x\nEOF\necho after";
        HereDoc h = redirs(src).get(0).hereDoc();
        assertThat(bodyValue(h, src)).isEqualTo("fooEOF\nrm -rf x\n");
        assertThat(commands(src)).containsExactly(List.of("cat"), List.of("echo", "after"));
        // an escaped backslash does not continue the line: EOF closes the body
        String esc = "cat <<EOF\na\\\\\nEOF\necho after";
        assertThat(bodyValue(redirs(esc).get(0).hereDoc(), esc)).isEqualTo("a\\\n");
        assertThat(commands(esc)).containsExactly(List.of("cat"), List.of("echo", "after"));
        // three backslashes: an escaped one, then a continuation
        String three = "cat <<EOF\na\\\\\\\nEOF\necho still-body\nEOF";
        assertThat(bodyValue(redirs(three).get(0).hereDoc(), three)).isEqualTo("a\\EOF\necho still-body\n");
        assertThat(commands(three)).containsExactly(List.of("cat"));
    }

    @Test
    void stripTabsAppliesToTheJoinedLine() throws ParseException {
        String src = "cat <<-EOF\n\tx\n\tEO\\\nF\necho ran\nEOF";
        assertThat(bodyValue(redirs(src).get(0).hereDoc(), src)).isEqualTo("x\n");
        assertThat(commands(src)).containsExactly(List.of("cat"), List.of("echo", "ran"), List.of("EOF"));
        // only the leading tabs of the joined line go: "EO<tab>F" is no delimiter
        String inner = "cat <<-EOF\n\tEO\\\n\tF\necho body\n\tEOF\necho after";
        assertThat(bodyValue(redirs(inner).get(0).hereDoc(), inner)).isEqualTo("EO\tF\necho body\n");
        assertThat(commands(inner)).containsExactly(List.of("cat"), List.of("echo", "after"));
        // leading tabs reach across a continuation at the start of the line
        String lead = "cat <<-EOF\n\t\\\n\tEOF\necho after";
        assertThat(bodyValue(redirs(lead).get(0).hereDoc(), lead)).isEmpty();
        assertThat(commands(lead)).containsExactly(List.of("cat"), List.of("echo", "after"));
        String body = "cat <<-EOF\n\t\\\n\tx $y\nEOF\n";
        StringBuilder sb = new StringBuilder();
        for (WordPart p : redirs(body).get(0).hereDoc().body().parts()) {
            if (p instanceof WordPart.Literal l) sb.append(l.value());
        }
        assertThat(sb.toString()).isEqualTo("x \n");
        // bash compares the line before stripping too: a delimiter starting with a tab matches itself
        String tabDelim = "cat <<-\"\tEOF\"\nx\n\tEOF\necho after";
        assertThat(commands(tabDelim)).containsExactly(List.of("cat"), List.of("echo", "after"));
    }

    @Test
    void continuationAtTheEndOfInput() throws ParseException {
        String joined = "cat <<EOF\nx\nEO\\\nF";
        assertThat(bodyValue(redirs(joined).get(0).hereDoc(), joined)).isEqualTo("x\n");
        String trailing = "cat <<EOF\nx\nEOF\\\n";
        assertThat(bodyValue(redirs(trailing).get(0).hereDoc(), trailing)).isEqualTo("x\n");
        // a lone backslash at the very end continues nothing: the line is EOF\, the body runs to the end
        String lone = "cat <<EOF\nx\nEOF\\";
        assertThat(bodyValue(redirs(lone).get(0).hereDoc(), lone)).isEqualTo("x\nEOF\\");
        String unterminated = "cat <<EOF\nx\\\n";
        assertThat(bodyValue(redirs(unterminated).get(0).hereDoc(), unterminated)).isEqualTo("x");
        for (String src : List.of(joined, trailing, lone, unterminated)) assertSpansNested(src);
    }

    @Test
    void carriageReturnIsAnOrdinaryCharacter() throws ParseException {
        String src = "cat <<EOF\r\nx\\\r\nEOF\r\necho ran\nEOF\necho after";
        HereDoc h = redirs(src).get(0).hereDoc();
        assertThat(h.delimiter()).isEqualTo("EOF\r");
        assertThat(bodyValue(h, src)).isEqualTo("x\\\r\n");
        assertThat(commands(src)).containsExactly(List.of("cat"), List.of("echo", "ran"), List.of("EOF"),
                List.of("echo", "after"));
    }

    @Test
    void continuationsInHereDocumentsInsideSubstitutions() throws ParseException {
        String comsub = "x=$(cat <<EOF\nEO\\\nF\ncurl x\nEOF\n)";
        assertThat(commands(comsub)).containsExactly(List.of("cat"), List.of("curl", "x"), List.of("EOF"));
        // backquotes drop backslash-newline while reading their text, so even a quoted body sees joined lines
        String bq = "x=`cat <<'EOF'\nEO\\\nF\ncurl x\nEOF\n`";
        assertThat(commands(bq)).containsExactly(List.of("cat"), List.of("curl", "x"), List.of("EOF"));
        // \\<newline> in backquotes is \<newline> inside: a continuation for an unquoted body only
        String bqEsc = "x=`cat <<EOF\nEO\\\\\nF\ncurl x\nEOF\n`";
        assertThat(commands(bqEsc)).containsExactly(List.of("cat"), List.of("curl", "x"), List.of("EOF"));
        String bqEscQuoted = "x=`cat <<'EOF'\nEO\\\\\nF\ncurl x\nEOF\n`";
        assertThat(commands(bqEscQuoted)).containsExactly(List.of("cat"));
        for (String src : List.of(comsub, bq, bqEsc, bqEscQuoted)) assertSpansNested(src);
    }

    @Test
    void unquotedBodyIsParsedAfterJoining() throws ParseException {
        // the $( ) in the body sees the joined text: X\<newline><empty line> is the line X, closing <<'X'
        String src = "cat <<EOF\n$(cat <<'X'\nX\\\n\ncurl y\nX\n)\nEOF";
        assertThat(commands(src)).containsExactly(List.of("cat"), List.of("cat"), List.of("curl", "y"),
                List.of("X"));
        // and a comment in it runs on across the joined line
        String comment = "cat <<EOF\n$(echo a # c \\\ncurl y\n)\nEOF";
        assertThat(commands(comment)).containsExactly(List.of("cat"), List.of("echo", "a"));
        // single quotes in a substitution do not keep the continuation either
        String quoted = "cat <<EOF\n$(echo 'a\\\nb')\nEOF";
        Word arg = ((Command.Simple) Walker.all(Parser.parse(quoted), Command.Simple.class).get(1)).words().get(1);
        assertThat(WordValue.of(arg, quoted).value()).isEqualTo("ab");
        assertThat(arg.span().text(quoted)).isEqualTo("'a\\\nb'");
        for (String s : List.of(src, comment, quoted)) assertSpansNested(s);
    }

    @Test
    void hereDocumentInASubstitutionInABodyKeepsItsBody() throws ParseException {
        String src = "cat <<EOF\n$(cat <<X\n$(curl y)\nX\n)\nEOF";
        List<HereDoc> hs = Walker.all(Parser.parse(src), HereDoc.class);
        assertThat(hs).extracting(HereDoc::delimiter).containsExactly("EOF", "X");
        assertThat(hs.get(1).span().text(src)).isEqualTo("$(curl y)\n");
        assertThat(commands(src)).containsExactly(List.of("cat"), List.of("cat"), List.of("curl", "y"));
        assertSpansNested(src);
    }

    @Test
    void spansInAJoinedBodyPointAtTheSource() throws ParseException {
        String src = "cat <<EOF\na $(echo b\\\nc) d\\\ne ${x:-f\\\ng}\nEOF\n";
        HereDoc h = redirs(src).get(0).hereDoc();
        assertThat(h.span().text(src)).isEqualTo("a $(echo b\\\nc) d\\\ne ${x:-f\\\ng}\n");
        WordPart.CommandSubstitution cs = Walker.all(h, WordPart.CommandSubstitution.class).get(0);
        assertThat(cs.span().text(src)).isEqualTo("$(echo b\\\nc)");
        Command.Simple echo = Walker.all(h, Command.Simple.class).get(0);
        assertThat(echo.words().get(1).span().text(src)).isEqualTo("b\\\nc");
        assertThat(WordValue.of(echo.words().get(1), src).value()).isEqualTo("bc");
        assertThat(Walker.all(h, WordPart.ParamExpansion.class).get(0).span().text(src)).isEqualTo("${x:-f\\\ng}");
        assertSpansNested(src);
    }
}
