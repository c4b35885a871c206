#!/usr/bin/env bash
# Experiment 119: 64-writer cells only (pure and pebble, Sync writes, 3 s), the builds in BUILDS
# (name=binary of pure-kvbench built from `git archive` of its revision) rotated each round, the
# contenders' order alternated; lines to OUT (JSONL, "build" and "round119" added).
# Usage: flock /work/measure.lock experiments/119-store-fold-behind/pairs64.sh
#   BUILDS="main=/tmp/s15b/kv-6f2877c new=/tmp/s15b/kv-120557a" N=6 OUT=pairs-1.jsonl (binaries built from `git archive` of each revision)
# (scripts/store-pairs64 does it; this file records the call)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
TAG=119 exec "$root/scripts/store-pairs64"
