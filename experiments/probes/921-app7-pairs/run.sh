#!/usr/bin/env bash
# Probe 921: Pure's in-process TPC-C alone (probe 914's program), old
# against new in many short back-to-back pairs, because experiment 054's
# four appbench runs could not tell a change of a few per cent from the
# shared machine's noise (its runs' own rounds differ by up to 1.6x).
#
# Builds probe 914's main.go against OLD and NEW (git archive, no
# worktree), then PAIRS times: holding /work/measure.lock for the pair,
# runs both (2 rounds of 20,000 transactions each, after the load), the
# order alternating (old first in odd pairs). Output: pairs.jsonl, one
# line per round of a run with the pair, the side and the position added.
# note.py writes note.md.
#
# Usage: experiments/probes/921-app7-pairs/run.sh [OLD [NEW]]  (default 1d25ad3 HEAD)
#        PAIRS=8
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
old=$(git -C "$root" rev-parse --short "${1:-1d25ad3}")
new=$(git -C "$root" rev-parse --short "${2:-HEAD}")
pairs=${PAIRS:-8}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/921.XXXXXX")
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
for s in old new; do
  rev=$old; [[ $s == new ]] && rev=$new
  mkdir -p "$tmp/$s/experiments/probes/914-ram-tpcc-wall"
  git -C "$root" archive "$rev" | tar -x -C "$tmp/$s"
  cp "$root/experiments/probes/914-ram-tpcc-wall/main.go" "$tmp/$s/experiments/probes/914-ram-tpcc-wall/"
  (cd "$tmp/$s" && go build -o "$tmp/probe-$s" ./experiments/probes/914-ram-tpcc-wall)
done
cd "$here"
: > pairs.jsonl
for p in $(seq 1 "$pairs"); do
  order="old new"; (( p % 2 == 0 )) && order="new old"
  flock /work/measure.lock bash -c '
    pos=0
    for s in '"$order"'; do
      rev='"$old"'; [[ $s == new ]] && rev='"$new"'
      l1=$(cut -d" " -f1 /proc/loadavg)
      "'"$tmp"'/probe-$s" --rounds 2 --tx 20000 | while read -r line; do
        echo "{\"pair\":'"$p"',\"side\":\"$s\",\"rev\":\"$rev\",\"position\":$pos,\"load1\":$l1,${line#\{}"
      done
      pos=$((pos+1))
    done' >> pairs.jsonl
done
python3 note.py
echo "wrote $here/note.md" >&2
