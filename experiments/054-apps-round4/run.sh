#!/usr/bin/env bash
# Experiment 054: in-process TPC-C, Pure's app runtime against SQLite in
# memory, before and after branch app7 (issue 12's first target: 3x), and
# durable TPC-C over HTTP at today's code (its third target: 3x).
#
# Exports OLD and NEW (commits) with git archive into a temporary directory,
# builds each, and runs, each run holding /work/measure.lock:
#   appbench  pure-appbench --parts tpcc --rounds 3 --tx 20000 (Pure RAM
#             against SQLite in memory, one process, the sides rotated
#             every round), in the order old new new old:
#             appbench-N-SIDE.jsonl;
#   probe     experiments/probes/914-ram-tpcc-wall (Pure's side alone, 3
#             rounds of 20,000), old new new old: probe-N-SIDE.jsonl;
#   callgrind pure-count run --backend callgrind of tpcc-mix-small and every
#             bank workload, once per side: callgrind-SIDE.jsonl;
#   http      NEW only: pure-appbench --parts http --rounds 3 (pure-serve
#             durable against net/http + SQLite WAL synchronous=FULL, each
#             on CPU 0, pure-load with 64 terminals on CPU 1): http-new.jsonl.
# Every run's 1-minute load average is recorded at its start (load.jsonl).
# note.py writes note.md from these files; findings.md is by hand.
#
# Usage: experiments/054-apps-round4/run.sh [OLD [NEW]]   (default 1d25ad3 HEAD;
#        the recorded run: run.sh 1d25ad3 a2a511b, the candidate later reverted)
#        experiments/054-apps-round4/run.sh note          (note.md only)
#        PARTS="appbench probe callgrind http" selects parts (all by default)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [[ ${1:-} == note ]]; then cd "$here" && python3 note.py; exit 0; fi
old=$(git -C "$root" rev-parse --short "${1:-1d25ad3}")
new=$(git -C "$root" rev-parse --short "${2:-HEAD}")
parts=${PARTS:-appbench probe callgrind http}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/054.XXXXXX")
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
for s in old new; do
  rev=$old; [[ $s == new ]] && rev=$new
  mkdir -p "$tmp/$s"
  git -C "$root" archive "$rev" | tar -x -C "$tmp/$s"
  # The probe is this experiment's tool: the same source for both sides.
  mkdir -p "$tmp/$s/experiments/probes/914-ram-tpcc-wall"
  cp "$root/experiments/probes/914-ram-tpcc-wall/main.go" "$tmp/$s/experiments/probes/914-ram-tpcc-wall/"
  (cd "$tmp/$s" && go build -o "$tmp/bin-$s/" ./cmd/pure-appbench ./cmd/pure-count ./cmd/pure-serve ./cmd/pure-baseline ./cmd/pure-load &&
    go build -o "$tmp/bin-$s/probe" ./experiments/probes/914-ram-tpcc-wall)
done
cd "$here"
load() { echo "{\"what\":\"$1\",\"n\":$2,\"side\":\"$3\",\"rev\":\"$4\",\"load1\":$(cut -d' ' -f1 /proc/loadavg),\"utc\":\"$(date -u +%FT%TZ)\"}" >> load.jsonl; }
has() { [[ " $parts " == *" $1 "* ]]; }
if has appbench; then
  rm -f appbench-*.jsonl; n=0
  for s in old new new old; do
    n=$((n+1)); rev=$old; [[ $s == new ]] && rev=$new
    load appbench $n $s $rev
    flock /work/measure.lock "$tmp/bin-$s/pure-appbench" --rev "$rev" --parts tpcc --rounds 3 --tx 20000 --out "appbench-$n-$s.jsonl"
  done
fi
if has probe; then
  rm -f probe-*.jsonl; n=0
  for s in old new new old; do
    n=$((n+1)); rev=$old; [[ $s == new ]] && rev=$new
    load probe $n $s $rev
    flock /work/measure.lock "$tmp/bin-$s/probe" --rounds 3 --tx 20000 > "probe-$n-$s.jsonl"
  done
fi
if has callgrind; then
  ws=$("$tmp/bin-new/pure-count" list | awk '$1 ~ /^bank-/ {print $1}')
  for s in old new; do
    rev=$old; [[ $s == new ]] && rev=$new
    load callgrind 1 $s $rev
    flock /work/measure.lock "$tmp/bin-$s/pure-count" run --backend callgrind --json tpcc-mix-small $ws > "callgrind-$s.jsonl"
  done
fi
if has http; then
  mkdir -p "$tmp/data"
  load http 1 new $new
  flock /work/measure.lock "$tmp/bin-new/pure-appbench" --rev "$new" --parts http --rounds 3 --http-time 8s \
    --terminals 64 --bin "$tmp/bin-new" --dir "$tmp/data" --out http-new.jsonl
fi
python3 note.py
echo "wrote $here/note.md" >&2
