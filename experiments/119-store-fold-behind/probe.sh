#!/usr/bin/env bash
# Probe 967 on experiment 119: pure alone, 64 writers, 3 s, per build of pure-kvbench (/tmp/s15b/kv-B: p967main = main 6f2877c with probe-967.patch,
# p967new = 120557a, p967fix = 9ee445e, each with probe-967-full-bg-fold.patch (probe-967.patch and the integration counted as a fold, applied to 120557a by hand; applies to 9ee445e as is), the probe line printed at Close.
# (scripts/store-alone does it; this file records the call: the binaries were
# built by hand into the prefix below, which is no longer there)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
BIN=${BIN:-/tmp/s15b/kv-} PROBE=${PROBE:-probe966} DIR="$here" exec "$root/scripts/store-alone"
