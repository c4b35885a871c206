#!/usr/bin/env bash
# Probe 967: pure alone, 64 writers, 3 s, per build of pure-kvbench (built into /tmp/s14b/kv-REV from `git archive` of REV;
# REV a commit with probe-967.patch applied to main a7998df), printing the probe's line (experiments/lab/kvbench/pure.go prints store.ProbeSyncs() at Close).
set -eu
d=$(mktemp -d /work/wt-store14/experiments/117-store-zeros-ahead/.q.XXXX)
trap 'rm -rf "$d"' EXIT
bs=($BUILDS)
for ((r=0;r<${N:-3};r++)); do
  k=${#bs[@]}
  for ((i=0;i<k;i++)); do
    b=${bs[(i+r)%k]}
    /tmp/s14b/kv-$b -only writes -contenders pure -writers 64 -rounds 1 -duration 3s -probe 10 -out $d/o.jsonl -dir $d 2>$d/err >/dev/null
    echo "r$r $b $(python3 -c "import json;x=json.loads(open('$d/o.jsonl').readline());print(round(x['ops_per_s']))") $(grep probe966 $d/err | tail -n 1)"
  done
done
