#!/bin/bash
# rps off, then on (lo's receive work steered to CPU 1, the load's), then off again; restores 0 at the end.
set -u
cd /work/main
trap 'echo 0 > /sys/class/net/lo/queues/rx-0/rps_cpus' EXIT
for m in off on off2; do
  if [[ $m == on ]]; then echo 2 > /sys/class/net/lo/queues/rx-0/rps_cpus; else echo 0 > /sys/class/net/lo/queues/rx-0/rps_cpus; fi
  echo "== $m rps_cpus=$(cat /sys/class/net/lo/queues/rx-0/rps_cpus)"
  go run ./cmd/pure-http run rounds=3 duration=5s servers=pure-serve,nethttp-memory,fasthttp-memory work=big-8c,get-64c exp=965-rps-$m  # then moved into experiments/probes/965-serve-1mib-rps/$m 2>&1 | tail -2
done
