#!/usr/bin/env bash
# Experiment 049: where the wall time of in-process TPC-C on a RAM store
# goes, and what the branch ram5 changed (issues 12 and 15).
#
# Builds OLD and NEW (commits) into temporary worktrees and runs, holding
# /work/measure.lock for each run, in the order old new new old:
#   appbench  pure-appbench --parts tpcc --rounds 3 --tx 20000 (Pure RAM
#             against SQLite in memory, one process, sides rotated each
#             round) under perf stat -e page-faults,task-clock,
#             context-switches (software events; the whole process,
#             seeding included): appbench-N-SIDE.jsonl, perf-N-SIDE.csv;
#   probe     experiments/probes/914-ram-tpcc-wall (Pure's side alone,
#             3 rounds of 20,000: wall, user and system CPU, minor faults,
#             GC cycles and compactions per round): probe-N-SIDE.jsonl;
# then, once per side, callgrind instruction counts of tpcc-mix-small,
# store-put, store-get and store-range-100 (pure-count run --backend
# callgrind): callgrind-SIDE.jsonl. Every run's 1-minute load average is
# recorded at its start (load.jsonl). note.py writes note.md from them.
#
# Usage: experiments/049-ram-tpcc/run.sh [OLD [NEW]]   (default 153e92a HEAD)
#        experiments/049-ram-tpcc/run.sh note          (note.md only)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [[ ${1:-} == note ]]; then cd "$here" && python3 note.py; exit 0; fi
old=$(git -C "$root" rev-parse --short "${1:-153e92a}")
new=$(git -C "$root" rev-parse --short "${2:-HEAD}")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/049.XXXXXX")
cleanup() {
  for s in old new; do git -C "$root" worktree remove --force "$tmp/$s" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT
for s in old new; do
  rev=$old; [[ $s == new ]] && rev=$new
  git -C "$root" worktree add --detach "$tmp/$s" "$rev" >/dev/null
  # The probe is this experiment's tool: the same source for both sides.
  mkdir -p "$tmp/$s/experiments/probes/914-ram-tpcc-wall"
  cp "$root/experiments/probes/914-ram-tpcc-wall/main.go" "$tmp/$s/experiments/probes/914-ram-tpcc-wall/"
  (cd "$tmp/$s" && go build -o "$tmp/bin-$s/" ./cmd/pure-appbench ./cmd/pure-count &&
    go build -o "$tmp/bin-$s/probe" ./experiments/probes/914-ram-tpcc-wall)
done
cd "$here"
rm -f appbench-*.jsonl perf-*.csv probe-*.jsonl callgrind-*.jsonl load.jsonl
load() { echo "{\"what\":\"$1\",\"n\":$2,\"side\":\"$3\",\"rev\":\"$4\",\"load1\":$(cut -d' ' -f1 /proc/loadavg),\"utc\":\"$(date -u +%FT%TZ)\"}" >> load.jsonl; }
n=0
for s in old new new old; do
  n=$((n+1)); rev=$old; [[ $s == new ]] && rev=$new
  load appbench $n $s $rev
  flock /work/measure.lock perf stat -x, -e page-faults,task-clock,context-switches -o "perf-$n-$s.csv" \
    "$tmp/bin-$s/pure-appbench" --rev "$rev" --parts tpcc --rounds 3 --tx 20000 --out "appbench-$n-$s.jsonl"
done
n=0
for s in old new new old; do
  n=$((n+1)); rev=$old; [[ $s == new ]] && rev=$new
  load probe $n $s $rev
  flock /work/measure.lock "$tmp/bin-$s/probe" --rounds 3 --tx 20000 > "probe-$n-$s.jsonl"
done
for s in old new; do
  rev=$old; [[ $s == new ]] && rev=$new
  load callgrind 1 $s $rev
  flock /work/measure.lock "$tmp/bin-$s/pure-count" run --backend callgrind --json \
    tpcc-mix-small store-put store-get store-range-100 > "callgrind-$s.jsonl"
done
python3 note.py
echo "wrote $here/note.md" >&2
