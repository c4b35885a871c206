#!/usr/bin/env bash
# Probe 983: probe 967's sync-gap instrumentation on current main, on this
# machine. Builds pure-kvbench from REV (default HEAD) with probe-983.patch
# (probe-967.patch's file.go and commit.go parts: every fdatasync of the
# store's descriptor timed, the gap since the previous one returned, the
# gaps before a sync carrying a fold's records, and each fold's leader time
# from its decision to its write; without 967's wake-delay part, whose Tx
# field no longer exists), then runs pure alone at W writers through
# scripts/store-alone, printing the probe's line per round.
# PATCH=file applies another patch instead (probe 984 runs this with its own).
# Usage: flock /work/measure.lock experiments/probes/983-store-sync-gaps-amd/run.sh [REV] > out-64w.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$root" && git archive "${1:-HEAD}" | tar -x -C "$tmp")
(cd "$tmp" && git apply "${PATCH:-$here/probe-983.patch}" && CGO_ENABLED=0 go build -o "$tmp/kv-983" ./cmd/pure-kvbench)
BUILDS=983 BIN="$tmp/kv-" N=${N:-5} W=${W:-64} D=${D:-3s} PROBE=probe966 exec "$root/scripts/store-alone"
