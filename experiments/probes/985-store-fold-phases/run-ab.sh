#!/usr/bin/env bash
# Probe 985, before and after: pure-kvbench built from BASE (default
# af70e28, main as this probe began) with probe-985.patch (inline folds,
# their phases timed) and from NEW (default 8735334, background folds)
# with NEWPATCH (default probe-985-bg.patch: the same marks on background
# folds, the install's time and bytes, the background fold's time; for the
# prefold, 0515067 with probe-985-prefold.patch, whose overlay phase is
# the prefold's, before the group gathers), run alone at W writers,
# rotated, N rounds of D (scripts/store-alone), one line per cell.
# Usage: flock /work/measure.lock experiments/probes/985-store-fold-phases/run-ab.sh [BASE [NEW]] > out-ab.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
source "$here/build.sh"
build "${1:-af70e28}" inline "$here/probe-985.patch"
build "${2:-8735334}" new "${NEWPATCH:-$here/probe-985-bg.patch}"
BUILDS="inline new" BIN="$tmp/kv-" N=${N:-4} W=${W:-64} D=${D:-3s} PROBE=probe966 exec "$root/scripts/store-alone"
