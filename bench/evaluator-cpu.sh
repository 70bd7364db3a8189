#!/bin/sh
# The warm evaluator's CPU per call (issue 20, finding 4): load-independent up to cache effects, so it compares jars
# on a machine other engineers are loading.
#
# Usage: bench/evaluator-cpu.sh [CALLS] [ROUNDS] [JAR...]   (CALLS default 200, ROUNDS default 1; JAR default
#                                                             target/compound-bash.jar)
# For each round and each jar in turn (interleaved: A B A B ...), the script starts a fresh evaluator of that jar
# through bin/compound-bash (the launcher's own flags and class-data archive) in a temporary HOME and runtime
# directory, warms it with 200 calls of each input, then sends CALLS calls of a 3-sub-command input and CALLS calls of
# a 60-sub-command script (the inputs of bench/hook-speed.sh) and reads the evaluator's utime + stime from
# /proc/PID/stat before and after each batch (clock ticks of 10 ms), and its VmRSS at the end.
# Prints one line per jar and round: jar, round, microseconds of evaluator CPU per call (3 and 60), resident MB.
set -eu
calls=${1:-200}
rounds=${2:-1}
[ $# -gt 2 ] && shift 2 || set --
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
cd "$root"
[ $# -gt 0 ] || set -- "$root/target/compound-bash.jar"
for j in "$@"; do [ -f "$j" ] || { echo "no jar $j" >&2; exit 1; }; done

work=$(mktemp -d)
cleanup() {
  for d in "$work"/xdg*; do
    [ -d "$d/compound-bash" ] && java -jar "$1" daemon stop --dir "$d/compound-bash" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap 'cleanup "$1"' EXIT INT TERM
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
echo "== $(uname -srm); $(nproc) cores; $(java -version 2>&1 | head -1); load before: $(uptime)"
printf '%-50s %5s %12s %12s %8s\n' jar round "us/call 3" "us/call 60" "RSS MB"
r=0
while [ $r -lt "$rounds" ]; do
  n=0
  for jar in "$@"; do
    n=$((n + 1))
    home="$work/home$n"; xdg="$work/xdg$n"
    mkdir -p "$home/.claude" "$xdg"; chmod 700 "$xdg"
    printf '%s\n' '{"permissions":{"allow":["Bash(git *)","Bash(npm test:*)","Bash(grep *)","Bash(sort)","Bash(sort *)"],"deny":["Bash(git push --force *)"]}}' \
      >"$home/.claude/settings.json"
    run() { HOME="$home" XDG_RUNTIME_DIR="$xdg" COMPOUND_BASH_JAR="$jar" sh bin/compound-bash hook "$@"; }
    # the archive first (a cold call trains it), then an evaluator that maps it
    COMPOUND_BASH_WARM=0 run <"$work/in3.json" >/dev/null
    i=0
    until ls "$home/.claude/compound-bash/cache/"cds-*.jsa >/dev/null 2>&1; do
      sleep 1; i=$((i + 1)); [ $i -lt 600 ] || { echo "no class-data archive" >&2; exit 1; }
    done
    i=0
    until COMPOUND_BASH_TRACE=1 run <"$work/in3.json" 2>&1 >/dev/null | grep -q warm; do
      sleep 1; i=$((i + 1)); [ $i -lt 240 ] || { echo "evaluator did not start" >&2; exit 1; }
    done
    pid=$(head -1 "$xdg/compound-bash/pid")
    ticks() { awk '{print $14 + $15}' "/proc/$pid/stat"; }
    k=0
    while [ $k -lt 200 ]; do run <"$work/in3.json" >/dev/null; run <"$work/in60.json" >/dev/null; k=$((k + 1)); done
    percall() {
      a=$(ticks); k=0
      while [ $k -lt "$calls" ]; do run <"$1" >/dev/null; k=$((k + 1)); done
      b=$(ticks)
      echo $(( (b - a) * 10000 / calls ))
    }
    e3=$(percall "$work/in3.json")
    e60=$(percall "$work/in60.json")
    rss=$(awk '/VmRSS/ {printf "%.1f", $2 / 1024}' "/proc/$pid/status")
    printf '%-50s %5s %12s %12s %8s\n' "$jar" "$r" "$e3" "$e60" "$rss"
    java -jar "$jar" daemon stop --dir "$xdg/compound-bash" >/dev/null 2>&1 || true
    rm -rf "$home" "$xdg"
  done
  r=$((r + 1))
done
echo "== load after: $(uptime)"
