#!/usr/bin/env bash
# Experiment 125: the store against bbolt and pebble after experiment 123's
# merge (issue 15's benchmark note, like 002): pure-kvbench with every
# contender (pure, bbolt, bbolt-batch, pebble, fdatasync-4k), 1, 8 and 64
# writers (each writer its own fresh keys, one 16-byte value per
# transaction, Sync writes), then point reads and 100-key scans on
# 1,000,000 loaded keys; ROUNDS rounds, the contenders' order rotated by
# one each round, 3 s per cell, each cell a fresh store on this disk. One
# JSON line per measurement to runs.jsonl; note.md generated from it.
#
# Usage: flock /work/measure.lock experiments/125-store-final-round/run.sh
#   ROUNDS=7 (extra flags go to pure-kvbench); OUT=DIR writes elsewhere (its
#   name becomes the lines' experiment, as this directory's does by default).
# run.sh note: only regenerate note.md from runs.jsonl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here}
cd "$here/../.."
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
go build -o "$bin/pure-kvbench" ./cmd/pure-kvbench
if [[ ${1:-} == note ]]; then exec "$bin/pure-kvbench" note "$out"; fi
mkdir -p "$out"
"$bin/pure-kvbench" -rounds "${ROUNDS:-7}" -experiment "$(basename "$out")" -out "$out/runs.jsonl" "$@"
"$bin/pure-kvbench" note "$out"
