#!/usr/bin/env bash
# Experiment 162: whole groups (the wholegroups change) against main beside pebble at 64
# writers, N rounds (default 12) of scripts/store-pairs64 (builds rotated, the two
# contenders' order alternated), then the note. Ran with TAG=x (the round field is "roundx").
# Usage: experiments/162-store-whole-groups/run.sh MAIN_REV NEW_REV   (this one: 062105f 0cb67db)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for b in main:${1:?MAIN_REV} whole:${2:?NEW_REV}; do
  mkdir "$tmp/${b%%:*}"; (cd "$root" && git archive "${b#*:}" | tar -x -C "$tmp/${b%%:*}")
  (cd "$tmp/${b%%:*}" && CGO_ENABLED=0 go build -o "$tmp/kv-${b%%:*}" ./cmd/pure-kvbench)
done
flock /work/measure.lock env BUILDS="main=$tmp/kv-main whole=$tmp/kv-whole" N=${N:-12} OUT="$here/pairs-1.jsonl" TAG=x "$root/scripts/store-pairs64"
python3 "$root/scripts/pairs64note.py" --tag x --title "# 162: whole groups beside main and pebble at 64 writers" \
  --intro "$(cat "$here/intro.md")" --disturbed 0.6 "$here/pairs-1.jsonl" > "$here/note.md"
