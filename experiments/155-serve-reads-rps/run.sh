#!/usr/bin/env bash
# Experiment 155: issue 11's reads with the loopback receive path moved off the server's CPU.
# Over loopback the kernel runs the receive side of every answer (tcp_v4_rcv into the
# client's socket, in softirq) on the sending CPU, so the server's CPU-seconds include the
# client's receive processing (probe 937: pure-serve's own code is 2-3 % of a 1 MiB GET's
# CPU). Receive packet steering on lo with only the load's CPU in the mask
# (/sys/class/net/lo/queues/rx-0/rps_cpus) queues every packet to that CPU's backlog, as a
# client on another machine would take its receive side off the server. Each pass runs
# `pure-http run` (servers on CPU 0, pure-load on CPU 1) once with RPS to CPU 1 ("on") and
# once without ("off", this machine's default), ORDER giving which goes first; the mask is
# restored on exit. Runs go to on/ and off/ (a pass's second run appends a suffix).
# Usage (as root, lock held): flock /work/measure.lock experiments/155-serve-reads-rps/run.sh ROUNDS DURATION ORDER SUFFIX
#   e.g. run.sh 3 5s on,off 1
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
rounds=${1:?ROUNDS} dur=${2:?DURATION} order=${3:?ORDER like on,off} sfx=${4:?SUFFIX}
mask=/sys/class/net/lo/queues/rx-0/rps_cpus
was=$(cat "$mask")
trap 'echo "$was" > "$mask"' EXIT
servers=pure-serve,nethttp-memory,fasthttp-memory,nginx
for mode in ${order//,/ }; do
  case $mode in on) echo 2 > "$mask" ;; off) echo 0 > "$mask" ;; *) echo "mode $mode: want on or off" >&2; exit 2 ;; esac
  echo "$mode: rps_cpus=$(cat "$mask") $(date -u +%FT%TZ) load $(cut -d' ' -f1-3 /proc/loadavg)"
  exp=155-rps-$mode-$sfx
  (cd "$root" && go run ./cmd/pure-http run rounds="$rounds" duration="$dur" servers=$servers work=big-8c,get-64c exp="$exp")
  mkdir -p "$here/$mode-$sfx"
  mv "$root/experiments/$exp"/* "$here/$mode-$sfx/"
  rmdir "$root/experiments/$exp"
done
