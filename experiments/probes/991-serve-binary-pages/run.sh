#!/usr/bin/env bash
# Probe 991: how much of pure-serve's binary is resident, at rest and at the
# end of the harness's put-64c-same (18,000 durable PUTs with If-Match from
# 64 writers), and how much of it the load itself touched. pure-serve
# --data (built CGO_ENABLED=0 from REV, no --pprof) pinned to CPU 0, pure-load
# on CPU 1. After 1 s at rest: the binary's mappings' Size and Rss (smaps),
# then clear_refs 1 (the accessed bits of all its pages); after the load:
# Rss and Referenced (pages accessed since, by the load's work). COLD=1 first
# evicts the binary's file from the page cache (posix_fadvise DONTNEED), so
# that fault-around can map only what was read in. One line per pass in
# pages-REV.txt, and the binary's section sizes in sections-REV.txt.
# Usage: flock /work/measure.lock experiments/probes/991-serve-binary-pages/run.sh REV PASSES [COLD]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rev=${1:?REV} passes=${2:?PASSES} cold=${3:-0}
tmp=$(mktemp -d); pid=; trap '[[ -n $pid ]] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o pure-serve ./cmd/pure-serve && CGO_ENABLED=0 go build -o pure-load ./cmd/pure-load)
cd "$tmp"
python3 - pure-serve > "$here/sections-$rev.txt" <<'PY'
import subprocess, sys
for l in subprocess.run(['readelf', '-SW', sys.argv[1]], capture_output=True, text=True).stdout.splitlines():
    f = l.replace('[ ', '[').split()
    if len(f) > 6 and f[1] in ('.text', '.rodata', '.gopclntab', '.typelink', '.itablink', '.noptrdata', '.data', '.bss', '.noptrbss'):
        print(f'{f[1]:12s} {int(f[5], 16) / 1024:8.0f} KiB')
PY
bin=$tmp/pure-serve
maps() { # $1: fields of smaps to sum per mapping of the binary
  awk -v bin="$bin" -v want="$1" '
    /^[0-9a-f]+-[0-9a-f]+ / {m = ($6 == bin) ? $2 : ""; next}
    m != "" { k = $1; sub(":", "", k); if (index(" " want " ", " " k " ")) v[m " " k] += $2 }
    END { for (x in v) { split(x, f, " "); printf "%s:%s=%d ", f[1], f[2], v[x] } }' /proc/$pid/smaps | tr ' ' '\n' | sort | tr '\n' ' '
}
for ((p = 0; p < passes; p++)); do
  rm -rf d
  if [[ $cold == 1 ]]; then python3 -c "import os; fd = os.open('$bin', os.O_RDONLY); os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)"; fi
  taskset -c 0 ./pure-serve --data d --addr 127.0.0.1:0 > srv.out 2>&1 &
  pid=$!
  for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
  addr=$(grep listening srv.out | head -1 | grep -o "127.0.0.1:[0-9]*" | head -1)
  sleep 1
  rest=$(maps "Size Rss")
  echo 1 > /proc/$pid/clear_refs
  taskset -c 1 ./pure-load --workload put -c 64 -n 18000 --json "http://$addr" > load.json
  end=$(maps "Rss Referenced")
  hwm=$(awk '/VmHWM/{print $2}' /proc/$pid/status)
  kill -9 $pid; wait $pid 2>/dev/null || true; pid=
  echo "pass $p cold=$cold VmHWM=$hwm KiB | at rest (KiB, by mapping's permissions): $rest| after the load: $end" | tee -a "$here/pages-$rev.txt"
done
