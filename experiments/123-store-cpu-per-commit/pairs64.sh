#!/usr/bin/env bash
# Experiment 123: 64-writer cells only (pure and pebble, Sync writes, 3 s), the builds in BUILDS
# (name=binary of pure-kvbench built from `git archive` of its revision) rotated each round, the
# contenders' order alternated; lines to OUT (JSONL, "build" and "round123" added).
# Usage: flock /work/measure.lock experiments/123-store-cpu-per-commit/pairs64.sh
#   BUILDS="main=/tmp/s16/kv-5329533 new=/tmp/s16/kv-26ec9bb" N=8 OUT=pairs-1.jsonl
# (scripts/store-pairs64 does it; this file records the call)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TAG=123 exec "$root/scripts/store-pairs64"
