#!/usr/bin/env bash
# Probe 967 on experiment 119: pure alone, 64 writers, 3 s, per build of pure-kvbench (/tmp/s15b/kv-B: p967main = main 6f2877c with probe-967.patch,
# p967new = 120557a, p967fix = 9ee445e, each with probe-967-full-bg-fold.patch (probe-967.patch and the integration counted as a fold, applied to 120557a by hand; applies to 9ee445e as is), the probe line printed at Close.
set -eu
d=$(mktemp -d /work/wt-store15/experiments/119-store-fold-behind/.q.XXXX)
trap 'rm -rf "$d"' EXIT
bs=($BUILDS)
for ((r=0;r<${N:-3};r++)); do
  k=${#bs[@]}
  for ((i=0;i<k;i++)); do
    b=${bs[(i+r)%k]}
    /tmp/s15b/kv-$b -only writes -contenders pure -writers 64 -rounds 1 -duration 3s -probe 10 -out $d/o.jsonl -dir $d 2>$d/err >/dev/null
    echo "r$r $b $(python3 -c "import json;x=json.loads(open('$d/o.jsonl').readline());print(round(x['ops_per_s']))") $(grep probe966 $d/err | tail -n 1)"
  done
done
