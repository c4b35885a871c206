#!/usr/bin/env bash
# Probe 937: where a server's CPU goes on 1 MiB keep-alive GETs (issue 11's
# "GET 1 MiB at least 1.5x net/http" target, which swung 1.25-1.54x across
# runs): pure-serve --data (sendfile from the store's file), pure-serve
# --data --sendfile-min 0 (writev from the mapping), pure-serve --ram, and
# the net/http and fasthttp memory baselines. For each, on CPU 1 with
# pure-load -c 8 --workload big on CPU 0: server CPU per answer over DUR
# (from /proc/PID/stat), then a perf record (cpu-clock, 2 s) split by
# user/kernel and its top kernel symbols, then strace -c (2 s, slows the
# server: only its counts per answer are read). Holds /work/measure.lock.
# Output: out/<server>.{txt,perf.txt,strace.txt}; reading.md is written
# by hand from them.
# Usage: experiments/probes/937-serve-1mib-kernel/run.sh   DUR=3s
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
dur=${DUR:-3s}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/937.XXXXXX")
trap 'set +e; kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && CGO_ENABLED=0 go build -o "$tmp/ps" ./cmd/pure-serve &&
  CGO_ENABLED=0 go build -tags nosqlite -o "$tmp/pb" ./cmd/pure-baseline &&
  go build -o "$tmp/pl" ./cmd/pure-load)
mkdir -p "$here/out"
start() { # name cmd...: start a server on CPU 1, seed it, set pid and addr
  local name=$1; shift
  taskset -c 1 "$@" > "$tmp/$name.out" 2>&1 &
  pid=$!
  addr=
  for _ in $(seq 100); do
    addr=$(grep -o '127.0.0.1:[0-9]*' "$tmp/$name.out" | head -1 || true)
    [ -n "$addr" ] && break; sleep 0.05
  done
  taskset -c 0 "$tmp/pl" --workload seed "http://$addr" > /dev/null
}
cpu() { awk '{print $14+$15}' "/proc/$1/stat"; }
exec 9> /work/measure.lock; flock 9
for s in pure-sendfile pure-writev pure-ram nethttp fasthttp; do
  rm -rf "$tmp/d"; mkdir "$tmp/d"
  case $s in
    pure-sendfile) start $s "$tmp/ps" --addr 127.0.0.1:0 --data "$tmp/d" ;;
    pure-writev) start $s "$tmp/ps" --addr 127.0.0.1:0 --data "$tmp/d" --sendfile-min 0 ;;
    pure-ram) start $s "$tmp/ps" --addr 127.0.0.1:0 --ram ;;
    nethttp) start $s "$tmp/pb" --impl nethttp --mode memory --addr 127.0.0.1:0 ;;
    fasthttp) start $s "$tmp/pb" --impl fasthttp --mode memory --addr 127.0.0.1:0 ;;
  esac
  t0=$(cpu $pid)
  taskset -c 0 "$tmp/pl" --workload big -c 8 -d "$dur" --json "http://$addr" > "$tmp/load.json"
  t1=$(cpu $pid)
  ok=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["ok"])' "$tmp/load.json")
  echo "$s ok=$ok server_cpu_s=$(python3 -c "print(($t1-$t0)/100)") per_server_cpu_s=$(python3 -c "print(round($ok/(($t1-$t0)/100)))")" | tee "$here/out/$s.txt"
  (taskset -c 0 "$tmp/pl" --workload big -c 8 -d 7s "http://$addr" > /dev/null &)
  sleep 1
  perf record -q -e cpu-clock -F 2000 -g -p $pid -o "$tmp/perf.data" -- sleep 2 2> /dev/null
  { perf report -i "$tmp/perf.data" --no-children --sort dso --stdio -g none 2> /dev/null | grep '%'
    perf report -i "$tmp/perf.data" --no-children --sort symbol --stdio -g none 2> /dev/null | grep '%' | head -25; } > "$here/out/$s.perf.txt" || true
  timeout 2 strace -c -f -p $pid -o "$here/out/$s.strace.txt" 2> /dev/null || true
  sleep 2.5
  kill $pid; wait $pid 2> /dev/null || true
done
