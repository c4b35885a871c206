#!/bin/bash
# Experiment 105's A/B script (it ran from /tmp/serve12-hunt as hunt2.sh; pure-load and the
# servers built with CGO_ENABLED=0, as `just http` builds them: before = f3fbb37, after = 1e0bc21).
#   load-ab.jsonl:    for k in 1..5: flock /work/measure.lock ./run.sh 12 OUT 2 pure-serve-before pure-serve-after
#   seed-hold.jsonl:  ./run.sh 100 OUT 0 pure-serve-before pure-serve-hold   (no lock; see findings.md)
#   seed-twice.jsonl: ./run.sh 100 OUT 0 pure-serve-before pure-serve-twice  (dropped-freeosmemory-twice.patch)
# The files here are its output with the binaries named as sides and builds.
# hunt-diag.sh is the diagnosis loop (one binary; SIG=1 sends SIGUSR1 at rest for spikedebug.patch's
# dump, GODEBUGX is the server's GODEBUG, pagemap.py lists the heap's resident pages).
#
# run.sh N OUT LOADSECS BIN... : N rounds; each round runs every BIN once (order rotated by round):
# start pinned to cpu 0 with a fresh --data, seed (pure-load on cpu 1), rest 1 s, VmRSS/RssAnon
# and runtime-free snapshot at rest, peak reset (clear_refs 5), LOADSECS of get-64c (0: none), VmHWM.
N=$1; OUT=$2; LS=$3; shift 3; BINS=("$@")
L=${PURE_LOAD:-/tmp/serve12-hunt/pure-load}
mkdir -p $OUT
for i in $(seq 1 $N); do
  k=${#BINS[@]}
  for j in $(seq 0 $((k-1))); do
    BIN=${BINS[$(( (i+j) % k ))]}
    d=$(mktemp -d /tmp/serve12-hunt/data.XXXX)
    coproc SRV { exec taskset -c 0 $BIN --addr 127.0.0.1:0 --data $d 2>/dev/null; }
    read -r line <&${SRV[0]}
    addr=${line#listening }; pid=$SRV_PID
    GOMAXPROCS=1 taskset -c 1 $L --json --workload seed http://$addr >/dev/null
    sleep 1
    rest=$(awk '/^VmRSS/{print $2}' /proc/$pid/status); ra=$(awk '/^RssAnon/{print $2}' /proc/$pid/status)
    echo 5 > /proc/$pid/clear_refs
    ok=0
    if [ "$LS" != 0 ]; then ok=$(GOMAXPROCS=1 taskset -c 1 $L --json --workload get -c 64 -d ${LS}s http://$addr | python3 -c 'import sys,json; print(json.load(sys.stdin)["ok"])'); fi
    hwm=$(awk '/^VmHWM/{print $2}' /proc/$pid/status)
    kill -TERM $pid; wait $pid 2>/dev/null; rm -rf $d
    echo "{\"round\":$i,\"bin\":\"$(basename $BIN)\",\"rest_rss_kib\":$rest,\"rest_anon_kib\":$ra,\"load_s\":$LS,\"ok\":$ok,\"peak_rss_kib\":$hwm,\"time\":\"$(date -u +%FT%TZ)\"}" | tee -a $OUT/runs.jsonl
  done
done
