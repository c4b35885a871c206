#!/usr/bin/env bash
# Experiment 129: pure alone at W writers (Sync writes, 3 s cells), builds rotated each round, N
# rounds, as scripts/store-alone does, but keeping each cell's JSON line (with the device's fsync
# probe) in OUT, "build" and "round129" added; a line per cell on stdout as store-alone's.
# Usage: flock /work/measure.lock env BUILDS="name=binary ..." N=12 W=64 OUT=alone-4.jsonl \
#   experiments/129-store-64w-more/alonej.sh > alone-4.txt
#   (binaries: pure-kvbench from build.sh)
set -euo pipefail
n=${N:-12} w=${W:-64} out=${OUT:?OUT=file.jsonl}
tmp=$(mktemp -d /tmp/alone129.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
read -ra bs <<<"${BUILDS:?BUILDS=name=binary ...}"
: >"$out"
for ((r = 0; r < n; r++)); do
  k=${#bs[@]}
  for ((i = 0; i < k; i++)); do
    b=${bs[(i + r) % k]} name=${b%%=*} bin=${b#*=}
    "$bin" -only writes -contenders pure -writers "$w" -rounds 1 -duration 3s -probe 10 -out "$tmp/o.jsonl" -dir "$tmp" >/dev/null 2>&1
    sed "s/^{/{\"build\":\"$name\",\"round129\":$r,/" "$tmp/o.jsonl" >>"$out"
    python3 - "$r" "$name" "$tmp/o.jsonl" <<'PY'
import json, sys
r, b, f = sys.argv[1:]
for l in open(f):
    x = json.loads(l)
    print(f"r{r} {b} {x['contender']} {x.get('writers')} {round(x['ops_per_s'])} {round((x.get('cpu_per_op_s') or 0) * 1e6, 2)}")
PY
  done
done
