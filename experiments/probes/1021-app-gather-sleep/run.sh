#!/bin/bash
# perf record the server under score-64c
set -e
BIN=${BIN:-/tmp/bin}
rm -rf data; mkdir data
taskset -c 1 $BIN/pure-serve --data data --addr 127.0.0.1:0 > addr.txt 2> serve.err &
SP=$!
for i in $(seq 50); do [ -s addr.txt ] && break; sleep 0.1; done
ADDR=$(head -1 addr.txt | grep -o '[0-9.]*:[0-9]*' | head -1)
taskset -c 0 $BIN/pure-load --workload score -c 64 -d 1s http://$ADDR > /dev/null
taskset -c 0 $BIN/pure-load --workload score -c 64 -d 7s --json http://$ADDR > load.json &
LP=$!
sleep 1.5
perf record -e cpu-clock -F 4000 -g -p $SP -o perf.data -- sleep 4 2> perf.err
wait $LP
grep -E "^(ctxt|voluntary|nonvoluntary)" /proc/$SP/status > ctx.txt || true
kill $SP; wait $SP || true
cat load.json
