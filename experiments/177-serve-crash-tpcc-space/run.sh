#!/usr/bin/env bash
# Experiment 177: the store file's size through kill -9 cycles of TPC-C on
# pure-serve (scripts/crash-serve app=tpcc), for builds of several revisions
# one after the other. Each NAME=REV is built from `git archive`, its test's
# temporary directory sampled every 5 s; writes here sizes-NAME.txt (seconds
# since start, the data file's bytes) and crash-NAME.txt (crash-serve's output).
# Usage: flock /work/measure.lock experiments/177-serve-crash-tpcc-space/run.sh CYCLES NAME=REV ...
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
cycles=${1:?CYCLES}; shift
for b in "$@"; do
  name=${b%%=*} rev=${b#*=}
  tmp=$(mktemp -d); mkdir "$tmp/src" "$tmp/t"
  (cd "$root" && git archive "$rev" | tar -x -C "$tmp/src")
  (cd "$tmp/src" && TMPDIR="$tmp/t" scripts/crash-serve cycles="$cycles" app=tpcc >"$here/crash-$name.txt" 2>&1) &
  pid=$! start=$(date +%s)
  : >"$here/sizes-$name.txt"
  while kill -0 $pid 2>/dev/null; do
    f=$(find "$tmp/t" -name pure.db -path '*TPCC*' 2>/dev/null | head -1)
    [ -n "$f" ] && echo "$(($(date +%s) - start)) $(stat -c %s "$f" 2>/dev/null || echo 0)" >>"$here/sizes-$name.txt"
    sleep 5
  done
  wait $pid; echo "$name: exit $?, $(tail -n 1 "$here/crash-$name.txt")"
  rm -rf "$tmp"
done
