#!/usr/bin/env python3
"""Probe 1024: probe 970's simulation of score-64c's A/A verdict, with the
windows of the A/A runs 189 and 191 and the suite's timing as it is now.

Since 970, pairs added for an undecided workload run its timed windows
alone (no callgrind part), so the budget model is: the first six pairs of
all three workloads end at FIRST6 seconds with 24 windows, each window
more per side adds 0.8 s to every one of those six pairs, and each added
pair of score-64c takes 0.8 s per window plus OVERHEAD (from 191's log:
pairs 7-12 took about 20.5 s each at 24 windows). The run looks after 6
pairs and every 2 more, as the judge does, and says same once the
interval's bad end is under 5 % (probe 970's order statistics). Windows are
drawn independently with replacement from the runs' window log ratios,
which is optimistic: windows next to each other in one run correlate
(about 0.3, probe 1021's window-noise.py), and in 189 and 191 each pair's
level moved by about 3.4 % beyond what its windows explain (pairs.py).
So each configuration is simulated twice: windows alone, and with a
normal pair-level offset of that size added to each pair's median.
"""
import importlib.util, json, math, os, random, statistics as st, sys

# The window log ratios, the judge's order statistics and the 5 % line are
# probe 970's: its simulate.py is loaded rather than copied.
_spec = importlib.util.spec_from_file_location(
    "probe970", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "970-score-windows", "simulate.py"))
_p970 = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_p970)
KS, T, windows = _p970.KS, _p970.T, _p970.windows
BUDGET, FIRST6, PER_WINDOW, OVERHEAD = 840.0, 440.0, 0.8, 1.3


def simulate(logs, w, trials, rng, between=0.0, ks=KS, last=20):
    """Chance of "same" within the budget with w windows a side, pairs up
    to last judged with the orders ks (probe 970's for 20 by default)."""
    first6 = FIRST6 + 6 * PER_WINDOW * (w - 24)
    per = PER_WINDOW * w + OVERHEAD
    maxn = 6
    while maxn < last and first6 + (maxn - 5) * per <= BUDGET:
        maxn += 1
    same, pairs = 0, []
    for _ in range(trials):
        rs = []
        for n in range(1, maxn + 1):
            rs.append(st.median(rng.choices(logs, k=w)) + rng.gauss(0.0, between))
            if n >= 6 and (n % 2 == 0 or n == maxn):
                s = sorted(rs)
                if s[n - ks[n]] < T:
                    same += 1
                    pairs.append(n)
                    break
    return maxn, same / trials, (st.median(pairs) if pairs else None)


def main():
    rng = random.Random(1024)
    sources = {p.split("/")[-2][:3]: windows(p) for p in sys.argv[1:]}
    sources["pooled"] = [x for v in list(sources.values()) for x in v]
    for name, logs in sources.items():
        for between in (0.0, 0.034):
            for w in (24, 36, 48):
                maxn, p, med = simulate(logs, w, 2000, rng, between)
                print(json.dumps({"source": name, "window_log_sd": round(st.stdev(logs), 4), "windows": w,
                                  "pair_level_sd": between, "max_pairs_in_budget": maxn, "p_same": p,
                                  "median_pairs_when_same": med}))


if __name__ == "__main__":
    main()
