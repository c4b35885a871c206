package judge

// Verdict is the judgement of a change: of one metric, one workload, or the
// whole experiment.
type Verdict string

const (
	// Better: the whole confidence interval of the change lies beyond the
	// threshold on the good side.
	Better Verdict = "better"
	// Same: the interval's bad end stays within the threshold and the
	// change is not confidently better.
	Same Verdict = "same"
	// Worse: the whole interval lies beyond the threshold on the bad side.
	Worse Verdict = "worse"
	// Unknown: too few pairs, or an interval that straddles the threshold,
	// or measurements that cannot be compared.
	Unknown Verdict = "unknown"
	// NotMeasured is the verdict of a class of metrics (time, instructions)
	// that a workload's runs did not measure. It never decides.
	NotMeasured Verdict = "not measured"
)

// rank orders verdicts by how much they dominate a combination: a worse
// metric makes the workload worse whatever the others say; an unknown one
// leaves it unknown unless another is worse; better needs no unknown.
func (v Verdict) rank() int {
	switch v {
	case Worse:
		return 4
	case Unknown:
		return 3
	case Better:
		return 2
	case Same:
		return 1
	}
	return 0
}

// combine returns the dominant verdict of vs (see rank), ignoring
// NotMeasured; Unknown when nothing was measured.
func combine(vs ...Verdict) Verdict {
	best := NotMeasured
	for _, v := range vs {
		if v.rank() > best.rank() {
			best = v
		}
	}
	if best == NotMeasured {
		return Unknown
	}
	return best
}

// badness returns the relative change of ratio in the metric's bad
// direction: positive when the metric got worse.
func badness(ratio float64, higherIsBetter bool) float64 {
	if higherIsBetter {
		return 1 - ratio
	}
	return ratio - 1
}

// decision is the outcome of the significance rule, which reason.go words.
type decision int

const (
	decTooFew decision = iota
	decMixedSources
	decWorse
	decBetter
	decStraddles
	decInconsistent
	decSame
)

// decide applies the significance rule to a metric's ratio summary and
// per-pair ratios:
//
//   - fewer than minPairs pairs: unknown;
//   - the whole interval beyond the threshold on the bad side: worse;
//   - the interval reaching past the threshold on the bad side but not
//     wholly beyond it: unknown (it straddles the threshold);
//   - the whole interval beyond the threshold on the good side: better;
//   - otherwise: same.
//
// With exact counts (exactRule), worse and better also need every pair
// beyond the threshold on the same side; otherwise the verdict is unknown.
func decide(ratio Summary, ratios []float64, higherIsBetter bool, threshold float64, minPairs int, exactRule bool) (Verdict, decision) {
	if len(ratios) < minPairs || len(ratios) == 0 {
		return Unknown, decTooFew
	}
	lo, hi := badness(ratio.Lo, higherIsBetter), badness(ratio.Hi, higherIsBetter)
	if lo > hi {
		lo, hi = hi, lo
	}
	var allWorse, allBetter bool
	if exactRule {
		bad := make([]float64, len(ratios))
		for i, r := range ratios {
			bad[i] = badness(r, higherIsBetter)
		}
		allWorse, allBetter = consistent(bad, threshold)
	}
	switch {
	case lo > threshold:
		if exactRule && !allWorse {
			return Unknown, decInconsistent
		}
		return Worse, decWorse
	case hi > threshold:
		return Unknown, decStraddles
	case hi < -threshold:
		if exactRule && !allBetter {
			return Unknown, decInconsistent
		}
		return Better, decBetter
	}
	return Same, decSame
}
