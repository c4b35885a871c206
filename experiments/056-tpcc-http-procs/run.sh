#!/usr/bin/env bash
# Experiment 056: durable TPC-C over HTTP against net/http + SQLite WAL
# FULL (issue 12's third target), re-measured after pure-serve began to run
# two Ps with --data (99809b3): experiment 035's run.sh with its http part
# only, writing here.
#
# Usage (from anywhere; takes the measure lock): experiments/056-tpcc-http-procs/run.sh
#   ROUNDS=3 HTTP_TIME=5s were this run's settings; see 035's run.sh for the rest.
# run.sh note: only regenerate note.md from runs.jsonl.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
OUT=$here PARTS=${PARTS:-http} \
TITLE="# 056: durable TPC-C over HTTP, pure-serve against net/http + SQLite WAL FULL" \
  exec "$here/../035-apps-vs-sqlite/run.sh" "$@"
