#!/usr/bin/env bash
# Experiment 112 (issue 15, deliverable 3): group commit at 64 writers: 1, 8
# and 64 writers against pebble with Sync writes (one 16-byte value per
# transaction, fresh keys per writer), experiment 059's run.sh writing here:
# each build from `git archive` of its revision, builds' and contenders'
# order rotated each round.
#
# Usage: flock /work/measure.lock experiments/112-store-pending-table/run.sh
#   TAG=1 BUILDS="main=88057b6 tab=b459da2 f2k=1f4cbcf f4k=f22d975" ROUNDS=5 DURATION=3s;
#   TAG=2 BUILDS="main=88057b6 tab=b459da2" ROUNDS=6 DURATION=3s;
#   TAG=3 BUILDS="main=88057b6 tab=b459da2 bg=cd1a8ed" ROUNDS=5 DURATION=3s;
#   TAG=4 and TAG=5 BUILDS="main=88057b6 small=7af6e02" ROUNDS=5 DURATION=3s (4 disturbed)
#   (DESC="..." names the builds in the note; see the meta line of runs-*.jsonl)
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 112: group commit at 64 writers: the leader's pending writes in a table of its own, against pebble" \
  exec "$here/../059-store-round5/run.sh" "$@"
