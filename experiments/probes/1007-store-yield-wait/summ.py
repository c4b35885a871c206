#!/usr/bin/env python3
"""Probe 1007's second table: per build, over the rounds of each file, pure's
commits/s, its ratios to pebble's and to main's in the same round, CPU per
commit and CPUs busy (CPU per commit x commits/s; the VM has 2), syncs per
commit (and commits per sync), p50 and p99 commit latency, and pebble's
commits/s and CPU per commit in the same cells: median and range (min-max)
over the rounds. pairs-N.jsonl are
scripts/store-pairs64's records (tag 1007). kv-18.jsonl (run-18.sh: pure
alone at 1 and 8 writers) gets a table per build and writer count, with the
rate against main's in the same round; so does kv64-prof.jsonl (run-prof.sh,
one profiled cell per build at 64 writers, no round field).
Usage: mksummary.sh (which runs it after scripts/pairs64note.py)"""
import json, statistics, sys, collections

def mr(xs, f, scale=1.0):
    xs = [x * scale for x in xs]
    return f"{statistics.median(xs):{f}} ({min(xs):{f}}-{max(xs):{f}})"

for fn in sys.argv[1:]:
    rows = [json.loads(l) for l in open(fn) if l.strip()]
    if all(r["contender"] == "pure" for r in rows):
        n = len({r.get("round1007", 0) for r in rows})
        ref = {(r.get("round1007", 0), r["writers"]): r["ops_per_s"] for r in rows if r["build"] == "main"}
        print(f"## {fn}: pure alone, {n} rounds; median (min-max) over the rounds\n")
        print("| build | writers | commits/s | / main's in the round | CPU µs per commit | syncs per commit | p50 µs |")
        print("|---|---:|---:|---:|---:|---:|---:|")
        cells = collections.defaultdict(list)
        for r in rows:
            cells[(r["build"], r["writers"])].append(r)
        for (b, w), p in sorted(cells.items(), key=lambda x: (x[0][1], x[0][0] != "main", x[0][0])):
            rel = mr([r["ops_per_s"] / ref[(r.get("round1007", 0), w)] for r in p], ".3f")
            print(f"| {b} | {w} | {mr([r['ops_per_s'] for r in p], '.0f')} | {rel} | {mr([r['cpu_per_op_s'] for r in p], '.2f', 1e6)}"
                  f" | {mr([r['syncs_per_op'] for r in p], '.3f')} | {mr([r['p50_s'] for r in p], '.0f', 1e6)} |")
        print()
        continue
    by = collections.defaultdict(lambda: collections.defaultdict(list))
    for r in rows:
        by[r["build"]][r["contender"]].append(r)
    n = len({r["round1007"] for r in rows})
    ref = {r["round1007"]: r["ops_per_s"] for r in rows if r["build"] == "main" and r["contender"] == "pure"}
    print(f"## {fn}: {n} rounds; median (min-max) over the rounds\n")
    print("| build | pure commits/s | pure / pebble | pure / main's | pure CPU µs per commit | pure CPUs busy | pure syncs per commit | commits per sync | pure p50 µs | pure p99 µs | pebble commits/s | pebble CPU µs per commit |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for b, d in by.items():
        p, q = d["pure"], d["pebble"]
        peb = {r["round1007"]: r["ops_per_s"] for r in q}
        ratio = mr([r["ops_per_s"] / peb[r["round1007"]] for r in p], ".2f")
        rel = mr([r["ops_per_s"] / ref[r["round1007"]] for r in p], ".2f")
        print(f"| {b} | {mr([r['ops_per_s'] for r in p], '.0f')} | {ratio} | {rel} | {mr([r['cpu_per_op_s'] for r in p], '.2f', 1e6)}"
              f" | {mr([r['cpu_per_op_s'] * r['ops_per_s'] for r in p], '.2f')}"
              f" | {mr([r['syncs_per_op'] for r in p], '.4f')} | {mr([1 / r['syncs_per_op'] for r in p], '.1f')}"
              f" | {mr([r['p50_s'] for r in p], '.0f', 1e6)} | {mr([r['p99_s'] for r in p], '.0f', 1e6)}"
              f" | {mr([r['ops_per_s'] for r in q], '.0f')} | {mr([r['cpu_per_op_s'] for r in q], '.2f', 1e6)} |")
    print()
