#!/usr/bin/env python3
"""Probe 972: main's 64-writer ratio against pebble, pooled over every round
recorded today on the same store code (a7998df; 6f2877c changes no store
file): experiments 117 and 119, their full runs (runs-*.jsonl, 059's runner)
and their 64-writer-only series (pairs-*.jsonl). Each round gives one ratio
(pure's commits/s over pebble's in the same round and build); the median's
95 % interval is distribution-free, [x(k), x(n+1-k)] with k from the
binomial, as judge.MedianCI. Printed: one JSON line per source and pooled."""
import glob, json, math, statistics as st, sys

MAIN = {'a7998df', '6f2877c'}
# The series their findings do not call disturbed (117's run 1 had two
# disturbed rounds, its main cells among the steadiest: kept; 119's runs 2,
# 3 and 4 and pairs 1-3 were disturbed).
CLEAN = {'117-store-zeros-ahead/pairs-1.jsonl', '117-store-zeros-ahead/runs-1.jsonl',
         '117-store-zeros-ahead/runs-2.jsonl', '119-store-fold-behind/runs-1.jsonl'}


def main_name(meta):
    for b in meta.get('builds', '').split():
        name, rev = b.split('=', 1)
        if rev in MAIN:
            return name
    return None


def ratios(path):
    rows = [json.loads(l) for l in open(path)]
    meta = rows[0] if rows and rows[0].get('series') == 'meta' else None
    name = main_name(meta) if meta else 'main'  # pairs-*.jsonl: the build named main
    if name is None:
        return []
    cells = {}
    for r in rows:
        if r.get('build') != name or r.get('writers') != 64 or 'ops_per_s' not in r:
            continue
        rnd = next((r[k] for k in r if k.startswith('round') and k != 'round'), r.get('round'))
        cells.setdefault(rnd, {})[r['contender']] = r['ops_per_s']
    return [c['pure'] / c['pebble'] for _, c in sorted(cells.items()) if 'pure' in c and 'pebble' in c]


def median_ci(xs, conf=0.95):
    xs = sorted(xs)
    n = len(xs)
    # largest k with P(Binom(n, 1/2) <= k-1) <= (1-conf)/2
    k, cum = 0, 0.0
    for j in range(n):
        p = math.comb(n, j) / 2 ** n
        if cum + p > (1 - conf) / 2:
            break
        cum += p
        k = j + 1
    if k == 0:
        return None, None
    return xs[k - 1], xs[n - k]


def main():
    root = sys.argv[1]
    pooled, clean = [], []
    for path in sorted(glob.glob(f'{root}/117-*/runs-*.jsonl') + glob.glob(f'{root}/117-*/pairs-*.jsonl') +
                       glob.glob(f'{root}/119-*/runs-*.jsonl') + glob.glob(f'{root}/119-*/pairs-*.jsonl')):
        xs = ratios(path)
        if not xs:
            continue
        pooled += xs
        lo, hi = median_ci(xs)
        print(json.dumps({'source': '/'.join(path.split('/')[-2:]), 'rounds': len(xs), 'ratios': [round(x, 3) for x in xs],
                          'median': round(st.median(xs), 3), 'ci95': [lo and round(lo, 3), hi and round(hi, 3)]}))
        if '/'.join(path.split('/')[-2:]) in CLEAN:
            clean += xs
    for name, xs in (('pooled', pooled), ('pooled, series not called disturbed', clean)):
        lo, hi = median_ci(xs)
        print(json.dumps({'source': name, 'rounds': len(xs), 'median': round(st.median(xs), 3),
                          'ci95': [round(lo, 3), round(hi, 3)], 'rounds_at_or_above_1.5': sum(x >= 1.5 for x in xs)}))


if __name__ == '__main__':
    main()
