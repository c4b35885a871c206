package judge

import (
	"math"
	"testing"
)

func TestMedianCI_Coverage(t *testing.T) {
	// Per-pair ratios with lognormal noise around a true ratio: the 95 %
	// interval must cover the true ratio at least 90 % of the time (the
	// order-statistic interval guarantees at least 95 %).
	rng := newRand(t, 20261202)
	const sims = 1000
	for _, n := range []int{6, 7, 8, 10, 13, 16, 20, 25, 30} {
		for _, sigma := range []float64{0.001, 0.02} {
			const truth = 1.03
			covered := 0
			ratios := make([]float64, n)
			for range sims {
				for i := range ratios {
					before := math.Exp(sigma * rng.NormFloat64())
					after := truth * math.Exp(sigma*rng.NormFloat64())
					ratios[i] = after / before
				}
				s := MedianCI(ratios, 0.95)
				if s.Lo <= truth && truth <= s.Hi {
					covered++
				}
			}
			rate := float64(covered) / sims
			if rate < 0.90 {
				t.Errorf("n=%d σ=%v: the 95 %% interval covered the true ratio in %.1f %% of %d simulations, want ≥ 90 %%", n, sigma, 100*rate, sims)
			}
		}
	}
}

func TestMedianCI_SmallN(t *testing.T) {
	tests := []struct {
		n          int
		confidence float64
		lo, hi     float64 // expected order statistics (values are 1..n)
		warn       bool
	}{
		{1, 0, 1, 1, true},
		{5, 1 - 2.0/32, 1, 5, true},
		{6, 1 - 2.0/64, 1, 6, false},
		{8, 1 - 2.0/256, 1, 8, false},           // k=2 would cover only 1-2·9/256 ≈ 93 %
		{9, 1 - 2*10.0/512, 2, 8, false},        // P(B ≤ 1) = 10/512
		{17, 1 - 2*3214.0/131072, 5, 13, false}, // P(B ≤ 4) = 3214/2^17
	}
	for _, tt := range tests {
		xs := make([]float64, tt.n)
		for i := range xs {
			xs[i] = float64(tt.n - i) // descending: MedianCI must sort
		}
		s := MedianCI(xs, 0.95)
		if s.Lo != tt.lo || s.Hi != tt.hi || math.Abs(s.Confidence-tt.confidence) > 1e-9 || (len(s.Warnings) > 0) != tt.warn {
			t.Errorf("n=%d: got [%v, %v] at %v with warnings %v; want [%v, %v] at %v, warning %v",
				tt.n, s.Lo, s.Hi, s.Confidence, s.Warnings, tt.lo, tt.hi, tt.confidence, tt.warn)
		}
		if want := float64(tt.n+1) / 2; s.Center != want {
			t.Errorf("n=%d: median %v, want %v", tt.n, s.Center, want)
		}
	}
	if got := medianValuesNeeded(0.95); got != 6 {
		t.Errorf("values needed for 95 %%: %d, want 6", got)
	}
}
