#!/usr/bin/env bash
# Probe 985: probe 983's run.sh with probe-985.patch (983's instrumentation
# plus the fold's phases: the overlay applied to the working tree, the
# group applied, the spill, the write; the bytes of fold and log groups;
# the fold's sync and the time from the fold's start to its sync's start).
# Usage: flock /work/measure.lock experiments/probes/985-store-fold-phases/run.sh [REV] > out-64w.txt
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
PATCH=$here/probe-985.patch N=${N:-3} exec "$here/../983-store-sync-gaps-amd/run.sh" "$@"
