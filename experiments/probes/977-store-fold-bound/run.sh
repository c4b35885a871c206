#!/usr/bin/env bash
# Probe 977: pure alone at 64 writers (or W), builds with fold bounds 512, 1024, 2048 rotated
# (scripts/store-alone, 3 s cells). Lock held:
#   flock /work/measure.lock env N=8 [W=64] experiments/probes/977-store-fold-bound/run.sh > out-1.txt
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
BUILDS="f0024a7-f512 f0024a7-f1024 f0024a7-f2048" BIN=/tmp/s18/kv- exec "$root/scripts/store-alone"
