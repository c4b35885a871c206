#!/usr/bin/env bash
# Probe 1006: what pure-serve's peak RSS under the harness's get-64c (64
# keep-alive connections GETting 64 B documents for DUR, default 5s) is made
# of, now that the net/http baseline it is judged against is built without
# fasthttp (experiment 156: 0.54x, the target is 0.5x). Probe 980's run.sh
# with the seed, the GET load and this directory's output; NOPPROF=1 runs the
# server without --pprof, as the harness does. See 980's run.sh for the rest.
# Usage: flock /work/measure.lock experiments/probes/1006-serve-get-rss-peak/run.sh REV PASSES "ENV ..." [...]   (DUR=5s, NOPPROF=1)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SEED=1 LOAD="--workload get -c 64 -d ${DUR:-5s}" exec "$here/../980-serve-put-rss-peak/run.sh" "$@"
