#!/usr/bin/env bash
# perf record (cpu-clock, call graphs) of pure-serve --data under put -c 64 -n 18000, PASSES fresh stores
set -euo pipefail
passes=${1:-5}
for ((p=0;p<passes;p++)); do
  rm -rf d; taskset -c 0 ./pure-serve --data d --addr 127.0.0.1:0 > srv.out 2>&1 & pid=$!
  for _ in $(seq 50); do grep -q 127.0.0.1 srv.out 2>/dev/null && break; sleep 0.1; done
  addr=$(grep -o "127.0.0.1:[0-9]*" srv.out | head -1)
  sleep 0.5
  perf record -q -e cpu-clock -F 20000 -g -p $pid -o perf.$p.data 2>/dev/null & rec=$!
  sleep 0.3
  taskset -c 1 ./pure-load --workload put -c 64 -n 18000 --json "http://$addr" | tee -a load.jsonl | python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); print(d["ok"], round(d["ok_per_s"]), d["latency_us"]["p50"])'
  kill -INT $rec; wait $rec || true
  grep -E 'utime|stime' /dev/null || true
  kill -9 $pid; wait $pid 2>/dev/null || true
done
