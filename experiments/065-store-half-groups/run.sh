#!/usr/bin/env bash
# Experiment 065: the store's group commit at 64 writers with the idle
# gather halved (e623a8b) against main after store8 (7970bd4): experiment
# 059's run.sh, writing here.
#
# Usage: flock /work/measure.lock experiments/065-store-half-groups/run.sh
#   BUILDS="main=7970bd4 half=e623a8b" ROUNDS=3 DURATION=3s were this run's settings.
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 065: group commit with the idle gather halved, against pebble" \
  exec "$here/../059-store-round5/run.sh" "$@"
