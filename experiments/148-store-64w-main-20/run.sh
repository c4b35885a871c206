#!/usr/bin/env bash
# Experiment 148: main alone beside pebble at 64 writers, 20 rounds (scripts/store-pairs64),
# to know where main stands against issue 15's 1.5x with more rounds than the earlier
# 6-12-round series; then the note. Ran with TAG=x (the round field is "roundx").
# Usage: experiments/148-store-64w-main-20/run.sh REV   (this one: a6b33ff)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$root" && git archive "${1:?REV}" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o "$tmp/kv-main" ./cmd/pure-kvbench)
flock /work/measure.lock env BUILDS="main=$tmp/kv-main" N=20 OUT="$here/pairs-1.jsonl" TAG=x "$root/scripts/store-pairs64"
python3 "$root/scripts/pairs64note.py" --tag x --title "# 148: main beside pebble at 64 writers, 20 rounds" \
  --intro "$(cat "$here/intro.md")" --disturbed 0.6 "$here/pairs-1.jsonl" > "$here/note.md"
