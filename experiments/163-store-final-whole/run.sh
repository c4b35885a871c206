#!/usr/bin/env bash
# Experiment 163: issue 15's benchmark note (like 002, 125 and 134) on the code with whole groups:
# every default contender of pure-kvbench (pure, bbolt, bbolt-batch, pebble, fdatasync-4k and the
# two bare group commits) at 1, 8 and 64 writers, then point reads and 100-key scans on 1,000,000
# keys, ROUNDS rounds (default 7) of 3 s cells, through experiment 125's run.sh.
# Usage: flock /work/measure.lock experiments/163-store-final-whole/run.sh
#        experiments/163-store-final-whole/run.sh note   (regenerate note.md)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here ROUNDS=${ROUNDS:-7} exec "$here/../125-store-final-round/run.sh" "$@"
