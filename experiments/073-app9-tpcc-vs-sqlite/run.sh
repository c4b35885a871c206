#!/usr/bin/env bash
# Experiment 073: issue 12's in-process TPC-C target (Pure RAM at least 3x
# SQLite in memory, in one run) for branch app9 against main, in one
# locked session: cmd/pure-appbench --parts tpcc (experiment 035's and
# 067's measurement: each round the same TX transactions of the mix on
# Pure and on SQLite, the sides' order rotated every round) built from
# `git archive` of each revision in BUILDS, the builds' runs in the order
# SEQ (rotated, so drift on the shared machine falls on both). Every line
# of every run goes to runs-$TAG.jsonl with "build" and "run" added;
# note.md is generated from all runs-*.jsonl by note.py.
#
# Usage (from anywhere; takes /work/measure.lock for the whole session,
# about 1 minute per run at the defaults):
#   experiments/073-app9-tpcc-vs-sqlite/run.sh
#   TAG=1 BUILDS="main=f1ee9bd head=HEAD" SEQ="main head head main" ROUNDS=5 TX=20000
#   OUT=DIR (default: here) where runs-$TAG.jsonl and note.md go, TITLE=TEXT
#   the note's first line (other experiments reusing this script: 079, 088)
#   WARMUP_TX=N (default 0: none) TPC-C's ramp-up, N transactions per side
#   before round 0, unmeasured (pure-appbench --warmup-tx, from 082 on;
#   builds older than that do not have the flag)
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${OUT:-$here}
if [[ ${1:-} == note ]]; then exec python3 "$here/note.py" "$out"; fi

tagn=${TAG:-1} builds=${BUILDS:-main=f1ee9bd head=HEAD} seq=${SEQ:-main head head main}
rounds=${ROUNDS:-5} tx=${TX:-20000} warmup=${WARMUP_TX:-0}
warm=()
if ((warmup > 0)); then warm=(--warmup-tx "$warmup"); fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/073.XXXXXX")
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
  "$tmp/appbench-$2" --parts tpcc --rev "${rev[$2]}" --rounds "$rounds" --tx "$tx" "${warm[@]}" --out "$tmp/r$1.jsonl" >&2
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
} >"$out/runs-$tagn.jsonl"
python3 "$here/note.py" "$out"
echo "wrote $out/runs-$tagn.jsonl and $out/note.md" >&2
