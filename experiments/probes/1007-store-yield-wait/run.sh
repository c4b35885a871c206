#!/usr/bin/env bash
# Probe 1007: the leader of a pipelined group waits for the syncer by polling its wake channel
# between runtime.Gosched calls (bounded) instead of parking at once, so that the syncer's send
# does not wake a thread on a halted vCPU; does that buy the store's 64-writer rate, at what CPU?
# Each NAME=REV is built (outside the lock) from `git archive REV` into /tmp/spin/NAME, then one
# series of scripts/store-pairs64 (pure against pebble, 64 writers, 3 s cells, N rounds) runs
# under the measurement lock; times and load go to the log on stderr.
# Usage: experiments/probes/1007-store-yield-wait/run.sh OUT N NAME=REV ... > run-K.log 2>&1
#   e.g. run.sh pairs-1.jsonl 12 main=f20d0ef yield=1bfb095 yield2=bbe799c
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../../.." && pwd)
out=${1:?OUT} n=${2:?N}; shift 2
mkdir -p /tmp/spin
builds=()
for a in "$@"; do
  name=${a%%=*} rev=${a#*=}
  src=$(mktemp -d)
  (cd "$root" && git archive "$rev" | tar -x -C "$src")
  (cd "$src" && CGO_ENABLED=0 go build -o "/tmp/spin/$name" ./cmd/pure-kvbench)
  rm -rf "$src"
  echo "built $name from $(cd "$root" && git rev-parse --short "$rev")" >&2
  builds+=("$name=/tmp/spin/$name")
done
flock /work/measure.lock bash -c '
  echo "lock held $(date -u +%FT%TZ); $(uptime)" >&2
  env BUILDS="$1" N="$2" OUT="$3" TAG=1007 "$4/scripts/store-pairs64"
  echo "done $(date -u +%FT%TZ); $(uptime)" >&2
' _ "${builds[*]}" "$n" "$here/$out" "$root"
