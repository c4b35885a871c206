#!/usr/bin/env python3
"""Probe 1028: would score-64c decide an A/A run more often with fewer
windows a pair and more pairs (the suite's max-pairs), within the same
14-minute budget?

Probe 1024's model (loaded from its simulate.py, which loads probe 970's
windows and 5 % line): the first six pairs of all three workloads end at
FIRST6 s with 24 windows, each window fewer a side saves 0.8 s in each of
them, each added score-64c pair takes 0.8 s a window plus OVERHEAD; looks
after 6 pairs and every 2 more; "same" once the interval's bad end is
under 5 %. What is new: the order statistics for bounds past 20 pairs,
from the judge itself (orders.jsonl: `go run .` in this directory at
c3bc28c, before the judge's budget became the nominal one; from then on it
prints the nominal orders and the check below fails), and
two forms of the pair-level part probe 1024 found (3.4 % at 24 windows):
the same whatever a pair's length ("fixed"), or shrinking with it as a
drift would (sd proportional to the square root of the windows, "drift").
Also simulated: the judge's rule with its error budget set to the nominal
2.5 % one-sided instead of the fixed rule's at the bound (orders(), checked
against the judge's own output in orders.jsonl first).
Usage: simulate.py orders.jsonl runs.jsonl... (189's and 191's).
"""
import importlib.util, json, math, os, random, statistics as st, sys

_spec = importlib.util.spec_from_file_location(
    "probe1024", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "1024-score-windows-sim", "simulate.py"))
_p = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_p)


def binom_cdf(n, j):
    return sum(math.comb(n, i) for i in range(j + 1)) / 2 ** n


def median_order(n, conf=0.95):
    k, cov = 1, 1 - 2 * binom_cdf(n, 0)
    for j in range(2, (n + 1) // 2 + 1):
        c = 1 - 2 * binom_cdf(n, j - 1)
        if c < conf - 1e-12:
            break
        k, cov = j, c
    return k, cov


def orders(first, last, budget=None, conf=0.95):
    """The judge's Looks{first, last}.Orders(conf), with its budget when
    budget is None, else with the budget given."""
    ks = [0] * (last + 1)
    for n in range(1, min(first, last) + 1):
        ks[n] = median_order(n, conf)[0]
    if budget is None:
        budget = max((1 - median_order(last, conf)[1]) / 2, (1 - median_order(first, conf)[1]) / 2)
    alive = [0.0] * (last + 1)
    for s in range(first + 1):
        alive[s] = math.comb(first, s) / 2 ** first
    k = ks[first]
    spent = sum(alive[:k])
    for s in range(k):
        alive[s] = 0.0
    for n in range(first + 1, last + 1):
        for s in range(n, 0, -1):
            alive[s] = (alive[s] + alive[s - 1]) / 2
        alive[0] /= 2
        kmax = median_order(n, conf)[0]
        while k < kmax and spent + sum(alive[:k + 1]) <= budget + 1e-12:
            k += 1
        spent += sum(alive[:k])
        for s in range(k):
            alive[s] = 0.0
        ks[n] = k
    return ks


def main():
    judge = {o["last"]: o["ks"] for o in map(json.loads, open(sys.argv[1]))}
    for last, ks in judge.items():
        assert orders(6, last) == ks, (last, orders(6, last), ks)
    rules = {("judge", last): ks for last, ks in judge.items()}
    rules.update({("nominal", last): orders(6, last, 0.025) for last in judge})
    rng = random.Random(1028)
    logs = [x for p in sys.argv[2:] for x in _p.windows(p)]
    for w in (8, 12, 16, 24):
        for (budget, last), ks in sorted(rules.items()):
            for form in ("fixed", "drift"):
                between = 0.034 if form == "fixed" else 0.034 * (w / 24) ** 0.5
                maxn, p, med = _p.simulate(logs, w, 2000, rng, between, ks, last)
                print(json.dumps({"windows": w, "max_pairs": last, "budget": budget, "pair_level": form,
                                  "pair_level_sd": round(between, 4), "pairs_in_budget": maxn,
                                  "p_same": p, "median_pairs_when_same": med}))


if __name__ == "__main__":
    main()
