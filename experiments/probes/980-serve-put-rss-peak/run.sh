#!/usr/bin/env bash
# Probe 980: what pure-serve's peak RSS under the harness's put-64c-same
# (18,000 durable PUTs with If-Match from 64 writers) is made of, after the
# store's Tx handles (experiment 123). One pass per line of passes.jsonl:
# pure-serve --data --pprof (built CGO_ENABLED=0 from REV) pinned to CPU 0,
# fresh store, rested 1 s, VmHWM reset; pure-load on CPU 1; every ~50 ms
# /proc/PID/status (RssAnon, RssFile) and the runtime's MemStats (the
# --pprof listener's heap?debug=1) are sampled; the line keeps the sample
# with the most resident memory, the peak (VmHWM) and smaps by mapping at
# the end. ENV (e.g. "GOGC=25" or "GODEBUG=adaptivestackstart=0") is put in
# the server's environment.
# Knobs for other loads (probe 1006 uses them; their defaults are this probe's):
# LOAD, pure-load's arguments (default "--workload put -c 64 -n 18000");
# SEED=1 seeds the documents first (pure-load --workload seed, as the harness
# prepares GETs); NOPPROF=1 runs the server without --pprof, as the harness
# does (no MemStats then; smaps at the end say what is resident).
# Usage: flock /work/measure.lock experiments/probes/980-serve-put-rss-peak/run.sh REV PASSES "ENV ..." [...]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rev=${1:?REV} passes=${2:?PASSES}; shift 2
tmp=$(mktemp -d); pid=; trap '[[ -n $pid ]] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o pure-serve ./cmd/pure-serve && CGO_ENABLED=0 go build -o pure-load ./cmd/pure-load)
cd "$tmp"
for ((p = 0; p < passes; p++)); do
  for envs in "$@"; do
    rm -rf d s; mkdir s
    # shellcheck disable=SC2086
    prof=(--pprof 127.0.0.1:0); [[ -n ${NOPPROF:-} ]] && prof=()
    env $envs taskset -c 0 ./pure-serve --data d --addr 127.0.0.1:0 "${prof[@]}" > srv.out 2>&1 &
    pid=$!
    for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
    addr=$(grep listening srv.out | head -1 | grep -o "127.0.0.1:[0-9]*" | head -1)
    paddr=$(grep -i pprof srv.out | grep -o "127.0.0.1:[0-9]*" | head -1 || true)
    [[ -n ${SEED:-} ]] && taskset -c 1 ./pure-load --workload seed "http://$addr" > /dev/null
    sleep 1
    echo 5 > /proc/$pid/clear_refs
    ( i=0; while kill -0 $pid 2>/dev/null; do i=$((i+1))
        awk '/RssAnon|RssFile/{printf "%s ", $2} END{print ""}' /proc/$pid/status > s/$i.rss
        [[ -n $paddr ]] && curl -s "http://$paddr/debug/pprof/heap?debug=1" | grep -E "^# [A-Z][A-Za-z]* = [0-9]+( / [0-9]+)?$" > s/$i.mem || true
        sleep 0.05; done ) 2>/dev/null &
    sampler=$!
    # shellcheck disable=SC2086
    taskset -c 1 ./pure-load ${LOAD:---workload put -c 64 -n 18000} --json "http://$addr" > load.json
    kill $sampler 2>/dev/null || true; wait $sampler 2>/dev/null || true
    hwm=$(awk '/VmHWM/{print $2}' /proc/$pid/status)
    awk '/^[0-9a-f]+-[0-9a-f]+ /{n=$6; if (n=="") n="[anon " $1 "]"} /^Rss:/{r[n]+=$2} END{for (n in r) if (r[n]>=64) print r[n], n}' /proc/$pid/smaps > smaps.txt
    kill -9 $pid; wait $pid 2>/dev/null || true; pid=
    python3 - "$rev" "$envs" "$p" "$hwm" <<'PY'
import glob, json, os, sys
rev, envs, p, hwm = sys.argv[1:]
best = None
for f in glob.glob("s/*.rss"):
    v = open(f).read().split()
    if len(v) < 2: continue
    a, fl = int(v[0]), int(v[1])
    if best is None or a + fl > best[0] + best[1]:
        best = (a, fl, f[:-4] + ".mem")
mem = {}
if best and os.path.exists(best[2]):
    for l in open(best[2]):
        k, _, v = l[2:].partition(" = "); v = v.split(" / ")[0]
        mem[k] = int(v)
smaps = [l.split(" ", 1) for l in open("smaps.txt")]
load = json.load(open("load.json"))
print(json.dumps({"rev": rev, "env": envs, "pass": int(p), "vmhwm_kib": int(hwm),
    "peak_sample": {"anon_kib": best[0], "file_kib": best[1]} if best else None,
    "memstats_at_peak_sample": {k: mem[k] for k in ("HeapAlloc", "HeapInuse", "HeapIdle", "HeapReleased", "Stack", "MSpan", "GCSys", "OtherSys", "NextGC", "NumGC", "Sys", "MCache", "BuckHashSys") if k in mem},
    "smaps_end_kib": {n.strip(): int(k) for k, n in smaps},
    "ok_per_s": load.get("ok_per_s")}))
PY
  done
done
