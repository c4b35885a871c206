package judge

import (
	"slices"
	"sync"

	"gonum.org/v1/gonum/stat/distuv"
	"workbench/experiments/lab/stats"
)

// This file holds the rule for experiments that give an undecided workload
// more pairs (Options.Looks): which order statistics bound the ratio's
// interval after each added pair, so that looking again does not raise the
// chance of a false verdict.
//
// Why looking again costs something: a workload judged "unknown" after six
// pairs and judged again after eight has had two chances to cross the
// threshold by luck. The chance that the interval [x(k), x(n+1-k)] lies
// wholly beyond a threshold t that is in truth the median of the ratios is
// the chance that at most k-1 of the n ratios fall on the near side of t:
// S_n ≤ k-1, where S_n, the number of ratios on the near side, is a random
// walk that goes up by one with probability 1/2 at each pair, whatever the
// distribution of the ratios (distribution-free, as MedianCI). S_n never
// goes down, so a look with the same k as the previous one cannot cross
// where the previous did not: only a larger k (a narrower interval) costs.
//
// The rule: the first look (Looks.First pairs) uses MedianCI's k, exactly
// as an experiment that adds no pairs. Each later number of pairs n uses
// the largest k, never smaller than the previous look's nor larger than
// MedianCI's, for which the probability of any false crossing, over all the
// looks from the first to n, computed exactly from the random walk, stays
// within the budget: the nominal one-sided error (1 - Confidence)/2, 2.5 %
// at 95 % (or the first look's own error, when fewer pairs than MedianCI
// needs for the confidence make it larger). So an experiment that adds
// pairs is never more likely to call a false "worse" (or "better", or
// "same" at the boundary, by symmetry) than the confidence it states.
// Every number of pairs between First and Last counts as a look, whether
// the runner judged there or not (disturbed pairs move the count), so the
// bound holds however the looks fell. TestLooks_FalseWorse checks it by
// simulation.
//
// The orders do not depend on Last beyond where they stop: an experiment
// bounded at 24 pairs judges its 20th as one bounded at 20 does. Until
// 2026-12-07 the budget was the fixed rule's one-sided error at Last
// pairs, whose discreteness made it smaller than the first look's for
// some bounds (24, 36, 48, 60 at 95 %): the first look spent it all, and
// added pairs could only widen the interval (probe 1028). Looks.AtBound
// keeps that rule for the experiments judged under it.

// Looks says that a workload's pairs may be extended: it was judged after
// First pairs and, while undecided, may be given more, up to Last. The zero
// Looks (or Last ≤ First) is the fixed rule: one look.
type Looks struct {
	First, Last int
	// AtBound selects the budget the rule had until 2026-12-07, the fixed
	// rule's one-sided error at Last pairs, so that an experiment judged
	// under it (its meta.json names no looks_budget) is judged the same
	// way again; new experiments leave it false and spend the nominal
	// error.
	AtBound bool
}

// Sequential reports whether l extends pairs at all.
func (l Looks) Sequential() bool { return l.First > 0 && l.Last > l.First }

// Orders returns, for n = 0 … Last, the k whose interval [x(k), x(n+1-k)]
// judges the ratio of n pairs under l at the given confidence (0 for
// n = 0), and the one-sided error budget the looks share. For n ≤ First it
// is MedianCI's k.
func (l Looks) Orders(confidence float64) (ks []int, budget float64) {
	ks = make([]int, l.Last+1)
	for n := 1; n <= l.First && n <= l.Last; n++ {
		ks[n], _ = medianOrder(n, confidence)
	}
	k0 := ks[l.First]
	_, covFirst := medianOrder(l.First, confidence)
	budget = max((1-confidence)/2, (1-covFirst)/2)
	if l.AtBound {
		_, covLast := medianOrder(l.Last, confidence)
		budget = max((1-covLast)/2, (1-covFirst)/2)
	}

	// alive[s] is the probability that S_n = s and no look has crossed.
	alive := make([]float64, l.Last+1)
	b := distuv.Binomial{N: float64(l.First), P: 0.5}
	for s := 0; s <= l.First; s++ {
		alive[s] = b.Prob(float64(s))
	}
	spent := 0.0
	for s := 0; s < k0; s++ {
		spent += alive[s]
		alive[s] = 0
	}
	k := k0
	for n := l.First + 1; n <= l.Last; n++ {
		for s := n; s >= 1; s-- { // one more pair: S goes up with probability 1/2
			alive[s] = (alive[s] + alive[s-1]) / 2
		}
		alive[0] /= 2
		kMax, _ := medianOrder(n, confidence)
		for k < kMax {
			cost := 0.0
			for s := 0; s < k+1; s++ {
				cost += alive[s]
			}
			if spent+cost > budget+coverageSlack {
				break
			}
			k++
		}
		for s := 0; s < k; s++ {
			spent += alive[s]
			alive[s] = 0
		}
		ks[n] = k
	}
	return ks, budget
}

// ratioSummary summarizes per-pair ratios: exact when they agree, with
// MedianCI under the fixed rule, and with the order that l's rule gives
// for their number when the pairs were extended beyond l.First.
func ratioSummary(xs []float64, confidence float64, l Looks) Summary {
	n := len(xs)
	if s, ok := exactSummary(xs); ok || !l.Sequential() || n <= l.First {
		if ok {
			return s
		}
		return MedianCI(xs, confidence)
	}
	k := l.order(n, confidence)
	s := slices.Clone(xs)
	slices.Sort(s)
	b := distuv.Binomial{N: float64(n), P: 0.5}
	return Summary{Center: stats.Median(s), Lo: s[k-1], Hi: s[n-k], Confidence: 1 - 2*b.CDF(float64(k-1)), N: n}
}

// ordersCache holds Orders' results by Looks and confidence: Judge asks for
// the same few plans again and again.
var ordersCache sync.Map // ordersKey → []int

type ordersKey struct {
	l          Looks
	confidence float64
}

// order returns the k that l's rule gives n pairs (n > l.First); beyond
// l.Last it keeps l.Last's, which costs nothing more (see the file's
// comment: S_n never goes down).
func (l Looks) order(n int, confidence float64) int {
	key := ordersKey{l, confidence}
	ks, ok := ordersCache.Load(key)
	if !ok {
		o, _ := l.Orders(confidence)
		ks, _ = ordersCache.LoadOrStore(key, o)
	}
	o := ks.([]int)
	return o[min(n, l.Last)]
}
