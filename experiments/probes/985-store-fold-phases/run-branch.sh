#!/usr/bin/env bash
# Probe 985: do smaller branch nodes cut a fold's bytes? pure-kvbench from
# REV (default af70e28) with probe-985-kinds.patch (inline folds' phases,
# bytes and records by kind), and the same with branch1k.patch as well
# (branch nodes split at 1 KiB, leaves still at 2 KiB), pure alone at W
# writers, rotated, N rounds of D (scripts/store-alone), one line per cell.
# Usage: flock /work/measure.lock experiments/probes/985-store-fold-phases/run-branch.sh [REV] > out-branch.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
build() { # name patches...
  local name=$1; shift
  mkdir "$tmp/$name"
  (cd "$root" && git archive "${REV:-af70e28}" | tar -x -C "$tmp/$name")
  (cd "$tmp/$name" && for p in "$@"; do git apply "$p"; done && CGO_ENABLED=0 go build -o "$tmp/kv-$name" ./cmd/pure-kvbench)
}
REV=${1:-af70e28}
build b2k "$here/probe-985-kinds.patch"
build b1k "$here/probe-985-kinds.patch" "$here/branch1k.patch"
BUILDS="b2k b1k" BIN="$tmp/kv-" N=${N:-4} W=${W:-64} D=${D:-3s} PROBE=probe966 exec "$root/scripts/store-alone"
