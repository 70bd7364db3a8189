#!/bin/sh
# Resident memory of the warm evaluator under different JVM flags (issue 15).
#
# Usage: bench/evaluator-memory.sh [CALLS] [VARIANT...]     (CALLS default 300; VARIANT: the names below, default all)
#
# For each variant: starts `java FLAGS -jar target/compound-bash.jar daemon run` in a fresh runtime directory, waits
# until it is ready (it judges 40 commands of its own first), reads VmRSS from /proc/PID/status ("ready"), sends
# CALLS hook calls through bin/compound-bash (the warm path; commands from bench/corpus.jsonl, settings with allow
# and deny rules), then reads VmRSS and VmHWM (the peak) again, the evaluator's CPU time per call (utime + stime from
# /proc/PID/stat) and the client's median wall time per call. Every variant shares the flags in $base (SerialGC,
# -Xss4m as the parser's depth needs, no perf data, JVM logging off stdout); full128 is the evaluator's flags before
# issue 15, c1-64-cds the ones bin/compound-bash uses now. Variants with "cds" use a class-data archive trained
# by one hook run with the same flags as the launcher's training run. Needs: java, python3, a built jar.
set -eu
calls=${1:-300}
[ "$#" -gt 0 ] && shift
root=$(CDPATH= cd -- "$(dirname -- "$0")/.." && pwd)
cd "$root"
jar="$root/target/compound-bash.jar"
[ -f "$jar" ] || ./mvnw -q -B -DskipTests package

base="-XX:+UseSerialGC -Xss4m -XX:-UsePerfData -Xlog:disable -Xlog:all=warning:stderr -Xlog:cds*=off:stderr"
variants=${*:-"full128 full128-cds c1-128 c1-128-cds c1-64 c1-64-cds c1-48-cds c1-64-cds-small c1-64-cds-xss1m c1-64-mn12-cds now-cds"}
flags_of() {
  case $1 in
    full128) echo "$base -Xmx128m" ;;
    full128-cds) echo "$base -Xmx128m CDS" ;;
    c1-128) echo "$base -XX:TieredStopAtLevel=1 -Xmx128m" ;;
    c1-128-cds) echo "$base -XX:TieredStopAtLevel=1 -Xmx128m CDS" ;;
    c1-64) echo "$base -XX:TieredStopAtLevel=1 -Xmx64m" ;;
    c1-64-cds) echo "$base -XX:TieredStopAtLevel=1 -Xmx64m CDS" ;;
    c1-48-cds) echo "$base -XX:TieredStopAtLevel=1 -Xmx48m CDS" ;;
    c1-64-cds-small) echo "$base -XX:TieredStopAtLevel=1 -Xmx64m -XX:ReservedCodeCacheSize=16m -XX:MaxMetaspaceSize=96m CDS" ;;
    c1-64-cds-xss1m) echo "$base -XX:TieredStopAtLevel=1 -Xmx64m -Xss1m CDS" ;;
    c1-64-mn12-cds) echo "$base -XX:TieredStopAtLevel=1 -Xmx64m -Xmn12m CDS" ;;
    # the launcher's evaluator since issue 20 (also run with MALLOC_ARENA_MAX=2, as the launcher starts it)
    now-cds) echo "$base -XX:TieredStopAtLevel=1 -XX:+ExitOnOutOfMemoryError -Xmx64m -Xmn12m -XX:CICompilerCount=1 -XX:ReservedCodeCacheSize=32m CDS" ;;
    *) echo "unknown variant $1" >&2; exit 2 ;;
  esac
}

work=$(mktemp -d)
home="$work/home"
mkdir -p "$home/.claude" "$work/inputs"
printf '%s\n' '{"permissions":{"allow":["Bash(git *)","Bash(npm test:*)","Bash(mvn *)","Bash(docker ps *)"],"deny":["Bash(git push --force *)","Bash(rm -rf /*)"]}}' \
  >"$home/.claude/settings.json"
python3 - "$root/bench/corpus.jsonl" "$work/inputs" "$work" "$calls" <<'PY'
import json, sys
corpus, out, cwd, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
cmds = [json.loads(l)["command"] for l in open(corpus) if l.strip()]
for i in range(n):
    with open("%s/%04d.json" % (out, i), "w") as f:
        json.dump({"tool_name": "Bash", "hook_event_name": "PreToolUse", "session_id": "mem", "cwd": cwd,
                   "tool_input": {"command": cmds[(i * 7) % len(cmds)]}}, f)
PY

# The archive, trained as the launcher trains it (one hook run, the launcher's flags, -XX:ArchiveClassesAtExit).
jsa="$work/cds.jsa"
mkdir -p "$work/train/.claude"
printf '{"tool_name":"Bash","hook_event_name":"PreToolUse","cwd":"%s","tool_input":{"command":"git status && ls -la | grep x > out.txt"}}\n' \
  "$work/train" >"$work/train/in.json"
# shellcheck disable=SC2086
env -i PATH="$PATH" HOME="$work/train" java $base -XX:TieredStopAtLevel=1 -XX:ArchiveClassesAtExit="$jsa" -jar "$jar" hook \
  <"$work/train/in.json" >/dev/null 2>&1

cleanup() {
  for d in "$work"/xdg-*; do
    [ -d "$d" ] && java -jar "$jar" daemon stop --dir "$d/compound-bash" >/dev/null 2>&1 || true
  done
  rm -rf "$work"
}
trap cleanup EXIT INT TERM

kb() { awk -v k="$1:" '$1 == k {print $2}' "/proc/$2/status"; }
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
tick=$(getconf CLK_TCK)

echo "== machine: $(uname -srm); $(nproc) cores; $(java -version 2>&1 | head -1); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $calls warm calls per variant; RSS in MB"
printf '%-18s %9s %11s %9s %13s %14s  %s\n' variant ready-RSS after-RSS peak cpu-ms/call median-ms/call flags
for v in $variants; do
  flags=$(flags_of "$v")
  case $flags in *CDS) flags="${flags% CDS} -XX:SharedArchiveFile=$jsa" ;; esac
  xdg="$work/xdg-$v"
  mkdir -p "$xdg"
  chmod 700 "$xdg"
  rt="$xdg/compound-bash"
  # shellcheck disable=SC2086
  MALLOC_ARENA_MAX=$(case $v in now-*) echo 2 ;; *) echo 8 ;; esac) \
    java $flags -jar "$jar" daemon run --dir "$rt" --jar "$jar" --idle-minutes 10 </dev/null >/dev/null 2>"$work/$v.err" &
  i=0
  until [ -p "$rt/req" ] && [ -f "$rt/pid" ]; do
    sleep 0.2; i=$((i + 1)); [ $i -lt 600 ] || { echo "$v: evaluator did not start: $(cat "$work/$v.err")" >&2; exit 1; }
  done
  pid=$(head -1 "$rt/pid")
  ready=$(kb VmRSS "$pid")
  c0=$(cpu_ticks "$pid")
  : >"$work/$v.times"
  for f in "$work"/inputs/*.json; do
    t0=$(date +%s%N)
    HOME="$home" XDG_RUNTIME_DIR="$xdg" COMPOUND_BASH_BUDGET=30 sh bin/compound-bash hook <"$f" >/dev/null
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000)) >>"$work/$v.times"
  done
  c1=$(cpu_ticks "$pid")
  after=$(kb VmRSS "$pid")
  peak=$(kb VmHWM "$pid")
  med=$(sort -n "$work/$v.times" | awk '{a[NR]=$1} END {print a[int((NR+1)/2)] / 1000}')
  cpu=$(echo "$c0 $c1 $tick $calls" | awk '{printf "%.2f", ($2 - $1) * 1000 / $3 / $4}')
  printf '%-18s %9.1f %11.1f %9.1f %13s %14s  %s\n' "$v" "$(echo "$ready" | awk '{print $1/1024}')" \
    "$(echo "$after" | awk '{print $1/1024}')" "$(echo "$peak" | awk '{print $1/1024}')" "$cpu" "$med" \
    "$(printf '%s' "${flags#"$base "}" | sed "s|$jsa|cds.jsa|")"
  java -jar "$jar" daemon stop --dir "$rt" >/dev/null 2>&1 || true
  wait
done
