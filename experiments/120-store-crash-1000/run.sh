#!/usr/bin/env bash
# Experiment 120 (issue 15, deliverable 5): `just crash-store cycles=1000` on
# the current code: kills during open, during commits, during compaction,
# and all three on one growing file; every acknowledged write must survive.
# Usage: experiments/120-store-crash-1000/run.sh   (writes crash.txt, then note.md)
#        experiments/120-store-crash-1000/run.sh note   (only note.md from crash.txt)
# OUT=DIR writes crash.txt, crash.jsonl and note.md there instead, its number in the title
# (later experiments rerun this one on later code).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${OUT:-$here} num=$(basename "$out"); num=${num%%-*}
if [[ ${1:-} != note ]]; then
  cd "$root"
  { echo "start $(date -u +%FT%TZ) at $(git rev-parse --short HEAD)"; time flock /work/measure.lock just crash-store cycles=1000; echo "rc=$?"; echo "end $(date -u +%FT%TZ)"; } > "$out/crash.txt" 2>&1
fi
python3 "$here/note.py" "$out/crash.txt" "$out/crash.jsonl" "$num" > "$out/note.md"
