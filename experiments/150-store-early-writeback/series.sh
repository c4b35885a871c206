#!/usr/bin/env bash
# Experiment 150: one series under the measurement lock, with its times and load average logged.
# Usage: series.sh K N "name=binary ..."   -> pairs-K.jsonl, pairs-K.txt, series-K.log
set -euo pipefail
cd "$(dirname "$0")"
k=$1 n=$2 builds=$3
{ echo "start $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"; } > series-$k.log
flock /work/measure.lock bash -c "echo locked \$(date -u +%FT%TZ) load \$(cut -d' ' -f1-3 /proc/loadavg) >> series-$k.log
  env BUILDS='$builds' N=$n OUT=pairs-$k.jsonl ./pairs64.sh > pairs-$k.txt
  echo end \$(date -u +%FT%TZ) load \$(cut -d' ' -f1-3 /proc/loadavg) >> series-$k.log"
