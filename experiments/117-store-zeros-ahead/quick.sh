#!/usr/bin/env bash
# Experiment 117: pure alone, 64 writers, 3 s per process, the builds in BUILDS (revisions whose pure-kvbench was built into
# /tmp/s14b/kv-REV from `git archive`) rotated each round, N rounds; lines as in quick-64.txt. Run under flock /work/measure.lock.
# (scripts/store-alone does it; this file records the call: the binaries were
# built by hand into the prefix below, which is no longer there)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BIN=${BIN:-/tmp/s14b/kv-} DIR="$here" exec "$root/scripts/store-alone"
