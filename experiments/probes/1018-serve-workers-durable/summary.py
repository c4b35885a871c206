#!/usr/bin/env python3
"""summary.py RUNS.jsonl: per workload, the rounds' ratios of --workers 2 to
--workers 1 (2xx/s and 2xx per server CPU-s) and POSTs or PUTs per sync, for
probe 1018."""
import json, statistics, sys
runs = [json.loads(l) for l in open(sys.argv[1])]
for wl in dict.fromkeys(r["workload"] for r in runs):
    by = {(r["round"], r["workers"]): r for r in runs if r["workload"] == wl}
    rounds = sorted({k[0] for k in by})
    rate = [by[(r, 2)]["ok_per_s"] / by[(r, 1)]["ok_per_s"] for r in rounds]
    cpu = [by[(r, 2)]["ok_per_server_cpu_s"] / by[(r, 1)]["ok_per_server_cpu_s"] for r in rounds]
    per = {w: statistics.median(by[(r, w)]["ok"] / max(by[(r, w)]["publications"], 1) for r in rounds) for w in (1, 2)}
    print(f"{wl}: 2xx/s ratio median {statistics.median(rate):.3f} (rounds {' '.join(f'{x:.2f}' for x in rate)}), "
          f"per server CPU-s {statistics.median(cpu):.3f} (rounds {' '.join(f'{x:.2f}' for x in cpu)}); "
          f"2xx per publication: workers 1 {per[1]:.1f}, workers 2 {per[2]:.1f}")
