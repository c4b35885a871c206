#!/usr/bin/env python3
"""Probe 974: the 64-writer ratio against pebble of main (5329533) and of experiment 123's branch
(26ec9bb), pooled over every 64-writer round experiment 123 recorded (runs-*.jsonl through 059's
runner, pairs-*.jsonl through scripts/store-pairs64), both builds measured in the same rounds with
their order rotated. Per round and build: pure's commits/s over pebble's; and, per round, 123's pure
rate over main's (the change's own effect, pebble aside). Medians with the distribution-free 95 %
interval of probe 972 (as judge.MedianCI). Usage: ./pool.py ../.. [SOURCES...] > pooled.jsonl
(SOURCES: file names under 123-store-cpu-per-commit/, all by default; DISTURBED lists the series
123's findings call disturbed, left out of the second pooled line)."""
import glob, json, math, os, statistics as st, sys

DISTURBED = {'runs-1.jsonl', 'runs-2.jsonl', 'pairs-3.jsonl', 'pairs-4.jsonl', 'pairs-5.jsonl', 'runs-5.jsonl'}  # see 123's findings: cells at a third to half the usual rates for both contenders


def cells(path):
    rows = [json.loads(l) for l in open(path)]
    out = {}
    for r in rows:
        if r.get('writers') != 64 or 'ops_per_s' not in r or not r.get('workload', '').startswith('durable'):
            continue
        rnd = next(r[k] for k in r if k.startswith('round') and k != 'round')
        out.setdefault((r['build'], rnd), {})[r['contender']] = r['ops_per_s']
    return out


def median_ci(xs, conf=0.95):
    xs = sorted(xs)
    n = len(xs)
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


def line(name, main, new, own):
    d = {'source': name, 'rounds': len(main)}
    for key, xs in (('main', main), ('new', new), ('new_rate_over_main', own)):
        lo, hi = median_ci(xs)
        d[key] = {'median': round(st.median(xs), 3), 'ci95': [lo and round(lo, 3), hi and round(hi, 3)]}
        if key != 'new_rate_over_main':
            d[key]['rounds_at_or_above_1.5'] = sum(x >= 1.5 for x in xs)
        else:
            d[key]['rounds_above_1'] = sum(x > 1 for x in xs)
    return d


def main():
    root = sys.argv[1]
    exp = f'{root}/123-store-cpu-per-commit'
    names = sys.argv[2:] or sorted(os.path.basename(p) for p in glob.glob(f'{exp}/runs-*.jsonl') + glob.glob(f'{exp}/pairs-*.jsonl'))
    pools = {'pooled': ([], [], []), 'pooled, series not called disturbed': ([], [], [])}
    for name in names:
        c = cells(f'{exp}/{name}')
        rounds = sorted({r for _, r in c})
        m = [c[('main', r)]['pure'] / c[('main', r)]['pebble'] for r in rounds]
        n = [c[('new', r)]['pure'] / c[('new', r)]['pebble'] for r in rounds]
        o = [c[('new', r)]['pure'] / c[('main', r)]['pure'] for r in rounds]
        d = line(name, m, n, o)
        d['main_ratios'], d['new_ratios'] = [round(x, 3) for x in m], [round(x, 3) for x in n]
        print(json.dumps(d))
        for p, (pm, pn, po) in pools.items():
            if p == 'pooled' or name not in DISTURBED:
                pm += m; pn += n; po += o
    for p, (pm, pn, po) in pools.items():
        print(json.dumps(line(p, pm, pn, po)))


if __name__ == '__main__':
    main()
