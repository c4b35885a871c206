#!/usr/bin/env bash
# Experiment 086: overlays in shared runs (934e329) and with them
# DefaultFoldEntries 4,096 (the fold4k build) against main (f4c880b): 1, 8
# and 64 writers against pebble with Sync writes, experiment 059's run.sh,
# writing here.
#
# Usage: flock /work/measure.lock experiments/086-store-runs/run.sh
#   TAG=1 BUILDS="main=f4c880b runs=934e329 fold4k=e1a4c00" ROUNDS=4 DURATION=3s;
#   TAG=2 BUILDS="main=f4c880b runs1k=0a2befe head4k=5f5ff7d" ROUNDS=4 DURATION=3s
#   (runs1k: 5f5ff7d with DefaultFoldEntries 1024, a commit off the branch; see the
#   meta line of runs-*.jsonl for each run's settings).
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 086: overlays in shared runs, and folds at 4,096 keys, against pebble" \
  exec "$here/../059-store-round5/run.sh" "$@"
