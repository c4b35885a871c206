#!/usr/bin/env bash
# Experiment 032: the store's second round against pebble and bbolt (issue 15).
#
# 1. pure-kvbench (the harness of experiments/002 and 029): pure, bbolt and
#    pebble; 1, 8 and 64 writers, each committing its own fresh keys, one
#    16-byte value per transaction, Sync writes; then point gets and 100-key
#    range scans on KEYS loaded keys. ROUNDS rounds of DURATION per cell,
#    the contenders' order rotated every round, each cell in a fresh store
#    on this disk. Lines go to runs.jsonl with "series":"kvbench".
# 2. A CPU profile of the 64-writer cell, pure and pebble alone (one round
#    each, DURATION): profile-64-CONTENDER.pprof, and its top, flat and
#    cumulative, in profile-64-CONTENDER.txt.
#
# 3. The store's BenchmarkGroupCommit at 64 writers (bytes appended per
#    commit, commits per sync) and BenchmarkSyncSize (append N KiB +
#    fdatasync), COUNT times each: what one sync costs against its bytes
#    on this disk now. Lines "series":"store-bench".
#
# Space amplification (space.jsonl, `just space-store`) and the crash run
# (crash.txt, `just crash-store`) are recorded beside it by their recipes;
# the note reads whichever of them is present.
#
# Usage (from anywhere): experiments/032-store-round2/run.sh
#   ROUNDS=5 DURATION=5s KEYS=1000000
#   OUT=DIR   write the files there instead (smoke runs)
# Hold the machine's measurement lock: flock /work/measure.lock run.sh
# run.sh note: only regenerate note.md from the recorded files.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here}
root=$(cd "$here/../.." && pwd)

if [[ ${1:-} == note ]]; then exec python3 "$here/note.py" "$out"; fi

rounds=${ROUNDS:-5} duration=${DURATION:-5s} keys=${KEYS:-1000000} count=${COUNT:-3}
mkdir -p "$out"
tmp=$(mktemp -d "$out/.run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root"
rev=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- pure/store || echo "+dirty")
load=$(cut -d' ' -f1 /proc/loadavg)
go build -o "$tmp/kvbench" ./cmd/pure-kvbench
start=$(date -u +%FT%TZ)

# 1. The contenders, rotated.
"$tmp/kvbench" -contenders pure,bbolt,pebble -writers 1,8,64 -rounds "$rounds" \
  -duration "$duration" -keys "$keys" -probe 100 -experiment 032-store-round2 \
  -out "$tmp/kv.jsonl" -dir "$tmp" >&2

# 2. Profiles of the 64-writer cell.
for c in pure pebble; do
  "$tmp/kvbench" -only writes -contenders "$c" -writers 64 -rounds 1 -duration "$duration" \
    -probe 10 -experiment 032-store-round2 -out "$tmp/prof-$c.jsonl" -dir "$tmp" \
    -cpuprofile "$tmp/$c.pprof" >&2
  cp "$tmp/$c.pprof" "$out/profile-64-$c.pprof"
  { go tool pprof -top -nodecount=40 "$tmp/kvbench" "$tmp/$c.pprof"
    echo; echo "# cumulative"
    go tool pprof -top -cum -nodecount=40 "$tmp/kvbench" "$tmp/$c.pprof"; } >"$out/profile-64-$c.txt" 2>/dev/null
  sed 's/^{/{"series":"profile",/' "$tmp/prof-$c.jsonl" >>"$tmp/prof.jsonl"
done

# 3. What a sync costs.
go test ./pure/store -run '^$' -bench 'GroupCommit/writers=64/node=0$|SyncSize' -benchtime 1s -count "$count" \
  | tee "$tmp/bench.txt" >&2
python3 - "$tmp/bench.txt" >"$tmp/bench.jsonl" <<'PY'
import json, re, sys
for line in open(sys.argv[1]):
    m = re.match(r"Benchmark(\w+)/(\S+?)-\d+\s+(\d+)\s+([\d.]+) ns/op(.*)", line)
    if not m:
        continue
    r = {"series": "store-bench", "bench": m[1], "n": int(m[3]), "ns_per_op": float(m[4])}
    for kv in m[2].split("/"):
        k, v = kv.split("=")
        r[k] = int(v)
    for v, unit in re.findall(r"([\d.]+) (\S+)", m[5]):
        r[{"B/commit": "bytes_per_commit", "commits/sync": "commits_per_sync"}.get(unit, unit)] = float(v)
    print(json.dumps(r))
PY

{
  printf '{"series":"meta","rev":"%s","load":"%s","rounds":%d,"duration":"%s","keys":%d,"start":"%s","end":"%s"}\n' \
    "$rev" "$load" "$rounds" "$duration" "$keys" "$start" "$(date -u +%FT%TZ)"
  sed 's/^{/{"series":"kvbench",/' "$tmp/kv.jsonl"
  cat "$tmp/prof.jsonl" "$tmp/bench.jsonl"
} >"$out/runs.jsonl"
python3 "$here/note.py" "$out"
echo "wrote $out/runs.jsonl and $out/note.md" >&2
