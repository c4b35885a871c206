#!/usr/bin/env bash
# Probe 925: branch app8's last change (the seq's split after a new entry
# instead of in half) against its parent, Pure's in-process TPC-C alone,
# because experiment 060's run had been started before the change was made.
# Probe 921's method (not its script, which writes into its own
# directory): probe 914's main.go built at OLD and NEW (git archive), PAIRS
# pairs, each holding /work/measure.lock, both sides 3 rounds of 20,000
# transactions after the load, the order alternating: pairs.jsonl. Then,
# holding the lock, callgrind of tpcc-mix-small and every bank workload on
# each side (pure-count run --backend callgrind): callgrind-SIDE.jsonl.
# ONLY=callgrind skips the pairs (the recorded run did the pairs, then
# ONLY=callgrind for the bank counts, which the first version of this
# script did not take).
# note.py writes note.md.
#
# Usage: experiments/probes/925-app8-split/run.sh [OLD [NEW]]  (default
#        HEAD~1 HEAD; the recorded run: run.sh 7fb83cf e05e5db)
#        PAIRS=3
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
old=$(git -C "$root" rev-parse --short "${1:-HEAD~1}")
new=$(git -C "$root" rev-parse --short "${2:-HEAD}")
pairs=${PAIRS:-3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/925.XXXXXX")
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
for s in old new; do
  rev=$old; [[ $s == new ]] && rev=$new
  mkdir -p "$tmp/$s"
  git -C "$root" archive "$rev" | tar -x -C "$tmp/$s"
  mkdir -p "$tmp/$s/experiments/probes/914-ram-tpcc-wall"
  cp "$root/experiments/probes/914-ram-tpcc-wall/main.go" "$tmp/$s/experiments/probes/914-ram-tpcc-wall/"
  (cd "$tmp/$s" && go build -o "$tmp/probe-$s" ./experiments/probes/914-ram-tpcc-wall && go build -o "$tmp/count-$s" ./cmd/pure-count)
done
cd "$here"
[[ ${ONLY:-} == callgrind ]] && pairs=0
(( pairs > 0 )) && : > pairs.jsonl
for p in $(seq 1 "$pairs"); do
  order="old new"; (( p % 2 == 0 )) && order="new old"
  flock /work/measure.lock bash -c '
    pos=0
    for s in '"$order"'; do
      rev='"$old"'; [[ $s == new ]] && rev='"$new"'
      l1=$(cut -d" " -f1 /proc/loadavg)
      "'"$tmp"'/probe-$s" --rounds 3 --tx 20000 | while read -r line; do
        echo "{\"pair\":'"$p"',\"side\":\"$s\",\"rev\":\"$rev\",\"position\":$pos,\"load1\":$l1,${line#\{}"
      done
      pos=$((pos+1))
    done' >> pairs.jsonl
done
ws=$("$tmp/count-new" list | awk '$1 ~ /^bank-/ {print $1}')
for s in old new; do
  flock /work/measure.lock "$tmp/count-$s" run --backend callgrind --json tpcc-mix-small $ws > "callgrind-$s.jsonl"
done
python3 note.py
echo "wrote $here/note.md" >&2
