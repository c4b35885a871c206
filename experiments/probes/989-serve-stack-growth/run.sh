#!/usr/bin/env bash
# Probe 989: where pure-serve's goroutines grow their stacks under the
# harness's put-64c-same (18,000 durable PUTs with If-Match from 64 writers),
# and to what size. Two uprobes on a pure-serve built CGO_ENABLED=0 from REV:
# runtime.morestack (entry, with its caller chain by frame pointers: the
# function that needs more stack is the one whose prologue called it) and
# runtime.copystack (the new size, the goroutine's id, its old stack bounds,
# and gp.sched.sp/pc: how much of the old stack was in use, and the function
# that needed more). perf records both while pure-load runs; grows.py pairs
# each copy with the morestack before it on the same thread. One pass per
# PASSES: grows-REV-P.txt (the table), status-REV-P.txt (the server's
# /proc status at the end: VmHWM, Threads).
# Usage: flock /work/measure.lock experiments/probes/989-serve-stack-growth/run.sh REV PASSES
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rev=${1:?REV} passes=${2:?PASSES}
tmp=$(mktemp -d); pid=
T=/sys/kernel/tracing/uprobe_events
cleanup() {
  [[ -n $pid ]] && kill -9 "$pid" 2>/dev/null
  echo '-:rss989/morestack' >> $T 2>/dev/null || true
  echo '-:rss989/copystack' >> $T 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o pure-serve ./cmd/pure-serve && CGO_ENABLED=0 go build -o pure-load ./cmd/pure-load)
cd "$tmp"
ms=$(python3 - <<'PY'
import subprocess
nm = subprocess.run(['go','tool','nm','pure-serve'],capture_output=True,text=True).stdout
addr = {l.split()[2]: int(l.split()[0],16) for l in nm.splitlines() if len(l.split()) == 3}
segs = [l.split() for l in subprocess.run(['readelf','-lW','pure-serve'],capture_output=True,text=True).stdout.splitlines() if l.strip().startswith('LOAD')]
def off(sym):
    a = addr[sym]
    for s in segs:
        o, v, fs = int(s[1],16), int(s[2],16), int(s[4],16)
        if v <= a < v + fs: return a - v + o
print(hex(off('runtime.morestack.abi0')), hex(off('runtime.copystack')))
PY
)
read -r msoff csoff <<< "$ms"
# g's fields (Go 1.26): stack.lo +0, stack.hi +8, sched.sp +56, sched.pc +64, goid +152;
# checked against the binary's DWARF by: perf probe -x pure-serve -V runtime.copystack
echo "p:rss989/copystack $tmp/pure-serve:$csoff newsize=%bx:u64 goid=+152(%ax):u64 lo=+0(%ax):x64 hi=+8(%ax):x64 sp=+56(%ax):x64 pc=+64(%ax):x64" >> $T
echo "p:rss989/morestack $tmp/pure-serve:$msoff" >> $T
for ((p = 0; p < passes; p++)); do
  rm -rf d
  taskset -c 0 ./pure-serve --data d --addr 127.0.0.1:0 > srv.out 2>&1 &
  pid=$!
  for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
  addr=$(grep listening srv.out | head -1 | grep -o "127.0.0.1:[0-9]*" | head -1)
  sleep 0.5
  perf record -q -o perf.data -e rss989:copystack -e rss989:morestack -g -p $pid -- sleep 2.5 2>/dev/null &
  prec=$!
  sleep 0.5
  taskset -c 1 ./pure-load --workload put -c 64 -n 18000 --json "http://$addr" > load.json
  wait $prec || true
  grep -E 'VmHWM|RssAnon|RssFile|Threads' /proc/$pid/status > "$here/status-$rev-$p.txt"
  kill -9 $pid; wait $pid 2>/dev/null || true; pid=
  perf script -i perf.data 2>/dev/null | sed "s/rss989:/rss1:/" > script.txt
  { echo "rev $rev pass $p: $(head -c 400 load.json | grep -o '"ok_per_s":[0-9.]*')"; python3 "$here/grows.py" pure-serve < script.txt; } > "$here/grows-$rev-$p.txt"
done
