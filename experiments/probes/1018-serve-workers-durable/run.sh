#!/usr/bin/env bash
# Probe 1018: pure-serve --data, pinned to one CPU (GOMAXPROCS unset, so 2 Ps
# from durableProcs), with --workers 1 (its default there: the flag's default is
# GOMAXPROCS read before durableProcs raises it) against --workers 2, side by
# side in rounds, the order alternating A B B A. Workloads: durable score POSTs
# for 5 s, the same 18,000 PUTs, small GETs for 5 s; 64 connections each.
# usage: flock /work/measure.lock run.sh REV ROUNDS
set -euo pipefail
rev=${1:?REV}; rounds=${2:-6}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/p1018.XXXX)
trap 'git -C /work/main worktree remove --force "$work/src" 2>/dev/null; rm -rf "$work"' EXIT
git -C /work/main worktree add -q --detach "$work/src" "$rev"
(cd "$work/src" && CGO_ENABLED=0 go build -o "$work/ps" ./cmd/pure-serve && CGO_ENABLED=0 go build -o "$work/pl" ./cmd/pure-load)
short=$(git -C /work/main rev-parse --short "$rev")
out="$here/runs-$short.jsonl"
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
one() { # workers workload
  local w=$1 wl=$2 data; data=$(mktemp -d /tmp/p1018d.XXXX)
  taskset -c 0 "$work/ps" --addr 127.0.0.1:0 --data "$data" --workers "$w" > "$work/stdout" 2> "$work/stderr" &
  local pid=$!
  for i in $(seq 1 100); do grep -q listening "$work/stdout" 2>/dev/null && break; sleep 0.05; done
  local url="http://$(grep -o 'listening [^ ]*' "$work/stdout" | cut -d' ' -f2)"
  local args
  case $wl in
    score) args=(--workload score -c 64 -d 5s);;
    put-same) args=(--workload put -c 64 -n 18000);;
    get) GOMAXPROCS=1 taskset -c 1 "$work/pl" --workload seed "$url" > /dev/null; args=(--workload get -c 64 -d 5s);;
  esac
  sleep 1
  local c0; c0=$(cpu $pid)
  local res; res=$(GOMAXPROCS=1 taskset -c 1 "$work/pl" "${args[@]}" --json "$url")
  local c1; c1=$(cpu $pid)
  kill $pid; wait $pid 2>/dev/null || true
  local pubs; pubs=$(grep -o 'store: [0-9]* publications' "$work/stderr" | tail -1 | awk '{print $2}')
  rm -rf "$data"
  python3 - "$res" "$w" "$wl" "$((c1 - c0))" "${pubs:-0}" "$r" "$short" >> "$out" <<'P'
import json, sys
res = json.loads(sys.argv[1]); w, wl, ticks, pubs, r, rev = sys.argv[2:]
cpu = int(ticks) / 100
print(json.dumps({"rev": rev, "round": int(r), "workers": int(w), "workload": wl, "ok": res["ok"],
                  "non2xx": res["non2xx"], "ok_per_s": res["ok_per_s"], "server_cpu_s": cpu,
                  "ok_per_server_cpu_s": res["ok"] / cpu if cpu else None, "publications": int(pubs),
                  "p50_us": res["latency_us"]["p50"], "p99_us": res["latency_us"]["p99"]}))
P
  tail -1 "$out"
}
for r in $(seq 1 "$rounds"); do
  for wl in score put-same get; do
    if (( r % 2 )); then one 1 $wl; one 2 $wl; else one 2 $wl; one 1 $wl; fi
  done
done
