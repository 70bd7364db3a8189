package dev.compoundbash.rules;

import dev.compoundbash.facts.Arg;
import dev.compoundbash.facts.Environment;
import dev.compoundbash.facts.FactExtractor;
import dev.compoundbash.facts.SubCommand;
import dev.compoundbash.shell.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The arguments that keep a tier program in its tier ({@link TierArguments}). Each command is parsed the way the
 * hook parses it, and the argv of its first top-level simple command is judged.
 */
class TierArgumentsTest {

    /** The words the hook gives the rules for the first top-level command of {@code command}. */
    static List<Arg> argv(String command) throws Exception {
        List<SubCommand> subs = FactExtractor.extract(Parser.parse(command),
                new Environment(Path.of("/work"), List.of(), "Linux", null)).subCommands();
        for (SubCommand s : subs) if (s.getContextPath().isEmpty()) return s.getArgs();
        throw new AssertionError("no top-level command in " + command);
    }

    /** The words of the first payload a wrapper of {@code command} runs. */
    static List<Arg> payload(String command) throws Exception {
        List<SubCommand> subs = FactExtractor.extract(Parser.parse(command),
                new Environment(Path.of("/work"), List.of(), "Linux", null)).subCommands();
        for (SubCommand s : subs) if (s.getRole().equals("payload")) return s.getArgs();
        throw new AssertionError("no payload in " + command);
    }

    static boolean safe(String command) throws Exception {
        return TierArguments.safe(argv(command), false);
    }

    /** One word of shell source as the hook reads it. */
    static Arg word(String source) throws Exception {
        return argv(": " + source).get(1);
    }

    @ParameterizedTest(name = "not safe: {0}")
    @ValueSource(strings = {
            // uniq [INPUT [OUTPUT]] writes OUTPUT
            "uniq a b", "uniq a ~/.bashrc", "uniq -c a b", "uniq -- a b", "uniq -f 1 a b", "uniq --skip-fields 1 a b",
            "uniq --group a b", "uniq --group=both a b", "uniq a -c", "uniq -z a /tmp/out", "uniq a b -c",
            "uniq *", "uniq *.txt", "uniq a*", "uniq {a,b}", "uniq $f", "uniq \"$a\" \"$b\"", "uniq -c \"$f\" out",
            "uniq $(ls)", "uniq \"$@\"", "uniq --bogus a",
            // file -z / -Z run decompressors, -C writes a compiled magic file, -p writes access times
            "file -z x.zst", "file -Z x", "file -bz x", "file -zb x", "file -kbZ x", "file --uncompress x",
            "file --uncomp x", "file --u x", "file --uncompress-noreport x", "file --uncompress-no x",
            "file -C -m magic", "file --compile -m magic", "file --comp", "file --c x", "file -p x",
            "file --preserve-date x", "file --pre x", "file $f", "file \"$f\" x", "file x $opt", "file *",
            "file x -z", "file -m magic -z x", "file -b\"$x\" f", "file --mime=\"$x\" f", "file --bogus x", "file -X x",
            // diff -l runs pr
            "diff -l a b", "diff --paginate a b", "diff --pag a b", "diff --pa a b", "diff --p a b", "diff -ul a b",
            "diff -lu a b", "diff -ruNl a b", "diff a b -l", "diff \"$a\" b", "diff $opts a b", "diff a *",
            // date -s / an operand without '+' set the clock
            "date -s 2001-01-01", "date --set=2001-01-01", "date --set 2001-01-01", "date --se 2001", "date --s=x",
            "date -us x", "date -s2001", "date -Rs x", "date 0101000001", "date -u 0101000001", "date +%s -s x",
            "date $x", "date \"$x\"", "date -d $x", "date -d now 0101000001", "date -- 0101000001", "date +%s *",
            "date --bogus", "date --set=\"$x\"", "date --s=\"$x\"", "date -d\"$x\"", "date -us\"$x\"",
            "date --date\"$x\"", "date --utc=\"$x\"",
            // hostname NAME / -F FILE / -b set the host name
            "hostname evil-by-hook", "hostname -F /tmp/f", "hostname --file /tmp/f", "hostname --fi=/tmp/f",
            "hostname -b", "hostname --boot", "hostname --bo", "hostname -bF f", "hostname -s evil",
            "hostname \"$x\"", "hostname -- x", "hostname -v", "hostname --al",
            // hash -p binds a name to any program
            "hash -p /bin/rm ls", "hash -rp /bin/rm ls", "hash -p/bin/rm ls", "hash -dp x y", "hash -lp x ls",
            "hash $x", "hash \"$x\" ls", "hash -p /bin/rm ls $'\\n'", "hash --help",
            // assignments: subscripts are evaluated, and some variables change what runs
            "read PATH", "read -aPATH", "read -ra PATH", "read 'a[PATH=1]'", "read $n", "read -r line PATH",
            "read BASH_ENV", "read IFS", "read -r 'a[$(id)]'", "read -d x $v",
            "printf -v PATH x", "printf -vPATH x", "printf -v 'a[$(id)]' x", "printf \"$fmt\" x", "printf -v \"$n\" x",
            "printf $fmt", "printf -x",
            "getopts a PATH", "getopts a 'a[1]'", "getopts -- a PATH", "getopts \"$o\" opt",
            "wait -p PATH", "wait -np PATH", "wait -p 'a[PATH=1]' -n", "wait $x",
            "unset 'a[PATH=1]'", "unset PATH", "unset $x", "unset -v BASH_CMDS",
            // test -v NAME evaluates a subscript
            "test -v 'a[PATH=1]'", "test -v \"$x\"", "test \"$a\" \"$b\"", "test ! -v 'a[1]'", "test $x = y",
            "test -R 'a[$(id)]'",
    })
    void hazardous(String command) throws Exception {
        assertThat(TierArguments.safe(argv(command), false)).as(command + " " + argv(command)).isFalse();
    }

    @ParameterizedTest(name = "safe: {0}")
    @ValueSource(strings = {
            "uniq", "uniq -", "uniq -c f", "uniq f", "uniq -c -f 1 f", "uniq --skip-fields=1 f", "uniq -s 2 -w 3 f", "uniq f -",
            "uniq -- f", "uniq \"$f\"", "uniq -u \"$f\"", "uniq --group f", "uniq --all-repeated=separate f",
            "uniq -D f", "uniq -cd f", "uniq -5 f", "uniq --count --ignore-case f",
            "diff -u a b", "diff a b", "diff -r dir1 dir2", "diff <(sort a) <(sort b)", "diff --color=auto a b",
            "diff -U3 a b", "diff -U 3 a b", "diff -- -l b", "diff -L l a b", "diff --label=x -u a b",
            "diff \"./$f\" b", "diff -q a b", "diff --brief a b", "diff -y -W 80 a b", "diff -x build -r a b",
            "diff -I '^#' a b", "diff --unified=5 a b",
            "date", "date +%s", "date -d yesterday", "date -u", "date -Is", "date --iso-8601=seconds",
            "date -d @0 +%F", "date -r file", "date -u +%Y", "date -d \"$x\" +%s", "date '+%Y-%m-%d %H:%M'",
            "date --utc", "date -R", "date --rfc-3339=seconds", "date --debug -d now", "date +\"%s$x\"",
            "date -uIs", "date --date='2 days ago' +%F", "date -d tomorrow", "date --date=\"$x\" +%s",
            "date -d@\"$ts\"", "diff --label=\"$a\" a b",
            "hostname", "hostname -f", "hostname -s", "hostname -I", "hostname --fqdn", "hostname --short",
            "hostname -A", "hostname -d", "hostname --long", "hostname -i", "hostname -y",
            "file x", "file -b x", "file --mime-type x", "file -i x", "file -m -z x", "file -- -z", "file ./*",
            "file -L x", "file -k x", "file -bi x", "file \"./$f\"", "file -f list", "file --brief --mime x",
            "file -s /dev/sda", "file -e elf x",
            "hash", "hash -r", "hash ls", "hash -t ls", "hash -d ls", "hash -l", "hash -- -p", "hash ls \"$x\"",
            "read -r line", "read -r a b", "IFS= read -r line", "read -p 'name: ' y", "read -a arr", "read",
            "read -t 5 x", "read -rs -n 1 key", "read -d '' -r x",
            "printf '%s\\n' x", "printf x", "printf -v out %s x", "printf -- '-%s' x", "printf \"%s\" \"$x\"",
            "printf '(%s)|%s;\\n' a b", "printf '%s\\n' \"$@\"",
            "getopts ab: opt", "getopts \"ab:\" opt -a", "getopts a opt \"$@\"",
            "wait", "wait -n", "wait -p pid -n", "wait 123 %1",
            "unset x", "unset -f myfunc", "unset -v a b",
            "test -f x", "test \"$a\" = \"$b\"", "test -n \"$x\"", "test -v x", "test -d src", "test -e src/*.c",
            "test \"$x\" -eq 1", "test -f \"$f\" -a -r \"$f\"",
            // umask and ulimit change only this shell's mask and limits (adv-resolution-021: "umask 000; ls")
            "umask", "umask -S", "umask 022", "ulimit -a", "ulimit -n", "ulimit -n 4096",
            "ls -la", "cat x", "wc --files0-from=f", "tail -f x", "echo $x", "cd /tmp", "pushd x", "type ls",
            "seq 1 10", "sleep 1", "stat -c %s x", "true", ":", "pwd", "exit 1", "shift", "dirs -v", "popd",
            "/usr/bin/uniq -c f",
    })
    void ordinary(String command) throws Exception {
        assertThat(TierArguments.safe(argv(command), false)).as(command + " " + argv(command)).isTrue();
    }

    /**
     * Over-blocked on purpose: a static argument holding a glob character ({@code '*.o'}) looks the same in argv
     * as an unquoted glob, which may expand to several words; as an option's argument the extra words could be
     * options (a file named {@code -l}).
     */
    @ParameterizedTest(name = "conservatively not safe: {0}")
    @ValueSource(strings = {"file *", "date +%s?"})
    void conservative(String command) throws Exception {
        assertThat(TierArguments.safe(argv(command), false)).as(command + " " + argv(command)).isFalse();
    }

    @Test
    void bracketAndConditional() throws Exception {
        assertThat(TierArguments.safe(argv("[ -f x ]"), false)).isTrue();
        assertThat(TierArguments.safe(argv("[ \"$a\" = b ]"), false)).isTrue();
        assertThat(TierArguments.safe(argv("[ -v 'a[PATH=1]' ]"), false)).isFalse();
        assertThat(TierArguments.safe(argv("[ -f x"), false)).isFalse();
        assertThat(TierArguments.safe(argv("'[[' 1 -eq 1"), false)).isTrue();
        assertThat(TierArguments.safe(argv("'[[' -n x"), false)).isTrue();
        assertThat(TierArguments.safe(argv("'[[' PATH=1 -eq 1"), false)).isFalse();
        assertThat(TierArguments.safe(argv("'[[' $x -gt 0"), false)).isFalse();
        assertThat(TierArguments.safe(argv("'[[' -v 'a[1]'"), false)).isFalse();
    }

    @Test
    void argumentsAWrapperAppendsAreUnknown() throws Exception {
        // echo ~/.bashrc | xargs uniq in  runs  uniq in ~/.bashrc
        assertThat(TierArguments.safe(argv("uniq in"), true)).isFalse();
        assertThat(TierArguments.safe(argv("uniq in"), false)).isTrue();
        assertThat(TierArguments.safe(argv("hostname"), true)).isFalse();
        assertThat(TierArguments.safe(argv("date"), true)).isFalse();
        assertThat(TierArguments.safe(argv("file"), true)).isFalse();
        assertThat(TierArguments.safe(argv("file --"), true)).isTrue();
        assertThat(TierArguments.safe(argv("cat"), true)).isTrue();
        assertThat(TierArguments.safe(argv("wc -l"), true)).isTrue();
        // find -exec uniq in {} \;  and  xargs -I{} date {}: the placeholder is one word of any value (an OUTPUT
        // file, a date to set); as the value of date -d it is only a date to read.
        assertThat(TierArguments.safe(payload("find . -exec uniq in {} \\;"), false)).isFalse();
        assertThat(TierArguments.safe(payload("ls | xargs -I{} date {}"), false)).isFalse();
        assertThat(TierArguments.safe(payload("ls | xargs -I% date x%"), false)).isFalse();
        assertThat(TierArguments.safe(payload("ls | xargs -I{} date -d {}"), false)).isTrue();
        assertThat(TierArguments.safe(payload("find . -exec uniq {} \\;"), false)).isTrue();
    }

    @Test
    void unknownProgramsAndEmptyArgv() throws Exception {
        assertThat(TierArguments.safe(argv("frobnicate -z --set x"), false)).isTrue();
        assertThat(TierArguments.safe(List.of(), false)).isFalse();
        assertThat(TierArguments.safe(null, false)).isFalse();
    }

    @Test
    void wordShapes() throws Exception {
        assertThat(word("-z").mayBeOption()).isTrue();
        assertThat(word("-").mayBeOption()).isFalse();
        assertThat(word("\"$f\"").mayBeOption()).isTrue();
        assertThat(word("\"$f\"").many()).isFalse();
        assertThat(word("\"./$f\"").mayBeOption()).isFalse();
        assertThat(word("./$f").mayBeOption()).isTrue();
        assertThat(word("./$f").many()).isTrue();
        assertThat(word("src/*.c").many()).isTrue();
        assertThat(word("src/*.c").mayBeOption()).isFalse();
        assertThat(word("<(sort a)").mayBeOption()).isFalse();
        assertThat(word("<(sort a)").many()).isFalse();
        assertThat(word("'a b\nc'").known()).isTrue();
        // Quoted glob and brace characters are literal: one known word (the AST says so; no re-parse of text).
        assertThat(word("'*'").known()).isTrue();
        assertThat(word("\"{a,b}\"").known()).isTrue();
        assertThat(word("'(x)|'*").many()).isTrue();
        assertThat(word("'(x)|'*").mayBeOption()).isFalse();
        assertThat(word("$((1+2))").many()).isTrue();
        assertThat(word("$((1+2))").mayBeOption()).isTrue();
        assertThat(word("\"$((1+2))\"").many()).isFalse();
        assertThat(word("\"${a[@]}\"").many()).isTrue();
        assertThat(word("~/x").mayBeOption()).isFalse();
    }
}
