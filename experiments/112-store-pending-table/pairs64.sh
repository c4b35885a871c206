#!/usr/bin/env bash
# Experiment 112: 64-writer cells only (pure and pebble, Sync writes, 3 s), the builds in BUILDS
# (name=binary of pure-kvbench built from `git archive` of its revision) rotated each round, the
# contenders' order alternated; lines to OUT (JSONL, "build" and "round112" added).
# Usage: flock /work/measure.lock experiments/112-store-pending-table/pairs64.sh
#   BUILDS="main=/tmp/s13/kv-main tab=/tmp/s13/kv-tab bg=/tmp/s13/kv-bg" N=6 OUT=pairs-1.jsonl
# (scripts/store-pairs64 does it; this file records the call)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TAG=112 exec "$root/scripts/store-pairs64"
