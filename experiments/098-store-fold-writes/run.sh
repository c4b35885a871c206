#!/usr/bin/env bash
# Experiment 098 (issue 15, deliverable 3): run 1, the overlay merged after a group's records are written
# (late = a51f34a), and with it overlay runs of at most 16 entries (run16 =
# 6cac982, a commit off the branch), against main (f73a8ac): 1, 8 and 64
# writers against pebble with Sync writes, experiment 059's run.sh, writing
# here. Run 2: folds that write less for appending writers (fold = d757897)
# against main. Run 3: with them, the cut split (cut = 0911775, off the
# branch; the branch's 69edfa9 is the same code). Run 4: the branch's
# 69edfa9 against main again.
#
# Usage: flock /work/measure.lock experiments/098-store-fold-writes/run.sh
#   TAG=1 BUILDS="main=f73a8ac late=a51f34a run16=6cac982" ROUNDS=5 DURATION=3s;
#   TAG=2 BUILDS="main=f73a8ac fold=d757897" ROUNDS=6 DURATION=3s;
#   TAG=3 BUILDS="main=f73a8ac fold=d757897 cut=0911775" ROUNDS=5 DURATION=3s;
#   TAG=4 BUILDS="main=f73a8ac cut=69edfa9" ROUNDS=5 DURATION=3s
#   (see the meta line of runs-*.jsonl for each run's settings).
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here TITLE="# 098: group commit at 64 writers: the overlay merged late, and folds that write less, against pebble" \
  exec "$here/../059-store-round5/run.sh" "$@"
