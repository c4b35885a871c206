#!/usr/bin/env bash
# Experiment 032, diagnosis of the commit rates (writes only), after run.sh:
# two builds of pure-kvbench side by side, in ROUNDS rounds that alternate
# which goes first and rotate the contenders within each:
#   now:    pure, pure-noauto (automatic compaction off) and pebble
#   before: pure as of BEFORE (default 62c954a, the store before pipelined
#           group commit, as experiment 029 measured it), built from a
#           temporary worktree
# at 1, 8 and 64 writers, DURATION per cell. Lines go to diag.jsonl with
# "series":"diag", "binary" and the round; run.sh note reads them.
# Hold the machine's measurement lock: flock /work/measure.lock diag.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${OUT:-$here}
root=$(cd "$here/../.." && pwd)
rounds=${ROUNDS:-3} duration=${DURATION:-5s} before=${BEFORE:-62c954a}
tmp=$(mktemp -d /tmp/store-diag.XXXXXX)
trap 'git -C "$root" worktree remove --force "$tmp/before-src" 2>/dev/null; rm -rf "$tmp"' EXIT
cd "$root"
go build -o "$tmp/now" ./cmd/pure-kvbench
git worktree add --detach -q "$tmp/before-src" "$before"
(cd "$tmp/before-src" && go build -o "$tmp/before" ./cmd/pure-kvbench)
now_rev=$(git rev-parse --short HEAD) before_rev=$(git -C "$tmp/before-src" rev-parse --short HEAD)
: >"$tmp/diag.jsonl"
cell() { # cell BINARY ROUND CONTENDERS
  "$tmp/$1" -only writes -contenders "$3" -writers 1,8,64 -rounds 1 -duration "$duration" -probe 50 \
    -experiment 032-store-round2 -out "$tmp/cell.jsonl" -dir "$tmp" >&2
  python3 - "$tmp/cell.jsonl" "$1" "$2" "$([[ $1 == now ]] && echo "$now_rev" || echo "$before_rev")" >>"$tmp/diag.jsonl" <<'PY'
import json, sys
path, binary, rnd, rev = sys.argv[1:]
for l in open(path):
    r = json.loads(l)
    r.update(series="diag", binary=binary, round=int(rnd), rev=rev)
    print(json.dumps(r))
PY
}
orders=("pure,pure-noauto,pebble" "pure-noauto,pebble,pure" "pebble,pure,pure-noauto")
for ((r = 0; r < rounds; r++)); do
  if ((r % 2 == 0)); then
    cell now "$r" "${orders[r % 3]}"; cell before "$r" pure
  else
    cell before "$r" pure; cell now "$r" "${orders[r % 3]}"
  fi
done
cp "$tmp/diag.jsonl" "$out/diag.jsonl"
python3 "$here/note.py" "$out"
echo "wrote $out/diag.jsonl and $out/note.md" >&2
