#!/usr/bin/env bash
# Experiment 150: pure-kvbench from `git archive` of REV with PATCH applied, to DIR/kv-NAME.
# Usage: experiments/150-store-early-writeback/build-patched.sh DIR REV PATCH NAME
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
src=$(mktemp -d); trap 'rm -rf "$src"' EXIT
(cd "$root" && git archive "$2" | tar -x -C "$src")
(cd "$src" && git apply "$3" && CGO_ENABLED=0 go build -o "$1/kv-$4" ./cmd/pure-kvbench)
