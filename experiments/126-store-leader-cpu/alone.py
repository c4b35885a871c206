#!/usr/bin/env python3
"""Summarise an alone-*.txt of scripts/store-alone (lines "rROUND BUILD contender writers commits/s cpu-us"):
per round the second build's rate and CPU per commit over the first's, medians and the distribution-free
95 % interval of the median. Usage: alone.py FILE BASE NEW"""
import math, statistics as st, sys, os
f, base, new = sys.argv[1:]
cells = {}
for l in open(f):
    p = l.split()
    if len(p) == 6 and p[0].startswith('r'):
        cells[(p[0], p[1])] = (float(p[4]), float(p[5]))
rounds = sorted({r for r, _ in cells}, key=lambda r: int(r[1:]))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../scripts'))
from medianci import ci  # the median's 95 % interval, shared
rr = [cells[(r, new)][0] / cells[(r, base)][0] for r in rounds if (r, new) in cells and (r, base) in cells]
cc = [cells[(r, new)][1] / cells[(r, base)][1] for r in rounds if (r, new) in cells and (r, base) in cells]
for name, xs in (('rate new/base', rr), ('cpu/commit new/base', cc)):
    lo, hi = ci(xs)
    print(f'{name}: {" ".join(f"{x:.2f}" for x in xs)}  median {st.median(xs):.3f}  95% [{lo and round(lo, 2)}, {hi and round(hi, 2)}]')
for b in (base, new):
    print(f'{b}: commits/s {" ".join(str(int(cells[(r, b)][0])) for r in rounds if (r, b) in cells)}; cpu-us {" ".join(str(cells[(r, b)][1]) for r in rounds if (r, b) in cells)}')
