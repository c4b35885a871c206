package judge

import (
	"fmt"
	"math"
	"slices"
)

// This file holds the assumption of the Wilcoxon signed-rank test: the
// per-pair differences are independent and, when nothing changed, symmetric
// around zero. Judge applies it to the logarithms of the per-pair ratios,
// so multiplicative noise that is as likely to speed a run up as to slow it
// down by the same factor satisfies it.

// SignedRankExactMax is the largest number of non-zero differences for which
// SignedRankTest computes the exact null distribution; above it, it uses the
// normal approximation.
const SignedRankExactMax = 25

// SignedRank is the result of a two-sided Wilcoxon signed-rank test of the
// hypothesis that paired differences are centered on zero.
type SignedRank struct {
	// N is the number of non-zero differences the test used; Zeros the
	// number of zero differences it dropped (Wilcoxon's method).
	N, Zeros int
	// W is the signed-rank statistic W+: the sum of the ranks of the
	// positive differences among the absolute differences, tied ones
	// sharing their mean rank.
	W float64
	// P is the two-sided p-value.
	P float64
	// MinP is the smallest p-value any sign pattern of these differences
	// could give; when it exceeds the significance level, the test cannot
	// detect a change however large.
	MinP float64
	// Exact reports whether P comes from the exact null distribution
	// (conditional on ties) rather than the normal approximation.
	Exact bool
	// Warnings are soft problems with the test.
	Warnings []error
}

// SignedRankTest runs a two-sided Wilcoxon signed-rank test on the paired
// differences diffs (after minus before, or the logarithms of after/before).
//
// Zero differences are dropped before ranking (Wilcoxon's method, as R's
// wilcox.test). Tied absolute differences get their mean rank. For at most
// SignedRankExactMax non-zero differences the p-value is exact: every one of
// the 2^n sign patterns is equally likely under the null hypothesis, and the
// distribution of W+ over them is counted exactly, ties included. Above it,
// W+ is approximated by a normal distribution with mean Σr/2 and variance
// Σr²/4 over the ranks r actually assigned, which is the usual variance
// n(n+1)(2n+1)/24 reduced by Σ(t³-t)/48 for each group of t ties, with a
// continuity correction of 1/2.
func SignedRankTest(diffs []float64) SignedRank {
	nz := make([]float64, 0, len(diffs))
	for _, d := range diffs {
		if d != 0 && !math.IsNaN(d) {
			nz = append(nz, d)
		}
	}
	res := SignedRank{N: len(nz), Zeros: len(diffs) - len(nz), P: 1, MinP: 1}
	if len(nz) == 0 {
		res.Exact = true
		res.Warnings = append(res.Warnings, fmt.Errorf("all %d differences are zero: no change to test", len(diffs)))
		return res
	}
	r2 := doubledRanks(nz)
	w2 := 0
	for i, d := range nz {
		if d > 0 {
			w2 += r2[i]
		}
	}
	res.W = float64(w2) / 2
	if len(nz) <= SignedRankExactMax {
		res.Exact = true
		res.P, res.MinP = signedRankExactP(r2, w2)
	} else {
		res.P, res.MinP = signedRankNormalP(r2, w2)
	}
	return res
}

// doubledRanks returns twice the mid-rank of each |d| among all |d|, which
// is always an integer: a tie group occupying ranks i+1..j+1 gets i+j+2.
func doubledRanks(ds []float64) []int {
	idx := make([]int, len(ds))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		x, y := math.Abs(ds[a]), math.Abs(ds[b])
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	})
	r2 := make([]int, len(ds))
	for i := 0; i < len(idx); {
		j := i
		for j+1 < len(idx) && math.Abs(ds[idx[j+1]]) == math.Abs(ds[idx[i]]) {
			j++
		}
		for k := i; k <= j; k++ {
			r2[idx[k]] = i + j + 2
		}
		i = j + 1
	}
	return r2
}
