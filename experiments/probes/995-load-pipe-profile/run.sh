#!/usr/bin/env bash
# Probe 995: where pure-load's CPU per pipelined request goes, on issue
# 11's get-pipe16 workload as cmd/pure-http runs it: pure-serve --ram
# pinned to CPU 0 on a free loopback port, seeded with pure-load's seed
# workload (64 documents of 64 B and one of 1 MiB), then pure-load
# (GOMAXPROCS=1, pinned to CPU 1) --workload get -c 64 --pipeline 16.
# Two pure-loads, one after the other: "base" built from BASE (default
# 0839904, main where the branch forked) and "new" from the work tree; pure-serve from the work tree. Files
# of each are named by its tag:
#   1. strace -f -c of pure-load for 2 s: sc-TAG.txt, its JSON line in
#      req-TAG.json (system calls per request: divide by .requests);
#   2. perf record -e cpu-clock -g of pure-load for 3 s: perf-TAG.txt
#      (perf report --no-children, self samples, top symbols) and
#      perf-TAG-json.json (the run's JSON line: client CPU per request);
#   3. callgrind of pure-load over N1 and N2 requests (-n, default
#      16384 and 65536): user-space instructions per request =
#      (I(N2) - I(N1)) / (N2 - N1), in cg-TAG.txt, with the top functions
#      of the N2 run's inclusive and self counts.
# Run it under the measurement lock: flock /work/measure.lock run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
base=${BASE:-0839904}
n1=${N1:-16384}
n2=${N2:-65536}
work=$(mktemp -d /tmp/probe995.XXXXXX)
srv_pid=
cleanup() {
	if [[ -n $srv_pid ]]; then kill "$srv_pid" 2>/dev/null || true; wait "$srv_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
(cd "$repo" && go build -o "$work/new" ./cmd/pure-load && go build -o "$work/pure-serve" ./cmd/pure-serve)
(cd "$repo" && git worktree add -q --detach "$work/base-src" "$base")
(cd "$work/base-src" && go build -o "$work/base" ./cmd/pure-load)
(cd "$repo" && git worktree remove --force "$work/base-src")
commit=$(cd "$repo" && git rev-parse --short HEAD)
basec=$(cd "$repo" && git rev-parse --short "$base")

taskset -c 0 "$work/pure-serve" --addr 127.0.0.1:0 --ram > "$work/serve.out" 2> "$work/serve.err" &
srv_pid=$!
for _ in $(seq 50); do grep -q . "$work/serve.out" && break; sleep 0.1; done
addr=$(awk '{print $NF}' "$work/serve.out" | head -1)
url="http://$addr"
GOMAXPROCS=1 taskset -c 1 "$work/new" --workload seed --json "$url" > /dev/null
sleep 1
for tag in base new; do
rev=$commit; [[ $tag == base ]] && rev=$basec

echo "pure-load $tag at $rev, pure-serve at $url" > "$here/sc-$tag.txt"
strace -f -c -o "$work/sc" env GOMAXPROCS=1 taskset -c 1 "$work/$tag" --workload get -c 64 --pipeline 16 --json -d 2s "$url" > "$here/req-$tag.json"
cat "$work/sc" >> "$here/sc-$tag.txt"
sleep 1

perf record -q -e cpu-clock -g -o "$work/perf.data" -- env GOMAXPROCS=1 taskset -c 1 "$work/$tag" \
	--workload get -c 64 --pipeline 16 --json -d 3s "$url" > "$here/perf-$tag-json.json"
perf report -i "$work/perf.data" --no-children --stdio --sort dso -g none 2>/dev/null | grep -v '^#' | grep -v '^$' > "$here/perf-$tag-dso.txt"
perf report -i "$work/perf.data" --no-children --stdio --percent-limit 0.7 -g none 2>/dev/null \
	| grep -v '^$' | head -80 > "$here/perf-$tag.txt"
sleep 1

{
	echo "pure-load $tag at $rev; callgrind instructions of pure-load (user space), get -c 64 --pipeline 16"
	for n in $n1 $n2; do
		env GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 taskset -c 1 valgrind --tool=callgrind --callgrind-out-file="$work/cg.$n" \
			"$work/$tag" --workload get -c 64 --pipeline 16 -n "$n" --timeout 0 --json "$url" 2> "$work/vg.$n" > "$work/out.$n"
		echo "n=$n instructions=$(awk '/^summary:/ {print $2}' "$work/cg.$n") $(cat "$work/out.$n")"
	done
	i1=$(awk '/^summary:/ {print $2}' "$work/cg.$n1")
	i2=$(awk '/^summary:/ {print $2}' "$work/cg.$n2")
	echo "per request: $(( (i2 - i1) / (n2 - n1) ))"
	echo "--- top functions of the n=$n2 run (self) ---"
	callgrind_annotate "$work/cg.$n2" 2>/dev/null | sed -n '/^Ir/,$p' | head -40 || true
	echo "--- inclusive ---"
	callgrind_annotate --inclusive=yes "$work/cg.$n2" 2>/dev/null | sed -n '/^Ir/,$p' | head -40 || true
} > "$here/cg-$tag.txt"
head -4 "$here/cg-$tag.txt"
sleep 1
done
