#!/usr/bin/env bash
# Experiment 117 (issue 15, deliverable 3): zeros ahead (the next chunk of
# preallocated zeros written and synced in the background through a second
# descriptor) and a Tx recycled per Begin, against pebble: 1, 8 and 64
# writers with Sync writes (one 16-byte value per transaction, fresh keys per
# writer), experiment 059's run.sh writing here: each build from `git
# archive` of its revision, builds' and contenders' order rotated each round.
#
# Usage: flock /work/measure.lock experiments/117-store-zeros-ahead/run.sh
#   TAG=1 BUILDS="main=a7998df ahead=eaa5a8a pool=dede9ed" ROUNDS=5 DURATION=3s
#   (DESC="..." names the builds in the note; see the meta line of runs-*.jsonl)
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 117: zeros ahead of the commits, and no Tx per Begin, against pebble at 1, 8 and 64 writers" \
  exec "$here/../059-store-round5/run.sh" "$@"
