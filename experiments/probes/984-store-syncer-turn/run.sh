#!/usr/bin/env bash
# Probe 984: probe 983's run.sh with probe-984.patch (983's instrumentation
# plus marks in syncLoop's turn between two syncs).
# Usage: flock /work/measure.lock experiments/probes/984-store-syncer-turn/run.sh [REV] > out-64w.txt
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PATCH=$here/probe-984.patch N=${N:-2} exec "$here/../983-store-sync-gaps-amd/run.sh" "$@"
