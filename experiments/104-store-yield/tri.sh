#!/usr/bin/env bash
set -euo pipefail
# Experiment 104, pairs-2.jsonl: binaries /tmp/s12/kv-{main,yield,kick} built from f3fbb37, 5294547, dcf5c46;
# run as: flock /work/measure.lock ./tri.sh 4
bs=(main yield kick); n=${1:-3}
for ((r=0;r<n;r++)); do
  for ((i=0;i<3;i++)); do x=${bs[(i+r)%3]}
    /tmp/s12/kv-$x -only writes -contenders $( ((r%2)) && echo pebble,pure || echo pure,pebble) -writers 64 -rounds 1 -duration 3s -probe 10 -out /tmp/s12/t-$x-$r.jsonl -dir /tmp/s12 >/dev/null 2>&1
    python3 - "$x" "$r" /tmp/s12/t-$x-$r.jsonl <<'PY'
import sys,json
x,r,f=sys.argv[1:]
d={json.loads(l)['contender']:json.loads(l) for l in open(f)}
p,q=d['pure'],d['pebble']
print(f"round {r} {x:6s} pure {p['ops_per_s']:9.0f} pebble {q['ops_per_s']:9.0f} ratio {p['ops_per_s']/q['ops_per_s']:.2f} syncs/op {p.get('syncs_per_op',0):.4f} cpu {p.get('cpu_per_op_us',0):.2f}")
PY
  done
done
