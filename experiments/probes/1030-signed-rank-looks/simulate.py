#!/usr/bin/env python3
"""Probe 1030: would a signed-rank rule (the interval of the
Hodges-Lehmann estimate) decide score-64c's A/A runs more often than the
judge's sign rule, within the same budget and at the same error?

Both rules look after 6 pairs and every 2 more, as the runner does, and say
"same" once the change's bad end is under the 5 % line:
- sign: the judge's sequential orders with the nominal budget (probe 1028's
  orders()): the k-th largest log ratio under log(1.05);
- signed rank: T_n, the sum of the ranks (by |x - t|) of the pairs above
  t = log(1.05), at most c_n. Under "the ratios are symmetric about t" the
  joint law of T_6, T_8, ... is the same whatever their distribution, so
  c_n is set by simulating it (NULL sequences): c_6 = 0 (all six below t,
  the sign rule's first look, 1/64), later looks each at a level a chosen
  so that the chance of any crossing stays within the nominal 2.5 %.
The A/A pairs are probe 1024's model (each pair the median of 24 windows
drawn from the A/A runs given, plus a normal pair-level part of 3.4 %).
The signed-rank rule assumes symmetry, the sign rule does not: so each rule
is also run at a true change of exactly +5 % with symmetric and with skewed
pair noise, where any "same" is false.
Usage: simulate.py runs.jsonl... (189's, 191's and 194's).
"""
import bisect, importlib.util, json, math, os, random, statistics as st, sys

_spec = importlib.util.spec_from_file_location(
    "probe1028", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "1028-score-shorter-pairs", "simulate.py"))
_m = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_m)
_p = _m._p  # probe 1024's module: windows, T, budget model
T = _p.T
LAST = 25  # what the 14-minute budget fits at 24 windows (probe 1028)
LOOKS = [n for n in range(6, LAST + 1) if n % 2 == 0 or n == LAST]
NULL = 40000


def signed_rank(xs, t):
    d = sorted((abs(x - t), x > t) for x in xs)
    return sum(i + 1 for i, (_, up) in enumerate(d) if up)


def null_ts(rng):
    out = []
    for _ in range(NULL):
        xs = [rng.gauss(0.0, 1.0) for _ in range(LAST)]
        out.append([signed_rank(xs[:n], 0.0) for n in LOOKS])
    return out


def boundaries(ts, level):
    """c_n for each look: c_6 = 0, later the largest c with P(T_n <= c) <= level."""
    cs = [0]
    for j in range(1, len(LOOKS)):
        col = sorted(t[j] for t in ts)
        c = -1
        while bisect.bisect_right(col, c + 1) / len(col) <= level:
            c += 1
        cs.append(c)
    return cs


def crossing(ts, cs):
    return sum(any(t[j] <= cs[j] for j in range(len(LOOKS))) for t in ts) / len(ts)


def decide(pairs, rule, ks, cs):
    for j, n in enumerate(LOOKS):
        xs = pairs[:n]
        if rule == "sign":
            if sorted(xs)[n - ks[n]] < T:
                return n
        elif signed_rank(xs, T) <= cs[j]:
            return n
    return None


def main():
    rng = random.Random(1030)
    ts = null_ts(rng)
    level, cs = 0.0, None
    for a in [x / 10000 for x in range(5, 200, 5)]:
        c = boundaries(ts, a)
        if crossing(ts, c) <= 0.025:
            level, cs = a, c
    ks = _m.orders(6, LAST, 0.025)
    print(json.dumps({"looks": LOOKS, "signed_rank_c": cs, "level_per_look": level,
                      "null_crossing": crossing(ts, cs), "sign_k": [ks[n] for n in LOOKS]}))
    logs = [x for f in sys.argv[1:] for x in _p.windows(f)]
    trials = 3000
    cases = {
        "A/A": lambda: st.median(rng.choices(logs, k=24)) + rng.gauss(0.0, 0.034),
        "+5 % symmetric": lambda: T + st.median(rng.choices(logs, k=24)) - st.median(logs) + rng.gauss(0.0, 0.034),
        # skewed: most pairs a little below the true median, a few far above
        "+5 % skewed": lambda: T + (rng.expovariate(1 / 0.04) - 0.04 * math.log(2)) * (-1),
    }
    for name, draw in cases.items():
        for rule in ("sign", "signed-rank"):
            same, used = 0, []
            for _ in range(trials):
                pairs = [draw() for _ in range(LAST)]
                n = decide(pairs, rule, ks, cs)
                if n:
                    same += 1
                    used.append(n)
            print(json.dumps({"case": name, "rule": rule, "p_same": round(same / trials, 4),
                              "median_pairs_when_same": st.median(used) if used else None}))


if __name__ == "__main__":
    main()
