#!/usr/bin/env bash
# Experiment 159, by hand: does pure-serve's runtime GC metadata (GCSys) grow at its first
# collection, with no large allocation? A fresh pure-serve --data --pprof (built from REV) on CPU
# 0; its MemStats (heap?debug=1 header) and anonymous RSS twice at rest, then after each of two
# collections forced through the pprof listener (heap?gc=1). The listener's own profile
# rendering allocates too, so only GCSys and NumGC are read. Lock held.
# Usage: gc-once.sh REV > gc-once.txt
set -euo pipefail
rev=${1:?REV}
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d); pid=; trap '[[ -n $pid ]] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o ps ./cmd/pure-serve)
cd "$tmp"; mkdir d
taskset -c 0 ./ps --data d --addr 127.0.0.1:0 --pprof 127.0.0.1:0 > srv.out 2>&1 & pid=$!
for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
sleep 1
paddr=$(grep -i pprof srv.out | grep -o "127.0.0.1:[0-9]*" | head -1)
st() { echo "$1: $(curl -s "http://$paddr/debug/pprof/heap?debug=1" | grep -E "^# (HeapInuse|GCSys|Stack|NumGC) " | tr '\n' ' ') anon_kib=$(awk '/^[0-9a-f]+-[0-9a-f]+ /{n=$6} /^Rss:/{if (n=="") a+=$2} END{print a}' /proc/$pid/smaps)"; }
st "fresh"; st "fresh, again"
curl -s -o /dev/null "http://$paddr/debug/pprof/heap?gc=1"; sleep 0.5; st "after one forced collection"
curl -s -o /dev/null "http://$paddr/debug/pprof/heap?gc=1"; sleep 0.5; st "after two"
