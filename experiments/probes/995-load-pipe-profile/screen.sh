#!/usr/bin/env bash
# Probe 995, screening: pure-load variants side by side on get-pipe16
# against one pure-serve --ram (CPU 0, seeded once), each variant
# GOMAXPROCS=1 on CPU 1 for DUR seconds, ROUNDS rounds with the order
# rotated. Variants: REVS (space-separated name=rev; default
# base=0839904, main where this probe forked) built from those revisions, and "tree" built
# from the work tree. One JSON line per run in screen-OUT.jsonl: the
# variant, pure-load's JSON line and pure-serve's CPU seconds over the run
# (/proc/PID/stat utime+stime). Run it under the measurement lock.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
revs=${REVS:-base=0839904}
rounds=${ROUNDS:-3}
dur=${DUR:-4}
out=${OUT:-screen}
source "$here/lab.sh"
lab_start probe995s
commit=$(cd "$repo" && git rev-parse --short HEAD)
sleep 1
cpu() { awk -v t="$(getconf CLK_TCK)" '{print ($14 + $15) / t}' "/proc/$srv_pid/stat"; }
: > "$here/$out.jsonl"
nv=${#names[@]}
for round in $(seq "$rounds"); do
	for k in $(seq 0 $((nv - 1))); do
		v=${names[(round - 1 + k) % nv]}
		c0=$(cpu)
		GOMAXPROCS=1 taskset -c 1 "$work/$v" --workload get -c 64 --pipeline 16 -d "${dur}s" --json "$url" > "$work/o"
		c1=$(cpu)
		jq -c --arg v "$v" --argjson round "$round" --argjson scpu "$(awk -v a="$c0" -v b="$c1" 'BEGIN {print b - a}')" \
			--arg commit "$commit" --arg revs "$revs" --arg at "$(date -u +%FT%TZ)" --argjson la "$(cut -d' ' -f1 /proc/loadavg)" \
			'{variant: $v, round: $round, ok_per_s: .ok_per_s, client_us_per_req: (.client_cpu_s / .requests * 1e6),
			  server_cpu_s: $scpu, ok_per_server_cpu_s: (.ok / $scpu), p50_us: .latency_us.p50, p99_us: .latency_us.p99,
			  errors: (.errors | add), tree_commit: $commit, revs: $revs, at: $at, loadavg: $la, load: .}' "$work/o" >> "$here/$out.jsonl"
		tail -1 "$here/$out.jsonl" | jq -c '{variant, round, ok_per_s, client_us_per_req, server_cpu_s, ok_per_server_cpu_s, p99_us}'
	done
done
