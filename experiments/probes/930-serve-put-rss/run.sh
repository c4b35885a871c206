#!/usr/bin/env bash
# Probe 930: what pure-serve's peak RSS under durable PUTs is made of,
# against the crash-safe net/http baseline's, under the same requests
# (18,000 PUTs from 64 writers, as the harness's put-64c-same), because the
# harness records only the peak (VmHWM) and issue 11 asks for half of the
# baseline's.
#
# Builds pure-serve and pure-baseline statically (as `just http` does),
# then ROUNDS times, the order alternating, holding /work/measure.lock
# for the round: each server on CPU 0, pure-load on CPU 1; after a 1 s
# rest the peak is reset, the PUTs run, and right after them the
# process's VmHWM, VmRSS, RssAnon, RssFile and, from smaps, the resident
# KiB of its binary's mappings and of the store file's mapping are read.
# Output: runs.jsonl (one line per server and round); note.py writes
# note.md.
#
# Usage: experiments/probes/930-serve-put-rss/run.sh   ROUNDS=3 PUTS=18000
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
rounds=${ROUNDS:-3}
puts=${PUTS:-18000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/930.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && CGO_ENABLED=0 go build -o "$tmp/pure-serve" ./cmd/pure-serve &&
  CGO_ENABLED=0 go build -tags nosqlite -o "$tmp/pure-baseline" ./cmd/pure-baseline &&
  go build -o "$tmp/pure-load" ./cmd/pure-load)
rev=$(git -C "$root" rev-parse --short HEAD)
out="$here/runs.jsonl"
: > "$out"

one() { # one NAME ROUND POS
  local name=$1 round=$2 pos=$3 d
  d=$(mktemp -d "$tmp/data.XXXXXX")
  case $name in
    pure-serve) taskset -c 0 "$tmp/pure-serve" --data "$d" --addr 127.0.0.1:0 >"$d/out" 2>"$d/err" & ;;
    nethttp-crashsafe) taskset -c 0 "$tmp/pure-baseline" --impl nethttp --mode crashsafe --data "$d" --addr 127.0.0.1:0 >"$d/out" 2>"$d/err" & ;;
  esac
  local pid=$!
  for _ in $(seq 100); do grep -q listening "$d/out" 2>/dev/null && break; sleep 0.05; done
  local addr; addr=http://$(head -1 "$d/out" | cut -d' ' -f2)
  sleep 1
  echo 5 >"/proc/$pid/clear_refs"
  local load; load=$(taskset -c 1 "$tmp/pure-load" -n "$puts" --workload put --json "$addr")
  local status smaps
  status=$(grep -E '^(VmHWM|VmRSS|RssAnon|RssFile):' "/proc/$pid/status" | awk '{k = tolower($1); sub(":", "", k); printf "\"%s_kib\":%s,", k, $2}')
  smaps=$(awk -v bin="$tmp/" -v data="$d/" '
    /^[0-9a-f]+-/ { name = $6 }
    /^Rss:/ { if (index(name, data) == 1) st += $2; else if (index(name, bin) == 1) b += $2 }
    END { printf "\"binary_kib\":%d,\"store_file_kib\":%d", b, st }' "/proc/$pid/smaps")
  kill "$pid"; wait "$pid" 2>/dev/null || true
  printf '{"probe":930,"rev":"%s","server":"%s","round":%d,"position":%d,"puts":%d,%s%s,"load":%s}\n' \
    "$rev" "$name" "$round" "$pos" "$puts" "$status" "$smaps" "$load" | tee -a "$out" | cut -c1-200
  rm -rf "$d"
}

for r in $(seq "$rounds"); do
  if (( r % 2 )); then order="pure-serve nethttp-crashsafe"; else order="nethttp-crashsafe pure-serve"; fi
  flock /work/measure.lock bash -c "$(declare -f one); tmp='$tmp' rev='$rev' puts='$puts' out='$out'; p=0; for s in $order; do p=\$((p+1)); one \$s $r \$p; done"
done
python3 "$here/note.py"
