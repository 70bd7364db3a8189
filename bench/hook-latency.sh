#!/bin/sh
# Whole-process latency of the hook, measured with hyperfine (Debian package `hyperfine`).
#
# Usage: bench/hook-latency.sh [RUNS] [OUT-DIR]      (RUNS default 200; OUT-DIR default bench/results)
#
# Measures, in one hyperfine run so the three share the machine's state:
#   baseline  sh -c true
#   cold      the launcher with the warm path off (COMPOUND_BASH_WARM=0): a JVM per call, built-in rules
#             precompiled at build time, class-data-sharing archive trained beforehand
#   warm      the launcher (POSIX sh client) answered by an already running evaluator
# Each hook command is `sh -c 'exec bin/compound-bash hook < input.json'`, so it pays one sh start like the baseline.
# hyperfine runs with -N (no intermediate shell). Reports median, p99 and each path's ratio to the baseline median;
# the raw times are in OUT-DIR/hook-latency.json. Needs: hyperfine, python3, java; builds the jar when missing.
set -eu
runs=${1:-200}
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
out=${2:-$root/bench/results}
mkdir -p "$out"
cd "$root"
[ -f target/compound-bash.jar ] || ./mvnw -q -B -DskipTests package

work=$(mktemp -d)
home="$work/home"
xdg="$work/xdg"
mkdir -p "$home/.claude" "$xdg"
chmod 700 "$xdg"
printf '%s\n' '{"permissions":{"allow":["Bash(git *)","Bash(npm test:*)"],"deny":["Bash(git push --force *)"]}}' \
  >"$home/.claude/settings.json"
# A typical agent call: a compound git command with a pipe, judged "allow".
printf '{"tool_name":"Bash","hook_event_name":"PreToolUse","session_id":"bench","cwd":"%s","tool_input":{"command":"git status --short && git diff --stat | head -20"}}\n' \
  "$work" >"$work/in.json"
export HOME="$home" XDG_RUNTIME_DIR="$xdg"
unset CLAUDE_PROJECT_DIR CLAUDE_CONFIG_DIR CLAUDE_COMPOUND_LOG COMPOUND_BASH_WARM COMPOUND_BASH_BUDGET || true

cleanup() {
  java -jar target/compound-bash.jar daemon stop --dir "$xdg/compound-bash" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

echo "== machine: $(uname -srm); $(nproc) cores; $(java -version 2>&1 | head -1); hyperfine $(hyperfine --version | cut -d' ' -f2)"
echo "== load before: $(uptime)"

# Prepare the cold path: one call trains the class-data-sharing archive in the background; wait for it.
COMPOUND_BASH_WARM=0 sh bin/compound-bash hook <"$work/in.json" >/dev/null
i=0
while ! ls "$home/.claude/compound-bash/cache/"cds-*.jsa >/dev/null 2>&1 && [ $i -lt 120 ]; do sleep 1; i=$((i + 1)); done
# Prepare the warm path: the first call starts the evaluator; wait until it answers warm.
i=0
until COMPOUND_BASH_TRACE=1 sh bin/compound-bash hook <"$work/in.json" 2>&1 >/dev/null | grep -q warm; do
  sleep 1; i=$((i + 1)); [ $i -lt 120 ] || { echo "evaluator did not start" >&2; exit 1; }
done
answer=$(sh bin/compound-bash hook <"$work/in.json")
echo "== warm answer: $answer"
[ "$answer" = "$(COMPOUND_BASH_WARM=0 sh bin/compound-bash hook <"$work/in.json")" ] || { echo "warm and cold differ" >&2; exit 1; }

hyperfine -N --style basic --warmup 20 --runs "$runs" --export-json "$out/hook-latency.json" \
  -n baseline "sh -c true" \
  -n cold "sh -c 'COMPOUND_BASH_WARM=0 exec bin/compound-bash hook < $work/in.json'" \
  -n warm "sh -c 'exec bin/compound-bash hook < $work/in.json'"

echo "== load after: $(uptime)"
pid=$(head -1 "$xdg/compound-bash/pid")
echo "== evaluator RSS: $(awk '/VmRSS/ {print $2, $3}' "/proc/$pid/status" 2>/dev/null || ps -o rss= -p "$pid") (pid $pid)"
python3 - "$out/hook-latency.json" <<'PY'
import json, sys
res = {r["command"]: sorted(r["times"]) for r in json.load(open(sys.argv[1]))["results"]}
def q(ts, p):
    k = (len(ts) - 1) * p
    lo = int(k); hi = min(lo + 1, len(ts) - 1)
    return ts[lo] + (ts[hi] - ts[lo]) * (k - lo)
base = q(res["baseline"], 0.5)
print(f"{'path':<10}{'runs':>6}{'median ms':>12}{'p99 ms':>10}{'ratio to baseline':>20}")
for name in ("baseline", "cold", "warm"):
    ts = res[name]
    med = q(ts, 0.5)
    print(f"{name:<10}{len(ts):>6}{med * 1000:>12.1f}{q(ts, 0.99) * 1000:>10.1f}{med / base:>20.1f}")
PY
