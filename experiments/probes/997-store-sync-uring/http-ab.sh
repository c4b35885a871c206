#!/usr/bin/env bash
# A/B of pure-serve builds and environments under put -c 64 -n 18000, a fresh store per pass, the
# arms rotated per round. Each arm is an environment string; BIN=path in it picks the binary (else
# ./serve-uring, probe 997's build). Run in a directory holding the binaries and pure-load.
# Prints one JSON line per pass: env, ok/s, server CPU s (utime+stime of the process from /proc), p50.
# LOAD (default "-n 18000") replaces the load's size, e.g. LOAD="-d 5s" for a timed run (probe 1005).
# Usage: flock /work/measure.lock [env LOAD=...] http-ab.sh ROUNDS "ENV..." "ENV..." ...
set -euo pipefail
rounds=${1:?ROUNDS}; shift
for ((r=0;r<rounds;r++)); do
  n=$#; envs=("$@")
  for ((i=0;i<n;i++)); do
    e=${envs[(i+r)%n]}
    bin=./serve-uring; [[ $e == *BIN=* ]] && bin=${e#*BIN=} && bin=${bin%% *}; rm -rf d; env $e taskset -c 0 $bin --data d --addr 127.0.0.1:0 > srv.out 2>&1 & pid=$!
    for _ in $(seq 50); do grep -q 127.0.0.1 srv.out 2>/dev/null && break; sleep 0.1; done
    addr=$(grep -o "127.0.0.1:[0-9]*" srv.out | head -1)
    sleep 0.3
    c0=$(awk '{print $14+$15}' /proc/$pid/stat)
    taskset -c 1 ./pure-load --workload put -c 64 ${LOAD:--n 18000} --json "http://$addr" > l.json
    c1=$(awk '{print $14+$15}' /proc/$pid/stat)
    kill -9 $pid; wait $pid 2>/dev/null || true
    python3 -c 'import json,sys; d=json.load(open("l.json")); e,r,c=sys.argv[1:]; print(json.dumps({"env":e,"round":int(r),"ok_per_s":round(d["ok_per_s"]),"server_cpu_s":int(c)/100,"p50":d["latency_us"]["p50"],"ok":d["ok"]}))' "$e" $r $((c1-c0))
  done
done
