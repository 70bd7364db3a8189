#!/bin/sh
# Runs the hook on every bundled example input with the bundled settings (examples/home) and compares the
# decision with examples/expected/<name>.txt. Prints one line per example and exits 1 on any mismatch.
set -u
here=$(CDPATH= cd -- "$(dirname -- "$0")" && pwd)
root=$(dirname "$here")
fail=0
for input in "$here"/inputs/*.json; do
  name=$(basename "$input" .json)
  out=$(COMPOUND_BASH_WARM=0 COMPOUND_BASH_CDS=0 HOME="$here/home" CLAUDE_COMPOUND_LOG="${TMPDIR:-/tmp}/compound-bash-examples.log" "$root/bin/compound-bash" hook < "$input")
  if [ -z "$out" ]; then got=defer; else
    got=$(printf '%s' "$out" | sed -n 's/.*"permissionDecision":"\([a-z]*\)".*/\1/p'); fi
  want=$(cat "$here/expected/$name.txt")
  if [ "$got" = "$want" ]; then echo "ok   $name: $got"; else echo "FAIL $name: got $got, expected $want"; fail=1; fi
done
exit $fail
