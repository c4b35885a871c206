#!/usr/bin/env bash
# Experiment 126 (issue 15, the 64-writer target): less CPU in the commit leader's path (the group's
# merge into the overlay's runs, its sort, the pending-write lookup, the fold's edits), against pebble:
# 1, 8 and 64 writers with Sync writes (one 16-byte value per transaction, fresh keys per writer),
# experiment 059's run.sh writing here: each build from `git archive` of its revision, builds' and
# contenders' order rotated each round.
#
# Usage: flock /work/measure.lock experiments/126-store-leader-cpu/run.sh
#   TAG=1 BUILDS="main=3df9826 new=d3f7efc" ROUNDS=5 DURATION=3s
#   (DESC="..." names the builds in the note; see the meta line of runs-*.jsonl)
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 126: less CPU in the commit leader's path (merge, sort, lookup, fold edits), against pebble at 1, 8 and 64 writers" \
  exec "$here/../059-store-round5/run.sh" "$@"
