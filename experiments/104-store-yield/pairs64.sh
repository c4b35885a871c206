#!/usr/bin/env bash
# alternated 64-writer cells: main and the build named $1 (binary /tmp/s12/kv-$1), N rounds
# Experiment 104, pairs-1.jsonl: binaries /tmp/s12/kv-main (f3fbb37) and /tmp/s12/kv-pre (f776085) built with go build ./cmd/pure-kvbench;
# run as: flock /work/measure.lock ./pairs64.sh pre 3
set -euo pipefail
b=$1 n=${2:-3}
for ((r=0;r<n;r++)); do
  for x in $( ((r%2)) && echo "$b main" || echo "main $b"); do
    /tmp/s12/kv-$x -only writes -contenders $( ((r%2)) && echo pebble,pure || echo pure,pebble) -writers 64 -rounds 1 -duration 3s -probe 10 -out /tmp/s12/p-$x-$r.jsonl -dir /tmp/s12 >/dev/null 2>&1
    python3 - "$x" "$r" /tmp/s12/p-$x-$r.jsonl <<'PY'
import sys,json
x,r,f=sys.argv[1:]
d={json.loads(l)['contender']:json.loads(l) for l in open(f)}
p,q=d['pure'],d['pebble']
print(f"round {r} {x:8s} pure {p['ops_per_s']:9.0f} pebble {q['ops_per_s']:9.0f} ratio {p['ops_per_s']/q['ops_per_s']:.2f} syncs/op {p.get('syncs_per_op',0):.4f}")
PY
  done
done
