#!/usr/bin/env bash
# Experiment 126: callgrind of BenchmarkGroupShapeRAM's 64-writer cases (one group of 32 writes from
# 32 of 64 writers per iteration, RAM mode, files' fold bound; "writers=64" in the writers' order,
# "writers=64-mixed" scrambled as groups arrive), N iterations, for a test binary of pure/store
# (go test -c -o BIN ./pure/store at a revision). Prints valgrind's total per case; the callgrind
# files (for callgrind_annotate) go to OUTDIR. Instruction counts need no measurement lock.
# CASES (space-separated benchmark case patterns) replaces the two cases (experiment 129 adds writers=8).
# Usage: experiments/126-store-leader-cpu/group-cg.sh BIN TAG [OUTDIR=/tmp] [N=2000] [CASES='writers=8$ ...']
set -euo pipefail
bin=$1 tag=$2 out=${3:-/tmp} n=${N:-2000}
read -ra cases <<<"${CASES:-writers=64\$ writers=64-mixed\$}"
for c in "${cases[@]}"; do
  t=$(echo "$c" | tr -dc a-z0-9-)
  GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind \
    --log-file="$out/vg-$tag-$t.log" --callgrind-out-file="$out/cg-$tag-$t.out" \
    "$bin" -test.run='^$' -test.bench="BenchmarkGroupShapeRAM/$c" -test.benchtime="${n}x" >/dev/null 2>&1
  echo "$tag $t $(grep -h 'Collected' "$out/vg-$tag-$t.log" | awk '{print $NF}')"
done
