package judge

import (
	"math"

	"gonum.org/v1/gonum/stat/distuv"
)

// This file holds the large-sample assumption of the signed-rank test: with
// many pairs, W+ is close to normally distributed under the null hypothesis.

// signedRankNormalP returns the two-sided p-value of the doubled statistic
// w2 from the normal approximation, using the mean and variance of W+ over
// the ranks actually assigned (so ties are accounted for) and a continuity
// correction of 1/2, and the p-value of the most extreme pattern.
func signedRankNormalP(r2 []int, w2 int) (p, minP float64) {
	var sum, sumSq float64
	for _, r := range r2 {
		x := float64(r) / 2
		sum += x
		sumSq += x * x
	}
	mean, sd := sum/2, math.Sqrt(sumSq/4)
	tail := func(w float64) float64 {
		if sd == 0 {
			return 1
		}
		z := math.Max(0, math.Abs(w-mean)-0.5) / sd
		return math.Min(1, 2*distuv.UnitNormal.Survival(z))
	}
	return tail(float64(w2) / 2), tail(0)
}
