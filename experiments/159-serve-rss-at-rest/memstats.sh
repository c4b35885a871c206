#!/usr/bin/env bash
# Experiment 159, by hand: pure-serve's runtime MemStats (the heap?debug=1 header) and anonymous
# RSS at points of its life. A fresh pure-serve --data --pprof (built CGO_ENABLED=0 from REV) on
# CPU 0, then, by MODE:
#   put: after 64 small PUTs and 1 s rest, then after one 1 MiB PUT and 2 s rest
#        (memstats-after-put.txt);
#   gc:  twice at rest, then after each of two collections forced through the pprof listener
#        (heap?gc=1), with no large request (gc-once.txt). The forcing request's own profile
#        rendering allocates, so only GCSys and NumGC are read from this mode.
# Lock held. Usage: memstats.sh REV put|gc > FILE
set -euo pipefail
rev=${1:?REV} mode=${2:?put or gc}
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d); pid=; trap '[[ -n $pid ]] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o ps ./cmd/pure-serve)
cd "$tmp"; mkdir d
taskset -c 0 ./ps --data d --addr 127.0.0.1:0 --pprof 127.0.0.1:0 > srv.out 2>&1 & pid=$!
for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
addr=$(grep listening srv.out | grep -o "127.0.0.1:[0-9]*" | head -1); paddr=$(grep -i pprof srv.out | grep -o "127.0.0.1:[0-9]*" | head -1)
stats() { echo "$1: $(curl -s "http://$paddr/debug/pprof/heap?debug=1" | grep -E "^# (HeapAlloc|HeapInuse|HeapIdle|HeapReleased|HeapSys|Stack|GCSys|OtherSys|Sys|NumGC) " | tr '\n' ' ') anon_kib=$(awk '/^[0-9a-f]+-[0-9a-f]+ /{n=$6} /^Rss:/{if (n=="") a+=$2} END{print a}' /proc/$pid/smaps)"; }
case $mode in
put)
  head -c 64 /dev/urandom | base64 | head -c 64 > small; head -c 1048576 /dev/urandom > big
  for i in $(seq -w 0 63); do curl -s -o /dev/null -X PUT --data-binary @small "http://$addr/docs/d$i"; done
  sleep 1; stats "after 64 small PUTs"
  curl -s -o /dev/null -X PUT --data-binary @big "http://$addr/docs/big"
  sleep 2; stats "after one 1 MiB PUT" ;;
gc)
  sleep 1; stats "fresh"; stats "fresh, again"
  curl -s -o /dev/null "http://$paddr/debug/pprof/heap?gc=1"; sleep 0.5; stats "after one forced collection"
  curl -s -o /dev/null "http://$paddr/debug/pprof/heap?gc=1"; sleep 0.5; stats "after two" ;;
*) echo "mode $mode: want put or gc" >&2; exit 2 ;;
esac
