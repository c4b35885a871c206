#!/usr/bin/env bash
# Experiment 059: the store's fifth round against pebble (issue 15): the
# commit leader's CPU per commit. A copy of 053's run.sh with the builds
# named on the command line: BUILDS="name=rev ..." (default
# "main=b0f9e85 head=HEAD"), each pure-kvbench built from `git archive`
# of its revision (so the tree may change during a run); the first build
# is the baseline the others are divided by. Each round runs the writes of
# every build (1, 8 and 64 writers, each writer its own fresh keys, one
# 16-byte value per transaction, Sync writes; contenders pure and pebble),
# the builds' order rotated by one each round and the contenders' order
# too; with READS=1 then point reads and 100-key scans on KEYS loaded keys
# of each build (pure; pebble in the last build). Each cell is a fresh
# store on this disk; each process starts with the device probe (PROBE
# appends of 4 KiB, each followed by fdatasync). Lines go to
# runs-$TAG.jsonl with "series":"kvbench", "build" and the round number
# of this script ("round59").
#
# Usage: flock /work/measure.lock experiments/059-store-round5/run.sh
#   TAG=1 BUILDS="main=b0f9e85 head=HEAD" ROUNDS=5 DURATION=3s READS=0 KEYS=1000000 PROBE=50
# Runs: 1 BUILDS="main=b0f9e85 v4=7078404"; 2 (disturbed) "main=b0f9e85 finger=74f9ed6 pipe=95f80b4
# poke16=84e0b5e fold2048=91b9309"; 3 "main=b0f9e85 finger=74f9ed6 head=0817bc9 poke16=84e0b5e"
# (poke16, fold2048: commits off the branch, see findings.md).
#   DESC="what the builds are" (for the note)
# run.sh note: only regenerate note.md from runs-*.jsonl (and counts-*.jsonl).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here}
root=$(cd "$here/../.." && pwd)

if [[ ${1:-} == note ]]; then exec python3 "$here/note.py" "$out"; fi

rounds=${ROUNDS:-5} duration=${DURATION:-3s} keys=${KEYS:-1000000} probe=${PROBE:-50}
reads=${READS:-0} tagn=${TAG:-1} builds=${BUILDS:-main=b0f9e85 head=HEAD} desc=${DESC:-}
mkdir -p "$out"
tmp=$(mktemp -d "$out/.run.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
cd "$root"
names=() revs=()
for b in $builds; do
  n=${b%%=*} r=$(git rev-parse --short "${b#*=}")
  names+=("$n") revs+=("$r")
  mkdir "$tmp/src-$n"
  git archive "$r" | tar -x -C "$tmp/src-$n"
  (cd "$tmp/src-$n" && go build -o "$tmp/kv-$n" ./cmd/pure-kvbench)
done
load=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date -u +%FT%TZ)

rotate() { # rotate N words...: the words rotated left by N, comma-separated
  local n=$1; shift; local a=("$@") k=${#a[@]} i
  for ((i = 0; i < k; i++)); do
    if ((i > 0)); then printf ','; fi
    printf '%s' "${a[(i + n) % k]}"
  done
}
tag() { # tag BUILD ROUND FILE: add build and this script's round to each line
  sed "s/^{/{\"series\":\"kvbench\",\"build\":\"$1\",\"round59\":$2,/" "$3"
}
last=${names[${#names[@]}-1]}
: >"$tmp/all.jsonl"
for ((r = 0; r < rounds; r++)); do
  for b in $(rotate "$r" "${names[@]}" | tr , ' '); do
    cs=$(rotate "$r" pure pebble)
    "$tmp/kv-$b" -only writes -contenders "$cs" -writers 1,8,64 -rounds 1 -duration "$duration" \
      -probe "$probe" -experiment 059-store-round5 -out "$tmp/w-$b-$r.jsonl" -dir "$tmp" >&2
    tag "$b" "$r" "$tmp/w-$b-$r.jsonl" >>"$tmp/all.jsonl"
  done
  if [[ $reads == 1 ]]; then
    for b in $(rotate "$r" "${names[@]}" | tr , ' '); do
      if [[ $b == "$last" ]]; then cs=$(rotate "$r" pure pebble); else cs=pure; fi
      "$tmp/kv-$b" -only reads -contenders "$cs" -keys "$keys" -rounds 1 -duration "$duration" \
        -probe 10 -experiment 059-store-round5 -out "$tmp/r-$b-$r.jsonl" -dir "$tmp" >&2
      tag "$b" "$r" "$tmp/r-$b-$r.jsonl" >>"$tmp/all.jsonl"
    done
  fi
done
bl=$(for i in "${!names[@]}"; do printf '%s%s=%s' "$([[ $i -gt 0 ]] && echo ' ')" "${names[$i]}" "${revs[$i]}"; done)
{
  printf '{"series":"meta","tag":"%s","builds":"%s","desc":"%s","load":"%s","load_end":"%s","rounds":%d,"duration":"%s","keys":%d,"reads":%s,"start":"%s","end":"%s"}\n' \
    "$tagn" "$bl" "$desc" "$load" "$(cut -d' ' -f1-3 /proc/loadavg)" "$rounds" "$duration" "$keys" "$reads" "$start" "$(date -u +%FT%TZ)"
  cat "$tmp/all.jsonl"
} >"$out/runs-$tagn.jsonl"
python3 "$here/note.py" "$out"
echo "wrote $out/runs-$tagn.jsonl and $out/note.md" >&2
