#!/usr/bin/env bash
# Experiment 060: in-process TPC-C, Pure's app runtime against SQLite in
# memory, before and after branch app8 (issue 12's first target: 3x), with
# the bank queries' instruction counts.
#
# Exports OLD, MID and NEW (commits) with git archive into a temporary
# directory, builds each, and runs, each run holding /work/measure.lock:
#   appbench  pure-appbench --parts tpcc --rounds 3 --tx 20000 (Pure RAM
#             against SQLite in memory, one process, the sides rotated
#             every round), old new new old: appbench-N-SIDE.jsonl;
#   probe     experiments/probes/914-ram-tpcc-wall (Pure's side alone, 3
#             rounds of 20,000), old mid new new mid old:
#             probe-N-SIDE.jsonl (mid: NEW without its last commit, to
#             tell that commit's share);
#   callgrind pure-count run --backend callgrind of tpcc-mix-small and every
#             bank workload, once per side (old, new): callgrind-SIDE.jsonl;
#   bank      NEW only: pure-appbench --parts bank --rounds 3 (each bank
#             query, Pure RAM against SQLite in memory): bank-new.jsonl
#             (the recorded one: this command run by hand, holding the
#             lock, at 1c114e3, the branch's head after the revert, after
#             the rest of the run; this part was added to the script then).
# Every run's 1-minute load average is recorded at its start (load.jsonl).
# note.py writes note.md from these files; findings.md is by hand.
#
# Usage: experiments/060-apps-round5/run.sh [OLD [NEW [MID]]]   (default
#        b0f9e85 HEAD HEAD~1 of the code; the recorded run:
#        run.sh b0f9e85 b0d204e 42833a8)
#        experiments/060-apps-round5/run.sh note          (note.md only)
#        PARTS="appbench probe callgrind bank" selects parts (all by default)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [[ ${1:-} == note ]]; then cd "$here" && python3 note.py; exit 0; fi
old=$(git -C "$root" rev-parse --short "${1:-b0f9e85}")
new=$(git -C "$root" rev-parse --short "${2:-HEAD}")
mid=$(git -C "$root" rev-parse --short "${3:-$new~1}")
parts=${PARTS:-appbench probe callgrind bank}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/060.XXXXXX")
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
revof() { case $1 in old) echo "$old" ;; mid) echo "$mid" ;; new) echo "$new" ;; esac; }
for s in old mid new; do
  rev=$(revof $s)
  mkdir -p "$tmp/$s"
  git -C "$root" archive "$rev" | tar -x -C "$tmp/$s"
  # The probe is this experiment's tool: the same source for every side.
  mkdir -p "$tmp/$s/experiments/probes/914-ram-tpcc-wall"
  cp "$root/experiments/probes/914-ram-tpcc-wall/main.go" "$tmp/$s/experiments/probes/914-ram-tpcc-wall/"
  (cd "$tmp/$s" && go build -o "$tmp/bin-$s/" ./cmd/pure-appbench ./cmd/pure-count &&
    go build -o "$tmp/bin-$s/probe" ./experiments/probes/914-ram-tpcc-wall)
done
cd "$here"
load() { echo "{\"what\":\"$1\",\"n\":$2,\"side\":\"$3\",\"rev\":\"$4\",\"load1\":$(cut -d' ' -f1 /proc/loadavg),\"utc\":\"$(date -u +%FT%TZ)\"}" >> load.jsonl; }
has() { [[ " $parts " == *" $1 "* ]]; }
if has appbench; then
  rm -f appbench-*.jsonl; n=0
  for s in old new new old; do
    n=$((n+1)); rev=$(revof $s)
    load appbench $n $s $rev
    flock /work/measure.lock "$tmp/bin-$s/pure-appbench" --rev "$rev" --parts tpcc --rounds 3 --tx 20000 --out "appbench-$n-$s.jsonl"
  done
fi
if has probe; then
  rm -f probe-*.jsonl; n=0
  for s in old mid new new mid old; do
    n=$((n+1)); rev=$(revof $s)
    load probe $n $s $rev
    flock /work/measure.lock "$tmp/bin-$s/probe" --rounds 3 --tx 20000 > "probe-$n-$s.jsonl"
  done
fi
if has callgrind; then
  ws=$("$tmp/bin-new/pure-count" list | awk '$1 ~ /^bank-/ {print $1}')
  for s in old new; do
    rev=$(revof $s)
    load callgrind 1 $s $rev
    flock /work/measure.lock "$tmp/bin-$s/pure-count" run --backend callgrind --json tpcc-mix-small $ws > "callgrind-$s.jsonl"
  done
fi
if has bank; then
  load bank 1 new $new
  flock /work/measure.lock "$tmp/bin-new/pure-appbench" --rev "$new" --parts bank --rounds 3 --out bank-new.jsonl
fi
python3 note.py
echo "wrote $here/note.md" >&2
