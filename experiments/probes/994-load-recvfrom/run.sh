#!/usr/bin/env bash
# Probe 994: pure-load reading with recvfrom instead of read, against the
# same pure-load reading with read, and wrk, in the same rounds (experiment
# 026's run.sh with BASE). It checks out BASE (default 4edc852) into a
# temporary worktree, applies recvfrom.patch there and runs that tree's
# experiments/026-load-against-wrk/run.sh with BASE, so "pure-load" is the
# patched build and "pure-load-base" the unpatched one.
#   SERIES=1: CASES="close keepalive", 5 rounds (series-1/)
#   SERIES=2: CASES="close", 7 rounds (series-2/)
# Run it under the measurement lock: flock /work/measure.lock run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
base=${BASE:-4edc852}
series=${SERIES:-2}
work=$(mktemp -d /tmp/probe994.XXXXXX)
trap '(cd "$repo" && git worktree remove --force "$work/tree") 2>/dev/null || true; rm -rf "$work"' EXIT
(cd "$repo" && git worktree add -q --detach "$work/tree" "$base")
(cd "$work/tree" && git apply "$here/recvfrom.patch")
case $series in
1) cases="close keepalive" rounds=5 ;;
2) cases="close" rounds=7 ;;
*) echo "run.sh: SERIES is 1 or 2" >&2; exit 2 ;;
esac
mkdir -p "$here/series-$series"
ROUNDS=$rounds BASE=$base CASES=$cases OUT="$here/series-$series" "$work/tree/experiments/026-load-against-wrk/run.sh"
