#!/usr/bin/env bash
# Experiment 129: build pure-kvbench from `git archive` of each revision, to PREFIX-REV
# (the binaries alone.sh and pairs64.sh run). Building needs no measurement lock, but don't
# build while a timed series of yours runs.
# Usage: experiments/129-store-64w-more/build.sh PREFIX REV...   (e.g. /tmp/s18/kv- daa9474 f0024a7)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
prefix=$1
shift
for rev in "$@"; do
  src=$(mktemp -d)
  git -C "$root" archive "$rev" | tar -x -C "$src"
  (cd "$src" && go build -o "$prefix$rev" ./cmd/pure-kvbench)
  rm -rf "$src"
  echo "$prefix$rev"
done
