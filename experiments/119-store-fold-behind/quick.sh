#!/usr/bin/env bash
# Experiment 119: pure alone, 64 writers (W), 3 s (D) per process, the builds in BUILDS (revisions whose pure-kvbench was built
# into /tmp/s15b/kv-REV from `git archive`) rotated each round, N rounds; one line per cell: round, build, contender, writers,
# commits/s, CPU µs per commit. Run under flock /work/measure.lock.
# (scripts/store-alone does it; this file records the call: the binaries were
# built by hand into the prefix below, which is no longer there)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BIN=${BIN:-/tmp/s15b/kv-} DIR="$here" exec "$root/scripts/store-alone"
