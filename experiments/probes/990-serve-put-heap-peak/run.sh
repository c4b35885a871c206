#!/usr/bin/env bash
# Probe 990: what is live in pure-serve's heap near its peak under the
# harness's put-64c-same (18,000 durable PUTs with If-Match from 64
# writers). pure-serve --data --pprof (built CGO_ENABLED=0 from REV) runs
# with GODEBUG=memprofilerate=1, so the heap profile records every
# allocation (the server runs slower for it); pinned to CPU 0, pure-load on
# CPU 1. Every ~100 ms /proc/PID/status and the heap profile are sampled;
# the profile of the sample with the most resident memory (it reports the
# heap as of the last collection before it) is kept as heap-REV-P.pb.gz,
# and top-REV-P.txt lists its in-use bytes by allocating function, less
# the --pprof listener's own (pprofRoute). ENV is added to the server's
# environment (empty: nothing).
# Usage: flock /work/measure.lock experiments/probes/990-serve-put-heap-peak/run.sh REV PASSES [ENV]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rev=${1:?REV} passes=${2:?PASSES} envs=${3:-}
tmp=$(mktemp -d); pid=; trap '[[ -n $pid ]] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o pure-serve ./cmd/pure-serve && CGO_ENABLED=0 go build -o pure-load ./cmd/pure-load)
cd "$tmp"
for ((p = 0; p < passes; p++)); do
  rm -rf d s; mkdir s
  # shellcheck disable=SC2086
  env GODEBUG=memprofilerate=1 $envs taskset -c 0 ./pure-serve --data d --addr 127.0.0.1:0 --pprof 127.0.0.1:0 > srv.out 2>&1 &
  pid=$!
  for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
  addr=$(grep listening srv.out | head -1 | grep -o "127.0.0.1:[0-9]*" | head -1)
  paddr=$(grep -i pprof srv.out | grep -o "127.0.0.1:[0-9]*" | head -1)
  sleep 1
  ( i=0; while kill -0 $pid 2>/dev/null; do i=$((i+1))
      awk '/RssAnon|RssFile/{printf "%s ", $2} END{print ""}' /proc/$pid/status > s/$i.rss
      curl -s -o s/$i.pb "http://$paddr/debug/pprof/heap" || true
      sleep 0.1; done ) 2>/dev/null &
  sampler=$!
  taskset -c 1 ./pure-load --workload put -c 64 -n 18000 --json "http://$addr" > load.json
  sleep 0.15
  kill $sampler 2>/dev/null || true; wait $sampler 2>/dev/null || true
  hwm=$(awk '/VmHWM/{print $2}' /proc/$pid/status)
  kill -9 $pid; wait $pid 2>/dev/null || true; pid=
  best=$(for f in s/*.rss; do read -r a fl < "$f" || continue; [[ -s ${f%.rss}.pb ]] && echo "$((a + fl)) $a $fl ${f%.rss}"; done | sort -n | tail -1)
  read -r tot anon file stem <<< "$best"
  cp "$stem.pb" "$here/heap-$rev-$p.pb.gz"
  { echo "rev $rev pass $p env '$envs': VmHWM $hwm KiB; sample with the most resident: anon $anon KiB, file $file KiB; $(grep -o '"ok_per_s":[0-9.]*' load.json)"
    go tool pprof -sample_index=inuse_space -ignore 'pprofRoute' -top -nodecount=25 pure-serve "$stem.pb" 2>/dev/null | sed -n '5,40p'; } > "$here/top-$rev-$p.txt"
done
