#!/usr/bin/env bash
# Probe 985: probe 983's run.sh with probe-985-kinds.patch (probe-985.patch
# plus a tally of the inline folds' records by kind: leaves, branches,
# value records, their count and bytes), N rounds (default 2).
# Usage: flock /work/measure.lock experiments/probes/985-store-fold-phases/run-kinds.sh [REV] > out-kinds.txt
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PATCH=$here/probe-985-kinds.patch N=${N:-2} exec "$here/../983-store-sync-gaps-amd/run.sh" "$@"
