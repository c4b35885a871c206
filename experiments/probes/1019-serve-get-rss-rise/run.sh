#!/usr/bin/env bash
# Probe 1019: where pure-serve's RSS goes during a small-GET load, as the harness
# runs it (--data pinned to CPU 0, the seed, 1 s of rest, VmHWM reset, pure-load
# get -c 64 on CPU 1 for D): VmRSS every 0.25 s, then smaps per mapping at the end.
# usage: flock /work/measure.lock run.sh REV PASSES D [ps flags...]
set -euo pipefail
rev=${1:?REV}; passes=${2:-2}; dur=${3:-10s}; shift 3 || true
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/p1019.XXXX)
trap 'git -C /work/main worktree remove --force "$work/src" 2>/dev/null; rm -rf "$work"' EXIT
git -C /work/main worktree add -q --detach "$work/src" "$rev"
(cd "$work/src" && CGO_ENABLED=0 go build -o "$work/ps" ./cmd/pure-serve && CGO_ENABLED=0 go build -o "$work/pl" ./cmd/pure-load)
short=$(git -C /work/main rev-parse --short "$rev")
for p in $(seq 1 "$passes"); do
  out="$here/out-$short-$dur-$p"; mkdir -p "$out"
  data=$(mktemp -d /tmp/p1019d.XXXX)
  taskset -c 0 "$work/ps" --addr 127.0.0.1:0 --data "$data" "$@" > "$work/stdout" 2> "$out/stderr" &
  pid=$!
  for i in $(seq 1 100); do grep -q listening "$work/stdout" 2>/dev/null && break; sleep 0.05; done
  url="http://$(grep -o 'listening [^ ]*' "$work/stdout" | cut -d' ' -f2)"
  GOMAXPROCS=1 taskset -c 1 "$work/pl" --workload seed "$url" > /dev/null
  sleep 1
  echo 5 > "/proc/$pid/clear_refs"   # reset VmHWM, as the harness does
  grep -E "VmRSS|VmHWM" "/proc/$pid/status" > "$out/rest.txt"
  (while kill -0 $pid 2>/dev/null; do echo "$(date +%s.%N) $(awk '/VmRSS/{print $2}' /proc/$pid/status 2>/dev/null) $(awk '/RssAnon/{print $2}' /proc/$pid/status 2>/dev/null) $(awk '/RssFile/{print $2}' /proc/$pid/status 2>/dev/null)"; sleep 0.25; done) > "$out/rss.txt" &
  sampler=$!
  GOMAXPROCS=1 taskset -c 1 "$work/pl" --workload get -c 64 -d "$dur" --json "$url" > "$out/load.json"
  grep -E "VmRSS|VmHWM|RssAnon|RssFile" "/proc/$pid/status" > "$out/end.txt"
  cat "/proc/$pid/smaps" > "$out/smaps.txt"
  kill $sampler 2>/dev/null || true
  kill $pid; wait $pid 2>/dev/null || true
  rm -rf "$data"
  echo "pass $p: rest $(awk '/VmRSS/{print $2}' "$out/rest.txt") KiB, end $(tr '\n' ' ' < "$out/end.txt")"
done
