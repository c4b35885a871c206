#!/usr/bin/env bash
# Experiment 119 (issue 15, deliverable 3): the whole fold (overlay application and spill) in a goroutine,
# the integrating leader only relocating its buffer, against pebble: 1, 8 and 64 writers with Sync writes
# (one 16-byte value per transaction, fresh keys per writer), experiment 059's run.sh writing here: each
# build from `git archive` of its revision, builds' and contenders' order rotated each round.
#
# Usage: flock /work/measure.lock experiments/119-store-fold-behind/run.sh
#   TAG=1 BUILDS="main=6f2877c new=120557a" ROUNDS=5 DURATION=3s
#   (DESC="..." names the builds in the note; see the meta line of runs-*.jsonl)
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 119: the fold behind the commits (application and spill in a goroutine), against pebble at 1, 8 and 64 writers" \
  exec "$here/../059-store-round5/run.sh" "$@"
