#!/bin/bash
# Probe 1012: the same servers and loads with loopback receive processing
# left where the kernel puts it (on the sending CPU) and steered by RFS to
# the CPU of the receiving socket's reader, as on two machines.
# Usage (measurement lock held, as root): run.sh PASSES DURATION WORK SERVERS
# Each pass runs pure-http twice, RFS off then on, or on then off on odd
# passes; each run writes its own directory under this probe.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
cd "$here/../../.."
passes=${1:-2} dur=${2:-3s} work=${3:-big-8c,get-64c} servers=${4:-pure-serve,nethttp-memory,fasthttp-memory,nginx}
q=/sys/class/net/lo/queues/rx-0
rfs() { # on|off
	if [ "$1" = on ]; then
		echo 32768 > /proc/sys/net/core/rps_sock_flow_entries
		echo 32768 > $q/rps_flow_cnt
		echo 3 > $q/rps_cpus
	else
		echo 0 > $q/rps_cpus
		echo 0 > $q/rps_flow_cnt
		echo 0 > /proc/sys/net/core/rps_sock_flow_entries
	fi
}
trap 'rfs off' EXIT
go build -o /tmp/pure-http-1012 ./cmd/pure-http
for p in $(seq 0 $((passes-1))); do
	order="off on"; [ $((p % 2)) = 1 ] && order="on off"
	for m in $order; do
		rfs $m
		/tmp/pure-http-1012 rounds=1 duration=$dur work=$work servers=$servers exp=probes/1012-loopback-rfs/pass$p-$m > /dev/null
	done
done
