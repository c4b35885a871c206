#!/usr/bin/env bash
# Probe 982's runs: each server pinned to CPU 0, pure-load pinned to CPU 1,
# 64 connections for D seconds at pipeline depth P; servers alternate in
# each round with the order rotated. One JSON line per run on stdout:
# server, depth, round, answers/s, answers per server CPU-s (utime+stime
# from /proc over the load), the load's line's errors.
# Usage: flock /work/measure.lock experiments/probes/982-epoll-loop-vs-goroutines/run.sh ROUNDS "DEPTHS" > runs.jsonl
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rounds=${1:?ROUNDS} depths=${2:-16 1} dur=${D:-5s}
tmp=$(mktemp -d); pid=; trap '[[ -n $pid ]] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && CGO_ENABLED=0 go build -o "$tmp/toy" ./experiments/probes/982-epoll-loop-vs-goroutines &&
  CGO_ENABLED=0 go build -o "$tmp/pure-serve" ./cmd/pure-serve && CGO_ENABLED=0 go build -o "$tmp/pure-load" ./cmd/pure-load)
rev=$(cd "$root" && git rev-parse --short HEAD)
servers=(loop goroutines pure-serve)
for ((r = 0; r < rounds; r++)); do
  for p in $depths; do
    for ((i = 0; i < ${#servers[@]}; i++)); do
      s=${servers[(i + r) % ${#servers[@]}]}
      rm -rf "$tmp/d"
      case $s in
        pure-serve) taskset -c 0 "$tmp/pure-serve" --data "$tmp/d" --addr 127.0.0.1:0 > "$tmp/srv.out" 2>&1 & ;;
        *) taskset -c 0 "$tmp/toy" -mode "$s" > "$tmp/srv.out" 2>&1 & ;;
      esac
      pid=$!
      for _ in $(seq 50); do grep -q listening "$tmp/srv.out" 2>/dev/null && break; sleep 0.1; done
      addr=$(grep listening "$tmp/srv.out" | head -1 | grep -o "127.0.0.1:[0-9]*" | head -1)
      [[ $s == pure-serve ]] && "$tmp/pure-load" --workload seed "http://$addr" > /dev/null
      sleep 0.5
      t0=$(awk '{print $14+$15}' /proc/$pid/stat)
      taskset -c 1 "$tmp/pure-load" --workload get -c 64 --pipeline "$p" -d "$dur" --json "http://$addr" > "$tmp/load.json"
      t1=$(awk '{print $14+$15}' /proc/$pid/stat)
      kill -9 $pid; wait $pid 2>/dev/null || true; pid=
      python3 - "$s" "$p" "$r" "$t0" "$t1" "$rev" "$tmp/load.json" <<'PY'
import json, sys
s, p, r, t0, t1, rev, f = sys.argv[1:]
d = json.load(open(f))
cpu = (float(t1) - float(t0)) / 100
print(json.dumps({"rev": rev, "server": s, "depth": int(p), "round": int(r), "ok_per_s": round(d["ok_per_s"]),
    "server_cpu_s": cpu, "ok_per_server_cpu_s": round(d["ok"] / cpu) if cpu else None,
    "non2xx": d.get("non2xx"), "errors": d.get("errors")}))
PY
    done
  done
done
