#!/usr/bin/env bash
# Experiment 002: Pure's store against bbolt and pebble on one disk.
# Builds pure-kvbench, runs it with the default sizes (3 rounds; 1, 8 and 64
# writers; 3 s per measurement; reads on 1,000,000 keys), writing one JSON
# line per measurement to runs.jsonl, then generates note.md from it.
# The stores live in a temporary directory beside runs.jsonl (so on the disk
# this directory is on) and are removed as each cell ends.
#
# Usage (from anywhere): experiments/002-store-against-bbolt-and-pebble/run.sh [pure-kvbench flags]
#   extra flags go to pure-kvbench, e.g. -dir /mnt/sd to measure another disk;
#   OUT=DIR writes runs.jsonl and note.md to DIR instead (smoke runs).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here}
mkdir -p "$out"
cd "$here/../.."
go build -o "$here/.pure-kvbench" ./cmd/pure-kvbench
trap 'rm -f "$here/.pure-kvbench"' EXIT
"$here/.pure-kvbench" -out "$out/runs.jsonl" "$@"
"$here/.pure-kvbench" note "$out"
echo "wrote $out/runs.jsonl and $out/note.md"
