#!/usr/bin/env bash
# Experiment 088: issue 12's in-process TPC-C target (Pure RAM at least 3x
# SQLite in memory, in one run) for branch app10 (Pure's CPU per
# transaction outside pure/store) against main, in one locked session:
# experiment 073's run.sh and note.py (pure-appbench --parts tpcc built
# from `git archive` of each revision in BUILDS, the builds' runs in the
# order SEQ) with 082's ramp-up (WARMUP_TX transactions per side before
# round 0, unmeasured), writing here. Every line of every run goes to
# runs-$TAG.jsonl with "build" and "run" added; note.md is generated from
# all runs-*.jsonl.
#
# Usage (from anywhere; takes /work/measure.lock for the whole session,
# about 1 minute per run at the defaults):
#   TAG=1 BUILDS="main=f4c880b head=HEAD" SEQ="main head head main" ROUNDS=5 TX=20000 WARMUP_TX=20000 \
#     experiments/088-app10-tpcc-vs-sqlite/run.sh
#   (the sessions' settings are in the session lines of runs-*.jsonl)
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here WARMUP_TX=${WARMUP_TX:-20000} BUILDS=${BUILDS:-main=f4c880b head=HEAD} \
TITLE="# 088: in-process TPC-C, Pure RAM against SQLite in memory, branch app10 against main, after a ramp-up" \
  exec "$here/../073-app9-tpcc-vs-sqlite/run.sh" "$@"
