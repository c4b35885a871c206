#!/usr/bin/env bash
# Experiment 176: kill -9 pure-serve during writes on the final code: the scores
# and documents test (SCORES cycles, default 200) and the TPC-C one (TPCC cycles,
# default 50), each ending "N cycles, A acknowledged, L lost". Outputs here, or
# in OUT=DIR (later experiments rerun this one on later code): scores.txt and
# tpcc.txt (the summary lines and any failure).
# Usage: flock /work/measure.lock experiments/176-serve-crash-final/run.sh
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
out=${OUT:-$here}
cd "$root"
scripts/crash-serve cycles="${SCORES:-200}" app=scores >"$out/scores.txt" 2>&1; s=$?
scripts/crash-serve cycles="${TPCC:-50}" app=tpcc >"$out/tpcc.txt" 2>&1; t=$?
echo "scores exit $s, tpcc exit $t"
exit $((s | t))
