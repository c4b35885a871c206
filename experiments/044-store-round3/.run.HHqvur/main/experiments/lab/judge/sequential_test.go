package judge

import (
	"math"
	"testing"
)

// TestLooks_Orders_SixToTwenty pins the rule's orders for the default
// extension, 6 pairs up to 20, at 95 %: the first look is MedianCI's (the
// whole range), the interval narrows once the budget allows, and never
// narrows beyond MedianCI's own order for that number of pairs.
func TestLooks_Orders_SixToTwenty(t *testing.T) {
	ks, budget := Looks{First: 6, Last: 20}.Orders(0.95)
	t.Logf("orders %v, budget %.5f", ks[6:], budget)
	if ks[6] != 1 {
		t.Errorf("first look at 6 pairs uses k=%d, want MedianCI's 1", ks[6])
	}
	for n := 7; n <= 20; n++ {
		if ks[n] < ks[n-1] {
			t.Errorf("k falls from %d to %d at %d pairs: the interval would widen", ks[n-1], ks[n], n)
		}
		if kMax, _ := medianOrder(n, 0.95); ks[n] > kMax {
			t.Errorf("k=%d at %d pairs is beyond MedianCI's %d", ks[n], n, kMax)
		}
	}
	if ks[20] < 3 {
		t.Errorf("k at 20 pairs is %d: the extension hardly narrows the interval", ks[20])
	}
	// The budget is the fixed rule's one-sided error at 20 pairs (k=6):
	// P(B ≤ 5) for B ~ Binomial(20, 1/2) = 21700/2^20.
	if want := fixed20Error; math.Abs(budget-want) > 1e-12 {
		t.Errorf("budget %.6f, want %.6f", budget, want)
	}
}

// fixed20Error is the one-sided error of the fixed rule at 20 pairs.
const fixed20Error = 21700.0 / (1 << 20)

// TestLooks_FalseWorse simulates the whole procedure at its hardest case,
// a change exactly at the threshold: the true median of the per-pair
// ratios is 1+threshold, so any "worse" is false. An experiment judges
// after 6 pairs and, while the verdict straddles the threshold, adds two
// pairs and judges again, up to 20. Its rate of false "worse" must stay
// within the fixed rule's at 20 pairs (2.07 %, below the nominal 2.5 %)
// and within what 20 fixed pairs give in the same trials.
func TestLooks_FalseWorse(t *testing.T) {
	const (
		trials    = 60000
		threshold = 0.03
	)
	rng := newRand(t, 20261203)
	looks := Looks{First: 6, Last: 20}
	var seqWorse, fixed6Worse, fixed20Worse int
	xs := make([]float64, 20)
	judgeN := func(n int, l Looks) Verdict {
		sum := ratioSummary(xs[:n], 0.95, l)
		v, _ := decide(sum, xs[:n], false, threshold, 5, false)
		return v
	}
	for range trials {
		for i := range xs {
			xs[i] = (1 + threshold) * math.Exp(0.04*rng.NormFloat64())
		}
		if judgeN(6, Looks{}) == Worse {
			fixed6Worse++
		}
		if judgeN(20, Looks{}) == Worse {
			fixed20Worse++
		}
		if v, _ := extend(judgeN, looks); v == Worse {
			seqWorse++
		}
	}
	rate := func(c int) float64 { return float64(c) / trials }
	t.Logf("false worse: fixed 6 %.4f, fixed 20 %.4f, 6 extended to 20 %.4f",
		rate(fixed6Worse), rate(fixed20Worse), rate(seqWorse))
	// Three standard errors of a rate near 2 % over the trials.
	slack := 3 * math.Sqrt(0.02*0.98/trials)
	if rate(seqWorse) > fixed20Error+slack {
		t.Errorf("extended: false worse %.4f, above the fixed rule's 20-pair error %.4f", rate(seqWorse), fixed20Error)
	}
	if rate(seqWorse) > rate(fixed20Worse)+slack {
		t.Errorf("extended: false worse %.4f, above 20 fixed pairs' %.4f in the same trials", rate(seqWorse), rate(fixed20Worse))
	}
}

// extend runs the procedure on the values judgeN sees: judge after
// l.First pairs and, while unknown, after two more, up to l.Last; it
// returns the verdict and the pairs it took.
func extend(judgeN func(int, Looks) Verdict, l Looks) (Verdict, int) {
	for n := l.First; ; n += 2 {
		if v := judgeN(n, l); v != Unknown || n >= l.Last {
			return v, n
		}
	}
}

// TestLooks_AA_DecidesMore simulates A/A experiments whose time ratios
// spread enough that six pairs often straddle a 3 % threshold (log
// standard deviation 2 %, like the noisiest workloads of experiments 019
// to 025): extending to 20 pairs must leave far fewer workloads unknown,
// call none worse or better, and take few pairs on average.
func TestLooks_AA_DecidesMore(t *testing.T) {
	const trials = 20000
	rng := newRand(t, 20261204)
	looks := Looks{First: 6, Last: 20}
	xs := make([]float64, 20)
	judgeN := func(n int, l Looks) Verdict {
		v, _ := decide(ratioSummary(xs[:n], 0.95, l), xs[:n], false, 0.03, 5, false)
		return v
	}
	var unknown6, unknownSeq, wrong, pairs int
	for range trials {
		for i := range xs {
			xs[i] = math.Exp(0.02 * rng.NormFloat64())
		}
		if judgeN(6, Looks{}) == Unknown {
			unknown6++
		}
		v, n := extend(judgeN, looks)
		pairs += n
		switch v {
		case Unknown:
			unknownSeq++
		case Worse, Better:
			wrong++
		}
	}
	rate := func(c int) float64 { return float64(c) / trials }
	t.Logf("unknown: 6 fixed pairs %.4f, extended to 20 %.4f; worse or better %.4f; mean pairs %.2f",
		rate(unknown6), rate(unknownSeq), rate(wrong), float64(pairs)/trials)
	if rate(unknownSeq) > rate(unknown6)/4 {
		t.Errorf("extended: unknown %.4f, not a quarter of 6 fixed pairs' %.4f", rate(unknownSeq), rate(unknown6))
	}
	if wrong > 0 {
		t.Errorf("extended: %d A/A trials called worse or better", wrong)
	}
	if mean := float64(pairs) / trials; mean > 10 {
		t.Errorf("extended: %.2f pairs on average, more than 10", mean)
	}
}
