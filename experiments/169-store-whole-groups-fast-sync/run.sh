#!/usr/bin/env bash
# Experiment 169 (and 170, which runs it with OUT= and a third build): builds of
# the store from several revisions side by side, on a device whose syncs cost
# almost nothing (tmpfs, where fdatasync returns at once) or on DIR=, at 8 to 64
# writers. N rounds (default 8); each runs every build once per writer count
# (pure only, 2 s cells), the builds' order rotated round by round. The first
# build is the base of the note's ratios (note.py).
# Usage: flock /work/measure.lock experiments/169-store-whole-groups-fast-sync/run.sh NAME=REV NAME=REV ...
#   169: run.sh main=062105f whole=93cffdd
#   OUT= the experiment directory (default this one); DIR= another directory than
#   /dev/shm for the stores; WRITERS= the counts (default 8,16,32,64); N= rounds.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
out=${OUT:-$here} dir=${DIR:-/dev/shm} n=${N:-8} writers=${WRITERS:-8,16,32,64}
exp=$(basename "$out")
(($# >= 2)) || { echo "usage: run.sh NAME=REV NAME=REV ..." >&2; exit 2; }
tmp=$(mktemp -d); data=$(mktemp -d "$dir/exp${exp%%-*}.XXXXXX")
trap 'rm -rf "$tmp" "$data"' EXIT
names=()
for b in "$@"; do
  name=${b%%=*} rev=${b#*=}; names+=("$name")
  mkdir "$tmp/$name"; (cd "$root" && git archive "$rev" | tar -x -C "$tmp/$name")
  (cd "$tmp/$name" && CGO_ENABLED=0 go build -o "$tmp/kv-$name" ./cmd/pure-kvbench)
done
mkdir -p "$out"; printf '%s\n' "$@" >"$out/builds.txt"
: >"$out/runs.jsonl"
k=${#names[@]}
for ((r = 0; r < n; r++)); do
  for ((i = 0; i < k; i++)); do
    b=${names[(i + r) % k]}
    "$tmp/kv-$b" -only writes -contenders pure -writers "$writers" -rounds 1 -duration 2s -probe 50 \
      -experiment "$exp" -out "$tmp/p.jsonl" -dir "$data" >/dev/null 2>&1
    sed "s/^{/{\"build\":\"$b\",\"round169\":$r,/" "$tmp/p.jsonl" >>"$out/runs.jsonl"
  done
done
