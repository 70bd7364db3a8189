#!/usr/bin/env python3
"""make-oracle.py: build the shfmt oracle for DifferentialTest.

Usage (from the Maven project root):
    python3 src/test/resources/shell/make-oracle.py            # corpus.txt -> corpus.jsonl -> shfmt-oracle.jsonl
    python3 src/test/resources/shell/make-oracle.py --no-corpus # keep corpus.jsonl as is, only rebuild the oracle
    python3 src/test/resources/shell/make-oracle.py --corpus C.jsonl --out O.jsonl   # (used by the live test mode)

Steps
1. corpus.txt (the editable source, see its header) is turned into corpus.jsonl: {"id","command"} per line.
2. Every command is parsed by shfmt (mvdan/sh 3.6, bash dialect) through /work/shared/tools/shfmt-ast
   --batch --keep-pos (or `shfmt-ast` on PATH, or $SHFMT_AST).
3. THE EXTRACTION (DifferentialTest does the same over our own AST):
   commands  every simple command, wherever it appears (top level, $( ), backquotes, ( ), <( ), >( ),
             here-document bodies, ${..} operands, $(( )), [[ ]], case patterns, array values, ...):
               - shfmt CallExpr with >= 1 arg: the exact source text of each arg (assignments before the
                 command name are NOT listed; an assignment-only CallExpr is not a command);
               - DeclClause (declare local export readonly typeset nameref): the variant word then the source
                 text of each argument (a flag like -a, a bare name, or a whole `name=value` / `name=(..)`);
               - LetClause: "let" then the source text of each arithmetic expression argument
                 (our parser keeps `let` as an ordinary simple command, whose words are the same texts).
             sorted by the start offset of the command's first word (so nesting order is source order).
   redirects every redirection (Stmt.Redirs) anywhere, as [fd or "", operator, source text of the target word]
             (for << and <<- the target is the delimiter word as written, e.g. 'EOF'); sorted by the start
             offset of the target word.
   Source texts are cut from the command with shfmt's Pos/End offsets, which are UTF-8 BYTE offsets: the
   command is encoded to UTF-8, sliced, decoded.
4. bash's verdict: bash_ok = `bash -O extglob -n -c CMD` exits 0 and prints nothing but warnings (extglob is
   enabled because bash only accepts !(..) @(..) ... with it at parse time; our parser and shfmt always do).

Output line:  {"id","ok":true,"bash_ok":..,"commands":[[..],..],"redirects":[[fd,op,target],..]}
          or  {"id","ok":false,"bash_ok":..,"error":"shfmt message"}
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def corpus_from_txt(txt_path):
    """corpus.txt format: '==> theme' starts a theme (ids theme-001, ...); ';;;' lines are notes;
    blank lines are skipped; every other line is one command, except a block between a line '@@@{' and a
    line '@@@}', whose inner lines (joined with newlines, no trailing newline) are one command."""
    out, theme, counters, block = [], None, {}, None
    with open(txt_path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if block is not None:
                if line == "@@@}":
                    add(out, theme, counters, "\n".join(block), lineno)
                    block = None
                else:
                    block.append(line)
                continue
            if line.startswith(";;;") or not line.strip():
                continue
            if line.startswith("==> "):
                theme = line[4:].strip()
                continue
            if line == "@@@{":
                block = []
                continue
            add(out, theme, counters, line, lineno)
    if block is not None:
        sys.exit("corpus.txt: unterminated @@@{ block")
    return out


def add(out, theme, counters, cmd, lineno):
    if theme is None:
        sys.exit("corpus.txt:%d: command before the first '==> theme' line" % lineno)
    counters[theme] = counters.get(theme, 0) + 1
    out.append({"id": "%s-%03d" % (theme, counters[theme]), "command": cmd})


def find_shfmt_ast():
    for cand in (os.environ.get("SHFMT_AST"), "/work/shared/tools/shfmt-ast", shutil.which("shfmt-ast")):
        if cand and os.access(cand, os.X_OK):
            return cand
    sys.exit("make-oracle: shfmt-ast not found (set SHFMT_AST)")


def extract(src, ast):
    b = src.encode("utf-8")

    def cut(p, e):
        return b[p:e].decode("utf-8", "replace")

    def text(n):
        return cut(n["Pos"]["Offset"], n["End"]["Offset"])

    cmds, redirs = [], []

    def walk(n):
        if isinstance(n, list):
            for x in n:
                walk(x)
            return
        if not isinstance(n, dict):
            return
        t = n.get("Type")
        if t == "CallExpr" and n.get("Args"):
            cmds.append((n["Args"][0]["Pos"]["Offset"], [text(a) for a in n["Args"]]))
        elif t == "DeclClause":
            v = n["Variant"]
            cmds.append((v["Pos"]["Offset"], [text(v)] + [text(a) for a in (n.get("Args") or [])]))
        elif t == "LetClause":
            p = n["Pos"]["Offset"]
            cmds.append((p, [cut(p, p + 3)] + [text(e) for e in (n.get("Exprs") or [])]))
        for r in n.get("Redirs") or []:
            fd = r["N"]["Value"] if r.get("N") else ""
            redirs.append((r["Word"]["Pos"]["Offset"], [fd, r["Op"], text(r["Word"])]))
        for k, v in n.items():
            if isinstance(v, (dict, list)):
                walk(v)

    walk(ast)
    cmds.sort(key=lambda c: c[0])
    redirs.sort(key=lambda r: r[0])
    return [c[1] for c in cmds], [r[1] for r in redirs]


def bash_ok(cmd):
    try:
        p = subprocess.run(["bash", "-O", "extglob", "-n", "-c", cmd], capture_output=True, timeout=10,
                           stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return False
    # bash -n exits 0 for some errors it reports, e.g. `[[ -f ]]`: "unexpected argument `]]' to conditional
    # unary operator" (and at run time it discards the whole line); so any diagnostic other than a warning
    # (an unclosed here-document only warns) counts as a rejection.
    err = [l for l in p.stderr.decode("utf-8", "replace").splitlines() if l.strip() and "warning:" not in l]
    return p.returncode == 0 and not err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--txt", default=os.path.join(HERE, "corpus.txt"))
    ap.add_argument("--corpus", default=os.path.join(HERE, "corpus.jsonl"))
    ap.add_argument("--out", default=os.path.join(HERE, "shfmt-oracle.jsonl"))
    ap.add_argument("--no-corpus", action="store_true", help="do not regenerate corpus.jsonl from corpus.txt")
    a = ap.parse_args()
    dump = lambda o: json.dumps(o, ensure_ascii=False, separators=(",", ":"))
    if not a.no_corpus and os.path.abspath(a.corpus) == os.path.join(HERE, "corpus.jsonl") \
            and os.path.exists(a.txt):
        entries = corpus_from_txt(a.txt)
        with open(a.corpus, "w", encoding="utf-8") as f:
            for e in entries:
                f.write(dump(e) + "\n")
    with open(a.corpus, encoding="utf-8") as f:
        entries = [json.loads(l) for l in f if l.strip()]
    ids = [e["id"] for e in entries]
    if len(set(ids)) != len(ids):
        sys.exit("duplicate ids in corpus")
    p = subprocess.run([find_shfmt_ast(), "--batch", "--keep-pos"],
                       input="".join(dump(e) + "\n" for e in entries).encode("utf-8"), capture_output=True)
    if p.returncode != 0:
        sys.exit("shfmt-ast failed: " + p.stderr.decode())
    results = {}
    for line in p.stdout.decode("utf-8").splitlines():
        r = json.loads(line)
        results[r["id"]] = r
    out = []
    for e in entries:
        r = results[e["id"]]
        rec = {"id": e["id"], "ok": r["ok"], "bash_ok": bash_ok(e["command"])}
        if r["ok"]:
            rec["commands"], rec["redirects"] = extract(e["command"], r["ast"])
        else:
            rec["error"] = r["error"]
        out.append(rec)
    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        for rec in out:
            f.write(dump(rec) + "\n")
    os.replace(tmp, a.out)
    bad = sum(1 for r in out if not r["ok"])
    bashbad = sum(1 for r in out if not r["bash_ok"])
    disagree = [r["id"] for r in out if r["ok"] != r["bash_ok"]]
    print("%d commands; shfmt errors %d; bash -n errors %d; shfmt/bash disagree: %s"
          % (len(out), bad, bashbad, " ".join(disagree) or "none"), file=sys.stderr)


if __name__ == "__main__":
    main()
