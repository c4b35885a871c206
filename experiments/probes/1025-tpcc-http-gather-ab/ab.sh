#!/bin/bash
# Probe 1025: TPC-C over HTTP (pure-serve --app tpcc --tpcc-scale small
# --data, on CPU 1; pure-load --workload tpcc -c 64 on CPU 0, 8 s) for two
# builds, alternated ROUNDS times (order swapped every round), each run on a
# fresh store. Usage: ab.sh ROUNDS NAME=BINDIR NAME=BINDIR; writes runs.jsonl.
set -e
R=$1; shift
LOAD=/tmp/binH/pure-load
for r in $(seq $R); do
  arms=("$@"); if [ $((r % 2)) = 0 ]; then arms=("$2" "$1"); fi
  for arm in "${arms[@]}"; do
    name=${arm%%=*}; bin=${arm#*=}; D=$(mktemp -d)
    taskset -c 1 $bin/pure-serve --app tpcc --tpcc-scale small --data $D/data --addr 127.0.0.1:0 --pprof 127.0.0.1:0 > $D/addr.txt 2> $D/err.txt &
    SP=$!
    for i in $(seq 300); do [ -s $D/addr.txt ] && grep -q pprof $D/err.txt && break; sleep 0.1; done
    A=$(head -1 $D/addr.txt | grep -o '[0-9.]*:[0-9]*' | head -1)
    P=$(grep -o 'http://[0-9.]*:[0-9]*' $D/err.txt | head -1)
    taskset -c 0 $LOAD --workload tpcc --tpcc-scale small -c 64 -d 1s --stats $P/debug/app http://$A > /dev/null
    out=$(taskset -c 0 $LOAD --workload tpcc --tpcc-scale small -c 64 -d 8s --stats $P/debug/app --json http://$A)
    echo "{\"round\":$r,\"arm\":\"$name\",\"result\":$out}" >> runs.jsonl
    kill $SP; wait $SP || true; rm -rf $D
  done
done
