#!/usr/bin/env bash
# Experiment 067: issue 12's in-process and durable-over-HTTP TPC-C ratios
# at the session's end, after store8 (format version 4, the fold's finger),
# the halved idle gather and app8 (rowMap, the seq's split) were merged:
# experiment 035's run.sh with its tpcc and http parts, writing here.
#
# Usage (from anywhere; takes the measure lock): experiments/067-apps-session-end/run.sh
#   ROUNDS=5 HTTP_TIME=5s were this run's settings; see 035's run.sh for the rest.
# run.sh note: only regenerate note.md from runs.jsonl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here PARTS=${PARTS:-tpcc,http} \
TITLE="# 067: TPC-C in process and durable over HTTP against SQLite, at the session's end" \
  exec "$here/../035-apps-vs-sqlite/run.sh" "$@"
