#!/usr/bin/env bash
# Experiment 117: pure alone, 64 writers, 3 s per process, the builds in BUILDS (revisions whose pure-kvbench was built into
# /tmp/s14b/kv-REV from `git archive`) rotated each round, N rounds; lines as in quick-64.txt. Run under flock /work/measure.lock.
# quick pure-alone 64-writer check: builds rotated, N rounds
set -eu
d=$(mktemp -d /work/wt-store14/experiments/117-store-zeros-ahead/.q.XXXX)
trap 'rm -rf "$d"' EXIT
bs=($BUILDS)
for ((r=0;r<${N:-3};r++)); do
  k=${#bs[@]}
  for ((i=0;i<k;i++)); do
    b=${bs[(i+r)%k]}
    /tmp/s14b/kv-$b -only writes -contenders ${C:-pure} -writers ${W:-64} -rounds 1 -duration ${D:-3s} -probe 10 -out $d/o.jsonl -dir $d >/dev/null 2>&1
    python3 -c "
import json,sys
for l in open('$d/o.jsonl'):
  x=json.loads(l); print('r$r', '$b', x['contender'], x.get('writers'), round(x['ops_per_s']), round(x.get('cpu_per_op_us',0) or 0,2))
"
  done
done
