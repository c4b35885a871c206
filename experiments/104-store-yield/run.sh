#!/usr/bin/env bash
# Experiment 104 (issue 15, deliverable 3): group commit at 64 writers, the
# inline leader yielding to the syncer it kicked (yield = c860c6e, main plus
# that change, off the branch; the branch's commit is 1873bcf, stacked on
# the prefold 70ec1c1: both = 1873bcf), against main (f3fbb37): 1, 8 and 64
# writers against pebble with Sync writes, experiment 059's run.sh, writing
# here.
#
# Usage: flock /work/measure.lock experiments/104-store-yield/run.sh
#   TAG=1 BUILDS="main=f3fbb37 yield=c860c6e both=1873bcf" ROUNDS=4 DURATION=3s (disturbed);
#   TAG=2 BUILDS="main=f3fbb37 yield=5294547 kick=dcf5c46" ROUNDS=6 DURATION=2s;
#   TAG=3 BUILDS="main=f3fbb37 yield=5294547 kick=dcf5c46" ROUNDS=5 DURATION=3s
#   (see the meta line of runs-*.jsonl for each run's settings).
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 104: group commit at 64 writers: the inline leader yields to the sync it kicked, against pebble" \
  exec "$here/../059-store-round5/run.sh" "$@"
