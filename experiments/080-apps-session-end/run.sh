#!/usr/bin/env bash
# Experiment 080: issue 12's three targets in one run at the session's end
# (after the merges of app9 and store9 and ca185c8's RAM image sizing):
# experiment 035's run.sh with all its parts (tpcc, bank, http), writing
# here.
#
# Usage (from anywhere; takes the measure lock): experiments/080-apps-session-end/run.sh
#   ROUNDS=5 HTTP_TIME=5s were this run's settings; see 035's run.sh for the rest.
# run.sh note: only regenerate note.md from runs.jsonl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here PARTS=${PARTS:-tpcc,bank,http} \
TITLE="# 080: Pure's apps against SQLite, all three targets in one run, at the session's end" \
  exec "$here/../035-apps-vs-sqlite/run.sh" "$@"
