#!/usr/bin/env bash
# Probe 995, instructions: pure-load's user-space instructions per request
# on get-pipe16 (64 connections, 16 per batch) against one pure-serve --ram
# (CPU 0, seeded once), under callgrind (GOMAXPROCS=1, asynchronous
# preemption off): (I(N2) - I(N1)) / (N2 - N1), start-up cancelled, for
# each variant: REVS (name=rev ...) and the work tree ("tree"). Output in
# cg-OUT.txt. Run it under the measurement lock.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
revs=${REVS:-base=0839904}
n1=${N1:-16384}
n2=${N2:-65536}
out=${OUT:-variants}
source "$here/lab.sh"
lab_start probe995c
echo "tree at $(cd "$repo" && git rev-parse --short HEAD) (plus uncommitted changes: $(cd "$repo" && git status --short pure/load | wc -l) files); $revs" > "$here/cg-$out.txt"
for v in "${names[@]}"; do
	for n in $n1 $n2; do
		env GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 taskset -c 1 valgrind --tool=callgrind --callgrind-out-file="$work/cg.$v.$n" \
			"$work/$v" --workload get -c 64 --pipeline 16 -n "$n" --timeout 0 --json "$url" 2> /dev/null > "$work/out"
		jq -e '.ok == .requests' "$work/out" > /dev/null
	done
	i1=$(awk '/^summary:/ {print $2}' "$work/cg.$v.$n1")
	i2=$(awk '/^summary:/ {print $2}' "$work/cg.$v.$n2")
	echo "$v: I($n1)=$i1 I($n2)=$i2 per request $(( (i2 - i1) / (n2 - n1) ))" >> "$here/cg-$out.txt"
done
cat "$here/cg-$out.txt"
