package dev.compoundbash.bench;

import dev.compoundbash.shell.ParseException;
import dev.compoundbash.shell.Parser;
import dev.compoundbash.shell.Script;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.concurrent.TimeUnit;

/**
 * Parse time of the bash parser alone (issue 2): a typical 200-character agent command, and a 10 KB script made of
 * realistic statements (loops, here-documents, substitutions, pipelines). Average time per parse.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ParserBenchmark {
    /** A typical agent command of exactly 200 characters. */
    public static final String COMMAND_200;

    static {
        String c = "git add -A && git commit -m \"fix(parser): handle nested $(echo subst) in heredocs\" "
                + "&& npm test -- --runInBand 2>&1 | tail -n 40 && find src -name '*.ts' -print0 | xargs -0 wc -l";
        StringBuilder sb = new StringBuilder(c);
        while (sb.length() < 200) sb.append(' ');
        COMMAND_200 = sb.substring(0, 200);
    }

    String script10k;

    @Setup
    public void setUp() throws ParseException {
        String[] pieces = {
            "for f in $(git diff --name-only HEAD~1); do\n  if [[ -f \"$f\" && $f == *.java ]]; then\n"
                    + "    echo \"checking $f\"; grep -n 'TODO' \"$f\" || true\n  fi\ndone\n",
            "cat > /tmp/notes.md <<'EOF'\n# Release notes\n- fixed the $(parser)\n- added `tests`\nEOF\n",
            "while read -r line; do printf '%s\\n' \"${line%%:*}\"; done < <(grep -rn 'import' src | head -50)\n",
            "docker ps --format '{{.Names}}' | xargs -I{} docker logs --tail 20 {} 2>&1 | grep -i error\n",
            "case \"$(uname -s)\" in Linux) echo linux ;; Darwin) echo mac ;; *) echo other ;; esac\n",
            "count=$(( $(ls | wc -l) + 1 )); echo \"files: ${count}\" >> build.log\n",
        };
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (sb.length() < 10 * 1024) sb.append(pieces[i++ % pieces.length]);
        script10k = sb.toString();
        Parser.parse(COMMAND_200);
        Parser.parse(script10k);
    }

    @Benchmark
    public Script command200() throws ParseException {
        return Parser.parse(COMMAND_200);
    }

    @Benchmark
    public Script script10KB() throws ParseException {
        return Parser.parse(script10k);
    }
}
