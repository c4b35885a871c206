#!/usr/bin/env bash
# servecount.sh SERVE LOAD N OUT: total Ir of one pure-serve process (SERVE, a RAM store) under
# callgrind, seeded by pure-load (LOAD) and then sent N pipelined GETs of the seed's small
# documents (64 connections, depth 16): http.suite's get-pipe16 backend=callgrind, by hand.
# Prints N and the Ir; callgrind's files are OUT, OUT.1 (the dump) and OUT.log.
# Instructions per GET: run it for N1 and N2 and take (Ir(N2)-Ir(N1))/(N2-N1).
set -euo pipefail
serve=$1 loadbin=$2 n=$3 out=$4
rm -f "$out" "$out.1" "$out.log" "$out.stdout"
env GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off GOMAXPROCS=1 GOGC=off valgrind --tool=callgrind \
  --callgrind-out-file="$out" --log-file="$out.log" "$serve" --addr 127.0.0.1:0 --ram >"$out.stdout" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
for _ in $(seq 600); do grep -q '^listening' "$out.stdout" 2>/dev/null && break; sleep 0.1; done
addr=$(grep -m1 '^listening' "$out.stdout" | awk '{print $2}')
"$loadbin" --workload seed "http://$addr" >/dev/null
"$loadbin" --workload get -c 64 --pipeline 16 -n "$n" --timeout 2m --json "http://$addr" >"$out.load.json"
vgdb --pid=$pid dump >/dev/null
echo "$n $(grep -m1 '^summary:' "$out.1" | awk '{print $2}')"
