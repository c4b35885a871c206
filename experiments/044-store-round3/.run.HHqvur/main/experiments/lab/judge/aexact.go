package judge

// This file holds the exact assumption: a value can be measured exactly, so
// repeated measurements agree and need no distribution. Callgrind's
// instruction counts of deterministic workloads are exact.

// exactSummary summarizes xs as exact when all of them are equal: the
// interval is the value itself with confidence 1. It reports false when the
// values differ (they are not exact) or there are none.
func exactSummary(xs []float64) (Summary, bool) {
	if len(xs) == 0 {
		return Summary{}, false
	}
	for _, x := range xs[1:] {
		if x != xs[0] {
			return Summary{}, false
		}
	}
	return Summary{Center: xs[0], Lo: xs[0], Hi: xs[0], Confidence: 1, N: len(xs)}, true
}

// consistent reports whether every per-pair badness (the relative change in
// the metric's bad direction) lies beyond threshold on the same side: all
// above it (worse) or all below -threshold (better). With exact counts a
// difference beyond the criterion counts as a change only if every pair
// shows it.
func consistent(badness []float64, threshold float64) (worse, better bool) {
	if len(badness) == 0 {
		return false, false
	}
	worse, better = true, true
	for _, b := range badness {
		worse = worse && b > threshold
		better = better && b < -threshold
	}
	return worse, better
}

// summarize summarizes values as exact when they all agree and with
// MedianCI otherwise.
func summarize(xs []float64, confidence float64) Summary {
	if s, ok := exactSummary(xs); ok {
		return s
	}
	return MedianCI(xs, confidence)
}
