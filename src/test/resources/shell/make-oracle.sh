#!/usr/bin/env bash
# Regenerates corpus.jsonl (from corpus.txt) and shfmt-oracle.jsonl. Needs shfmt 3.6, python3, bash.
# Run from anywhere; see make-oracle.py for the extraction rules.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
py=/usr/bin/python3; [ -x "$py" ] || py=python3
exec "$py" "$here/make-oracle.py" "$@"
