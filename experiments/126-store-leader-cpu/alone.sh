#!/usr/bin/env bash
# Experiment 126: pure alone, 64 writers (or W), 3 s cells, builds rotated (scripts/store-alone).
# Usage: flock /work/measure.lock experiments/126-store-leader-cpu/alone.sh > alone-N.txt
#   BUILDS="3df9826 d3f7efc" BIN=/tmp/s17/kv- N=6 [W=64]
# (binaries: pure-kvbench built from `git archive` of each revision)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exec "$root/scripts/store-alone"
