package judge

import (
	"math"
	"slices"

	"workbench/experiments/lab/stats"
)

// Summary is the center of a set of values with a confidence interval around
// it. It mirrors golang.org/x/perf/benchmath's Summary.
type Summary struct {
	// Center is the median of the values.
	Center float64
	// Lo and Hi bound the confidence interval for the true median.
	Lo, Hi float64
	// Confidence is the actual confidence of [Lo, Hi], which can be lower
	// than the level asked for when there are too few values (see Warnings),
	// and is 1 for exact values.
	Confidence float64
	// N is the number of values summarized.
	N int
	// Warnings are soft problems with the summary, to be shown with it.
	Warnings []error
}

// Spread is the relative spread of xs, (max-min)/median, as pure-count
// reports it. It is 0 for fewer than two values and +Inf when the median is
// 0 but the values differ.
func Spread(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	lo, hi := slices.Min(xs), slices.Max(xs)
	if lo == hi {
		return 0
	}
	m := math.Abs(stats.Median(xs))
	if m == 0 {
		return math.Inf(1)
	}
	return (hi - lo) / m
}
