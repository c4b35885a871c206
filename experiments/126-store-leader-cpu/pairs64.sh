#!/usr/bin/env bash
# Experiment 126: 64-writer cells only (pure and pebble, Sync writes, 3 s), the builds in BUILDS
# (name=binary of pure-kvbench built from `git archive` of its revision) rotated each round, the
# contenders' order alternated; lines to OUT (JSONL, "build" and "round126" added).
# Usage: flock /work/measure.lock experiments/126-store-leader-cpu/pairs64.sh
#   BUILDS="main=/tmp/s17/kv-3df9826 new=/tmp/s17/kv-d3f7efc" N=8 OUT=pairs-1.jsonl
# (scripts/store-pairs64 does it; this file records the call)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TAG=126 exec "$root/scripts/store-pairs64"
