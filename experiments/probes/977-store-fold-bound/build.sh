#!/usr/bin/env bash
# Probe 977: pure-kvbench from `git archive` of REV with DefaultFoldEntries set to each of BOUNDS,
# to PREFIX-REV-fBOUND. Don't build while a timed series runs.
# Usage: experiments/probes/977-store-fold-bound/build.sh PREFIX REV BOUND...
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
prefix=$1 rev=$2
shift 2
for b in "$@"; do
  src=$(mktemp -d)
  git -C "$root" archive "$rev" | tar -x -C "$src"
  sed -i "s/^\tDefaultFoldEntries = 1024$/\tDefaultFoldEntries = $b/" "$src/pure/store/logrec.go"
  grep -q "DefaultFoldEntries = $b\$" "$src/pure/store/logrec.go"
  (cd "$src" && go build -o "$prefix$rev-f$b" ./cmd/pure-kvbench)
  rm -rf "$src"
  echo "$prefix$rev-f$b"
done
