#!/usr/bin/env bash
# Experiment 129: pure alone, 64 writers (or W), 3 s cells, builds rotated (scripts/store-alone).
# Usage: flock /work/measure.lock env BUILDS="daa9474 f0024a7" BIN=/tmp/s18/kv- N=8 [W=64] \
#   experiments/129-store-64w-more/alone.sh > alone-N.txt
# (binaries: build.sh; summarised by ../126-store-leader-cpu/alone.py FILE BASE NEW)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
exec "$root/scripts/store-alone"
