package judge

import "math"

// signedRankExactP returns the exact two-sided p-value of the doubled
// signed-rank statistic w2 given the doubled ranks r2, and the smallest
// p-value possible for these ranks. Under the null hypothesis each rank is
// positive with probability 1/2, independently; counts[s] is the number of
// the 2^n sign patterns whose positive doubled ranks sum to s. Counts stay
// exact in float64 because 2^n ≤ 2^SignedRankExactMax < 2^53.
func signedRankExactP(r2 []int, w2 int) (p, minP float64) {
	total := 0
	for _, r := range r2 {
		total += r
	}
	counts := make([]float64, total+1)
	counts[0] = 1
	for _, r := range r2 {
		for s := total; s >= r; s-- {
			counts[s] += counts[s-r]
		}
	}
	all := math.Ldexp(1, len(r2))
	var lower, upper float64
	for s, c := range counts {
		if s <= w2 {
			lower += c
		}
		if s >= w2 {
			upper += c
		}
	}
	p = math.Min(1, 2*math.Min(lower, upper)/all)
	// The extreme patterns (all negative, all positive) are the rarest
	// tails: W+ = 0 happens in exactly one of the 2^n patterns.
	minP = math.Min(1, 2/all)
	return p, minP
}
