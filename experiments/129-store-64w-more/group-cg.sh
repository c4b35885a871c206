#!/usr/bin/env bash
# Experiment 129 (126's group-cg.sh with writers=8 added): callgrind of BenchmarkGroupShapeRAM's
# cases (writers=8: one group of 8 writes from 8 writers per iteration; writers=64: one group of 32
# writes from 32 of 64 writers, in the writers' order; writers=64-mixed: scrambled as groups arrive;
# RAM mode, files' fold bound), N iterations, for a test binary of pure/store
# (go test -c -o BIN ./pure/store at a revision). Prints valgrind's total per case; the callgrind
# files (for callgrind_annotate) go to OUTDIR. Instruction counts need no measurement lock.
# Usage: experiments/129-store-64w-more/group-cg.sh BIN TAG [OUTDIR=/tmp] [N=2000]
set -euo pipefail
bin=$1 tag=$2 out=${3:-/tmp} n=${N:-2000}
for c in 'writers=8$' 'writers=64$' 'writers=64-mixed$'; do
  t=$(echo "$c" | tr -dc a-z0-9-)
  GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind \
    --log-file="$out/vg-$tag-$t.log" --callgrind-out-file="$out/cg-$tag-$t.out" \
    "$bin" -test.run='^$' -test.bench="BenchmarkGroupShapeRAM/$c" -test.benchtime="${n}x" >/dev/null 2>&1
  echo "$tag $t $(grep -h 'Collected' "$out/vg-$tag-$t.log" | awk '{print $NF}')"
done
