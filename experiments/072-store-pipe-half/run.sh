#!/usr/bin/env bash
# Experiment 072: a group gathering during a sync closing at half the
# group synced last (3fe4707) against the same without it (05a22eb) and
# main (f1ee9bd): 1, 8 and 64 writers against pebble with Sync writes,
# experiment 059's run.sh, writing here.
#
# Usage: flock /work/measure.lock experiments/072-store-pipe-half/run.sh
#   TAG=1 BUILDS="main=f1ee9bd bgwake=05a22eb half=3fe4707" ROUNDS=4 DURATION=3s (see the
#   meta line of runs-*.jsonl for each run's settings).
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 072: pipelined groups closing at half, against pebble" \
  exec "$here/../059-store-round5/run.sh" "$@"
