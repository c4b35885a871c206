package judge

import (
	"math"
	"testing"
)

// withNegativeRankSum returns the differences ±1, ±2, ..., ±n whose negative
// ones' ranks sum to t (so W- = t and W+ = n(n+1)/2 - t).
func withNegativeRankSum(n, t int) []float64 {
	ds := make([]float64, n)
	for r := n; r >= 1; r-- {
		ds[r-1] = float64(r)
		if r <= t {
			ds[r-1] = -float64(r)
			t -= r
		}
	}
	return ds
}

func TestSignedRankTest_CriticalValues(t *testing.T) {
	// Two-sided α = 0.05 critical values of the signed-rank statistic
	// T = min(W+, W-), from the standard table (e.g. Wilcoxon, Katti and
	// Wilcox 1970; the tables in Siegel, Nonparametric Statistics): T ≤ c
	// is significant, T = c+1 is not.
	critical := map[int]int{
		6: 0, 7: 2, 8: 3, 9: 5, 10: 8, 11: 10, 12: 13, 13: 17, 14: 21, 15: 25,
		16: 29, 17: 34, 18: 40, 19: 46, 20: 52, 21: 58, 22: 65, 23: 73, 24: 81, 25: 89,
	}
	for n := 6; n <= 25; n++ {
		c := critical[n]
		at := SignedRankTest(withNegativeRankSum(n, c))
		above := SignedRankTest(withNegativeRankSum(n, c+1))
		if !at.Exact || at.P > 0.05 || above.P <= 0.05 {
			t.Errorf("n=%d: p(T=%d) = %.5f, p(T=%d) = %.5f; the table's critical value is %d", n, c, at.P, c+1, above.P, c)
		}
	}
}

func TestSignedRankTest_KnownPValues(t *testing.T) {
	tests := []struct {
		name  string
		diffs []float64
		w, p  float64
	}{
		// R: wilcox.test(x, y, paired = TRUE) on the Hollander & Wolfe
		// depression data of R's ?wilcox.test: V = 40, one-sided
		// p = 0.01953 = 10/512, two-sided 20/512.
		{"hollander-wolfe", []float64{
			1.83 - 0.878, 0.50 - 0.647, 1.62 - 0.598, 2.48 - 2.05, 1.68 - 1.06,
			1.88 - 1.29, 1.55 - 1.06, 3.06 - 3.14, 1.30 - 1.29,
		}, 40, 20.0 / 512},
		// n = 10, T = 8: one-sided P(T ≤ 8) = 25/1024 = 0.0244.
		{"n10-t8", withNegativeRankSum(10, 8), 55 - 8, 50.0 / 1024},
		// n = 10, T = 10: one-sided P(T ≤ 10) = 43/1024 = 0.0420.
		{"n10-t10", withNegativeRankSum(10, 10), 55 - 10, 86.0 / 1024},
		// Six equal positive ratios (exact counts): every rank tied, and
		// only the all-positive pattern is as extreme: 2/64.
		{"all-tied", []float64{0.02, 0.02, 0.02, 0.02, 0.02, 0.02}, 21, 2.0 / 64},
		// Five pairs can never reach 0.05: 2/32.
		{"n5", []float64{1, 2, 3, 4, 5}, 15, 2.0 / 32},
	}
	for _, tt := range tests {
		got := SignedRankTest(tt.diffs)
		if got.W != tt.w || math.Abs(got.P-tt.p) > 1e-12 {
			t.Errorf("%s: W = %v, p = %v; want W = %v, p = %v", tt.name, got.W, got.P, tt.w, tt.p)
		}
	}
}

func TestSignedRankTest_Zeros(t *testing.T) {
	got := SignedRankTest([]float64{0, 0, 1, 2, 3, 4, 5, 6})
	if got.N != 6 || got.Zeros != 2 || got.P != 2.0/64 {
		t.Errorf("got N=%d zeros=%d p=%v; want 6, 2, %v", got.N, got.Zeros, got.P, 2.0/64)
	}
	all := SignedRankTest([]float64{0, 0, 0})
	if all.P != 1 || len(all.Warnings) == 0 {
		t.Errorf("all zero: p=%v warnings %v; want p=1 and a warning", all.P, all.Warnings)
	}
}

func TestSignedRankTest_NormalApproximation(t *testing.T) {
	// Above SignedRankExactMax the normal approximation must agree with the
	// exact distribution (computed here directly) to within 0.01.
	rng := newRand(t, 7)
	for _, n := range []int{26, 30} {
		for range 50 {
			ds := make([]float64, n)
			for i := range ds {
				ds[i] = rng.NormFloat64() + 0.3
			}
			got := SignedRankTest(ds)
			if got.Exact {
				t.Fatalf("n=%d: exact test used above SignedRankExactMax", n)
			}
			r2 := doubledRanks(ds)
			w2 := int(2 * got.W)
			exact, _ := signedRankExactP(r2, w2)
			if math.Abs(got.P-exact) > 0.01 {
				t.Errorf("n=%d W=%v: normal p = %.4f, exact p = %.4f", n, got.W, got.P, exact)
			}
		}
	}
	// Ties shrink the variance: with heavy ties the tie-corrected normal
	// p-value stays close to the exact conditional one.
	ties := make([]float64, 30)
	for i := range ties {
		ties[i] = float64(1 + i%3)
		if i%4 == 0 {
			ties[i] = -ties[i]
		}
	}
	got := SignedRankTest(ties)
	exact, _ := signedRankExactP(doubledRanks(ties), int(2*got.W))
	if math.Abs(got.P-exact) > 0.01 {
		t.Errorf("ties: normal p = %.4f, exact p = %.4f", got.P, exact)
	}
}
