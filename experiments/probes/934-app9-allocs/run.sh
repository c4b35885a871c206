#!/usr/bin/env bash
# Probe 934: allocations per in-process TPC-C transaction and the live
# heap's objects after loading, main against branch app9 (counts from
# runtime.MemStats, not timings). main.go is built from BUILDS' revisions
# (`git archive`, this directory's main.go copied in, as main has none)
# and run ROUNDS rounds of 20,000 transactions each; lines go to
# allocs.jsonl with "build" added, note.md is generated from it.
#
# Usage: experiments/probes/934-app9-allocs/run.sh   (holds /work/measure.lock: short, but CPU-heavy)
#   BUILDS="main=f1ee9bd head=HEAD" ROUNDS=2
# run.sh note: only regenerate note.md.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [[ ${1:-} == note ]]; then exec python3 "$here/note.py" "$here"; fi
builds=${BUILDS:-main=f1ee9bd head=HEAD} rounds=${ROUNDS:-2}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/934.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root"
names=()
for b in $builds; do
  n=${b%%=*} r=$(git rev-parse --short "${b#*=}")
  names+=("$n")
  mkdir "$tmp/src-$n"
  git archive "$r" | tar -x -C "$tmp/src-$n"
  mkdir -p "$tmp/src-$n/experiments/probes/934-app9-allocs"
  cp "$here/main.go" "$tmp/src-$n/experiments/probes/934-app9-allocs/"
  (cd "$tmp/src-$n" && go build -o "$tmp/p-$n" ./experiments/probes/934-app9-allocs)
done
exec 9>/work/measure.lock
flock 9
for n in "${names[@]}"; do
  "$tmp/p-$n" -rounds "$rounds" | sed "s/^{/{\"build\":\"$n\",/"
done >"$here/allocs.jsonl"
flock -u 9
python3 "$here/note.py" "$here"
