#!/usr/bin/env python3
"""Selects parity cases for the e2e test from the measured probes (src/test/resources/parity/probes.jsonl).

usage: make-parity-cases.py > src/test/e2e/parity-cases.jsonl

Each chosen probe keeps its measured native outcome ("native") and gets the hook's decision as this checkout's
hook gives it now ("expected", from `explain --json` in a work directory laid out like the probes'), and a setup
that recreates the probes' symlinks in the e2e work directory. The e2e run then checks, inside the real Claude
Code, that the native outcome still holds and that nothing Claude Code refuses for a reason of its own runs with
the hook. Run it again after a policy change, and review the diff.
"""
import json, os, re, subprocess, sys, tempfile, pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]
PROBES = ROOT / "src/test/resources/parity/probes.jsonl"
# Which probes: every class of docs/CLAUDE-CODE.md, by id prefix, capped per class.
CLASSES = [("p-c-", 40), ("p-d-", 14), ("p-e-", 14), ("p-mode-", 14), ("p-h-", 10), ("p-i-", 10), ("p-j-", 6),
           ("p-k-", 6), ("p-r2-", 16), ("p-r3-", 10), ("p-b-", 6), ("p-f-", 6)]
SETUP = ("ln -sf /etc/hosts link-etc-hosts; ln -sf ../outside.txt link-outside; ln -sf file.txt link-inside; "
         "ln -sf /etc linkdir-etc; ln -sf src linkdir-src; ln -sf /tmp/ccr-probe.txt link-tmp-probe; "
         "ln -sf /nonexistent/x link-dangling; mkdir -p src sub build danger .claude sub/.claude; "
         "touch a.tmp b.txt x x.log; printf '{}\\n' > x.json; printf 'p\\n' > src/main.py; "
         "printf 'u\\n' > src/util.py; printf 'n\\n' > sub/notes.txt; printf 'probe\\n' > /tmp/ccr-probe.txt; "
         "printf '{}\\n' > /tmp/ccr-probe.json")


def probes():
    for line in PROBES.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            yield json.loads(line)


def workdir():
    run = pathlib.Path(tempfile.mkdtemp(prefix="pgen-"))
    work = run / "work"
    work.mkdir()
    (run / "outside.txt").write_text("outside\n")
    (run / "home").mkdir()
    for f in ["README.md", "notes.md", ".env", "file.txt", "files.txt", "x.go", "y.go", ".git/HEAD"]:
        p = work / f
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text("x\n")
    subprocess.run(["bash", "-c", SETUP], cwd=work, check=True)
    return run, work


def decide(o, run, work):
    cwd = work / o["cwd"].replace("/home/dev/proj", "").lstrip("/") if o.get("cwd") else work
    cwd.mkdir(parents=True, exist_ok=True)
    settings = run / "settings.json"
    perms = {k: [x.replace("/home/dev/proj", str(work)) for x in o.get(k, [])]
             for k in ("allow", "ask", "deny", "additionalDirectories")}
    settings.write_text(json.dumps({"permissions": perms}))
    args = [str(ROOT / "bin/compound-bash"), "explain", "--json", "--cwd", str(cwd), "--settings", str(settings)]
    if o.get("permission_mode") in ("default", "acceptEdits", "plan", "auto", "dontAsk", "bypassPermissions"):
        args += ["--permission-mode", o["permission_mode"]]
    args.append(o["command"].replace("/home/dev/proj", str(work)))
    env = dict(os.environ, HOME=str(run / "home"), COMPOUND_BASH_WARM="0")
    out = subprocess.run(args, capture_output=True, text=True, env=env, timeout=120)
    return json.loads(out.stdout)["decision"]["outcome"]


def main():
    run, work = workdir()
    taken = {}
    for o in probes():
        if o.get("native") not in ("ran", "refused", "denied"):
            continue
        prefix = next((p for p, _ in CLASSES if o["id"].startswith(p)), None)
        if prefix is None or taken.get(prefix, 0) >= dict(CLASSES)[prefix]:
            continue
        taken[prefix] = taken.get(prefix, 0) + 1
        case = {k: o[k] for k in ("id", "command", "allow", "ask", "deny", "additionalDirectories", "permission_mode")
                if k in o}
        if o.get("cwd"):
            case["cwd"] = o["cwd"].replace("/home/dev/proj", "").lstrip("/") or "."
        case["setup"] = SETUP
        case["native"] = o["native"]
        case["expected"] = decide(o, run, work)
        case["why"] = o.get("why", "")
        print(json.dumps(case))


if __name__ == "__main__":
    main()
