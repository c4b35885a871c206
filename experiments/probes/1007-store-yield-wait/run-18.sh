#!/usr/bin/env bash
# Probe 1007, 1 and 8 writers: pure alone (Sync commits, 3 s cells) with each build of
# pure-kvbench that run.sh left in /tmp/spin (main, yield, yield2), builds rotated each round,
# R rounds; the JSON lines, with "build" and "round1007" added, go to OUT. Run under the lock.
# Usage: flock /work/measure.lock experiments/probes/1007-store-yield-wait/run-18.sh OUT R main yield yield2 > run-18.log 2>&1
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$here/${1:?OUT} n=${2:?R}; shift 2
bs=("$@") k=$#
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "start $(date -u +%FT%TZ); $(uptime)"
: >"$out"
for ((r = 0; r < n; r++)); do
  for ((i = 0; i < k; i++)); do
    b=${bs[(i + r) % k]}
    "/tmp/spin/$b" -only writes -contenders pure -writers 1,8 -rounds 1 -duration 3s -probe 10 -out "$tmp/p.jsonl" -dir "$tmp" >/dev/null 2>&1
    sed "s/^{/{\"build\":\"$b\",\"round1007\":$r,/" "$tmp/p.jsonl" >>"$out"
    python3 - "$b" "$r" "$tmp/p.jsonl" <<'PY'
import sys, json
b, r, f = sys.argv[1:]
for l in open(f):
    d = json.loads(l)
    print(f"round {r} {b:6s} writers {d['writers']:2d} pure {d['ops_per_s']:8.0f} cpu {d['cpu_per_op_s'] * 1e6:.2f} us")
PY
  done
done
echo "done $(date -u +%FT%TZ); $(uptime)"
