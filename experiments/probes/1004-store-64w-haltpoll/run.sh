#!/usr/bin/env bash
# Probe 1004: how much of the store's 64-writer rate (and pebble's) is this VM's idle policy?
# The kernel command line sets haltpoll.guest_halt_poll_ns=0: an idle vCPU halts at once, so
# waking a thread there goes through the host (probe 984: the syncer's wake of the synced
# group's leader, about 8 µs a turn). Each round runs pure and pebble at 64 writers
# (scripts/store-pairs64, one round) with guest_halt_poll_ns at 0 and at POLL ns, the order
# alternated; the parameter is restored to what it was on exit.
# Usage (as root): flock /work/measure.lock experiments/probes/1004-store-64w-haltpoll/run.sh REV ROUNDS POLL
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../../.." && pwd)
rev=${1:?REV} rounds=${2:?ROUNDS} poll=${3:?POLL}
param=/sys/module/haltpoll/parameters/guest_halt_poll_ns
was=$(cat "$param")
tmp=$(mktemp -d); trap 'echo "$was" > "$param"; rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o "$tmp/kv" ./cmd/pure-kvbench)
out=$here/kv64.jsonl; : > "$out"
for ((r = 0; r < rounds; r++)); do
  order=("0" "$poll"); ((r % 2)) && order=("$poll" "0")
  for p in "${order[@]}"; do
    echo "$p" > "$param"
    BUILDS="poll$p=$tmp/kv" N=1 OUT="$tmp/one.jsonl" TAG=x "$root/scripts/store-pairs64" | sed "s/^round 0/round $r/"
    sed "s/\"roundx\":0,/\"roundx\":$r,/" "$tmp/one.jsonl" >> "$out"
  done
done
