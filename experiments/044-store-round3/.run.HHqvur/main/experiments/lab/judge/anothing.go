package judge

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/stat/distuv"
	"workbench/experiments/lab/stats"
)

// This file holds the distribution-free assumption: the values are
// independent draws from one continuous distribution, and nothing else is
// assumed about it. Under it, the number of values below the true median is
// Binomial(n, 1/2), so the interval between two order statistics covers the
// median with a probability that the binomial distribution gives exactly.

// MedianCI returns the median of xs with a distribution-free confidence
// interval for the true median, taken from order statistics: the interval
// [x(k), x(n+1-k)] of the sorted values, with the largest k whose coverage,
// 1 - 2·P(B ≤ k-1) for B ~ Binomial(n, 1/2), is at least confidence.
//
// When even the widest interval, from the smallest to the largest value,
// covers with less than confidence (fewer than 6 values for 95 %), MedianCI
// returns that widest interval with its actual confidence and a warning.
// xs is not modified.
func MedianCI(xs []float64, confidence float64) Summary {
	n := len(xs)
	if n == 0 {
		return Summary{Warnings: []error{errNoValues}}
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	k, coverage := medianOrder(n, confidence)
	sum := Summary{Center: stats.Median(s), Lo: s[k-1], Hi: s[n-k], Confidence: coverage, N: n}
	if coverage < confidence-coverageSlack {
		sum.Warnings = append(sum.Warnings, fmt.Errorf(
			"%d values cannot give a %s confidence interval: the widest one, from the smallest to the largest value, has %s; %d values are needed",
			n, formatConfidence(confidence), formatConfidence(coverage), medianValuesNeeded(confidence)))
	}
	return sum
}

// coverageSlack absorbs rounding in the binomial CDF, so that a coverage
// equal to the level asked for is not refused.
const coverageSlack = 1e-12

// medianOrder returns the largest k such that [x(k), x(n+1-k)] covers the
// median of n values with probability at least confidence, and that
// probability. When no k reaches it, k is 1 (the whole range) and the
// coverage is that of the whole range.
func medianOrder(n int, confidence float64) (k int, coverage float64) {
	b := distuv.Binomial{N: float64(n), P: 0.5}
	k, coverage = 1, 1-2*b.CDF(0)
	for j := 2; j <= (n+1)/2; j++ {
		c := 1 - 2*b.CDF(float64(j-1))
		if c < confidence-coverageSlack {
			break
		}
		k, coverage = j, c
	}
	return k, coverage
}

// medianValuesNeeded returns the fewest values whose range covers the median
// with at least confidence: the smallest n with 1 - 2^(1-n) ≥ confidence.
func medianValuesNeeded(confidence float64) int {
	n := 1
	for p := 1.0; 1-p < confidence-coverageSlack && n < 64; n++ {
		p /= 2
	}
	return n
}
