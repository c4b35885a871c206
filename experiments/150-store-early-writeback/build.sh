#!/usr/bin/env bash
# Experiment 150: pure-kvbench from `git archive` of a revision, to DIR/kv-REV.
# Usage: experiments/150-store-early-writeback/build.sh DIR REV
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$(mktemp -d); trap 'rm -rf "$src"' EXIT
(cd "$root" && git archive "$2" | tar -x -C "$src")
(cd "$src" && CGO_ENABLED=0 go build -o "$1/kv-$2" ./cmd/pure-kvbench)
