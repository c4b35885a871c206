#!/usr/bin/env bash
# Probe 1010: pure-serve's durable PUTs from 64 connections, main against the whole-groups
# change, through probe 992's run.sh (pure-serve --data on CPU 0, pure-load on CPU 1, revisions
# rotated per pass; peak RSS and 2xx/s per run): the same 18,000 PUTs (passes-same.jsonl) and
# 5 s of PUTs (passes-time.jsonl), PASSES passes each.
# Usage: flock /work/measure.lock experiments/probes/1010-serve-put-whole-groups/run.sh PASSES MAIN NEW
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) ab=$here/../992-serve-put-rss-ab/run.sh
OUT=$here/passes-same.jsonl "$ab" "${1:?PASSES}" "${2:?MAIN}" "${3:?NEW}"
OUT=$here/passes-time.jsonl LOAD="-d 5s" "$ab" "$1" "$2" "$3"
