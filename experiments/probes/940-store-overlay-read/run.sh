#!/usr/bin/env bash
# Probe 940: the instructions of one Snapshot.Get of a key in the overlay
# as pure-serve's documents make them (a file store, 65 short keys "d/d00"
# ... written one commit each, all in the overlay), in three builds: before
# the overlay runs (163b46f), with them as merged (b10a651: store10), and
# after this session's fix of their read path (1e694de). Each build's
# pure/store test binary, with bench_docs_test.go.txt added as a test file
# (a copy of BenchmarkGetOverlayDocs without its check of the runs, which
# the first build lacks), runs the benchmark for N reads under callgrind
# (GODEBUG=asyncpreemptoff=1, as pure-count runs Go under valgrind),
# REPEAT times; the inclusive count of (*Snapshot).Get and its number of
# calls give instructions per read. One JSON line per run goes to
# runs.jsonl; note.py writes note.md from it. Holds /work/measure.lock
# (it counts, but loads the machine).
# Usage: experiments/probes/940-store-overlay-read/run.sh   N=200000 REPEAT=2
#        run.sh note: only regenerate note.md
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [[ ${1:-} == note ]]; then python3 "$here/note.py" "$here"; exit 0; fi
n=${N:-200000} repeat=${REPEAT:-2}
builds=(pre-runs=163b46f runs=b10a651 fixed=1e694de)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/940.XXXXXX")
trap 'set +e; rm -rf "$tmp"' EXIT
for b in "${builds[@]}"; do
  name=${b%%=*} rev=${b#*=}
  mkdir -p "$tmp/src-$name"
  git -C "$root" archive "$rev" | tar -x -C "$tmp/src-$name"
  cp "$here/bench_docs_test.go.txt" "$tmp/src-$name/pure/store/zz_docs_test.go"
  (cd "$tmp/src-$name" && go test -c -o "$tmp/st-$name" ./pure/store)
done
exec 9> /work/measure.lock; flock 9
: > "$here/runs.jsonl"
# count runs the benchmark for $2 reads of build $1 under callgrind and
# prints the inclusive count of lookupVersion, the store's read of one
# key in a version (Snapshot.Get's work but for its own few lines): the
# largest count callgrind_annotate shows for the function (it may list it
# more than once, under file names of different length).
count() {
  # valgrind now and then stops a Go process on a signal it mishandles
  # (callgrind's "sigNum == ...sig" assertion): such a run is tried
  # again, up to 3 times.
  for try in 1 2 3; do
    if GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.out" \
      "$tmp/st-$1" -test.run '^$' -test.bench 'GetOverlay65' -test.benchtime "${2}x" > /dev/null 2> "$tmp/vg.log"; then
      callgrind_annotate --inclusive=yes "$tmp/cg.out" |
        awk '/store\.lookupVersion( |$)/ { gsub(",", "", $1); if ($1 + 0 > m) m = $1 + 0 } END { if (m == 0) exit 1; print m }'
      return
    fi
    echo "940: $1 ($2 reads) try $try failed: $(grep -m1 -i 'assertion' "$tmp/vg.log" || tail -1 "$tmp/vg.log")" >&2
  done
  exit 1
}
for ((k = 1; k <= repeat; k++)); do
  for b in "${builds[@]}"; do
    name=${b%%=*} rev=${b#*=}
    c=$(count "$name" "$n")
    printf '{"build":"%s","rev":"%s","run":%d,"reads":%d,"lookup_inclusive_ir":%d,"source":"callgrind"}\n' \
      "$name" "$rev" "$k" "$((n + 1))" "$c" >> "$here/runs.jsonl"
  done
done
python3 "$here/note.py" "$here"
echo "940: wrote $here/runs.jsonl and $here/note.md" >&2
