#!/usr/bin/env bash
# callgrind totals of BenchmarkGroupShapeRAM, one goroutine, no collection, as experiment 098 counted them
# Experiment 104: /tmp/s12/store-main.test and store-yield.test built with `go test -c ./pure/store/` at f3fbb37 and 5294547;
# output: shape-counts.txt. Per group = (total of N groups - total of 1 group) / (N - 1).
# (GODEBUG=asyncpreemptoff=1: callgrind 3.19 asserts on the preemption signals)
set -euo pipefail
for b in main yield; do
  for spec in "writers=64 5000" "writers=64 1" "writers=8 20000" "writers=8 1"; do
    set -- $spec
    out=/tmp/s12/cg-$b-$1-$2.out
    GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind --callgrind-out-file=$out /tmp/s12/store-$b.test -test.run XXX -test.bench "GroupShapeRAM/$1\$" -test.benchtime ${2}x -test.count 1 > /tmp/s12/cg-$b-$1-$2.txt 2>&1
    tot=$(grep -o 'Collected : [0-9]*' /tmp/s12/cg-$b-$1-$2.txt | awk '{print $3}')
    fb=$(grep -o '[0-9.]* file-B/op' /tmp/s12/cg-$b-$1-$2.txt || true)
    echo "$b $1 groups=$2 instructions=$tot $fb"
  done
done
