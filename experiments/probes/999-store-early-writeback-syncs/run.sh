#!/usr/bin/env bash
# Probe 999: every fdatasync of the store's descriptor timed, and the gap
# since the previous one returned (probe-999.patch), in builds of
# pure-kvbench: each argument NAME=REV[+PATCH...] is `git archive` of REV,
# with each PATCH (files, NAME=REV+P1+P2) applied if given, then probe-999.patch. Pure alone,
# W writers (64), N rounds (4) of D (3s) through scripts/store-alone, builds
# rotated; a line per cell: round, build, commits/s, the probe's line.
# Usage: flock /work/measure.lock experiments/probes/999-store-early-writeback-syncs/run.sh main=60dd720 syncwb=c4f4da6 > out.txt
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
names=()
for a in "$@"; do
  name=${a%%=*} spec=${a#*=} rev=${spec%%+*} patches=
  [[ $spec == *+* ]] && patches=${spec#*+}
  src=$tmp/src-$name; mkdir -p "$src"
  (cd "$root" && git archive "$rev" | tar -x -C "$src")
  (cd "$src" && for p in ${patches//+/ }; do git apply "$p"; done && git apply "$here/probe-999.patch" && CGO_ENABLED=0 go build -o "$tmp/kv-$name" ./cmd/pure-kvbench)
  names+=("$name")
done
BUILDS="${names[*]}" BIN="$tmp/kv-" N=${N:-4} W=${W:-64} D=${D:-3s} PROBE=probe999 exec "$root/scripts/store-alone"
