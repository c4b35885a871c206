"""The distribution-free 95 % interval of a median, as experiments/lab/judge's MedianCI computes it,
for the experiments' Python summaries (123's summ.py, 126's alone.py, 129's note.py import it)."""
import math


def ci(xs):
    """Return (low, high): the k-th smallest and k-th largest of xs, k the largest with
    P(Binomial(n, 1/2) < k) <= 0.025; (None, None) when there are too few values for any k."""
    n = len(xs); s = sorted(xs); k = 0; c = 0
    for i in range(n + 1):
        c += math.comb(n, i) / 2 ** n
        if c > 0.025: break
        k = i + 1
    return (s[k - 1], s[n - k]) if k >= 1 else (None, None)
