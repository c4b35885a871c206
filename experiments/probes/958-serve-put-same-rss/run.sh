#!/usr/bin/env bash
# Probe 958: what pure-serve's peak RSS is made of under the harness's
# put-64c-same (18,000 durable PUTs with If-Match from 64 writers), where
# it stood at 12.6 MB against net/http's 13.5 (experiment 109). One pass:
# pure-serve --data pinned to CPU 0 (built CGO_ENABLED=0 from REV), fresh,
# rested 1 s, peak reset; pure-load on CPU 1; /proc/PID/status sampled
# every 2 ms during the load (RssAnon, RssFile), then smaps by mapping and
# the heap statistics at the end (LEN="-d 5s": put-64c instead; PPROF=0: no --pprof listener, no heap
# statistics).
# Usage: flock /work/measure.lock experiments/probes/958-serve-put-same-rss/run.sh REV [OUTDIR] [extra pure-serve flags...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rev=${1:?REV} out=${2:-$here/out-$1}; shift 2 || shift $#
mkdir -p "$out"; tmp=$(mktemp -d); trap 'kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o pure-serve ./cmd/pure-serve && CGO_ENABLED=0 go build -o pure-load ./cmd/pure-load)
cd "$tmp"
pp=(--pprof 127.0.0.1:0); [[ ${PPROF:-1} == 0 ]] && pp=()
taskset -c 0 ./pure-serve --data d --addr 127.0.0.1:0 "${pp[@]}" "$@" > srv.out 2>&1 &
pid=$!
for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
addr=$(grep listening srv.out | head -1 | grep -o "127.0.0.1:[0-9]*" | head -1)
paddr=$(grep -i pprof srv.out | grep -o "127.0.0.1:[0-9]*" | head -1 || true)
# Like the harness (httpbench.PrepareFor): nothing is prepared for writes.
sleep 1
echo 5 > /proc/$pid/clear_refs
grep -E "VmHWM|VmRSS|RssAnon|RssFile" /proc/$pid/status > "$out/status-before.txt"
( while kill -0 $pid 2>/dev/null; do awk '/RssAnon|RssFile/{printf "%s ", $2} END{print ""}' /proc/$pid/status; sleep 0.002; done ) > "$out/samples.txt" 2>/dev/null &
sampler=$!
taskset -c 1 ./pure-load --workload put -c 64 ${LEN:--n 18000} --json http://$addr > "$out/load.json"
kill $sampler 2>/dev/null || true
cp srv.out "$out/srv.out"
grep -E "VmHWM|VmRSS|RssAnon|RssFile" /proc/$pid/status > "$out/status-after.txt"
awk '/^[0-9a-f]+-[0-9a-f]+ /{name=$6} /^Rss:/{r[name]+=$2} END{for(n in r) if (r[n]>100) print r[n]" kB", n}' /proc/$pid/smaps | sort -rn > "$out/smaps.txt"
awk '/^[0-9a-f]+-[0-9a-f]+ /{m=$1" "$6} /^Rss:/{if ($2>0) print $2" kB", m}' /proc/$pid/smaps | sort -rn > "$out/smaps-all.txt"
if [[ -n $paddr ]]; then
  curl -s "http://$paddr/debug/pprof/heap?debug=1" | grep -E "^# [A-Z][A-Za-z]* = " > "$out/heapstats.txt" || true
  curl -s -o "$out/heap.pb.gz" "http://$paddr/debug/pprof/heap" || true
fi
awk '{s=$1+$2; if (s>m) {m=s; a=$1; f=$2}} END{print "peak sample: anon " a " kB, file " f " kB, total " m " kB"}' "$out/samples.txt" > "$out/peak.txt"
cat "$out/peak.txt" "$out/status-after.txt" "$out/smaps.txt" "$out/heapstats.txt" 2>/dev/null
