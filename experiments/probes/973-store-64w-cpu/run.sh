#!/usr/bin/env bash
# Probe 973: CPU, allocations and schedulings per commit of pure/store at 64 writers, for each
# revision in REVS (this probe's main.go built against `git archive` of it), rotated, N rounds of
# D; then a CPU profile and a memory profile of each (pprof -top to prof-REV-*.txt) and
# `strace -c -f` of each (strace-REV.txt), in OUT (this directory by default; probes 975 and 978
# run this script with theirs). ARGS are more driver flags for the timed rounds (probe 976: -ram).
# Usage: flock /work/measure.lock experiments/probes/973-store-64w-cpu/run.sh
#   REVS="5329533 26ec9bb" N=3 D=3s [DIR=/tmp/s16/drv] [OUT=dir] > out.txt
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../../.." && pwd)
out=${OUT:-$here}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
read -ra revs <<<"${REVS:?REVS=revisions}"
for r in "${revs[@]}"; do
  mkdir -p "$tmp/src-$r/p"
  (cd "$root" && git archive "$r" | tar -x -C "$tmp/src-$r")
  cp "$here/main.go" "$tmp/src-$r/p/"
  (cd "$tmp/src-$r" && go build -o "$tmp/drv-$r" ./p)
done
dir=${DIR:-$tmp/d}
for ((i = 0; i < ${N:-3}; i++)); do
  k=${#revs[@]}
  for ((j = 0; j < k; j++)); do
    r=${revs[(i + j) % k]}
    # shellcheck disable=SC2086
    echo "r$i $r $("$tmp/drv-$r" ${ARGS:-} -d "${D:-3s}" -dir "$dir" | tr '\n' ' ')"
  done
done
if [[ ${PROFILES:-1} == 1 ]]; then
  for r in "${revs[@]}"; do
    "$tmp/drv-$r" -d 10s -dir "$dir" -cpuprofile "$tmp/cpu-$r.pb" | sed "s/^/profile $r /"
    go tool pprof -top -nodecount=60 "$tmp/drv-$r" "$tmp/cpu-$r.pb" >"$out/prof-$r-cpu.txt" 2>/dev/null
    go tool pprof -top -cum -nodecount=80 "$tmp/drv-$r" "$tmp/cpu-$r.pb" >"$out/prof-$r-cpu-cum.txt" 2>/dev/null
    "$tmp/drv-$r" -d 3s -dir "$dir" -memprofile "$tmp/mem-$r.pb" | sed "s/^/memprofile $r /"
    go tool pprof -sample_index=alloc_space -top -nodecount=20 "$tmp/drv-$r" "$tmp/mem-$r.pb" >"$out/prof-$r-alloc-space.txt" 2>/dev/null
    strace -c -f -o "$out/strace-$r.txt" "$tmp/drv-$r" -d 3s -dir "$dir" | sed "s/^/strace $r /"
  done
fi
