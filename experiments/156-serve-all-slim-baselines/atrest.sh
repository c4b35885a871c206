#!/usr/bin/env bash
# Experiment 156's at-rest figures: each server binary as pure-http builds it now (one
# implementation per pure-baseline) and as it built them before 49e6737 (pure-baseline with
# both implementations), started pinned to CPU 0 with a fresh data directory, its
# VmHWM, RssAnon and RssFile read from /proc 1.5 s later, REPS times each, order rotated.
# One JSON line per start on stdout.
# Usage (lock held): flock /work/measure.lock experiments/156-serve-all-slim-baselines/atrest.sh REV REPS > atrest.jsonl
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
rev=${1:?REV} reps=${2:?REPS}
tmp=$(mktemp -d); trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
cd "$tmp"
export CGO_ENABLED=0
go build -o bin/pure-serve ./cmd/pure-serve
go build -tags nosqlite -o bin/bundle ./cmd/pure-baseline
go build -tags nosqlite,nofasthttp -o bin/nethttp ./cmd/pure-baseline
go build -tags nosqlite,nonethttp -o bin/fasthttp ./cmd/pure-baseline
arms=("pure-serve|bin/pure-serve --data D" "nethttp-bundle|bin/bundle --impl nethttp --mode crashsafe --data D"
  "nethttp-slim|bin/nethttp --impl nethttp --mode crashsafe --data D"
  "fasthttp-bundle|bin/bundle --impl fasthttp --mode crashsafe --data D"
  "fasthttp-slim|bin/fasthttp --impl fasthttp --mode crashsafe --data D")
k=${#arms[@]}
for ((r = 0; r < reps; r++)); do
  for ((i = 0; i < k; i++)); do
    a=${arms[(i + r) % k]} name=${a%%|*} cmd=${a#*|}
    rm -rf D && mkdir D
    taskset -c 0 ${cmd} --addr 127.0.0.1:0 > out.txt 2>&1 &
    pid=$!
    sleep 1.5
    size=$(stat -c %s "${cmd%% *}")
    awk -v n="$name" -v r="$r" -v sz="$size" '/^(VmHWM|RssAnon|RssFile):/{v[$1]=$2} END{printf "{\"arm\":\"%s\",\"rep\":%d,\"binary_bytes\":%d,\"vmhwm_kib\":%d,\"rss_anon_kib\":%d,\"rss_file_kib\":%d}\n", n, r, sz, v["VmHWM:"], v["RssAnon:"], v["RssFile:"]}' "/proc/$pid/status"
    kill "$pid"; wait "$pid" 2>/dev/null || true
  done
done
