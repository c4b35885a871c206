#!/usr/bin/env bash
# Experiment 137: 64-writer cells only (pure and pebble, Sync writes, 3 s), the builds in BUILDS
# (name=binary of pure-kvbench from build.sh) rotated each round, the contenders' order alternated;
# lines to OUT (JSONL, "build" and "round137" added).
# Usage: flock /work/measure.lock env BUILDS="main=/tmp/s19/kv-af70e28 bg=/tmp/s19/kv-REV" N=10 \
#   OUT=pairs-1.jsonl experiments/137-store-bg-fold/pairs64.sh > pairs-1.txt
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TAG=137 exec "$root/scripts/store-pairs64"
