#!/usr/bin/env bash
# Experiment 082: issue 12's in-process TPC-C target with TPC-C's ramp-up:
# 20,000 transactions per side before round 0, unmeasured
# (pure-appbench --warmup-tx), because round 0 after the load was Pure's
# slowest in every run of 073, 079 and 080 (first touch of the stores'
# fresh memory), not a steady-state figure. Experiment 035's run.sh,
# tpcc part only, writing here (run 1) and in run-2/ (the same build at
# once after, to see whether the reading holds).
#
# Usage (from anywhere; takes the measure lock):
#   experiments/082-tpcc-warmup/run.sh          run 1 (OUT=here)
#   OUT=experiments/082-tpcc-warmup/run-2 experiments/082-tpcc-warmup/run.sh
#   ROUNDS=5 TX=20000 WARMUP_TX=20000 were this run's settings.
# run.sh note: only regenerate note.md from runs.jsonl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$here} PARTS=tpcc WARMUP_TX=${WARMUP_TX:-20000} \
TITLE="# 082: in-process TPC-C against SQLite after a ramp-up of 20,000 transactions per side" \
  exec "$here/../035-apps-vs-sqlite/run.sh" "$@"
