// Package stats holds the module's one median, Median, with one rule for
// missing values. It is a leaf (math and slices only), so that pure-count,
// the measured subject binary, can use it without linking the lab's judge:
// a change to the judge then changes no subject binary.
package stats

import (
	"math"
	"slices"
)

// Median returns the median of xs, the middle value or the mean of the two
// middle ones, and does not modify xs. It is the module's one median: the
// judge, the runner's settling rules, the notes, pure-count's summaries
// and bisect all use it. NaN values (a measurement that gave none) are left out, and the median
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
