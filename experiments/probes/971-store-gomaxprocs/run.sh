#!/usr/bin/env bash
# Probe 971: does the P that a goroutine holds while it waits in fdatasync
# limit the store at 64 writers? pure and pebble, 64 writers, 2 s each,
# under GOMAXPROCS 2 (the default here), 3 and 4, two rounds, contenders in
# kvbench's order (pure first). pure-kvbench built from the checkout.
# Usage: flock /work/measure.lock experiments/probes/971-store-gomaxprocs/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/kvb" ./cmd/pure-kvbench)
for r in 1 2; do
  for p in 2 3 4; do
    mkdir -p "$tmp/d"
    GOMAXPROCS=$p "$tmp/kvb" -contenders pure,pebble -writers 64 -only writes -rounds 1 -duration 2s -probe 50 \
      -dir "$tmp/d" -out "$here/r$r-p$p.jsonl" -experiment probe-971 >/dev/null 2>&1
    rm -rf "$tmp/d"
    python3 "$here/show.py" "$here/r$r-p$p.jsonl"
  done
done
