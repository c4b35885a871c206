#!/usr/bin/env bash
# Experiment 119: 64-writer cells only (pure and pebble, Sync writes, 3 s), the builds in BUILDS
# (name=binary of pure-kvbench built from `git archive` of its revision) rotated each round, the
# contenders' order alternated; lines to OUT (JSONL, "build" and "round119" added).
# Usage: flock /work/measure.lock experiments/119-store-fold-behind/pairs64.sh
#   BUILDS="main=/tmp/s15b/kv-6f2877c new=/tmp/s15b/kv-120557a" N=6 OUT=pairs-1.jsonl (binaries built from `git archive` of each revision)
set -euo pipefail
n=${N:-6} out=${OUT:?OUT=file.jsonl} tmp=$(mktemp -d /tmp/pairs119.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
read -ra bs <<<"${BUILDS:?BUILDS=name=binary ...}"
: >"$out"
for ((r = 0; r < n; r++)); do
  k=${#bs[@]}
  for ((i = 0; i < k; i++)); do
    b=${bs[(i + r) % k]} name=${b%%=*} bin=${b#*=}
    cs=$( ((r % 2)) && echo pebble,pure || echo pure,pebble)
    "$bin" -only writes -contenders "$cs" -writers 64 -rounds 1 -duration 3s -probe 10 -out "$tmp/p.jsonl" -dir "$tmp" >/dev/null 2>&1
    sed "s/^{/{\"build\":\"$name\",\"round119\":$r,/" "$tmp/p.jsonl" >>"$out"
    python3 - "$name" "$r" "$tmp/p.jsonl" <<'PY'
import sys, json
x, r, f = sys.argv[1:]
d = {json.loads(l)['contender']: json.loads(l) for l in open(f)}
p, q = d['pure'], d['pebble']
print(f"round {r} {x:6s} pure {p['ops_per_s']:9.0f} pebble {q['ops_per_s']:9.0f} ratio {p['ops_per_s']/q['ops_per_s']:.2f}")
PY
  done
done
