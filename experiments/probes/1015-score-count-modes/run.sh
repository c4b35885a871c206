#!/usr/bin/env bash
# Probe 1015: the score-64c callgrind count of `just pairs suite=http`,
# repeated in fresh processes with each dump kept, to find what makes
# (Ir(N2) - Ir(N1)) / (N2 - N1) bimodal (experiment 168: 10.4k or 15k).
# usage: [CONNS=64] [WORKLOAD=score] [PIPE=1] [RAM=1] [TAG=x] [OUT=DIR] [KEEP=1] [CGARGS=...]
#        run.sh REV PASSES N [ENV...]   (ENV: extra settings for the server)
# WORKLOAD get or big seeds the store first, as the pairs runner does; RAM=1 runs --ram;
# DATA_IN=DIR makes the data directories there (default /tmp, on the disk).
# PRE_LOAD=D runs durable score POSTs natively for D before each counted process (the
# pairs runner's timed windows come before its counts); PRE_SYNC=1 then runs sync(1).
# NOPROCS=X (any word without "=", like -i... no: use NOPROCS=" ") leaves GOMAXPROCS unset, as the
# pairs runner does since 04cef64: pure-serve picks its Ps itself.
set -euo pipefail
rev=${1:?REV}; passes=${2:-6}; n=${3:-6000}; shift 3 || true
conns=${CONNS:-64}; workload=${WORKLOAD:-score}; pipe=${PIPE:-1}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/p1015.XXXX)
git -C /work/main worktree add -q --detach "$work/src" "$rev"
(cd "$work/src" && CGO_ENABLED=0 go build -o "$work/ps" ./cmd/pure-serve && CGO_ENABLED=0 go build -o "$work/pl" ./cmd/pure-load)
short=$(git -C /work/main rev-parse --short "$rev")
out=${OUT:-"$here/out-$short${TAG:+-$TAG}"}; mkdir -p "$out"
for p in $(seq 1 "$passes"); do
  if [ -n "${PRE_LOAD:-}" ]; then # durable score POSTs natively first, as the pairs runner's timed windows
    pre=$(mktemp -d "${DATA_IN:-/tmp}/p1015pre.XXXX")
    taskset -c 1 "$work/ps" --addr 127.0.0.1:0 --data "$pre" > "$work/pre.stdout" 2>/dev/null &
    prepid=$!
    for i in $(seq 1 100); do grep -q listening "$work/pre.stdout" 2>/dev/null && break; sleep 0.1; done
    GOMAXPROCS=1 taskset -c 0 "$work/pl" --workload score -c 64 -d "$PRE_LOAD" --json "http://$(grep -o 'listening [^ ]*' "$work/pre.stdout" | cut -d' ' -f2)" > /dev/null
    kill $prepid; wait $prepid 2>/dev/null || true; rm -rf "$pre"
    [ -n "${PRE_SYNC:-}" ] && sync
  fi
  data=$(mktemp -d "${DATA_IN:-/tmp}/p1015d.XXXX")
  cg="$out/pass$p.callgrind"
  rm -f "$cg" "$cg".1* "$cg.log"
  env GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off ${NOPROCS:-GOMAXPROCS=1} GOGC=off "$@" \
    setarch x86_64 -R taskset -c 1 valgrind --tool=callgrind --callgrind-out-file="$cg" --log-file="$cg.log" ${CGARGS:-} \
    "$work/ps" --addr 127.0.0.1:0 $( [ -n "${RAM:-}" ] && echo --ram || echo --data "$data" ) > "$work/stdout" 2> "$work/stderr" &
  pid=$!
  for i in $(seq 1 600); do grep -q listening "$work/stdout" 2>/dev/null && break; sleep 0.1; done
  addr=$(grep -o 'listening [^ ]*' "$work/stdout" | cut -d' ' -f2)
  case $workload in get|big) "$work/pl" --workload seed "http://$addr" > /dev/null;; esac
  sleep 1
  GOMAXPROCS=1 taskset -c 0 "$work/pl" --workload "$workload" -c "$conns" --pipeline "$pipe" -n "$n" --timeout 1m --json "http://$addr" > "$out/pass$p.load.json"
  vgdb --pid=$pid dump > /dev/null
  kill -9 $pid; wait $pid 2>/dev/null || true
  rm -rf "$data"
  ir=$(cat "$cg".1* | grep "^totals:" | awk "{s+=\$2} END {print s}")
  echo "{\"pass\":$p,\"rev\":\"$short\",\"n\":$n,\"workload\":\"$workload\",\"conns\":$conns,\"pipeline\":$pipe,\"ram\":\"${RAM:-}\",\"env\":\"$*\",\"ir\":$ir}" | tee -a "$out/passes.jsonl"
  if [ -n "${KEEP:-}" ]; then for f in "$cg".1*; do mv "$f" "$out/n$n-$(basename "$f")"; done; fi
done
git -C /work/main worktree remove --force "$work/src"; rm -rf "$work"
