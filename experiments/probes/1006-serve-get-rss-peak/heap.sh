#!/usr/bin/env bash
# Probe 1006, second part: what is live in pure-serve's heap at the end of get-64c's load.
# pure-serve --data --pprof with GODEBUG=memprofilerate=1 (every allocation recorded; slower)
# pinned to CPU 0, seeded, rested 1 s, then pure-load --workload get -c 64 -d DUR on CPU 1; at
# the load's end the heap profile (inuse_space) and the goroutine count. Output: heap-REV.pb.gz
# and top-REV.txt in this directory.
# Usage: flock /work/measure.lock experiments/probes/1006-serve-get-rss-peak/heap.sh REV   (DUR=5s)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../../.." && pwd)
rev=${1:?REV}
tmp=$(mktemp -d); pid=; trap '[[ -n $pid ]] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o pure-serve ./cmd/pure-serve && CGO_ENABLED=0 go build -o pure-load ./cmd/pure-load)
cd "$tmp"
mkdir d
GODEBUG=memprofilerate=1 taskset -c 0 ./pure-serve --data d --addr 127.0.0.1:0 --pprof 127.0.0.1:0 > srv.out 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
addr=$(grep listening srv.out | head -1 | grep -o "127.0.0.1:[0-9]*" | head -1)
paddr=$(grep -i pprof srv.out | grep -o "127.0.0.1:[0-9]*" | head -1)
taskset -c 1 ./pure-load --workload seed "http://$addr" > /dev/null
sleep 1
taskset -c 1 ./pure-load --workload get -c 64 -d "${DUR:-5s}" "http://$addr" > /dev/null
curl -s "http://$paddr/debug/pprof/heap" > "$here/heap-$rev.pb.gz"
{ echo "goroutines: $(curl -s "http://$paddr/debug/pprof/goroutine?debug=1" | head -1)"
  grep -E "VmHWM|RssAnon|RssFile" /proc/$pid/status
  go tool pprof -sample_index=inuse_space -top -nodecount=40 ./pure-serve "$here/heap-$rev.pb.gz" 2>/dev/null; } > "$here/top-$rev.txt"
