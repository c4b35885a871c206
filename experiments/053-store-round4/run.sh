#!/usr/bin/env bash
# Experiment 053: the store's fourth round against pebble and bbolt
# (issue 15): the leader's CPU per commit. Three builds of pure-kvbench:
# "main" (the store at MAIN_REV, before this round), "hint" (HINT_REV
# with the commits HINT_REVERT reverse-applied: by default this tree
# without the chunked pokes, so tree hints alone: a committer that finds
# another goroutine leading looks its written keys up in its snapshot's
# tree, so the leader needs no tree descent per put) and "head" (this
# tree: hints, and the gathering leader poked once per few arrivals). Each round runs the
# writes of the three builds (1, 8 and 64 writers, each writer its own
# fresh keys, one 16-byte value per transaction, Sync writes; contenders
# pure and pebble, and bbolt in head), the builds' order rotated by one
# each round and the contenders' order rotated by one each round, then
# point reads and 100-key scans on KEYS loaded keys of head (pure,
# pebble) and main (pure). Each cell is a fresh store on this disk; each
# process starts with the device probe (PROBE appends of 4 KiB, each
# followed by fdatasync). Lines go to runs.jsonl with "series":"kvbench",
# "build" and the round number of this script ("round53").
#
# Usage: flock /work/measure.lock experiments/053-store-round4/run.sh
#   ROUNDS=3 DURATION=3s KEYS=1000000 PROBE=50 MAIN_REV=1d25ad3 HINT_REV=1cab693
#   HINT_REVERT="" (commits reverse-applied to HINT_REV, space-separated)
#   HINT_DESC, HEAD_DESC: what the builds are, for the note
# Run 2 (runs-2.jsonl) was HINT_REV=1cab693 HINT_REVERT=0d60282 at head 1cab693
# (hint: tree hints alone; head: hints and chunked pokes).
#   OUT=DIR   write the files there instead (smoke runs)
# run.sh note: only regenerate note.md from runs.jsonl (and the other files).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here}
root=$(cd "$here/../.." && pwd)

if [[ ${1:-} == note ]]; then exec python3 "$here/note.py" "$out"; fi

rounds=${ROUNDS:-3} duration=${DURATION:-3s} keys=${KEYS:-1000000} probe=${PROBE:-50}
mainrev=${MAIN_REV:-1d25ad3} hintrev=$(git -C "$root" rev-parse --short "${HINT_REV:-1cab693}") hintrevert=${HINT_REVERT-}
hintdesc=${HINT_DESC:-tree hints and chunked pokes} headdesc=${HEAD_DESC:-chunked pokes alone, the tree hints reverted}
mkdir -p "$out"
tmp=$(mktemp -d "$out/.run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root"
rev=$(git rev-parse --short HEAD)$(git diff --quiet HEAD -- pure/store || echo "+dirty")
load=$(cut -d' ' -f1-3 /proc/loadavg)
go build -o "$tmp/kv-head" ./cmd/pure-kvbench
for b in main hint; do
  r=$mainrev
  if [[ $b == hint ]]; then r=$hintrev; fi
  mkdir "$tmp/$b"
  git archive "$r" | tar -x -C "$tmp/$b"
  if [[ $b == hint ]]; then
    for c in $hintrevert; do git show "$c" | (cd "$tmp/$b" && patch -s -R -p1); done
  fi
  (cd "$tmp/$b" && go build -o "$tmp/kv-$b" ./cmd/pure-kvbench)
done
start=$(date -u +%FT%TZ)

rotate() { # rotate N words...: the words rotated left by N, comma-separated
  local n=$1; shift; local a=("$@") k=${#a[@]} i
  for ((i = 0; i < k; i++)); do
    if ((i > 0)); then printf ','; fi
    printf '%s' "${a[(i + n) % k]}"
  done
}
tag() { # tag BUILD ROUND FILE: add build and this script's round to each line
  sed "s/^{/{\"series\":\"kvbench\",\"build\":\"$1\",\"round53\":$2,/" "$3"
}
: >"$tmp/all.jsonl"
for ((r = 0; r < rounds; r++)); do
  for b in $(rotate "$r" main hint head | tr , ' '); do
    if [[ $b == head ]]; then cs=$(rotate "$r" pure pebble bbolt); else cs=$(rotate "$r" pure pebble); fi
    "$tmp/kv-$b" -only writes -contenders "$cs" -writers 1,8,64 -rounds 1 -duration "$duration" \
      -probe "$probe" -experiment 053-store-round4 -out "$tmp/w-$b-$r.jsonl" -dir "$tmp" >&2
    tag "$b" "$r" "$tmp/w-$b-$r.jsonl" >>"$tmp/all.jsonl"
  done
  for b in $(rotate "$r" main head | tr , ' '); do
    if [[ $b == head ]]; then cs=$(rotate "$r" pure pebble); else cs=pure; fi
    "$tmp/kv-$b" -only reads -contenders "$cs" -keys "$keys" -rounds 1 -duration "$duration" \
      -probe 10 -experiment 053-store-round4 -out "$tmp/r-$b-$r.jsonl" -dir "$tmp" >&2
    tag "$b" "$r" "$tmp/r-$b-$r.jsonl" >>"$tmp/all.jsonl"
  done
done
{
  printf '{"series":"meta","rev":"%s","main_rev":"%s","hint_rev":"%s","hint_revert":"%s","hint_desc":"%s","head_desc":"%s","load":"%s","load_end":"%s","rounds":%d,"duration":"%s","keys":%d,"start":"%s","end":"%s"}\n' \
    "$rev" "$mainrev" "$hintrev" "$hintrevert" "$hintdesc" "$headdesc" "$load" "$(cut -d' ' -f1-3 /proc/loadavg)" "$rounds" "$duration" "$keys" "$start" "$(date -u +%FT%TZ)"
  cat "$tmp/all.jsonl"
} >"$out/runs.jsonl"
python3 "$here/note.py" "$out"
echo "wrote $out/runs.jsonl and $out/note.md" >&2
