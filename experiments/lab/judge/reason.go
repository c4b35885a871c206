package judge

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// This file words verdicts as plain sentences, with percentages written
// "1.8 %" and intervals "95 % CI [+1.7 %, +1.9 %]".

// metricReason words the decision about one metric.
func metricReason(mr *MetricResult, dec decision, total int, skips []skipped, lim Limits, opts Options) string {
	name := mr.Metric.Name
	switch dec {
	case decMixedSources:
		return fmt.Sprintf("%s: the runs mix perf and callgrind counts, which are never compared", name)
	case decTooFew:
		what := "clean pairs"
		if mr.Metric.Class != ClassTime {
			what = "pairs with usable counts"
		}
		s := fmt.Sprintf("%s: too few %s, %d of %d", name, what, len(mr.Pairs), total)
		if len(skips) > 0 {
			s += " (" + skipText(skips) + ")"
		}
		return s + fmt.Sprintf(", need %d", lim.MinCleanPairs)
	}
	head := fmt.Sprintf("%s %s (%s)", name, changeText(mr.Ratio.Center), intervalText(mr, skips, opts))
	worseVerb := "above"
	if mr.Metric.HigherIsBetter {
		worseVerb = "beyond"
	}
	switch dec {
	case decWorse:
		return head + ", " + limitText(mr, worseVerb)
	case decBetter:
		return head + ", an improvement " + limitText(mr, "beyond")
	case decStraddles:
		return fmt.Sprintf("%s: the interval straddles the %s threshold, so more pairs are needed to decide", head, thresholdPct(mr))
	case decInconsistent:
		return head + ": exact counts changed beyond the criterion in some pairs only, which is not counted as a change"
	}
	switch significance(mr, opts) {
	case changed:
		return head + ", a real change " + limitText(mr, "within")
	case unchanged:
		return head + ", no significant change, " + limitText(mr, "within")
	}
	return head + ", " + limitText(mr, "within")
}

// changeEvidence is what the interval and the signed-rank test say together
// about whether a metric changed at all.
type changeEvidence int

const (
	unclear   changeEvidence = iota // they disagree
	changed                         // both say it changed
	unchanged                       // neither says it changed
)

// significance reports whether the metric changed at all: exact values that
// differ, or a signed-rank p-value at most alpha together with an interval
// that excludes no change; unchanged when neither holds.
func significance(mr *MetricResult, opts Options) changeEvidence {
	r := mr.Ratio
	if isExact(r) {
		if r.Center != 1 {
			return changed
		}
		return unchanged
	}
	testSays, intervalSays := mr.Test.P <= opts.Alpha, r.Lo > 1 || r.Hi < 1
	switch {
	case testSays && intervalSays:
		return changed
	case !testSays && !intervalSays:
		return unchanged
	}
	return unclear
}

// isExact reports whether s is an exact summary.
func isExact(s Summary) bool { return s.Confidence == 1 && s.Lo == s.Hi }

// changeText words a ratio as a change: "1.8 % higher".
func changeText(ratio float64) string {
	c := ratio - 1
	switch {
	case c > 0:
		return pct(c) + " % higher"
	case c < 0:
		return pct(c) + " % lower"
	}
	return "unchanged"
}

// intervalText words the ratio's interval and, when some pairs were left
// out, the pairs used: "95 % CI [+1.7 %, +1.9 %] over pairs 1 and 3–6; 2
// disturbed".
func intervalText(mr *MetricResult, skips []skipped, opts Options) string {
	r := mr.Ratio
	var s string
	if isExact(r) {
		s = fmt.Sprintf("exact, the same in all %d pairs", r.N)
	} else {
		// One interval format for every note and table: signed changes
		// in brackets, low end first.
		span := "[" + signedPct(r.Lo-1) + ", " + signedPct(r.Hi-1) + "]"
		// An interval from order statistics covers with at least the level
		// asked for, often more; it is named by that level unless too few
		// pairs kept it below.
		s = formatConfidence(min(r.Confidence, opts.Confidence)) + " CI " + span
	}
	if len(skips) > 0 {
		s += " over pairs " + FormatPairs(mr.Pairs) + "; " + skipText(skips)
	}
	return s
}

// skipText words the pairs left out: "2 disturbed, 5 failed".
func skipText(skips []skipped) string {
	parts := make([]string, len(skips))
	for i, s := range skips {
		parts[i] = FormatPairs(s.pairs) + " " + s.label
	}
	return strings.Join(parts, ", ")
}

// limitText words the threshold a change is compared with, after verb
// ("above", "beyond", "within").
func limitText(mr *MetricResult, verb string) string {
	crit := limitPct(mr.Criterion)
	if mr.Metric.Class == ClassTime {
		return verb + " the " + crit + " criterion"
	}
	if mr.Noise.Exact() {
		return verb + " the " + crit + " criterion (exact counts, no noise)"
	}
	noise := pct(mr.Noise.Spread) + " %"
	switch {
	case mr.Noise.Spread > mr.Criterion:
		return verb + " the " + noise + " noise, which exceeds the " + crit + " criterion"
	case verb == "within":
		return "within the " + crit + " criterion (noise " + noise + ")"
	}
	return verb + " the " + crit + " criterion and the " + noise + " noise"
}

// workloadReason words a workload's verdict: the reasons of the deciding
// metrics, those that agree with the verdict first, instructions before
// time.
func workloadReason(w *WorkloadResult) string {
	var first, rest []string
	for _, class := range []Class{ClassInstructions, ClassTime} {
		found := false
		for i := range w.Metrics {
			m := &w.Metrics[i]
			if !m.Decides || m.Metric.Class != class {
				continue
			}
			found = true
			if m.Verdict == w.Verdict {
				first = append(first, m.Reason)
			} else {
				rest = append(rest, m.Reason)
			}
		}
		if !found {
			rest = append(rest, string(class)+" not measured")
		}
	}
	if w.Time == NotMeasured && w.Instructions == NotMeasured {
		return "nothing to judge: the runs carry neither a timed metric nor an instruction count"
	}
	return strings.Join(append(first, rest...), "; ")
}

// overall combines the workloads' verdicts and words it: "of 4 workloads,
// 1 worse (store-get), 3 same (a, b, c)".
func overall(ws []WorkloadResult) (Verdict, string) {
	if len(ws) == 0 {
		return Unknown, "no runs to judge"
	}
	var vs []Verdict
	byVerdict := make(map[Verdict][]string)
	for _, w := range ws {
		vs = append(vs, w.Verdict)
		byVerdict[w.Verdict] = append(byVerdict[w.Verdict], w.Workload)
	}
	var parts []string
	for _, v := range []Verdict{Worse, Unknown, Better, Same} {
		if names := byVerdict[v]; len(names) > 0 {
			parts = append(parts, fmt.Sprintf("%d %s (%s)", len(names), v, strings.Join(names, ", ")))
		}
	}
	noun := "workloads"
	if len(ws) == 1 {
		noun = "workload"
	}
	return combine(vs...), fmt.Sprintf("of %d %s, %s", len(ws), noun, strings.Join(parts, ", "))
}

// describeDisturbance words a disturbed run for the pair table:
// "after run: cpu_share 13 % below its side's median (limit 3.0 %)".
func describeDisturbance(d Disturbance) string {
	dir := "above"
	if d.Departure < 0 {
		dir = "below"
	}
	return fmt.Sprintf("%s run: %s %s %% %s its side's median (limit %s %%)", d.Side, d.Metric, pct(d.Departure), dir, pct(d.Limit))
}

// signedPct writes a change, a fraction, as a signed percentage with two
// significant digits: 0.017 as "+1.7 %", −0.0069 as "−0.69 %".
func signedPct(f float64) string {
	switch {
	case f > 0:
		return "+" + pct(f) + " %"
	case f < 0:
		return "−" + pct(f) + " %"
	}
	return "0 %"
}

// pct writes the magnitude of a fraction as a percentage with two
// significant digits and no exponent: 0.018 as "1.8", 0.00094 as "0.094".
func pct(f float64) string {
	v := math.Abs(f) * 100
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	digits := max(0, 1-int(math.Floor(math.Log10(v))))
	if r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', digits, 64), 64); math.Floor(math.Log10(r)) > math.Floor(math.Log10(v)) {
		digits = max(0, digits-1) // rounding reached the next decade: 0.996 is "1.0", not "1.00"
	}
	return strconv.FormatFloat(v, 'f', digits, 64)
}

// limitPct writes a criterion or threshold as a percentage with its sign:
// 0.01 as "1 %".
func limitPct(f float64) string {
	return strconv.FormatFloat(f*100, 'g', 6, 64) + " %"
}

// thresholdPct writes mr's threshold: as its criterion was written when it
// is the criterion, rounded like a measured percentage when it is the
// noise ("15 %", not "14.6882 %").
func thresholdPct(mr *MetricResult) string {
	if mr.Threshold > mr.Criterion {
		return pct(mr.Threshold) + " %"
	}
	return limitPct(mr.Threshold)
}

// formatConfidence writes a confidence level: 0.95 as "95 %", 0.9375 as
// "93.8 %".
func formatConfidence(c float64) string {
	s := strconv.FormatFloat(c*100, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + " %"
}
