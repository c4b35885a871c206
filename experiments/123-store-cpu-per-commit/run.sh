#!/usr/bin/env bash
# Experiment 123 (issue 15, deliverable 3): less CPU per commit at 64 writers (a Tx handle over a
# recycled state, lazy leaves' edits in a slab, one gathering timer), against pebble: 1, 8 and 64
# writers with Sync writes (one 16-byte value per transaction, fresh keys per writer), experiment 059's
# run.sh writing here: each build from `git archive` of its revision, builds' and contenders' order
# rotated each round.
#
# Usage: flock /work/measure.lock experiments/123-store-cpu-per-commit/run.sh
#   TAG=1 BUILDS="main=5329533 new=26ec9bb" ROUNDS=5 DURATION=3s [READS=1]
#   (DESC="..." names the builds in the note; see the meta line of runs-*.jsonl)
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 123: less CPU per commit (Tx handle over a recycled state, edits in a slab), against pebble at 1, 8 and 64 writers" \
  exec "$here/../059-store-round5/run.sh" "$@"
