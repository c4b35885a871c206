#!/usr/bin/env python3
"""Probe 999's summary: per build and cell, pure's commits/s, the syncs in 3 s,
the time inside them and in the gaps between them, per sync (µs), and the
syncer's sync_file_range calls (out-2.txt only).
Usage: python3 summ.py out-1.txt out-2.txt"""
import re, sys, collections, statistics

for f in sys.argv[1:]:
    d = collections.defaultdict(list)
    for l in open(f):
        x = l.split()
        m = re.search(r'syncs (\d+) ([\d.]+)s', l)
        g = re.search(r'gaps (\d+) ([\d.]+)s', l)
        s = re.search(r'sync_file_range (\d+) ([\d.]+)s', l)
        n = int(m[1])
        d[x[1]].append(dict(rate=int(x[2]), n=n, sync=float(m[2]), gap=float(g[2]),
                            sfr=(int(s[1]), float(s[2])) if s else (0, 0.0)))
    print(f"## {f}\n")
    print("| build | commits/s per cell | syncs per 3 s | in syncs (s) | in gaps (s) | µs per sync, median | µs per gap, median | sync_file_range calls, µs each |")
    print("|---|---|---|---|---|---:|---:|---|")
    for b, v in d.items():
        sfr = ", ".join(f"{c['sfr'][0]} x {c['sfr'][1] / c['sfr'][0] * 1e6:.1f}" for c in v if c['sfr'][0]) or "-"
        rates = " ".join(f"{c['rate'] / 1e3:.0f}k" for c in v)
        ns = " ".join(str(c["n"]) for c in v)
        syncs = " ".join(f"{c['sync']:.2f}" for c in v)
        gaps = " ".join(f"{c['gap']:.2f}" for c in v)
        ps = statistics.median(c["sync"] / c["n"] * 1e6 for c in v)
        pg = statistics.median(c["gap"] / c["n"] * 1e6 for c in v)
        print(f"| {b} | {rates} | {ns} | {syncs} | {gaps} | {ps:.0f} | {pg:.0f} | {sfr} |")
    print()
