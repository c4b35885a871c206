#!/usr/bin/env bash
# Experiment 123: pure alone, 64 writers, 3 s cells, builds rotated (scripts/store-alone).
# Usage: flock /work/measure.lock experiments/123-store-cpu-per-commit/alone.sh > alone-N.txt
#   BUILDS="5329533 26ec9bb" BIN=/tmp/s16/kv- N=6 [W=64]
# (binaries: pure-kvbench built from `git archive` of each revision)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exec "$root/scripts/store-alone"
