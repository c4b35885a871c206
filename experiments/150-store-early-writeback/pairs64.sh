#!/usr/bin/env bash
# Experiment 150: 64-writer cells only (pure and pebble, Sync writes, 3 s), the builds in BUILDS
# (name=binary of pure-kvbench from build.sh) rotated each round, the contenders' order alternated;
# lines to OUT (JSONL, "build" and "round150" added).
# Usage: flock /work/measure.lock env BUILDS="main=/tmp/s20/kv-60dd720 syncwb=/tmp/s20/kv-c4f4da6" N=10 \
#   OUT=pairs-1.jsonl experiments/150-store-early-writeback/pairs64.sh > pairs-1.txt
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TAG=150 exec "$root/scripts/store-pairs64"
