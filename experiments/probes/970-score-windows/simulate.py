#!/usr/bin/env python3
"""Probe 970: how many windows per side score-64c needs for `just pairs
suite=http before=HEAD after=HEAD` to say "same" within the suite's budget.

Reads the A/A runs' runs.jsonl files given as arguments, takes score-64c's
window log ratios (after's CPU per answer over before's, the k-th window of
each side, as measure.windowPairedLog pairs them), and simulates A/A runs:
each pair's paired time is the median of W windows drawn from them (with
replacement), the run looks after 6 pairs and every 2 more, and stops when
the interval [x(k), x(n+1-k)] has its bad end under 5 % (k from
judge.Looks{First: 6, Last: 20}.Orders(0.95) at a7998df, printed by a
throwaway test) or when the next pair would pass the budget (840 s from the
first measurement; a pair of all three workloads takes 69 s with
W = 12 and each further window 0.8 s, from experiment 114's timestamps).
Prints one JSON line per (source, W).
"""
import glob, json, math, random, statistics as st, sys

KS = [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4]
BUDGET, GETS, SCORE12, PER_WINDOW = 840.0, 44.0, 25.0, 0.8
T = math.log(1.05)


def windows(path):
    by = {}
    for line in open(path):
        r = json.loads(line)
        if r.get('workload') == 'score-64c':
            by.setdefault(r['pair'], {})[r['side']] = r
    out = []
    for sides in by.values():
        b, a = sides.get('before'), sides.get('after')
        if not a or not b:
            continue
        wb = [w for m in b['measurements'] for w in m.get('windows', [])]
        wa = [w for m in a['measurements'] for w in m.get('windows', [])]
        out += [math.log((y['server_cpu_s'] / y['ok']) / (x['server_cpu_s'] / x['ok'])) for x, y in zip(wb, wa)]
    return out


def simulate(logs, w, trials, rng):
    score = SCORE12 + PER_WINDOW * (w - 12)
    maxn = 6
    while maxn < 20 and 6 * (GETS + score) + (maxn - 5) * score <= BUDGET:
        maxn += 1
    same = 0
    for _ in range(trials):
        rs = []
        for n in range(1, maxn + 1):
            rs.append(st.median(rng.choices(logs, k=w)))
            if n >= 6 and (n % 2 == 0 or n == maxn):
                s = sorted(rs)
                if s[n - KS[n]] < T:
                    same += 1
                    break
    return maxn, same / trials


def main():
    rng = random.Random(970)
    sources = {p.split('/')[-2][:3]: windows(p) for p in sys.argv[1:]}
    sources['pooled'] = [x for v in list(sources.values()) for x in v]
    for name, logs in sources.items():
        for w in (12, 18, 24, 36):
            maxn, p = simulate(logs, w, 4000, rng)
            print(json.dumps({'source': name, 'window_log_sd': round(st.stdev(logs), 4), 'windows': w,
                              'max_pairs_in_budget': maxn, 'p_same': p}))


if __name__ == '__main__':
    main()
