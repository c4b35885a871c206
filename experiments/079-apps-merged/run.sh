#!/usr/bin/env bash
# Experiment 079: issue 12's in-process TPC-C target (Pure RAM at least 3x
# SQLite in memory, in one run) for main after the session's merges (app9,
# store9, the RAM trigger and image sizing of ca185c8) against the
# session's start f1ee9bd, in one locked session: experiment 073's run.sh
# and note.py, writing here.
#
# Usage (from anywhere; takes the measure lock for the whole session):
#   TAG=1 BUILDS="start=f1ee9bd merged=HEAD" SEQ="start merged merged start" ROUNDS=5 TX=20000 \
#     experiments/079-apps-merged/run.sh          (this run's settings; HEAD was a086579)
# run.sh note: only regenerate note.md from runs-*.jsonl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here \
TITLE="# 079: in-process TPC-C, Pure RAM against SQLite in memory, main after the merges against the session's start" \
  exec "$here/../073-app9-tpcc-vs-sqlite/run.sh" "$@"
