#!/usr/bin/env bash
# Probe 967: pure alone, 64 writers, 3 s, per build of pure-kvbench (built into /tmp/s14b/kv-REV from `git archive` of REV;
# REV a commit with probe-967.patch applied to main a7998df), printing the probe's line (experiments/lab/kvbench/pure.go prints store.ProbeSyncs() at Close).
# (scripts/store-alone does it; this file records the call: the binaries were
# built by hand into the prefix below, which is no longer there)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
BIN=${BIN:-/tmp/s14b/kv-} PROBE=${PROBE:-probe966} DIR="$here" exec "$root/scripts/store-alone"
