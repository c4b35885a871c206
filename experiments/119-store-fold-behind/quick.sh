#!/usr/bin/env bash
# Experiment 119: pure alone, 64 writers (W), 3 s (D) per process, the builds in BUILDS (revisions whose pure-kvbench was built
# into /tmp/s15b/kv-REV from `git archive`) rotated each round, N rounds; one line per cell: round, build, contender, writers,
# commits/s, CPU µs per commit. Run under flock /work/measure.lock.
set -eu
d=$(mktemp -d /work/wt-store15/experiments/119-store-fold-behind/.q.XXXX)
trap 'rm -rf "$d"' EXIT
bs=($BUILDS)
for ((r=0;r<${N:-3};r++)); do
  k=${#bs[@]}
  for ((i=0;i<k;i++)); do
    b=${bs[(i+r)%k]}
    /tmp/s15b/kv-$b -only writes -contenders ${C:-pure} -writers ${W:-64} -rounds 1 -duration ${D:-3s} -probe 10 -out $d/o.jsonl -dir $d >/dev/null 2>&1
    python3 -c "
import json,sys
for l in open('$d/o.jsonl'):
  x=json.loads(l); print('r$r', '$b', x['contender'], x.get('writers'), round(x['ops_per_s']), round(x.get('cpu_per_op_us',0) or 0,2))
"
  done
done
