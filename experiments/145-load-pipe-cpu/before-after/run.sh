#!/usr/bin/env bash
# Experiment 145: pure-load before and after a change, on issue 11's
# pipelined small GETs (cmd/pure-http's get-pipe16: 64 connections, 16
# requests per batch, GOMAXPROCS=1 pinned to CPU 1) against pure-serve
# --data DIR (durable, as cmd/pure-http runs it for get-pipe16) and
# fasthttp-memory (pure-baseline), each pinned to CPU 0, as cmd/pure-http
# starts them: a fresh server (and data directory) per run on a free loopback
# port, seeded with pure-load's seed workload, a second's rest, then DUR
# seconds of load. Tools: pure-load built from BASE and from
# the work tree ("new"). Each round runs every server with both tools, the
# order of the four runs rotated by one each round. One JSON line per run
# in runs.jsonl: the tool's JSON line, the server's CPU seconds over the
# load (utime+stime of all its threads, /proc/PID/stat) and the load
# average. note.md is generated from runs.jsonl by note.py.
# Usage: flock /work/measure.lock experiments/145-load-pipe-cpu/before-after/run.sh
#   ROUNDS=3 DUR=5 BASE=0839904 (main where the branch forked; the defaults)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
rounds=${ROUNDS:-3}
dur=${DUR:-5}
base=${BASE:-0839904}
work=$(mktemp -d /tmp/exp145.XXXXXX)
srv_pid=
cleanup() {
	if [[ -n $srv_pid ]]; then kill "$srv_pid" 2>/dev/null || true; wait "$srv_pid" 2>/dev/null || true; fi
	rm -rf "$work"
}
trap cleanup EXIT
export CGO_ENABLED=0
(cd "$repo" && go build -o "$work/new" ./cmd/pure-load && go build -o "$work/pure-serve" ./cmd/pure-serve &&
	go build -o "$work/pure-baseline" ./cmd/pure-baseline)
(cd "$repo" && git worktree add -q --detach "$work/base-src" "$base")
(cd "$work/base-src" && go build -o "$work/base" ./cmd/pure-load)
(cd "$repo" && git worktree remove --force "$work/base-src")
commit=$(cd "$repo" && git rev-parse --short HEAD)
basec=$(cd "$repo" && git rev-parse --short "$base")

start() { # SERVER: starts it on CPU 0, sets srv_pid and url
	case $1 in
	pure-serve) rm -rf "$work/data"; mkdir "$work/data"
		taskset -c 0 "$work/pure-serve" --addr 127.0.0.1:0 --data "$work/data" > "$work/srv.out" 2> "$work/srv.err" & ;;
	fasthttp-memory) taskset -c 0 "$work/pure-baseline" --impl fasthttp --mode memory --addr 127.0.0.1:0 > "$work/srv.out" 2> "$work/srv.err" & ;;
	esac
	srv_pid=$!
	for _ in $(seq 100); do grep -q listening "$work/srv.out" && break; sleep 0.05; done
	url="http://$(awk '/listening/ {print $NF; exit}' "$work/srv.out")"
}
stop() { kill "$srv_pid"; wait "$srv_pid" 2>/dev/null || true; srv_pid=; }
cpu() { awk -v t="$(getconf CLK_TCK)" '{print ($14 + $15) / t}' "/proc/$srv_pid/stat"; }

runs=("pure-serve new" "pure-serve base" "fasthttp-memory new" "fasthttp-memory base")
: > "$here/runs.jsonl"
for round in $(seq "$rounds"); do
	for k in 0 1 2 3; do
		read -r server tool <<< "${runs[(round - 1 + k) % 4]}"
		start "$server"
		GOMAXPROCS=1 taskset -c 1 "$work/$tool" --workload seed --json "$url" > /dev/null
		sleep 1
		c0=$(cpu)
		la=$(cut -d' ' -f1 /proc/loadavg)
		GOMAXPROCS=1 taskset -c 1 "$work/$tool" --workload get -c 64 --pipeline 16 -d "${dur}s" --json "$url" > "$work/out"
		c1=$(cpu)
		stop
		jq -c --arg server "$server" --arg tool "$tool" --argjson round "$round" --argjson order $((k + 1)) \
			--argjson scpu "$(awk -v a="$c0" -v b="$c1" 'BEGIN {print b - a}')" --arg commit "$commit" --arg base "$basec" \
			--argjson load "$la" --arg at "$(date -u +%FT%TZ)" \
			'{exp: "145", server: $server, tool: $tool, round: $round, order: $order, server_cpu_s: $scpu,
			  ok_per_server_cpu_s: (.ok / $scpu), client_cpu_us_per_req: (.client_cpu_s / .requests * 1e6),
			  commit: $commit, base: $base, loadavg: $load, at: $at, load: .}' "$work/out" >> "$here/runs.jsonl"
		tail -1 "$here/runs.jsonl" | jq -c '{server, tool, round, ok_per_s: .load.ok_per_s, server_cpu_s, ok_per_server_cpu_s, client_cpu_s: .load.client_cpu_s, client_cpu_us_per_req}'
	done
done
python3 "$here/note.py" "$here/runs.jsonl" > "$here/note.md"
