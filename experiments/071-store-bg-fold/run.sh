#!/usr/bin/env bash
# Experiment 071: the store's group commit with folds in the background
# (bgfold.go) against main before it (f1ee9bd), 1, 8 and 64 writers
# against pebble with Sync writes: experiment 059's run.sh, writing here.
#
# Usage: flock /work/measure.lock experiments/071-store-bg-fold/run.sh
#   TAG=1 BUILDS="main=f1ee9bd bg=<rev>" ROUNDS=5 DURATION=3s (see runs-*.jsonl's meta line
#   for each run's settings).
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 071: folds in the background, against pebble" \
  exec "$here/../059-store-round5/run.sh" "$@"
