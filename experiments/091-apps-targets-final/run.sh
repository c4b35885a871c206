#!/usr/bin/env bash
# Experiment 091: issue 12's three targets in one run on main after the
# session's merges (app10's instruction cuts, store10's overlay runs and
# RAM folding at 4,096 keys): experiment 035's run.sh with all its parts
# and 083's ramp-up, writing here.
#
# Usage (from anywhere; takes the measure lock): experiments/091-apps-targets-final/run.sh
#   ROUNDS=5 HTTP_TIME=5s WARMUP_TX=20000 (this run's settings; see 035's run.sh).
# run.sh note: only regenerate note.md from runs.jsonl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here PARTS=${PARTS:-tpcc,bank,http} WARMUP_TX=${WARMUP_TX:-20000} \
TITLE="# 091: Pure's apps against SQLite, all three targets in one run, main after the session's merges" \
  exec "$here/../035-apps-vs-sqlite/run.sh" "$@"
