#!/usr/bin/env bash
# Probe 1014: the sizes of the store's groups, 32 writers on a file whose syncs
# return at once, 8 runs of 12,800 commits; writes sizes-REV.txt here.
# Usage (measurement lock held): experiments/probes/1014-store-group-cohorts/run.sh [REV]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../../.." && pwd)
rev=${1:-HEAD}; short=$(cd "$root" && git rev-parse --short "$rev")
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && git apply "$here/sizes.patch" 2>/dev/null || patch -p1 -s <"$here/sizes.patch")
(cd "$tmp" && go test -v -count=1 -run '^TestProbe1014Cohorts$' ./pure/store/) | grep '^run ' >"$here/sizes-$short.txt"
