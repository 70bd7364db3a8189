#!/usr/bin/env python3
"""Builds bench/corpus.jsonl: realistic agent Bash commands for the benchmarks.

Sources: the parser corpus (src/test/resources/shell/corpus.jsonl) without its deliberate syntax errors, plus
commands generated here from templates of what coding agents run most (git, npm, mvn, gradle, docker, find/xargs,
here-documents, loops). Deterministic: the same input gives the same file.
"""
import json
import pathlib

root = pathlib.Path(__file__).resolve().parent.parent
out = []
for line in (root / "src/test/resources/shell/corpus.jsonl").read_text().splitlines():
    o = json.loads(line)
    if o["id"].startswith("error-"):
        continue
    out.append({"id": "corpus-" + o["id"], "command": o["command"]})

paths = ["src/main/java", "src/test/java", "lib", "app/models", "packages/core/src", "cmd/server"]
branches = ["main", "feature/login", "fix/issue-42", "release/1.2"]
gen = []
for p in paths:
    gen += [
        f"git diff --stat -- {p}",
        f"git log --oneline -n 15 -- {p}",
        f"git add {p} && git commit -m 'Update {p}'",
        f"find {p} -name '*.java' -newer pom.xml | head -20",
        f"find {p} -type f -name '*.ts' -print0 | xargs -0 grep -l 'TODO' | sort",
        f"grep -rn 'deprecated' {p} | wc -l",
        f"ls -la {p} && du -sh {p}",
        f"for f in {p}/*.py; do python3 -m py_compile \"$f\" || echo \"bad: $f\"; done",
        f"cat > /tmp/notes.md <<'EOF'\n# Notes for {p}\n- check imports\nEOF",
        f"rg -n 'fn main' {p} --type rust | head",
        f"wc -l $(git ls-files {p}) | tail -1",
        f"find {p} -name '*.orig' -exec rm {{}} +",
    ]
for b in branches:
    gen += [
        f"git checkout {b} && git pull --rebase origin {b}",
        f"git fetch origin && git rebase origin/{b}",
        f"git push -u origin {b}",
        f"git log origin/{b}..HEAD --oneline",
        f"git merge --no-ff {b} -m 'Merge {b}'",
        f"git stash && git checkout {b} && git stash pop",
    ]
for tool in ["npm", "pnpm", "yarn"]:
    gen += [
        f"{tool} install",
        f"{tool} test -- --watch=false 2>&1 | tail -30",
        f"{tool} run build && {tool} run lint",
        f"{tool} run test -- --coverage > coverage.txt 2>&1",
        f"cd packages/web && {tool} run dev &",
    ]
for goal in ["test", "package -DskipTests", "verify", "dependency:tree", "-q compile"]:
    gen += [
        f"mvn -B {goal}",
        f"mvn -B {goal} 2>&1 | grep -E 'ERROR|BUILD' | head -20",
        f"./gradlew {goal.split()[0].lstrip('-q')} --no-daemon",
    ]
for img in ["app", "api", "worker"]:
    gen += [
        f"docker build -t {img}:dev .",
        f"docker run --rm -v \"$PWD\":/src -w /src {img}:dev make test",
        f"docker compose logs --tail 100 {img}",
        f"docker ps --filter name={img} --format '{{{{.ID}}}} {{{{.Status}}}}'",
        f"docker exec -it {img} sh -c 'ls /app && cat /app/config.yml'",
        f"kubectl get pods -l app={img} -o wide",
        f"kubectl logs deploy/{img} --since=10m | grep -i error",
    ]
gen += [
    "python3 -m pytest -q tests/ -k 'not slow'",
    "python3 -m pip install -r requirements.txt",
    "go test ./... -run TestParse -v",
    "cargo build --release && cargo test",
    "make -j4 && make check",
    "sed -i 's/foo/bar/g' src/config.yml",
    "awk -F, '{sum += $3} END {print sum}' data.csv",
    "jq '.dependencies | keys' package.json",
    "curl -s https://api.github.com/repos/owner/repo | jq .stargazers_count",
    "tar czf backup.tgz src/ && ls -la backup.tgz",
    "rm -rf node_modules dist && npm ci",
    "while read -r line; do echo \"$line\"; done < input.txt",
    "for i in $(seq 1 5); do curl -s localhost:8080/health && break; sleep 1; done",
    "if [ -f .env ]; then source .env; fi && echo $DATABASE_URL",
    "export NODE_ENV=test && npm test",
    "timeout 60 npm test",
    "nohup ./server > server.log 2>&1 &",
    "xargs -n1 echo < list.txt",
    "echo \"$(date) build done\" >> build.log",
    "cat <<EOF | kubectl apply -f -\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: demo\nEOF",
]
for i, c in enumerate(gen):
    out.append({"id": f"agent-{i + 1:03d}", "command": c})

path = root / "bench" / "corpus.jsonl"
path.write_text("".join(json.dumps(o) + "\n" for o in out))
print(f"{path}: {len(out)} commands")
