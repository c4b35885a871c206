#!/usr/bin/env bash
# Experiment 012: how stable is the floor of many short regions, and how
# should a run take its time from them?
#
# 1. A stream of PROCS fresh processes of itoa-strconv-10k, each timing 20
#    regions of ~15 ms (pure-count run --regions), one after another: the
#    note simulates the pairs runner's estimators on it, as A/A pairs.
# 2. For every workload of the default suite, 12 processes of 20 regions:
#    each process's fastest region against the fastest of all.
# All pinned to the last CPU with address-space randomisation off, as the
# pairs runner runs them. pure-count's JSON lines, with the workload's
# process number added, go to runs.jsonl; then note.md is written from it.
#
# Usage: experiments/012-region-floor/run.sh [PROCS]   (default 160, ~4 min)
set -euo pipefail
cd "$(dirname "$0")/../.."
procs=${1:-160}
dir=experiments/012-region-floor
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/pure-count" ./cmd/pure-count
cpu=$(( $(nproc) - 1 ))
: > "$dir/runs.jsonl"
measure() { # workload ops processes
  for p in $(seq 1 "$3"); do
    taskset -c "$cpu" setarch "$(uname -m)" -R "$bin/pure-count" run -e task-clock \
      -n "$2" --regions 20 -r 1 --json "$1" |
      grep '"kind":"run"' | sed "s/^{/{\"process\":$p,/" >> "$dir/runs.jsonl"
  done
}
measure itoa-strconv-10k 90 "$procs"
while read -r w ops; do measure "$w" "$ops" 12; done <<'LIST'
sort-ints-10k 30
itoa-fmt-10k 25
store-get 60000
store-put 8000
store-range-100 15000
store-tx100-commit 200
LIST
go run ./cmd/pure-expnote "$dir"
