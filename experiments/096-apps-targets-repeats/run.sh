#!/usr/bin/env bash
# Experiment 096: experiment 091 (issue 12's three targets in one run, 083's
# ramp-up) repeated RUNS times on the same code, one after the other, each
# into run-K/ (runs.jsonl and note.md, 035's run.sh). Why the series: 091
# met the in-process TPC-C target at 3.97x in a session where SQLite ran
# slower than in 083, so one run alone does not say how the ratio spreads
# on the final code.
#
# Usage (from anywhere; each run takes the measure lock): experiments/096-apps-targets-repeats/run.sh
#   RUNS=2 ROUNDS=5 HTTP_TIME=5s WARMUP_TX=20000 (this series' settings)
# run.sh note: regenerate every run-K/note.md from its runs.jsonl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
title() { echo "# 096 run $1: Pure's apps against SQLite, all three targets in one run (091 repeated)"; }
if [[ ${1:-} == note ]]; then
  for d in "$here"/run-*/; do
    k=$(basename "$d"); k=${k#run-}
    OUT=$d TITLE=$(title "$k") "$here/../035-apps-vs-sqlite/run.sh" note
  done
  exit 0
fi
for ((k = 1; k <= ${RUNS:-2}; k++)); do
  mkdir -p "$here/run-$k"
  OUT=$here/run-$k PARTS=${PARTS:-tpcc,bank,http} WARMUP_TX=${WARMUP_TX:-20000} TITLE=$(title "$k") \
    "$here/../035-apps-vs-sqlite/run.sh"
done
