#!/usr/bin/env bash
# Measure how repeatable callgrind counts of the registered workloads are:
# R fresh processes per workload, raw lines to runs.jsonl, then the note.
# Usage (from the repository root): experiments/001-callgrind-noise/run.sh [R]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
r=${1:-10}
cd "$here/../.."
go build -o "$here/.pure-count" ./cmd/pure-count
trap 'rm -f "$here/.pure-count"' EXIT
workloads=$("$here/.pure-count" list | cut -d' ' -f1)
"$here/.pure-count" run --backend callgrind -r "$r" --json $workloads > "$here/runs.jsonl"
go run ./cmd/pure-expnote "$here"
