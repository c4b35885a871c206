#!/usr/bin/env bash
# Experiment 044: the store's third round against pebble and bbolt (issue 15):
# log records folded into the tree (this branch) against main's store.
#
# Two builds of pure-kvbench: "store4" (this tree: pure with log records,
# pure-tree = the same store with Options.FoldEntries -1, pebble, bbolt) and
# "main" (the store at MAIN_REV, before log records: pure, pebble). Each
# round runs the writes of both builds (1, 8 and 64 writers, each writer
# its own fresh keys, one 16-byte value per transaction, Sync writes), the
# build that goes first alternating by round and the contenders' order
# rotated by one each round, then the reads of the store4 build (point gets
# and 100-key scans on KEYS loaded keys). Each cell is a fresh store on this
# disk. Lines go to runs.jsonl with "series":"kvbench", "build" and the
# round number of this script.
#
# Usage: flock /work/measure.lock experiments/044-store-round3/run.sh
#   ROUNDS=3 DURATION=3s KEYS=1000000 MAIN_REV=86b54ad
#   OUT=DIR   write the files there instead (smoke runs)
# run.sh note: only regenerate note.md from runs.jsonl (and reading.md).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here}
root=$(cd "$here/../.." && pwd)

if [[ ${1:-} == note ]]; then exec python3 "$here/note.py" "$out"; fi

rounds=${ROUNDS:-3} duration=${DURATION:-3s} keys=${KEYS:-1000000} mainrev=${MAIN_REV:-86b54ad}
mkdir -p "$out"
tmp=$(mktemp -d "$out/.run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root"
rev=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- pure/store || echo "+dirty")
load=$(cut -d' ' -f1-3 /proc/loadavg)
go build -o "$tmp/kv-store4" ./cmd/pure-kvbench
mkdir "$tmp/main"
git archive "$mainrev" | tar -x -C "$tmp/main"
(cd "$tmp/main" && go build -o "$tmp/kv-main" ./cmd/pure-kvbench)
start=$(date -u +%FT%TZ)

rotate() { # rotate N words...: the words rotated left by N
  local n=$1; shift; local a=("$@") k=${#a[@]} i
  for ((i = 0; i < k; i++)); do
    if ((i > 0)); then printf ','; fi
    printf '%s' "${a[(i + n) % k]}"
  done
}
tag() { # tag BUILD ROUND FILE: add build and this script's round to each line
  sed "s/^{/{\"series\":\"kvbench\",\"build\":\"$1\",\"round44\":$2,/" "$3"
}
: >"$tmp/all.jsonl"
for ((r = 0; r < rounds; r++)); do
  order=(store4 main)
  if ((r % 2 == 1)); then order=(main store4); fi
  for b in "${order[@]}"; do
    if [[ $b == store4 ]]; then cs=$(rotate "$r" pure pure-tree pebble bbolt); else cs=$(rotate "$r" pure pebble); fi
    "$tmp/kv-$b" -only writes -contenders "$cs" -writers 1,8,64 -rounds 1 -duration "$duration" \
      -probe 50 -experiment 044-store-round3 -out "$tmp/w-$b-$r.jsonl" -dir "$tmp" >&2
    tag "$b" "$r" "$tmp/w-$b-$r.jsonl" >>"$tmp/all.jsonl"
  done
  "$tmp/kv-store4" -only reads -contenders "$(rotate "$r" pure pure-tree pebble)" -keys "$keys" -rounds 1 \
    -duration "$duration" -probe 10 -experiment 044-store-round3 -out "$tmp/r-$r.jsonl" -dir "$tmp" >&2
  tag store4 "$r" "$tmp/r-$r.jsonl" >>"$tmp/all.jsonl"
done
{
  printf '{"series":"meta","rev":"%s","main_rev":"%s","load":"%s","load_end":"%s","rounds":%d,"duration":"%s","keys":%d,"start":"%s","end":"%s"}\n' \
    "$rev" "$mainrev" "$load" "$(cut -d' ' -f1-3 /proc/loadavg)" "$rounds" "$duration" "$keys" "$start" "$(date -u +%FT%TZ)"
  cat "$tmp/all.jsonl"
} >"$out/runs.jsonl"
python3 "$here/note.py" "$out"
echo "wrote $out/runs.jsonl and $out/note.md" >&2
