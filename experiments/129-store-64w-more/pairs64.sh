#!/usr/bin/env bash
# Experiment 129: 64-writer cells only (pure and pebble, Sync writes, 3 s), the builds in BUILDS
# (name=binary of pure-kvbench from build.sh) rotated each round, the contenders' order alternated;
# lines to OUT (JSONL, "build" and "round129" added).
# Usage: flock /work/measure.lock env BUILDS="main=/tmp/s18/kv-daa9474 new=/tmp/s18/kv-REV" N=10 \
#   OUT=pairs-1.jsonl experiments/129-store-64w-more/pairs64.sh > pairs-1.txt
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TAG=129 exec "$root/scripts/store-pairs64"
