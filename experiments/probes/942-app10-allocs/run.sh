#!/usr/bin/env bash
# Probe 942: Pure's side of in-process TPC-C alone, branch app10 against
# main: per round of 20,000 transactions (after a ramp-up of 20,000) the
# allocations and bytes per transaction (runtime.MemStats), the
# collections inside the round, and the process's CPU and wall time per
# transaction; and the live heap's objects after loading. main.go (probe
# 934's, with the ramp-up and the times added) is built from BUILDS'
# revisions (`git archive`, this directory's main.go copied in, as main
# has none) and run in the order SEQ, ROUNDS rounds each, so that drift
# of the shared machine falls on both builds; lines go to allocs.jsonl
# with "build" and "run" added, note.md is generated from it.
#
# Usage: experiments/probes/942-app10-allocs/run.sh   (holds /work/measure.lock)
#   BUILDS="main=f4c880b head=HEAD" SEQ="main head head main main head head main" ROUNDS=3
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [[ ${1:-} == note ]]; then exec python3 "$here/note.py" "$here"; fi
builds=${BUILDS:-main=f4c880b head=HEAD} rounds=${ROUNDS:-3}
seq=${SEQ:-main head head main main head head main}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/942.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root"
declare -A rev
for b in $builds; do
  n=${b%%=*} r=$(git rev-parse --short "${b#*=}")
  rev[$n]=$r
  mkdir "$tmp/src-$n"
  git archive "$r" | tar -x -C "$tmp/src-$n"
  mkdir -p "$tmp/src-$n/experiments/probes/942-app10-allocs"
  cp "$here/main.go" "$tmp/src-$n/experiments/probes/942-app10-allocs/"
  (cd "$tmp/src-$n" && go build -o "$tmp/p-$n" ./experiments/probes/942-app10-allocs)
done
exec 9>/work/measure.lock
flock 9
i=0
for n in $seq; do
  i=$((i + 1))
  "$tmp/p-$n" -rounds "$rounds" | sed "s/^{/{\"build\":\"$n\",\"rev\":\"${rev[$n]}\",\"run\":$i,/"
done >"$here/allocs.jsonl"
flock -u 9
python3 "$here/note.py" "$here"
