#!/usr/bin/env python3
"""Probe 985's summary of run-ab.sh / run.sh outputs: per cell, the rate,
the syncs (count, seconds in fdatasync), every gap before a sync (seconds)
and those before a fold's sync, the folds, the leader's time per fold and
its phases, the fold's bytes and sync.
Usage: python3 summ.py out-ab-prefold.txt"""
import re, sys

def secs(s):
    return sum(float(x) for x in re.findall(r'([\d.]+)s', s))

for f in sys.argv[1:]:
    print(f"## {f}\n")
    print("| round | build | commits/s | syncs | in fdatasync | gaps | gaps before a fold's sync (>=100 µs) | other gaps | folds | leader per fold | phases per fold: overlay / group / spill / write µs | fold bytes | fold sync µs | installs: n, µs, bytes ahead; leader µs; background fold µs |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|")
    for l in open(f):
        w = l.split()
        g = re.search(r'gap before a sync: (.*?) \|', l).group(1)
        gf = re.search(r"of which before a fold's sync: (.*?) \|", l).group(1)
        gf100 = re.search(r">=100us (\d+) ([\d.]+)s", gf)
        folds, lead = re.search(r'folds (\d+), leader ([\d.]+)s', l).groups()
        folds = int(folds)
        ph = [float(x) for x in re.search(r'overlay ([\d.]+)s group ([\d.]+)s spill ([\d.]+)s write ([\d.]+)s', l).groups()]
        fb = re.search(r'fold groups \d+ x (\d+) B', l).group(1)
        fs = re.search(r'fold syncs \d+, (\d+) us each', l).group(1)
        n, tot = re.search(r'syncs (\d+) total ([\d.]+)s', l).groups()
        m = re.search(r'installs (\d+), (\d+) us each, (\d+) B ahead .*?leader to its write (\d+) us \| background folds \d+, (\d+) us each', l)
        ins = f"{m.group(1)}, {m.group(2)}, {m.group(3)}; {m.group(4)}; {m.group(5)}" if m else ""
        pf = " / ".join(f"{1e6 * p / max(folds, 1):.0f}" for p in ph)
        print(f"| {w[0]} | {w[1]} | {w[2]} | {n} | {tot} s | {secs(g):.3f} s | {secs(gf):.3f} s ({gf100.group(1)}: {gf100.group(2)} s) | {secs(g) - secs(gf):.3f} s | {folds} | {1e6 * float(lead) / max(folds, 1):.0f} µs | {pf} | {fb} | {fs} | {ins} |")
    print()
