#!/bin/bash
# poll /debug/app every 100 ms during a score-64c load; one line per poll
# (LOADARGS: more pure-load flags, such as --rate 40000; default none)
set -e
BIN=${BIN:-/tmp/bin}; LOAD=${LOAD:-/tmp/bin/pure-load}
rm -rf data; mkdir data
taskset -c 1 $BIN/pure-serve --data data --addr 127.0.0.1:0 --pprof 127.0.0.1:0 > addr.txt 2> serve.err &
SP=$!
for i in $(seq 50); do [ -s addr.txt ] && grep -q pprof serve.err && break; sleep 0.1; done
ADDR=$(head -1 addr.txt | grep -o '[0-9.]*:[0-9]*' | head -1)
PADDR=$(grep -o 'http://[0-9.]*:[0-9]*' serve.err | head -1)
taskset -c 0 $LOAD --workload score -c 64 -d 1s $LOADARGS http://$ADDR > /dev/null
taskset -c 0 $LOAD --workload score -c 64 -d 6s --json $LOADARGS http://$ADDR > load.json &
LP=$!
sleep 0.5
for i in $(seq 50); do echo "$(date +%s.%N) $(curl -s $PADDR/debug/app)"; sleep 0.1; done > ${OUT:-polls.txt}
wait $LP
kill $SP; wait $SP || true
