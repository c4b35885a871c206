#!/usr/bin/env bash
# Experiment 104: callgrind counts of the store workloads for each build
# (BUILDS="name=rev ...", default main and the two changes), R fresh
# processes each, into counts-$TAG.jsonl with a "build" field (name-rev);
# then the note is regenerated. Instruction counts need no measurement lock.
#
# Usage: experiments/104-store-yield/counts.sh
#   TAG=1 BUILDS="main=f3fbb37 yield=5294547 kick=dfd78ed" R=3
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tagn=${TAG:-1} builds=${BUILDS:-main=f3fbb37 yield=5294547 kick=dfd78ed} r=${R:-3}
wls="store-put store-get store-range-100 store-tx100-commit tpcc-mix-small"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$root"
: >"$tmp/all.jsonl"
for b in $builds; do
  n=${b%%=*} rev=$(git rev-parse --short "${b#*=}")
  mkdir "$tmp/src-$n"
  git archive "$rev" | tar -x -C "$tmp/src-$n"
  (cd "$tmp/src-$n" && go build -o "$tmp/count-$n" ./cmd/pure-count)
  (cd "$tmp/src-$n" && "$tmp/count-$n" run --backend callgrind -r "$r" -json $wls) |
    sed "s/^{/{\"build\":\"$n-$rev\",/" >>"$tmp/all.jsonl"
done
cp "$tmp/all.jsonl" "$here/counts-$tagn.jsonl"
exec "$here/run.sh" note
