#!/usr/bin/env bash
# Experiment 112: callgrind totals of BenchmarkGroupShapeRAM, one goroutine, no collection, as
# experiments 098 and 104 counted them. Test binaries: $DIR/st-$b.test for each b in $BUILDS, built with
# `go test -c ./pure/store/` at each revision. Per group = (total of N groups - total of 1 group) / (N - 1).
# (GODEBUG=asyncpreemptoff=1: callgrind asserts on the preemption signals)
# Usage: DIR=/tmp/s13 BUILDS="main new" experiments/112-store-pending-table/shape-counts.sh >>shape-counts.txt
set -euo pipefail
dir=${DIR:-/tmp/s13} builds=${BUILDS:-main new}
for b in $builds; do
  for spec in "writers=64 5000" "writers=64 1" "writers=8 20000" "writers=8 1"; do
    set -- $spec
    out=$dir/cg-$b-$1-$2.out
    GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind --callgrind-out-file=$out \
      "$dir/st-$b.test" -test.run XXX -test.bench "GroupShapeRAM/$1\$" -test.benchtime "${2}x" -test.count 1 >"$dir/cg-$b-$1-$2.txt" 2>&1
    tot=$(grep -o 'Collected : [0-9]*' "$dir/cg-$b-$1-$2.txt" | awk '{print $3}')
    fb=$(grep -o '[0-9.]* file-B/op' "$dir/cg-$b-$1-$2.txt" || true)
    echo "$b $1 groups=$2 instructions=$tot $fb"
  done
done
