#!/usr/bin/env bash
# Probe 1011: a 6 s CPU profile of pure-serve --data (CPU 0) through its --pprof listener while
# pure-load (CPU 1) sends eight batches of the same 18,000 durable PUTs from 64 connections to one
# store (the documents grow 16 B a PUT, so later batches carry larger bodies). Lock held.
# Usage: flock /work/measure.lock env WORK=DIR bash prof.sh   (writes DIR/cpu.pb.gz)
set -euo pipefail
cd "${WORK:?WORK=dir holding ps (pure-serve) and pl (pure-load), built CGO_ENABLED=0}"; rm -rf d; mkdir d
taskset -c 0 ./ps --data d --addr 127.0.0.1:0 --pprof 127.0.0.1:0 > srv.out 2>&1 & pid=$!
for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
addr=$(grep listening srv.out | grep -o "127.0.0.1:[0-9]*" | head -1); paddr=$(grep -i pprof srv.out | grep -o "127.0.0.1:[0-9]*" | head -1)
sleep 1
curl -s -o cpu.pb.gz "http://$paddr/debug/pprof/profile?seconds=6" & cp=$!
sleep 0.3
for i in 1 2 3 4 5 6 7 8; do taskset -c 1 ./pl --workload put -c 64 -n 18000 --json "http://$addr" | grep -o '"ok_per_s":[0-9.]*'; done
wait $cp
kill $pid
