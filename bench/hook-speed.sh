#!/bin/sh
# The hook's speed beside the Go peer's, in one run (issue 20): whole-process latency with hyperfine, the CPU the
# evaluator spends per call, instruction counts of each client process (valgrind, load-independent), the evaluator's
# resident memory.
#
# Usage: bench/hook-speed.sh [RUNS] [OUT-DIR]           (RUNS default 200; OUT-DIR default bench/results)
# Needs: hyperfine, python3, a JDK 17; valgrind for the instruction counts (skipped without it); the Go peer
# (gwatts/claude-compound-bash) built by ../shared/tools/build-go-peer into $GO_PEER (default /tmp/peer/ccb); without
# it the Go columns are left out.
#
# One hyperfine batch (-N: no intermediate shell, commands interleaved by hyperfine one after another) holds:
#   baseline   sh -c true
#   go-3       the Go peer, a 3-sub-command call          warm-3    this hook, warm (evaluator running)
#   go-60      the Go peer, a 60-sub-command script       warm-60   this hook, warm
#   cold-3     this hook with the warm path off (COMPOUND_BASH_WARM=0): a JVM per call, class-data archive trained
# Each command is `sh -c '... < input.json'`, as Claude Code runs a hook (a shell, then the program). Settings allow
# every program of both inputs (and a dummy rule the peer needs), so both tools judge every sub-command and allow.
set -eu
runs=${1:-200}
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
out=${2:-$root/bench/results}
peer=${GO_PEER:-/tmp/peer/ccb}
mkdir -p "$out"
cd "$root"
[ -f target/compound-bash.jar ] || ./mvnw -q -B -DskipTests package

work=$(mktemp -d)
home="$work/home"
xdg="$work/xdg"
mkdir -p "$home/.claude" "$xdg"
chmod 700 "$xdg"
printf '%s\n' '{"permissions":{"allow":["Bash(git *)","Bash(npm test:*)","Bash(grep *)","Bash(sort)","Bash(sort *)","Bash(zzz-dummy-never)"],"deny":["Bash(git push --force *)"]}}' \
  >"$home/.claude/settings.json"
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
def call(command):
    return {"tool_name": "Bash", "hook_event_name": "PreToolUse", "session_id": "bench", "cwd": work,
            "tool_input": {"command": command}}
three = "git status --short && git diff --stat | head -20"
cmds = ["git status --short", "git diff --stat", "ls -la src", "cat README.md", "grep -n TODO src/main.c",
        "wc -l notes.txt", "head -5 file.txt", "git log --oneline -5", "echo done", "npm test -- --watch=false"]
parts = [cmds[i % len(cmds)] for i in range(60)]
sixty = " && ".join(parts[:20]) + "; cat a.txt | grep x | sort | uniq -c | head -20; " + "; ".join(parts[25:60])
json.dump(call(three), open(work + "/in3.json", "w"))
json.dump(call(sixty), open(work + "/in60.json", "w"))
PY
export HOME="$home" XDG_RUNTIME_DIR="$xdg"
unset CLAUDE_PROJECT_DIR CLAUDE_CONFIG_DIR CLAUDE_COMPOUND_LOG COMPOUND_BASH_WARM COMPOUND_BASH_BUDGET || true

cleanup() {
  java -jar target/compound-bash.jar daemon stop --dir "$xdg/compound-bash" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

echo "== machine: $(uname -srm); $(nproc) cores; $(java -version 2>&1 | head -1); hyperfine $(hyperfine --version | cut -d' ' -f2); commit $(git rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "== load before: $(uptime)"

# The class-data archive for this jar and JVM (a cold call trains it in the background), then the evaluator (started
# after the archive exists, so that it maps it).
COMPOUND_BASH_WARM=0 sh bin/compound-bash hook <"$work/in3.json" >/dev/null
i=0
until ls "$home/.claude/compound-bash/cache/"cds-*.jsa >/dev/null 2>&1; do
  sleep 1; i=$((i + 1)); [ $i -lt 600 ] || { echo "no class-data archive" >&2; exit 1; }
done
i=0
until COMPOUND_BASH_TRACE=1 sh bin/compound-bash hook <"$work/in3.json" 2>&1 >/dev/null | grep -q warm; do
  sleep 1; i=$((i + 1)); [ $i -lt 240 ] || { echo "evaluator did not start" >&2; exit 1; }
done
for n in 3 60; do
  warm=$(sh bin/compound-bash hook <"$work/in$n.json")
  cold=$(COMPOUND_BASH_WARM=0 sh bin/compound-bash hook <"$work/in$n.json")
  [ "$warm" = "$cold" ] || { echo "warm and cold differ for in$n: $warm / $cold" >&2; exit 1; }
  echo "== answer, $n sub-commands: $warm"
  [ -x "$peer" ] && echo "== Go peer, $n sub-commands: $("$peer" <"$work/in$n.json")"
done

set -- -n baseline "sh -c true"
[ -x "$peer" ] && set -- "$@" -n go-3 "sh -c '$peer < $work/in3.json'"
set -- "$@" -n warm-3 "sh -c 'exec bin/compound-bash hook < $work/in3.json'"
[ -x "$peer" ] && set -- "$@" -n go-60 "sh -c '$peer < $work/in60.json'"
set -- "$@" -n warm-60 "sh -c 'exec bin/compound-bash hook < $work/in60.json'"
set -- "$@" -n cold-3 "sh -c 'COMPOUND_BASH_WARM=0 exec bin/compound-bash hook < $work/in3.json'"
pid=$(head -1 "$xdg/compound-bash/pid")
ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
t0=$(ticks)
hyperfine -N --style basic --warmup 20 --runs "$runs" --export-json "$out/hook-speed.json" "$@"
t1=$(ticks)
echo "== load after: $(uptime)"
rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")

# Evaluator CPU per call, each input alone (load-independent up to cache effects): 200 calls each.
percall() {
  a=$(ticks)
  k=0
  while [ $k -lt 200 ]; do sh bin/compound-bash hook <"$1" >/dev/null; k=$((k + 1)); done
  b=$(ticks)
  echo "$(( (b - a) * 10000 / 200 ))"   # clock ticks of 10 ms -> microseconds per call
}
e3=$(percall "$work/in3.json")
e60=$(percall "$work/in60.json")

# Instructions retired by each client process tree (valgrind counts them; the evaluator's share is the CPU above).
ir() {
  valgrind --tool=lackey --trace-children=yes sh -c "$1" 2>&1 >/dev/null \
    | sed -n 's/.*guest instrs: *\([0-9,]*\)$/\1/p' | tr -d , | awk '{s += $1} END {print s + 0}'
}
if command -v valgrind >/dev/null 2>&1; then
  ir_base=$(ir "true")
  ir_warm=$(ir "exec bin/compound-bash hook < $work/in3.json")
  ir_go=
  [ -x "$peer" ] && ir_go=$(ir "$peer < $work/in3.json")
else
  ir_base= ir_warm= ir_go=
fi

python3 - "$out/hook-speed.json" "$rss" "$hwm" "$e3" "$e60" "${ir_base:-}" "${ir_warm:-}" "${ir_go:-}" <<'PY'
import json, sys
res = {r["command"]: r for r in json.load(open(sys.argv[1]))["results"]}
rss, hwm, e3, e60 = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
def q(ts, p):
    ts = sorted(ts); k = (len(ts) - 1) * p; lo = int(k); hi = min(lo + 1, len(ts) - 1)
    return ts[lo] + (ts[hi] - ts[lo]) * (k - lo)
med = {n: q(r["times"], 0.5) for n, r in res.items()}
print(f"{'command':<10}{'runs':>6}{'median ms':>11}{'p99 ms':>9}{'user+sys ms':>13}{'x baseline':>12}{'x Go':>7}")
for n, r in res.items():
    go = {"warm-3": "go-3", "warm-60": "go-60"}.get(n)
    ratio = f"{med[n] / med[go]:.1f}" if go in med else ""
    cpu = (r["user"] + r["system"]) * 1000
    print(f"{n:<10}{len(r['times']):>6}{med[n] * 1000:>11.1f}{q(r['times'], 0.99) * 1000:>9.1f}{cpu:>13.1f}"
          f"{med[n] / med['baseline']:>12.1f}{ratio:>7}")
print(f"evaluator: {rss / 1024:.1f} MB resident after the batch (peak {hwm / 1024:.1f} MB); CPU per call "
      f"{e3 / 1000:.2f} ms (3 sub-commands), {e60 / 1000:.2f} ms (60 sub-commands)")
ib, iw, ig = sys.argv[6:9]
if ib:
    line = f"instructions per client process tree (valgrind): sh -c true {int(ib):,}; warm client {int(iw):,}"
    if ig:
        line += f"; Go peer {int(ig):,}"
    print(line)
PY
