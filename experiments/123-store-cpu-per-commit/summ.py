#!/usr/bin/env python3
"""Summarise 123's series: per writers, pure/pebble per round and build (runs-*.jsonl, 059's runner),
or per round (pairs-*.jsonl); pure's rate and CPU per commit against main's in the same round.
Usage: summ.py FILE.jsonl"""
import json, statistics as st, sys, os
rows = [json.loads(l) for l in open(sys.argv[1])]
rk = next(k for k in rows[-1] if k.startswith('round') and k != 'round')
cells = {}
for r in rows:
    if 'ops_per_s' not in r or not r.get('workload', '').startswith('durable'):
        continue
    cells.setdefault((r['writers'], r['build'], r[rk]), {})[r['contender']] = r
builds = sorted({b for _, b, _ in cells}, key=lambda b: (b != 'main', b))
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '../../scripts'))
from medianci import ci  # the median's 95 % interval, shared
for w in sorted({w for w, _, _ in cells}):
    print(f'writers {w}')
    rounds = sorted({r for ww, _, r in cells if ww == w})
    for b in builds:
        rs = [cells[(w, b, r)]['pure']['ops_per_s'] / cells[(w, b, r)]['pebble']['ops_per_s'] for r in rounds if (w, b, r) in cells]
        lo, hi = ci(rs)
        print(f'  {b:5s} pure/pebble {" ".join(f"{x:.2f}" for x in rs)}  median {st.median(rs):.2f} CI {lo and round(lo,2)}..{hi and round(hi,2)}')
    for b in builds[1:]:
        rr = [cells[(w, b, r)]['pure']['ops_per_s'] / cells[(w, 'main', r)]['pure']['ops_per_s'] for r in rounds]
        cc = [cells[(w, b, r)]['pure']['cpu_per_op_s'] / cells[(w, 'main', r)]['pure']['cpu_per_op_s'] for r in rounds]
        print(f'  {b} pure rate / main {" ".join(f"{x:.2f}" for x in rr)} median {st.median(rr):.2f}; cpu/commit / main median {st.median(cc):.2f}')
    for b in builds:
        print(f'  {b} pure {st.median([cells[(w,b,r)]["pure"]["ops_per_s"] for r in rounds]):.0f}/s pebble {st.median([cells[(w,b,r)]["pebble"]["ops_per_s"] for r in rounds]):.0f}/s; cpu/commit pure {st.median([cells[(w,b,r)]["pure"]["cpu_per_op_s"] for r in rounds])*1e6:.2f} pebble {st.median([cells[(w,b,r)]["pebble"]["cpu_per_op_s"] for r in rounds])*1e6:.2f} us')
