package note

import (
	"math"
	"strconv"
	"strings"

	"workbench/experiments/lab/judge"
)

// This file holds every number format of the note. Each is a pure function
// of its argument, so the note is the same wherever it is generated.
//
//   - counts: whole numbers with thousands separators ("8,695,000"); below
//     100, four significant digits ("12.35");
//   - changes: signed percentages with two decimals ("+2.00 %", "−0.56 %"),
//     the minus sign being U+2212 as in judge's reasons;
//   - spreads and noise: two significant digits ("0.035 %");
//   - criteria and thresholds: as written ("1 %", "0.5 %");
//   - times: four significant digits in ns, µs, ms or s ("42.60 µs");
//   - throughput: a rate per second ("44,527/s");
//   - memory: four significant digits in B, KiB, MiB or GiB.

// minus is the sign of negative numbers in the note.
const minus = "−"

// formatCount writes a count per operation.
func formatCount(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	if math.Abs(v) >= 100 || v == 0 {
		return groupInt(int64(math.Round(v)))
	}
	return sig(v, 4)
}

// formatDelta writes a signed whole count: "+1,234", "−56", "0".
func formatDelta(v int64) string {
	switch {
	case v > 0:
		return "+" + groupInt(v)
	case v < 0:
		return groupInt(v)
	}
	return "0"
}

// groupInt writes n with commas between groups of three digits.
func groupInt(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return minus + b.String()
	}
	return b.String()
}

// sig writes v with n significant digits and no exponent, with the note's
// minus sign.
func sig(v float64, n int) string {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	a := math.Abs(v)
	digits := max(0, n-1-int(math.Floor(math.Log10(a))))
	s := strconv.FormatFloat(a, 'f', digits, 64)
	// Rounding can reach the next decade (9.9996 → "10.000"): one digit
	// fewer keeps n significant digits.
	if r, _ := strconv.ParseFloat(s, 64); digits > 0 && math.Floor(math.Log10(r)) > math.Floor(math.Log10(a)) {
		s = strconv.FormatFloat(a, 'f', digits-1, 64)
	}
	if v < 0 {
		return minus + s
	}
	return s
}

// formatChange writes a ratio after/before as a signed percentage change
// with two decimals: 1.02 as "+2.00 %", 0.9944 as "−0.56 %".
func formatChange(ratio float64) string {
	if math.IsNaN(ratio) || math.IsInf(ratio, 0) {
		return strconv.FormatFloat(ratio, 'f', -1, 64)
	}
	c := (ratio - 1) * 100
	s := strconv.FormatFloat(math.Abs(c), 'f', 2, 64)
	switch {
	case c > 0:
		return "+" + s + " %"
	case c < 0:
		return minus + s + " %"
	}
	return s + " %"
}

// formatSpread writes a relative spread, a fraction, as a percentage with
// two significant digits: 0.00035 as "0.035 %".
func formatSpread(f float64) string {
	if math.IsInf(f, 1) {
		return "∞"
	}
	return sig(f*100, 2) + " %"
}

// formatLimit writes a criterion or threshold, a fraction, as written in a
// criteria file, rounded to two significant digits: 0.01 as "1 %", 0.005
// as "0.5 %", a noise threshold of 0.012345 as "1.2 %".
func formatLimit(f float64) string {
	s := strconv.FormatFloat(f*100, 'g', 2, 64)
	if strings.ContainsAny(s, "e") {
		s = sig(f*100, 2)
	}
	return s + " %"
}

// formatSeconds writes a time in the unit that keeps it between 1 and
// 1000, with four significant digits: 4.26e-5 as "42.60 µs".
func formatSeconds(s float64) string {
	units := []struct {
		name  string
		scale float64
	}{{"ns", 1e-9}, {"µs", 1e-6}, {"ms", 1e-3}, {"s", 1}}
	// The unit is chosen after rounding, so that 999.99996 µs is "1.000 ms".
	r, _ := strconv.ParseFloat(strconv.FormatFloat(math.Abs(s), 'g', 4, 64), 64)
	u := units[len(units)-1]
	for _, c := range units {
		if r < c.scale*1000 {
			u = c
			break
		}
	}
	return sig(s/u.scale, 4) + " " + u.name
}

// formatBytes writes a size in B, KiB, MiB or GiB, with four significant
// digits above 1 KiB.
func formatBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB"}
	i := 0
	rounded := func(x float64) float64 {
		r, _ := strconv.ParseFloat(strconv.FormatFloat(math.Abs(x), 'g', 4, 64), 64)
		return r
	}
	for rounded(b) >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	if i == 0 {
		return groupInt(int64(math.Round(b))) + " B"
	}
	return sig(b, 4) + " " + units[i]
}

// formatRate writes a throughput per second.
func formatRate(v float64) string {
	return formatCount(v) + "/s"
}

// formatValue writes a value of metric m in its unit.
func formatValue(m judge.Metric, v float64) string {
	switch m.Name {
	case judge.MetricThroughput:
		return formatRate(v)
	case judge.MetricCPUPerOp, judge.MetricP50, judge.MetricP99:
		return formatSeconds(v)
	case judge.MetricPeakRSS:
		return formatBytes(v)
	case judge.MetricPairedTime:
		return strconv.FormatFloat(v, 'f', 4, 64)
	case "task-clock", "cpu-clock":
		// perf's clocks count nanoseconds: shown as time, with its unit.
		return formatSeconds(v * 1e-9)
	}
	return formatCount(v)
}

// formatP writes a p-value with three significant digits.
func formatP(p float64) string {
	if p >= 0.001 || p == 0 {
		return sig(p, 3)
	}
	return strconv.FormatFloat(p, 'e', 2, 64)
}

// formatConfidence writes a confidence level: 0.95 as "95 %", 0.9375 as
// "93.8 %".
func formatConfidence(c float64) string {
	s := strconv.FormatFloat(c*100, 'f', 1, 64)
	return strings.TrimSuffix(s, ".0") + " %"
}

// shortHash abbreviates a commit hash to 12 characters.
func shortHash(h string) string {
	if strings.Contains(h, "@") {
		return h // a module@version (Go benchmarks of a module): kept whole
	}
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
