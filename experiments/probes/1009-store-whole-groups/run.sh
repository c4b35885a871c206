#!/usr/bin/env bash
# Probe 1009: pure alone at 64 writers (scripts/store-alone, 3 s cells, N rounds, builds
# rotated), three builds of pure-kvbench from REV: main as it is, whole (whole.patch: no
# halving of large groups while the disk is idle) and cap (cap.patch: no halving, but a
# large group's gathering wait capped at the last sync's duration). Each cell also runs the
# bare group commits, which are the same code in every build: the device's state beside it.
# Usage: flock /work/measure.lock experiments/probes/1009-store-whole-groups/run.sh REV [N]
# (out-64w-new.txt: the same loop with BUILDS="main whole new", new built from 0cb67db;
#  out-16w-new.txt and out-32w-new.txt: BUILDS="main new", N=6, W=16 and W=32.)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../../.." && pwd)
rev=${1:?REV} tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for b in main whole cap; do
  mkdir "$tmp/$b"; (cd "$root" && git archive "$rev" | tar -x -C "$tmp/$b")
  [[ $b == main ]] || (cd "$tmp/$b" && patch -sp1 < "$here/$b.patch")
  (cd "$tmp/$b" && CGO_ENABLED=0 go build -o "$tmp/kv-$b" ./cmd/pure-kvbench)
done
BUILDS="main whole cap" BIN="$tmp/kv-" N=${2:-8} C=pure,bare-group,bare-group-all W=64 "$root/scripts/store-alone"
