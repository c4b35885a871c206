#!/usr/bin/env bash
# Probe 976: CPU, allocations and schedulings per commit of pure/store at 64 writers on a RAM-mode
# store (this probe's main.go, probe 973's driver with -ram: no device in the loop, so CPU-bound
# whatever the shared disk does), for each revision in REVS (main.go built against `git archive` of
# it), rotated, N rounds of D.
# Usage: flock /work/measure.lock experiments/probes/976-store-64w-ram-cpu/run.sh
#   REVS="3df9826 02c64d5" N=6 D=3s [W=64] > out.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
read -ra revs <<<"${REVS:?REVS=revisions}"
for r in "${revs[@]}"; do
  mkdir -p "$tmp/src-$r/p"
  (cd "$root" && git archive "$r" | tar -x -C "$tmp/src-$r")
  cp "$here/main.go" "$tmp/src-$r/p/"
  (cd "$tmp/src-$r" && go build -o "$tmp/drv-$r" ./p)
done
for ((i = 0; i < ${N:-6}; i++)); do
  k=${#revs[@]}
  for ((j = 0; j < k; j++)); do
    r=${revs[(i + j) % k]}
    echo "r$i $r $("$tmp/drv-$r" -ram -w "${W:-64}" -d "${D:-3s}" -dir "$tmp/d" | tr '\n' ' ')"
  done
done
