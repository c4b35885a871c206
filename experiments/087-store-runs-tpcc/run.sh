#!/usr/bin/env bash
# Experiment 087: issue 12's in-process TPC-C (Pure RAM against SQLite in
# memory) for branch store10 (overlays in shared runs, folds at 4,096 keys)
# against main f4c880b, in one locked session: experiment 073's run.sh and
# note.py, writing here.
#
# Usage (from anywhere; takes the measure lock for the whole session):
#   TAG=1 BUILDS="main=f4c880b head=HEAD" SEQ="main head head main head main" ROUNDS=5 TX=20000 \
#     experiments/087-store-runs-tpcc/run.sh     (see runs-*.jsonl for the revisions)
# run.sh note: only regenerate note.md from runs-*.jsonl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here \
TITLE="# 087: in-process TPC-C, Pure RAM against SQLite in memory, overlays in shared runs against main" \
  exec "$here/../073-app9-tpcc-vs-sqlite/run.sh" "$@"
