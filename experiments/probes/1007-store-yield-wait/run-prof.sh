#!/usr/bin/env bash
# Probe 1007, where the CPU goes: one 3 s cell of pure alone at 64 writers per build left in
# /tmp/spin by run.sh, with pure-kvbench -cpuprofile (profile-NAME.pb.gz, records kv64-prof.jsonl
# with "build" added); then `go tool pprof -top` and -peek (clock reads, Gosched, the
# polling loop) of each into profile-NAME.txt. Run under the lock.
# Usage: flock /work/measure.lock experiments/probes/1007-store-yield-wait/run-prof.sh main yield > run-prof.log 2>&1
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
echo "start $(date -u +%FT%TZ); $(uptime)"
: >"$here/kv64-prof.jsonl"
for b in "$@"; do
  "/tmp/spin/$b" -only writes -contenders pure -writers 64 -rounds 1 -duration 3s -probe 10 -cpuprofile "$here/profile-$b.pb.gz" -out "$tmp/p.jsonl" -dir "$tmp" >/dev/null 2>&1
  sed "s/^{/{\"build\":\"$b\",/" "$tmp/p.jsonl" >>"$here/kv64-prof.jsonl"
done
echo "done $(date -u +%FT%TZ); $(uptime)"
for b in "$@"; do
  { go tool pprof -top -nodecount=40 "/tmp/spin/$b" "$here/profile-$b.pb.gz"
    go tool pprof -peek 'runtime.nanotime$|runtime.goschedImpl$|waitYielding' "/tmp/spin/$b" "$here/profile-$b.pb.gz"; } >"$here/profile-$b.txt" 2>&1
done
