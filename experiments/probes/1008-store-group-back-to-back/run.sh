#!/usr/bin/env bash
# Probe 1008: pure, pebble, the raw append+fdatasync loop and a bare group commit
# syncing back to back (then named group-ceiling: build pure-kvbench from 2b55f7a)
# at 1, 8 and 64 writers, writes only, 12 rounds of 3 s cells, through experiment
# 125's run.sh (runs.jsonl and note.md here).
# Usage, at 2b55f7a: flock /work/measure.lock experiments/probes/1008-store-group-back-to-back/run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here ROUNDS=${ROUNDS:-12} exec "$here/../../125-store-final-round/run.sh" \
  -only writes -writers 1,8,64 -contenders pure,pebble,fdatasync-4k,group-ceiling "$@"
