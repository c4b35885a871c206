package judge

import (
	"math"
	"slices"
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
	// The budget is the nominal one-sided error at 95 %.
	if math.Abs(budget-nominalError) > 1e-12 {
		t.Errorf("budget %.6f, want %.6f", budget, nominalError)
	}
}

// nominalError is the one-sided error a 95 % interval states.
const nominalError = 0.025

// TestLooks_Orders_AnyBound checks that the orders do not depend on the
// bound: every bound judges n pairs with the same k, and added pairs
// narrow the interval past 20 pairs too. Until probe 1028 the budget was
// the fixed rule's error at the bound, which for 24, 36, 48 and 60 pairs
// was below the first look's, so k stayed 1 (the whole range) however
// many pairs were added.
func TestLooks_Orders_AnyBound(t *testing.T) {
	ref, _ := Looks{First: 6, Last: 60}.Orders(0.95)
	for _, last := range []int{8, 20, 24, 30, 36, 48, 60} {
		ks, _ := Looks{First: 6, Last: last}.Orders(0.95)
		for n := 1; n <= last; n++ {
			if ks[n] != ref[n] {
				t.Errorf("bound %d: k=%d at %d pairs, the bound of 60 gives %d", last, ks[n], n, ref[n])
			}
		}
	}
	for n, want := range map[int]int{20: 4, 24: 4, 36: 7, 48: 9} {
		if ref[n] < want {
			t.Errorf("k at %d pairs is %d, want at least %d", n, ref[n], want)
		}
	}
}

// TestLooks_FalseWorse simulates the whole procedure at its hardest case,
// a change exactly at the threshold: the true median of the per-pair
// ratios is 1+threshold, so any "worse" is false. An experiment judges
// after 6 pairs and, while the verdict straddles the threshold, adds two
// pairs and judges again, up to its bound (20, the default, and 48). Its
// rate of false "worse" must stay within the nominal 2.5 % that a 95 %
// interval states.
func TestLooks_FalseWorse(t *testing.T) {
	const (
		trials    = 40000
		threshold = 0.03
	)
	rng := newRand(t, 20261203)
	for _, last := range []int{20, 48} {
		looks := Looks{First: 6, Last: last}
		var seqWorse, fixed6Worse int
		xs := make([]float64, last)
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
			if v, _ := extend(judgeN, looks); v == Worse {
				seqWorse++
			}
		}
		rate := func(c int) float64 { return float64(c) / trials }
		t.Logf("bound %d: false worse: fixed 6 %.4f, 6 extended to %d %.4f",
			last, rate(fixed6Worse), last, rate(seqWorse))
		// Three standard errors of a rate near 2.5 % over the trials.
		slack := 3 * math.Sqrt(nominalError*(1-nominalError)/trials)
		if rate(seqWorse) > nominalError+slack {
			t.Errorf("bound %d: false worse %.4f, above the nominal %.4f", last, rate(seqWorse), nominalError)
		}
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

// TestLooks_AtBound checks that the rule before 2026-12-07, kept for the
// experiments judged under it, gives its orders again: the budget is the
// fixed rule's error at the bound, 2.07 % at 20 pairs, and at 24 it is
// the first look's 1.56 %, spent at once, so k stays 1.
func TestLooks_AtBound(t *testing.T) {
	ks, budget := Looks{First: 6, Last: 20, AtBound: true}.Orders(0.95)
	want := []int{0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4}
	if !slices.Equal(ks, want) || math.Abs(budget-21700.0/(1<<20)) > 1e-12 {
		t.Errorf("bound 20: orders %v, budget %.6f; want %v, %.6f", ks, budget, want, 21700.0/(1<<20))
	}
	ks, budget = Looks{First: 6, Last: 24, AtBound: true}.Orders(0.95)
	if ks[24] != 1 || math.Abs(budget-1.0/64) > 1e-12 {
		t.Errorf("bound 24: k=%d at 24 pairs, budget %.6f; want 1 and %.6f", ks[24], budget, 1.0/64)
	}
}
