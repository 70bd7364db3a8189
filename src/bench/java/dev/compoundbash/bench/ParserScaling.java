package dev.compoundbash.bench;

import dev.compoundbash.shell.Parser;

/** Parse cost per KB of one script repeated to 10, 40, 160 and 640 KB: flat per-KB cost means linear parse time. */
public final class ParserScaling {
  public static void main(String[] a) throws Exception {
    String[] pieces = {
      "for f in $(git diff --name-only HEAD~1); do\n  if [[ -f \"$f\" && $f == *.java ]]; then\n    echo \"checking $f\"; grep -n 'TODO' \"$f\" || true\n  fi\ndone\n",
      "cat > /tmp/notes.md <<'EOF'\n# Release notes\n- fixed the $(parser)\n- added `tests`\nEOF\n",
      "while read -r line; do printf '%s\\n' \"${line%%:*}\"; done < <(grep -rn 'import' src | head -50)\n",
      "count=$(( $(ls | wc -l) + 1 )); echo \"files: ${count}\" >> build.log\n"};
    for (int kb : new int[]{10, 40, 160, 640}) {
      StringBuilder sb = new StringBuilder(); int i = 0;
      while (sb.length() < kb * 1024) sb.append(pieces[i++ % pieces.length]);
      String s = sb.toString();
      for (int w = 0; w < 20; w++) Parser.parse(s);
      long t = System.nanoTime(); int n = 20;
      for (int r = 0; r < n; r++) Parser.parse(s);
      System.out.printf("%d KB: %.1f us/KB%n", kb, (System.nanoTime() - t) / 1e3 / n / kb);
    }
  }
}
