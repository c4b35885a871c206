#!/usr/bin/env bash
# Experiment 076: pure-serve --ram's peak RSS and rate under durable-style
# rewrites, before and after RAM mode's compaction trigger followed the
# live size (ca185c8), because pure-serve-ram peaked at 0.84-1.04 GB on
# put-64c in 061 and 066 while its live data was a few MB.
#
# Builds pure-serve at BEFORE and AFTER and pure-load at AFTER; then ROUNDS
# rounds, the builds' order alternating, holding /work/measure.lock for
# each round: each build on CPU 1 with --ram, pure-load on CPU 0 (seed,
# then the workload), and the server's VmHWM, its CPU (/proc/PID/stat) and
# its compaction count (none is printed: only VmHWM, rate and CPU) read
# when the load ends. Workloads: put-64c (64 writers, each PUT prepends
# 16 B to its own document, DUR long) and put-64c-same (18,000 PUTs);
# score-64c (DUR of score POSTs). One JSON line per cell in runs.jsonl;
# note.py writes note.md from it.
#
# Usage: experiments/076-ram-compact/run.sh        BEFORE=f1ee9bd AFTER=HEAD ROUNDS=3 DUR=5s
#        experiments/076-ram-compact/run.sh note   (only note.md)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
if [ "${1:-}" = note ]; then exec python3 "$here/note.py" "$here"; fi
before=${BEFORE:-f1ee9bd}; after=${AFTER:-HEAD}; rounds=${ROUNDS:-3}; dur=${DUR:-5s}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/076.XXXXXX")
trap 'set +e; kill $(jobs -p) 2>/dev/null; git -C "$root" worktree remove --force "$tmp/wt" 2>/dev/null; rm -rf "$tmp"' EXIT
git -C "$root" worktree add -q --detach "$tmp/wt" "$before"
(cd "$tmp/wt" && CGO_ENABLED=0 go build -o "$tmp/ps-before" ./cmd/pure-serve)
git -C "$tmp/wt" checkout -q --detach "$(git -C "$root" rev-parse "$after")"
(cd "$tmp/wt" && CGO_ENABLED=0 go build -o "$tmp/ps-after" ./cmd/pure-serve && go build -o "$tmp/pl" ./cmd/pure-load)
bc=$(git -C "$root" rev-parse --short "$before"); ac=$(git -C "$root" rev-parse --short "$after")
out="$here/runs.jsonl"; : > "$out"
cell() { # build workload
  local b=$1 w=$2 pid addr t0 t1 hwm res args
  taskset -c 1 "$tmp/ps-$b" --addr 127.0.0.1:0 --ram > "$tmp/ps.out" 2>&1 &
  pid=$!
  addr=
  for _ in $(seq 100); do addr=$(grep -so '127.0.0.1:[0-9]*' "$tmp/ps.out" | head -1 || true); [ -n "$addr" ] && break; sleep 0.05; done
  taskset -c 0 "$tmp/pl" --workload seed "http://$addr" > /dev/null
  case $w in
    put-64c) args=(--workload put -c 64 -d "$dur") ;;
    put-64c-same) args=(--workload put -c 64 -n 18000) ;;
    score-64c) args=(--workload score -c 64 -d "$dur") ;;
  esac
  t0=$(awk '{print $14+$15}' "/proc/$pid/stat")
  res=$(taskset -c 0 "$tmp/pl" "${args[@]}" --json "http://$addr")
  t1=$(awk '{print $14+$15}' "/proc/$pid/stat")
  hwm=$(awk '/VmHWM/{print $2}' "/proc/$pid/status")
  kill $pid; wait $pid 2> /dev/null || true
  python3 - "$b" "$w" "$r" "$hwm" "$t0" "$t1" "$res" "${bc}" "${ac}" >> "$out" <<'PY'
import json, sys
b, w, r, hwm, t0, t1, res, bc, ac = sys.argv[1:]
j = json.loads(res)
print(json.dumps({"build": b, "commit": bc if b == "before" else ac, "workload": w, "round": int(r),
                  "peak_rss_kib": int(hwm), "server_cpu_s": (int(t1) - int(t0)) / 100,
                  "ok": j["ok"], "ok_per_s": j["ok_per_s"], "errors": sum(j["errors"].values()), "non2xx": j["non2xx"]}))
PY
}
exec 9> /work/measure.lock
for r in $(seq "$rounds"); do
  flock 9
  if [ $((r % 2)) = 1 ]; then order="before after"; else order="after before"; fi
  for w in put-64c put-64c-same score-64c; do
    for b in $order; do cell "$b" "$w"; done
  done
  flock -u 9
done
python3 "$here/note.py" "$here"
