#!/usr/bin/env bash
# Experiment 088: issue 12's in-process TPC-C target (Pure RAM at least 3x
# SQLite in memory, in one run) for branch app10 (Pure's CPU per
# transaction outside pure/store) against main, in one locked session:
# experiment 073's method (pure-appbench --parts tpcc built from `git
# archive` of each revision in BUILDS, the builds' runs in the order SEQ)
# with 082's ramp-up (--warmup-tx: WARMUP_TX transactions per side before
# round 0, unmeasured), and 073's note.py. Every line of every run goes
# to runs-$TAG.jsonl with "build" and "run" added; note.md is generated
# from all runs-*.jsonl.
#
# Usage (from anywhere; takes /work/measure.lock for the whole session,
# about 1 minute per run at the defaults):
#   TAG=1 BUILDS="main=f4c880b head=HEAD" SEQ="main head head main" ROUNDS=5 TX=20000 WARMUP_TX=20000 \
#     experiments/088-app10-tpcc-vs-sqlite/run.sh
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export TITLE="# 088: in-process TPC-C, Pure RAM against SQLite in memory, branch app10 against main, after a ramp-up"
notepy="$root/experiments/073-app9-tpcc-vs-sqlite/note.py"
if [[ ${1:-} == note ]]; then exec python3 "$notepy" "$here"; fi

tagn=${TAG:-1} builds=${BUILDS:-main=f4c880b head=HEAD} seq=${SEQ:-main head head main}
rounds=${ROUNDS:-5} tx=${TX:-20000} warmup=${WARMUP_TX:-20000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/088.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root"
declare -A rev
for b in $builds; do
  n=${b%%=*} r=$(git rev-parse --short "${b#*=}")
  rev[$n]=$r
  mkdir "$tmp/src-$n"
  git archive "$r" | tar -x -C "$tmp/src-$n"
  (cd "$tmp/src-$n" && go build -o "$tmp/appbench-$n" ./cmd/pure-appbench)
done
: >"$tmp/all.jsonl"
run() { # run N BUILD: one pure-appbench run, its lines tagged
  "$tmp/appbench-$2" --parts tpcc --rev "${rev[$2]}" --rounds "$rounds" --tx "$tx" --warmup-tx "$warmup" --out "$tmp/r$1.jsonl" >&2
  sed "s/^{/{\"build\":\"$2\",\"run\":$1,/" "$tmp/r$1.jsonl" >>"$tmp/all.jsonl"
}
exec 9>/work/measure.lock
flock 9 # held for every run of the session
start=$(date -u +%FT%TZ)
load=$(cut -d' ' -f1-3 /proc/loadavg)
i=0
for b in $seq; do
  i=$((i + 1))
  run "$i" "$b"
done
flock -u 9
bl=$(for n in "${!rev[@]}"; do printf '%s=%s ' "$n" "${rev[$n]}"; done)
{
  printf '{"series":"session","tag":"%s","builds":"%s","seq":"%s","load":"%s","load_end":"%s","rounds":%d,"tx":%d,"warmup_tx":%d,"start":"%s","end":"%s"}\n' \
    "$tagn" "${bl% }" "$seq" "$load" "$(cut -d' ' -f1-3 /proc/loadavg)" "$rounds" "$tx" "$warmup" "$start" "$(date -u +%FT%TZ)"
  cat "$tmp/all.jsonl"
} >"$here/runs-$tagn.jsonl"
python3 "$notepy" "$here"
echo "wrote $here/runs-$tagn.jsonl and $here/note.md" >&2
