#!/usr/bin/env bash
# Probe 985, three builds without instrumentation, rotated: BASE (default
# af70e28: inline folds), NEW (default 8735334: background folds) and NEW
# with yield.patch (the background fold yields every 128 keys), pure alone
# at W writers, N rounds of D (scripts/store-alone): commits/s and CPU µs
# per commit per cell.
# Usage: flock /work/measure.lock experiments/probes/985-store-fold-phases/run-abc.sh [BASE [NEW]] > out-abc.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$here/build.sh"
build "${1:-af70e28}" inline
build "${2:-8735334}" bg
build "${2:-8735334}" bgyield "$here/yield.patch"
BUILDS="inline bg bgyield" BIN="$tmp/kv-" N=${N:-6} W=${W:-64} D=${D:-3s} exec "$root/scripts/store-alone"
