#!/usr/bin/env bash
# Experiment 083: issue 12's three targets in one run (as 080) with TPC-C's
# ramp-up before the in-process rounds (pure-appbench --warmup-tx 20000,
# as 082): experiment 035's run.sh with all its parts, writing here.
#
# Usage (from anywhere; takes the measure lock): experiments/083-apps-targets-warmup/run.sh
#   ROUNDS=5 HTTP_TIME=5s WARMUP_TX=20000 were this run's settings; see 035's run.sh.
# run.sh note: only regenerate note.md from runs.jsonl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here PARTS=${PARTS:-tpcc,bank,http} WARMUP_TX=${WARMUP_TX:-20000} \
TITLE="# 083: Pure's apps against SQLite, all three targets in one run, in-process TPC-C after a ramp-up" \
  exec "$here/../035-apps-vs-sqlite/run.sh" "$@"
