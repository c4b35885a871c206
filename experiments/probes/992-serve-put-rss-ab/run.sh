#!/usr/bin/env bash
# Probe 992: pure-serve's peak RSS under the harness's put-64c-same (18,000
# durable PUTs with If-Match from 64 writers), revisions side by side: each
# pass runs every REV once, in an order rotated per pass. pure-serve --data
# (built CGO_ENABLED=0 from REV, no --pprof, as the harness runs it) pinned
# to CPU 0, fresh store, rested 1 s; pure-load on CPU 1. Every ~20 ms
# /proc/PID/status is sampled; one JSON line per run (passes.jsonl, appended):
# VmHWM, the sample with the most resident memory (RssAnon, RssFile), the
# threads at the end, the load's rate. A REV may be REV:ENV (ENV such as
# GOGC=25, put in that server's environment; "rev" in the JSON is REV:ENV).
# Usage: flock /work/measure.lock experiments/probes/992-serve-put-rss-ab/run.sh PASSES REV[:ENV]...
# Knobs (later probes): OUT=file for the JSON lines (default passes.jsonl here); LOAD="-d 5s"
# for pure-load's extent instead of "-n 18000" (put-64c, equal time).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
passes=${1:?PASSES}; shift
revs=("$@")
tmp=$(mktemp -d); pid=; trap '[[ -n $pid ]] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
for spec in "${revs[@]}"; do
  rev=${spec%%:*}
  [[ -x $tmp/pure-serve-$rev ]] && continue
  mkdir -p "$tmp/src-$rev"
  (cd "$root" && git archive "$rev" | tar -x -C "$tmp/src-$rev")
  (cd "$tmp/src-$rev" && CGO_ENABLED=0 go build -o "$tmp/pure-serve-$rev" ./cmd/pure-serve)
done
(cd "$tmp/src-${revs[0]%%:*}" && CGO_ENABLED=0 go build -o "$tmp/pure-load" ./cmd/pure-load)
cd "$tmp"
n=${#revs[@]}
for ((p = 0; p < passes; p++)); do
  for ((k = 0; k < n; k++)); do
    spec=${revs[$(((k + p) % n))]}
    rev=${spec%%:*} envs=
    [[ $spec == *:* ]] && envs=${spec#*:}
    rm -rf d s; mkdir s
    # shellcheck disable=SC2086
    env $envs taskset -c 0 "./pure-serve-$rev" --data d --addr 127.0.0.1:0 > srv.out 2>&1 &
    pid=$!
    for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
    addr=$(grep listening srv.out | head -1 | grep -o "127.0.0.1:[0-9]*" | head -1)
    sleep 1
    ( i=0; while kill -0 $pid 2>/dev/null; do i=$((i+1))
        awk '/RssAnon|RssFile/{printf "%s ", $2} END{print ""}' /proc/$pid/status > s/$i.rss
        sleep 0.02; done ) 2>/dev/null &
    sampler=$!
    # shellcheck disable=SC2086
    taskset -c 1 ./pure-load --workload put -c 64 ${LOAD:--n 18000} --json "http://$addr" > load.json
    kill $sampler 2>/dev/null || true; wait $sampler 2>/dev/null || true
    hwm=$(awk '/VmHWM/{print $2}' /proc/$pid/status)
    thr=$(awk '/Threads/{print $2}' /proc/$pid/status)
    kill -9 $pid; wait $pid 2>/dev/null || true; pid=
    best=$(cat s/*.rss | awk 'NF == 2 {print $1 + $2, $1, $2}' | sort -n | tail -1)
    read -r _ anon file <<< "$best"
    ok=$(grep -o '"ok_per_s":[0-9.]*' load.json | cut -d: -f2)
    echo "{\"rev\": \"$spec\", \"pass\": $p, \"vmhwm_kib\": $hwm, \"peak_anon_kib\": $anon, \"peak_file_kib\": $file, \"threads\": $thr, \"ok_per_s\": $ok}" | tee -a "${OUT:-$here/passes.jsonl}"
  done
done
