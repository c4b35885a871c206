#!/usr/bin/env bash
# Experiment 159, by hand: how much anonymous memory one large PUT leaves in pure-serve --data.
# For each body size (256 KiB, 1 MiB, 4 MiB of random bytes): a fresh pure-serve (built
# CGO_ENABLED=0 from REV, and with GOEXPERIMENT=nogreenteagc, Go's previous collector, as a
# second build) on CPU 0, 64 small PUTs by curl, 1 s rest, its anonymous RSS (smaps, mappings
# with no file); one PUT of the large body; 1.5 s rest; the anonymous RSS again.
# SIZES (bytes, default "262144 1048576 4194304") and BUILDS (default "gt nogt") choose.
# Usage (lock held): flock /work/measure.lock experiments/159-serve-rss-at-rest/after-put.sh REV > after-put.jsonl
set -euo pipefail
rev=${1:?REV}
here=$(cd "$(dirname "$0")" && pwd) root=$(cd "$here/../.." && pwd)
tmp=$(mktemp -d); pid=; trap '[[ -n $pid ]] && kill -9 $pid 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && git archive "$rev" | tar -x -C "$tmp")
(cd "$tmp" && CGO_ENABLED=0 go build -o gt ./cmd/pure-serve && GOEXPERIMENT=nogreenteagc CGO_ENABLED=0 go build -o nogt ./cmd/pure-serve)
cd "$tmp"
head -c 64 /dev/urandom | base64 | head -c 64 > small
sizes=${SIZES:-262144 1048576 4194304}
for n in $sizes; do head -c $n /dev/urandom > body-$n; done
anon() { awk '/^[0-9a-f]+-[0-9a-f]+ /{n=$6} /^Rss:/{if (n=="") a+=$2} END{print a}' /proc/$pid/smaps; }
for bin in ${BUILDS:-gt nogt}; do
  for n in $sizes; do
    rm -rf d; mkdir d
    taskset -c 0 ./$bin --data d --addr 127.0.0.1:0 > srv.out 2>&1 & pid=$!
    for _ in $(seq 50); do grep -q listening srv.out 2>/dev/null && break; sleep 0.1; done
    addr=$(grep -o "127.0.0.1:[0-9]*" srv.out | head -1)
    for i in $(seq -w 0 63); do curl -s -o /dev/null -X PUT --data-binary @small "http://$addr/docs/d$i"; done
    sleep 1; a0=$(anon)
    curl -s -o /dev/null -X PUT --data-binary @body-$n "http://$addr/docs/big"
    sleep 1.5; a1=$(anon)
    echo "{\"build\":\"$bin\",\"body_bytes\":$n,\"anon_before_kib\":$a0,\"anon_after_kib\":$a1,\"delta_kib\":$((a1 - a0))}"
    kill $pid; wait $pid 2>/dev/null || true; pid=
  done
done
