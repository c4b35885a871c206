#!/usr/bin/env bash
# Experiment 112: callgrind counts of the store workloads for each build
# (BUILDS="name=rev ...", default main and tab), R fresh
# processes each, into counts-$TAG.jsonl with a "build" field (name-rev);
# then the note is regenerated. Instruction counts need no measurement lock.
#
# Usage: experiments/112-store-pending-table/counts.sh
#   TAG=1 BUILDS="main=88057b6 tab=b459da2" R=3; TAG=2 BUILDS="main=88057b6 tab=b459da2 small=7af6e02" R=3
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
tagn=${TAG:-1} builds=${BUILDS:-main=88057b6 tab=b459da2} r=${R:-3}
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
