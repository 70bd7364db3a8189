package dev.compoundbash.facts;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The language readers ({@link SedScript}, {@link AwkProgram}) and {@link ProgramText}: what a sed script or awk
 * program runs, reads and writes, and what is unknown. The harmless sed scripts are checked against GNU sed itself
 * where it is installed ({@code --sandbox} accepts them and prints without running anything).
 */
class ProgramTextTest {

    private static final List<String> HARMLESS_SED = List.of("155,175p", "s/a/b/g", "s|a|b|2p", "y/abc/xyz/;=;l;q",
            "/x/{h;n;G;p};$!N;D;P", ":a\nN;$!ba\ns/\\n/ /g", "1i\\\nheader", "$a footer", "0,/re/p;1~2p;2,+3p",
            "\\%x%Ip", "10q;5Q3", "/a/!d", "s/x/y/w /dev/stdout", "z;F;x;g;H", "#n\np", "s/a/\\\nb/",
            ":a;/start/,/end/{/end/!{$!{N;ba}}}", "v 4.2");

    @Test
    void harmlessSedScriptsAreKnown() {
        for (String s : HARMLESS_SED) {
            ProgramText.Found f = SedScript.read(s);
            assertThat(f.unknown).as(s).isEmpty();
            assertThat(f.commands).as(s).isEmpty();
            assertThat(f.hidden).as(s).isEmpty();
            assertThat(f.writes).as(s).isEmpty();
            assertThat(f.reads).as(s).isEmpty();
        }
    }

    @Test
    void harmlessSedScriptsAreValidForGnuSed() throws Exception {
        if (!Files.isExecutable(Path.of("/usr/bin/sed"))) return;
        for (String s : HARMLESS_SED) {
            if (s.startsWith(":a") || s.contains("ba}") || s.contains(" w ") || s.contains("/w ")) continue; // loops; w under --sandbox
            Process p = new ProcessBuilder("/usr/bin/sed", "--sandbox", "-e", s).redirectErrorStream(true).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes());
            assertThat(p.waitFor(10, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(s + ": " + out).isZero();
        }
    }

    @Test
    void sedCommandsFilesAndUnknowns() {
        assertThat(SedScript.read("1e rm -rf x").commands).containsExactly("rm -rf x");
        assertThat(SedScript.read("/a/!e touch y\np").commands).containsExactly("touch y");
        assertThat(SedScript.read("e").hidden).hasSize(1);
        assertThat(SedScript.read("s/.*/date/e").hidden).hasSize(1);
        assertThat(SedScript.read("s/a/b/w .env").writes).containsExactly(".env");
        assertThat(SedScript.read("s#a#b#pw out").writes).containsExactly("out");
        assertThat(SedScript.read("/x/W log; p").writes).containsExactly("log; p"); // the name runs to the line end
        assertThat(SedScript.read("1r .env\nR other").reads).containsExactly(".env", "other");
        assertThat(SedScript.read("r /dev/stdin").reads).isEmpty();
        for (String bad : List.of("k", "s/a/b", "s/a/b/Z", "w", "{p", "p}", "y/ab/c", "pq", ":", "1:a")) {
            assertThat(SedScript.read(bad).unknown).as(bad).isNotEmpty();
        }
    }

    @Test
    void awkCommandsFilesAndUnknowns() {
        assertThat(AwkProgram.read("BEGIN{system(\"git push\")}").commands).containsExactly("git push");
        assertThat(AwkProgram.read("BEGIN { system (\"rm x\") }").commands).containsExactly("rm x");
        assertThat(AwkProgram.read("BEGIN{system(c)}").hidden).hasSize(1);
        assertThat(AwkProgram.read("BEGIN{system(\"\")}").hidden).isEmpty();
        assertThat(AwkProgram.read("{print | \"sort -u\"}").commands).containsExactly("sort -u");
        assertThat(AwkProgram.read("{print |& \"bc\"}").commands).containsExactly("bc");
        assertThat(AwkProgram.read("BEGIN{\"date\" | getline d}").commands).containsExactly("date");
        assertThat(AwkProgram.read("BEGIN{while ((\"ls\" | getline l) > 0) n++}").commands).containsExactly("ls");
        assertThat(AwkProgram.read("{ $0 | getline }").hidden).hasSize(1);
        assertThat(AwkProgram.read("{print > \"o\"; print >> \"p\"; printf(\"x\") > \"q\"}").writes)
                .containsExactly("o", "p", "q");
        assertThat(AwkProgram.read("{print $1 > \"/dev/stderr\"; print (1 > 2)}").writes).isEmpty();
        List<String> dynamic = new ArrayList<>(AwkProgram.read("{print > $1 \".txt\"}").writes);
        assertThat(dynamic).containsExactly((String) null);
        assertThat(AwkProgram.read("BEGIN{while ((getline l < \".env\") > 0) print l}").reads).containsExactly(".env");
        assertThat(AwkProgram.read("/a/ {n++} END {print n/2, substr($0, 1, 2) \"|\"}").unknown).isEmpty();
        assertThat(AwkProgram.read("function f(x){return x*2} {print f($1)}").unknown).isEmpty();
        for (String bad : List.of("{foo($1)}", "@include \"x\"", "@load \"y\"", "BEGIN{f=\"system\"; @f(\"rm\")}",
                "BEGIN{ARGV[1]=\".env\"}", "BEGIN{ARGC++}", "BEGIN{print > \"/inet/tcp/0/h/80\"}",
                "BEGIN{print \"x", "/unterminated")) {
            assertThat(AwkProgram.read(bad).unknown).as(bad).isNotEmpty();
        }
    }

    private static ProgramText.Reading read(String... argv) {
        List<Arg> args = new ArrayList<>();
        for (String a : argv) args.add(Arg.literal(a));
        return ProgramText.read(ProgramSchemas.of(argv[0]), args);
    }

    @Test
    void programTextIsFoundByTheOptions() {
        assertThat(read("sed", "-n", "-e", "p", "--expression=1e rm x", "f").unwrapped()).isNotNull();
        assertThat(read("sed", "-n", "155,175p", "f").unwrapped()).isNull();
        assertThat(read("sed", "-n", "155,175p", "f").unknowns()).isEmpty();
        assertThat(read("sed", "-f", "s.sed", "f").unknowns()).isNotEmpty();
        assertThat(read("sed", "-x", "p", "f").unknowns()).isNotEmpty();
        // BSD sed reads -i's suffix from the next word: '1e rm x' is then the script
        assertThat(read("sed", "-i", "", "1e rm x", "f").unwrapped()).isNotNull();
        assertThat(read("sed", "-i.bak/*", "s/a/b/", "d/f").paths()).extracting(o -> o.arg().text() + " " + o.access())
                .contains("d/.bak/f write");
        assertThat(read("gawk", "-e", "BEGIN{system(\"rm x\")}").unwrapped()).isNotNull();
        assertThat(read("gawk", "-l", "ext", "BEGIN{}").unknowns()).isNotEmpty();
        assertThat(read("gawk", "-d", "BEGIN{}").paths()).extracting(o -> o.arg().text()).contains("awkvars.out");
        assertThat(read("awk", "-F:", "-v", "n=1", "{print $1}", "f").unknowns()).isEmpty();
    }
}
