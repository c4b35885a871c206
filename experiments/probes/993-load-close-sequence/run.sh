#!/usr/bin/env bash
# Probe 993: what a new connection per request costs pure-load and wrk, call
# by call. nginx as in experiment 026 (one worker on CPU 0, 64 files of
# 64 B); each client on CPU 1 (pure-load with GOMAXPROCS=1): pure-load
# built from BASE (default c59d803, before the lazy poller join) and from
# the work tree (HEAD), and Debian's wrk -H "Connection: close".
#   1. strace -f -c of each client, 64 connections, 2 s: sc-<tool>.txt
#      (system calls per request: divide by the requests in req-<tool>.txt);
#   2. strace -f -tt of each client (8 connections, 1 s) and of nginx's
#      worker meanwhile: seq-<tool>.txt, nginx-<tool>.txt (first 4000 lines);
#   3. ROUNDS rounds (default 3, order rotated) of 3 s, 64 connections,
#      under perf stat -a (IPIs, wakeups, switches) with the client's CPU
#      (/usr/bin/time) and nginx's worker CPU and voluntary switches
#      (/proc): one JSON line per run in counters.jsonl.
# Run it under the measurement lock: flock /work/measure.lock run.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
base=${BASE:-c59d803}
rounds=${ROUNDS:-3}
source "$repo/experiments/026-load-against-wrk/lab.sh"
lab_workdir probe993

(cd "$repo" && go build -o "$work/new" ./cmd/pure-load)
lab_build_pure_load "$repo" "$base" "$work/base"
commit=$(cd "$repo" && git rev-parse --short HEAD)

lab_nginx "$repo"
url="http://127.0.0.1:$port"

# client TOOL CONNS DUR: sets cmd, the client's command line
client() {
	case $1 in
	wrk) cmd=(taskset -c 1 /usr/bin/wrk -t1 -c"$2" -d"$3"s -H "Connection: close" "$url/docs/d00") ;;
	*) cmd=(env GOMAXPROCS=1 taskset -c 1 "$work/$1" -c "$2" -d "$3"s --close --json "$url") ;;
	esac
}
requests() { # TOOL OUTFILE
	if [[ $1 == wrk ]]; then awk '/requests in/ {print $1}' "$2"; else jq .requests "$2"; fi
}

for tool in wrk base new; do
	client $tool 64 2
	strace -f -c -o "$here/sc-$tool.txt" "${cmd[@]}" > "$work/out"
	requests $tool "$work/out" > "$here/req-$tool.txt"
	timeout 2 strace -tt -p "$worker" -o "$work/nginx.st" 2>/dev/null &
	sp=$!
	sleep 0.3
	client $tool 8 1
	strace -f -tt -o "$work/seq.st" "${cmd[@]}" > /dev/null
	wait $sp || true
	head -4000 "$work/seq.st" > "$here/seq-$tool.txt"
	head -4000 "$work/nginx.st" > "$here/nginx-$tool.txt"
	sleep 1
done

tools=(wrk base new)
: > "$here/counters.jsonl"
for round in $(seq "$rounds"); do
	for k in 0 1 2; do
		tool=${tools[(round - 1 + k) % 3]}
		c0=$(awk '{print $14 + $15}' "/proc/$worker/stat")
		v0=$(awk '/^voluntary/ {print $2}' "/proc/$worker/status")
		client $tool 64 3
		perf stat -a -x, -o "$work/perf.csv" \
			-e ipi:ipi_send_cpu,sched:sched_wakeup,sched:sched_switch,irq_vectors:call_function_single_entry,irq_vectors:reschedule_entry \
			-- /usr/bin/time -f '%U %S %w %c' -o "$work/time" "${cmd[@]}" > "$work/out"
		c1=$(awk '{print $14 + $15}' "/proc/$worker/stat")
		v1=$(awk '/^voluntary/ {print $2}' "/proc/$worker/status")
		jq -c -n --arg tool "$tool" --argjson round "$round" --argjson order $((k + 1)) \
			--argjson requests "$(requests $tool "$work/out")" \
			--argjson time "$(awk '{printf "{\"user_s\":%s,\"sys_s\":%s,\"vol_cs\":%s,\"invol_cs\":%s}", $1, $2, $3, $4}' "$work/time")" \
			--argjson perf "$(awk -F, '$1 ~ /^[0-9]+$/ {printf "%s\"%s\":%s", (n++ ? "," : "{"), $3, $1} END {print "}"}' "$work/perf.csv")" \
			--argjson ncpu "$(awk -v a="$c0" -v b="$c1" -v t="$(getconf CLK_TCK)" 'BEGIN {print (b - a) / t}')" \
			--argjson nvcs $((v1 - v0)) --arg commit "$commit" --arg base "$base" \
			--argjson load "$(cut -d' ' -f1 /proc/loadavg)" --arg at "$(date -u +%FT%TZ)" \
			'{probe: "993", tool: $tool, round: $round, order: $order, requests: $requests} + $time +
			 {nginx_cpu_s: $ncpu, nginx_vol_cs: $nvcs, perf: $perf, commit: $commit, base: $base, loadavg: $load, at: $at}' >> "$here/counters.jsonl"
		tail -1 "$here/counters.jsonl"
	done
done
"$here/summ.py" > /dev/null
