#!/usr/bin/env bash
# Probe 939: how many bytes issue 11's durable-PUT workload (put-64c: 64
# writers, each PUT prepends 16 B to its writer's document, If-Match from
# the last ETag) makes a server write, and whether this machine's device
# could take the 20x-the-crash-safe-baseline rate the target asks for.
# Each round, the servers' order rotated: pure-serve --data, pure-serve
# --ram and the net/http crash-safe baseline, each on CPU 0 with a fresh
# data directory, pure-load -c 64 --workload put on CPU 1 for DUR; per run
# the 2xx, the server's CPU (/proc/PID/stat), the bytes it caused to be
# written to storage and the bytes it read (/proc/PID/io: write_bytes,
# rchar), the size of one writer's document at the end and the data
# directory's apparent size (du -sb) once the server stopped. Then the
# device, with nothing else of ours running: 1 GiB of 1 MiB writes with
# one fdatasync at the end, and 64 KiB writes each synced (O_DSYNC, 256
# MiB). Holds /work/measure.lock. One JSON line per measurement goes to
# runs.jsonl; note.py writes note.md from it alone.
# Usage: experiments/probes/939-serve-put-bytes/run.sh   ROUNDS=2 DUR=5s
#        run.sh note: only regenerate note.md
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../../.." && pwd)
if [[ ${1:-} == note ]]; then python3 "$here/note.py" "$here"; exit 0; fi
rounds=${ROUNDS:-2} dur=${DUR:-5s}
tmp=$(mktemp -d "$here/.run.XXXXXX") # on the same disk as the data a user keeps here
trap 'set +e; kill $(jobs -p) 2>/dev/null; wait 2>/dev/null; rm -rf "$tmp"' EXIT
(cd "$root" && CGO_ENABLED=0 go build -o "$tmp/ps" ./cmd/pure-serve &&
  CGO_ENABLED=0 go build -tags nosqlite -o "$tmp/pb" ./cmd/pure-baseline &&
  go build -o "$tmp/pl" ./cmd/pure-load)
rev=$(git -C "$root" rev-parse --short HEAD)
out=$here/runs.jsonl
: > "$out"
python3 - "$out" "$tmp" "$rev" <<'PY'
import json, os, platform, subprocess, sys
cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown")
fs = subprocess.run(["findmnt", "-no", "FSTYPE", "--target", sys.argv[2]], capture_output=True, text=True).stdout.strip()
print(json.dumps({"kind": "meta", "rev": sys.argv[3], "cpu": cpu, "cpus": os.cpu_count(), "kernel": platform.release(), "fs": fs}), file=open(sys.argv[1], "a"))
PY
exec 9> /work/measure.lock; flock 9
servers=(pure-data pure-ram nethttp-crashsafe)
for ((round = 1; round <= rounds; round++)); do
  for ((i = 0; i < ${#servers[@]}; i++)); do
    s=${servers[$(( (i + round - 1) % ${#servers[@]} ))]}
    rm -rf "$tmp/d"; mkdir "$tmp/d"
    case $s in
      pure-data) cmd=("$tmp/ps" --addr 127.0.0.1:0 --data "$tmp/d") ;;
      pure-ram) cmd=("$tmp/ps" --addr 127.0.0.1:0 --ram) ;;
      nethttp-crashsafe) cmd=("$tmp/pb" --impl nethttp --mode crashsafe --addr 127.0.0.1:0 --data "$tmp/d") ;;
    esac
    taskset -c 0 "${cmd[@]}" > "$tmp/srv.out" 2>&1 &
    pid=$!
    addr=
    for _ in $(seq 100); do
      addr=$(grep -o '127.0.0.1:[0-9]*' "$tmp/srv.out" | head -1 || true)
      [ -n "$addr" ] && break; sleep 0.05
    done
    [ -n "$addr" ] || { echo "939: $s did not start: $(cat "$tmp/srv.out")" >&2; exit 1; }
    read -r c0 < <(awk '{print $14+$15}' "/proc/$pid/stat")
    read -r w0 r0 < <(awk '/^write_bytes/{w=$2} /^rchar/{r=$2} END{print w, r}' "/proc/$pid/io")
    taskset -c 1 "$tmp/pl" -c 64 -d "$dur" --workload put --json "http://$addr" > "$tmp/load.json"
    read -r c1 < <(awk '{print $14+$15}' "/proc/$pid/stat")
    read -r w1 r1 < <(awk '/^write_bytes/{w=$2} /^rchar/{r=$2} END{print w, r}' "/proc/$pid/io")
    doc=$(curl -s -o /dev/null -w '%{size_download}' "http://$addr/docs/w0")
    kill "$pid"; wait "$pid" 2>/dev/null || true
    data=$(du -sb "$tmp/d" | cut -f1)
    python3 - "$out" "$tmp/load.json" "$s" "$round" "$c0" "$c1" "$w0" "$w1" "$r0" "$r1" "$doc" "$(getconf CLK_TCK)" "$data" <<'PY'
import json, sys
out, load, s, rnd, c0, c1, w0, w1, r0, r1, doc, tck, data = sys.argv[1:]
l = json.load(open(load))
rec = {"kind": "put", "server": s, "round": int(rnd), "duration_s": l["duration_s"], "ok": l["ok"],
       "non2xx": l["non2xx"], "errors": sum(l["errors"].values()),
       "server_cpu_s": (int(c1) - int(c0)) / int(tck), "write_bytes": int(w1) - int(w0),
       "read_bytes": int(r1) - int(r0), "doc_w0_bytes": int(doc), "data_dir_bytes": int(data)}
print(json.dumps(rec), file=open(out, "a"))
PY
  done
done
# The device, on the same filesystem.
big=$( { dd if=/dev/zero of="$tmp/dd" bs=1M count=1024 conv=fdatasync 2>&1 >/dev/null; } | tail -1)
rm -f "$tmp/dd"
dsync=$( { dd if=/dev/zero of="$tmp/dd" bs=64K count=4096 oflag=dsync 2>&1 >/dev/null; } | tail -1)
rm -f "$tmp/dd"
python3 - "$out" "$big" "$dsync" <<'PY'
import json, re, sys
out, big, dsync = sys.argv[1:]
def parse(line, what):
    m = re.match(r"(\d+) bytes .* copied, ([0-9.]+) s", line)
    return {"kind": "device", "what": what, "bytes": int(m.group(1)), "seconds": float(m.group(2))}
with open(out, "a") as f:
    print(json.dumps(parse(big, "1 MiB writes, one fdatasync at the end")), file=f)
    print(json.dumps(parse(dsync, "64 KiB writes, each synced (O_DSYNC)")), file=f)
PY
python3 "$here/note.py" "$here"
echo "939: wrote $out and $here/note.md" >&2
