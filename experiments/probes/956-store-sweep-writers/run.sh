#!/usr/bin/env bash
# Probe 956: the writer's sweep of released pages (8c934c0) against the
# commit before it (7321972): 1, 8 and 64 writers against pebble with Sync
# writes, experiment 059's run.sh, writing here.
#
# Usage: flock /work/measure.lock experiments/probes/956-store-sweep-writers/run.sh
#   TAG=1 BUILDS="main=7321972 sweep=8c934c0" ROUNDS=3 DURATION=3s
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# Probe 956: the writer's sweep of released pages, 1, 8 and 64 writers against pebble" \
  exec "$here/../../059-store-round5/run.sh" "$@"
