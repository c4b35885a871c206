#!/bin/bash
# Probe 1022: what the server's CPU does in the slow and the fast 100 ms
# intervals of score-64c. pure-serve --data (with --pprof for /debug/app)
# on CPU 1, pure-load score -c 64 on CPU 0; a poller reads /debug/app every
# 100 ms (monotonic clock) while perf records the server's stacks
# (cpu-clock, CLOCK_MONOTONIC timestamps). Usage: run.sh BINDIR OUTDIR
set -e
BIN=$1; OUT=$2; mkdir -p $OUT
D=$(mktemp -d)
taskset -c 1 $BIN/pure-serve --data $D/data --addr 127.0.0.1:0 --pprof 127.0.0.1:0 > $D/addr.txt 2> $D/serve.err &
SP=$!
for i in $(seq 50); do [ -s $D/addr.txt ] && grep -q pprof $D/serve.err && break; sleep 0.1; done
ADDR=$(head -1 $D/addr.txt | grep -o '[0-9.]*:[0-9]*' | head -1)
PADDR=$(grep -o 'http://[0-9.]*:[0-9]*' $D/serve.err | head -1)
taskset -c 0 $BIN/pure-load --workload score -c 64 -d 1s http://$ADDR > /dev/null
taskset -c 0 $BIN/pure-load --workload score -c 64 -d 7s --json http://$ADDR > $OUT/load.json &
LP=$!
sleep 0.5
taskset -c 0 python3 $(dirname $0)/poll.py $PADDR/debug/app 60 > $OUT/polls.txt &
PP=$!
perf record -k CLOCK_MONOTONIC -e cpu-clock -F 4000 -g -p $SP -o $OUT/perf.data -- sleep 5 2> $OUT/perf.err
wait $PP $LP
kill $SP; wait $SP || true
rm -rf $D
