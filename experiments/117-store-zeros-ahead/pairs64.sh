#!/usr/bin/env bash
# Experiment 117: 64-writer cells only (pure and pebble, Sync writes, 3 s), the builds in BUILDS
# (name=binary of pure-kvbench built from `git archive` of its revision) rotated each round, the
# contenders' order alternated; lines to OUT (JSONL, "build" and "round117" added).
# Usage: flock /work/measure.lock experiments/117-store-zeros-ahead/pairs64.sh
#   BUILDS="main=/tmp/s14b/kv-a7998df ahead=/tmp/s14b/kv-eaa5a8a" N=6 OUT=pairs-1.jsonl (binaries built from `git archive` of each revision)
# (scripts/store-pairs64 does it; this file records the call)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TAG=117 exec "$root/scripts/store-pairs64"
