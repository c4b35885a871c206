package judge

import (
	"math"
	"slices"
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

// Median returns the median of xs, the middle value or the mean of the two
// middle ones, and does not modify xs. It is the module's one median: the
// judge, the runner's settling rules, the note and the kvbench note all use
// it. NaN values (a measurement that gave none) are left out, and the median
// of no value is NaN, so a missing value is never mistaken for a zero.
func Median(xs []float64) float64 {
	s := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			s = append(s, x)
		}
	}
	n := len(s)
	if n == 0 {
		return math.NaN()
	}
	slices.Sort(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
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
	m := math.Abs(Median(xs))
	if m == 0 {
		return math.Inf(1)
	}
	return (hi - lo) / m
}
