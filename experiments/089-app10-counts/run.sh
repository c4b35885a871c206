#!/usr/bin/env bash
# Experiment 089: instruction counts (callgrind, through pure-count) of
# branch app10 against main for the workloads it can move: tpcc-mix-small
# (RUNS runs per build) and every bank view (one run each; loading is
# outside the counted region). pure-count is built from `git archive` of
# each revision in BUILDS; its --json lines go to counts.jsonl with
# "build" added; note.md is generated from it by note.py.
#
# Usage (from anywhere; counts, not timings, but it holds
# /work/measure.lock so that it does not load the machine under someone
# else's timing):
#   BUILDS="main=f4c880b head=HEAD" RUNS=3 experiments/089-app10-counts/run.sh
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [[ ${1:-} == note ]]; then exec python3 "$here/note.py" "$here"; fi
builds=${BUILDS:-main=f4c880b head=HEAD} runs=${RUNS:-3}
bank="bank-field-10k bank-field-budget-10k bank-found-10k bank-in_credit-10k bank-join-10k bank-large-10k bank-per_branch-10k bank-ranks-10k
bank-field-100k bank-found-100k bank-in_credit-100k bank-join-100k bank-large-100k bank-per_branch-100k bank-ranks-100k"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/089.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root"
names=()
declare -A rev
for b in $builds; do
  n=${b%%=*} r=$(git rev-parse --short "${b#*=}")
  names+=("$n") rev[$n]=$r
  mkdir "$tmp/src-$n"
  git archive "$r" | tar -x -C "$tmp/src-$n"
  (cd "$tmp/src-$n" && go build -o "$tmp/pc-$n" ./cmd/pure-count)
done
exec 9>/work/measure.lock
flock 9
for n in "${names[@]}"; do
  # shellcheck disable=SC2086
  { "$tmp/pc-$n" run --backend callgrind --json -r "$runs" tpcc-mix-small
    "$tmp/pc-$n" run --backend callgrind --json $bank; } | sed "s/^{/{\"build\":\"$n\",\"rev\":\"${rev[$n]}\",/"
done >"$here/counts.jsonl"
flock -u 9
python3 "$here/note.py" "$here"
