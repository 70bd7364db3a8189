package dev.compoundbash.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Table-driven shape tests: each input is parsed and printed with {@link AstPrinter}; the expected strings were
 * checked by hand against the Bash Reference Manual and {@code shfmt}.
 */
class ParserShapeTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("echo hello world", "{(cmd echo hello world)}"),
                Arguments.of("a | b | c", "{(pipe (cmd a) | (cmd b) | (cmd c))}"),
                Arguments.of("a |& b", "{(pipe (cmd a) |& (cmd b))}"),
                Arguments.of("a && b || c", "{(andor (cmd a) && (cmd b) || (cmd c))}"),
                Arguments.of("a; b & c", "{(cmd a); (cmd b)& (cmd c)}"),
                Arguments.of("a & b &", "{(cmd a)& (cmd b)&}"),
                Arguments.of("! a | b", "{(pipe ! (cmd a) | (cmd b))}"),
                Arguments.of("time a", "{(pipe time (cmd a))}"),
                Arguments.of("time -p a", "{(pipe time-p (cmd a))}"),
                // parse.y: "--" after time or time -p belongs to the keyword; "-p" after it is a command
                Arguments.of("time -- a", "{(pipe time (cmd a))}"),
                Arguments.of("time -p -- a", "{(pipe time-p (cmd a))}"),
                Arguments.of("time -- -p a", "{(pipe time (cmd -p a))}"),
                Arguments.of("time --", "{(pipe time)}"),
                Arguments.of("time", "{(pipe time)}"),
                Arguments.of("! a", "{(pipe ! (cmd a))}"),
                Arguments.of("a\n\nb", "{(cmd a)\\n (cmd b)}"),
                Arguments.of("a &&\n b", "{(andor (cmd a) && (cmd b))}"),
                Arguments.of("a |\n b", "{(pipe (cmd a) | (cmd b))}"),
                Arguments.of("a=1", "{(cmd a=1)}"),
                Arguments.of("a=1 b=2 cmd arg", "{(cmd a=1 b=2 cmd arg)}"),
                Arguments.of("a+=x", "{(cmd a+=x)}"),
                Arguments.of("a[i]=x", "{(cmd a[i]=x)}"),
                Arguments.of("a[$(cmd)]=1", "{(cmd a[$({(cmd cmd)})]=1)}"),
                Arguments.of("a=(x y)", "{(cmd a=(x y))}"),
                Arguments.of("a=([k]=v x)", "{(cmd a=([k]=v x))}"),
                Arguments.of("a=()", "{(cmd a=())}"),
                Arguments.of("a+=(z)", "{(cmd a+=(z))}"),
                Arguments.of("a[1 + 1]=5", "{(cmd a[1 + 1]=5)}"),
                Arguments.of("declare -a a=(x y)", "{(cmd declare -a a=(x y))}"),
                Arguments.of("declare b=1 -r c", "{(cmd declare b=1 -r c)}"),
                Arguments.of("local x=$(pwd)", "{(cmd local x=$({(cmd pwd)}))}"),
                Arguments.of("export A=~/bin:~/x", "{(cmd export A=~{}/bin:~{}/x)}"),
                Arguments.of("let x=1 'y = 2'", "{(cmd let x=1 'y = 2')}"),
                Arguments.of("echo a=1", "{(cmd echo a=1)}"),
                Arguments.of("cmd >f", "{(cmd cmd >f)}"),
                Arguments.of("cmd <f >>g 2>&1 <>h >|i &>j &>>k <&0 >&2 2>&-", "{(cmd cmd <f >>g 2>&1 <>h >|i &>j &>>k <&0 >&2 2>&-)}"),
                Arguments.of("cmd {fd}>f", "{(cmd cmd {fd}>f)}"),
                Arguments.of("exec {fd}<&-", "{(cmd exec {fd}<&-)}"),
                Arguments.of(">f cmd <g arg 2>/dev/null", "{(cmd >f cmd <g arg 2>/dev/null)}"),
                Arguments.of("cat <<< \"$x here\"", "{(cmd cat <<<\"$x here\")}"),
                Arguments.of("(a; b)", "{(sub {(cmd a); (cmd b)})}"),
                Arguments.of("(a) >f", "{(sub {(cmd a)} >f)}"),
                Arguments.of("{ a; b; }", "{(group {(cmd a); (cmd b);})}"),
                Arguments.of("{ a; } 2>&1", "{(group {(cmd a);} 2>&1)}"),
                Arguments.of("if a; then b; fi", "{(if {(cmd a);} {(cmd b);})}"),
                Arguments.of("if a; then b; elif c; then d; else e; fi", "{(if {(cmd a);} {(cmd b);} {(cmd c);} {(cmd d);} else {(cmd e);})}"),
                Arguments.of("if a\nthen b\nfi", "{(if {(cmd a)\\n} {(cmd b)\\n})}"),
                Arguments.of("for i in 1 2 3; do echo $i; done", "{(for i in [1 2 3] {(cmd echo $i);})}"),
                Arguments.of("for i; do :; done", "{(for i {(cmd :);})}"),
                Arguments.of("for i do :; done", "{(for i {(cmd :);})}"),
                Arguments.of("for i in; do :; done", "{(for i in [] {(cmd :);})}"),
                Arguments.of("for ((i=0; i<3; i++)); do :; done", "{(for((i=0; i<3; i++)) {(cmd :);})}"),
                Arguments.of("for ((;;)); do :; done", "{(for((;;)) {(cmd :);})}"),
                Arguments.of("for i in a; { b; }", "{(for i in [a] {(cmd b);})}"),
                Arguments.of("select x in a b; do break; done", "{(select x in [a b] {(cmd break);})}"),
                Arguments.of("while a; do b; done", "{(while {(cmd a);} {(cmd b);})}"),
                Arguments.of("until a; do b; done", "{(until {(cmd a);} {(cmd b);})}"),
                Arguments.of("while read l; do :; done <f", "{(while {(cmd read l);} {(cmd :);} <f)}"),
                Arguments.of("case $x in a) b;; esac", "{(case $x [a) {(cmd b)} ;;])}"),
                Arguments.of("case $x in (a|b) c;; *) d;& e) ;;& esac", "{(case $x [a|b) {(cmd c)} ;;] [*) {(cmd d)} ;&] [e) {} ;;&])}"),
                Arguments.of("case x in esac", "{(case x)}"),
                Arguments.of("case x in a) b\nesac", "{(case x [a) {(cmd b)\\n} ])}"),
                Arguments.of("[[ -f x ]]", "{[[ (-f x) ]]}"),
                Arguments.of("[[ $a == b* && ! -z $c || ( d < e ) ]]", "{[[ ((($a == b*) && (! (-z $c))) || (paren (d < e))) ]]}"),
                Arguments.of("[[ $x =~ ^(a|b)+[0-9]$ ]]", "{[[ ($x =~ ^(a|b)+[0-9]$) ]]}"),
                Arguments.of("[[ a -nt b ]]", "{[[ (a -nt b) ]]}"),
                Arguments.of("[[ ! ]]", "{[[ ! ]]}"),
                Arguments.of("(( i++ ))", "{(( i++ ))}"),
                Arguments.of("(( a = (1 + 2) * 3 ))", "{(( a = (1 + 2) * 3 ))}"),
                Arguments.of("((ls); pwd)", "{(sub {(sub {(cmd ls)}); (cmd pwd)})}"),
                Arguments.of("f() { a; }", "{(func f (group {(cmd a);}))}"),
                Arguments.of("f () ( a )", "{(func f (sub {(cmd a)}))}"),
                Arguments.of("function f { a; }", "{(func f kw (group {(cmd a);}))}"),
                Arguments.of("function f() { a; } >log", "{(func f kw (group {(cmd a);} >log))}"),
                Arguments.of("f() if a; then b; fi", "{(func f (if {(cmd a);} {(cmd b);}))}"),
                Arguments.of("coproc a b", "{(coproc - (cmd a b))}"),
                Arguments.of("coproc N { a; }", "{(coproc N (group {(cmd a);}))}"),
                Arguments.of("coproc { a; }", "{(coproc - (group {(cmd a);}))}"),
                Arguments.of("echo 'single $x' \"double $x ${y}\" $'ansi\\tc' $\"loc\"", "{(cmd echo 'single $x' \"double $x ${y}\" $'ansi\tc' $\"loc\")}"),
                Arguments.of("echo \"a\\\"b\\\\c\\$d\\e\"", "{(cmd echo \"a\"b\\c$d\\e\")}"),
                Arguments.of("echo a\\ b \\$x \\\\", "{(cmd echo a b $x \\)}"),
                Arguments.of("echo $x $1 $@ $* $# $? $$ $! $- $0 $10", "{(cmd echo $x $1 $@ $* $# $? $$ $! $- $0 $10)}"),
                Arguments.of("echo ${#x} ${!x} ${!pre*} ${!pre@} ${!a[@]} ${a[i]} ${a[$(cmd)]}", "{(cmd echo ${#x} ${!x} ${!pre<*>} ${!pre<@>} ${!a[@]} ${a[i]} ${a[$({(cmd cmd)})]})}"),
                Arguments.of("echo ${x:-w} ${x-w} ${x:=w} ${x=w} ${x:?w} ${x?w} ${x:+w} ${x+w}", "{(cmd echo ${x<:->w} ${x<->w} ${x<:=>w} ${x<=>w} ${x<:?>w} ${x<?>w} ${x<:+>w} ${x<+>w})}"),
                Arguments.of("echo ${x#p} ${x##p} ${x%p} ${x%%p}", "{(cmd echo ${x<#>p} ${x<##>p} ${x<%>p} ${x<%%>p})}"),
                Arguments.of("echo ${x/p/r} ${x//p/r} ${x/#p/r} ${x/%p/r} ${x/p}", "{(cmd echo ${x</>p|r} ${x<//>p|r} ${x</#>p|r} ${x</%>p|r} ${x</>p})}"),
                Arguments.of("echo ${x^} ${x^^} ${x,} ${x,,} ${x^^[ab]} ${x@Q}", "{(cmd echo ${x<^>} ${x<^^>} ${x<,>} ${x<,,>} ${x<^^>[ab]} ${x<@>Q})}"),
                Arguments.of("echo ${x:1} ${x:1:2} ${x: -1} ${x:a:b}", "{(cmd echo ${x<:>1} ${x<:>1|2} ${x<:> -1} ${x<:>a|b})}"),
                Arguments.of("echo ${x:-$(cmd)} ${x:-\"a b\"} ${x:-{a}}", "{(cmd echo ${x<:->$({(cmd cmd)})} ${x<:->\"a b\"} ${x<:->{a}})}"),
                Arguments.of("echo \"${x:-'q'}\"", "{(cmd echo \"${x<:->'q'}\")}"),
                Arguments.of("echo $(a; b) $(case x in a) ;; esac) $(echo # )\n)", "{(cmd echo $({(cmd a); (cmd b)}) $({(case x [a) {} ;;])}) $({(cmd echo)\\n}))}"),
                Arguments.of("echo `a \\`b\\``", "{(cmd echo `{(cmd a `{(cmd b)}`)}`)}"),
                Arguments.of("echo \"`a`\"", "{(cmd echo \"`{(cmd a)}`\")}"),
                Arguments.of("echo $((1 + 2)) $[3 * 4] $(( $(cmd) + ${x} ))", "{(cmd echo $((1 + 2)) $[3 * 4] $(( $(cmd) + ${x} )))}"),
                Arguments.of("echo $((ls); (pwd))", "{(cmd echo $({(sub {(cmd ls)}); (sub {(cmd pwd)})}))}"),
                Arguments.of("echo <(a) >(b) x<(c)", "{(cmd echo <({(cmd a)}) >({(cmd b)}) x<({(cmd c)}))}"),
                Arguments.of("cat < <(a)", "{(cmd cat <<({(cmd a)}))}"),
                Arguments.of("echo @(a|b) !(c) +(d) *(e) ?(f) x*.@(jpg|png)", "{(cmd echo @(a|b) !(c) +(d) *(e) ?(f) x*.@(jpg|png))}"),
                Arguments.of("echo ~ ~/x ~root ~root/x a~ x=~", "{(cmd echo ~{} ~{}/x ~{root} ~{root}/x a~ x=~{})}"), // bash marks x=~ an assignment word: tilde after = (subst.c)
                Arguments.of("echo {a,b} {1..3} * ? [ab]", "{(cmd echo {a,b} {1..3} * ? [ab])}"),
                Arguments.of("echo a#b # comment", "{(cmd echo a#b)}"),
                Arguments.of("ec\\\nho hi", "{(cmd echo hi)}"),
                Arguments.of("a &\\\n& b", "{(andor (cmd a) && (cmd b))}"),
                Arguments.of("echo a\\\\\nb", "{(cmd echo a\\)\\n (cmd b)}"),
                Arguments.of("echo $ \"$\" a$", "{(cmd echo $ \"$\" a$)}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void parsesToExpectedShape(String source, String expected) throws ParseException {
        assertThat(AstPrinter.parse(source)).isEqualTo(expected);
    }
}
