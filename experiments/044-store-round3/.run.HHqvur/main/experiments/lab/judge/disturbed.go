package judge

import (
	"math"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/stats"
)

// This file holds the disturbance assumption: a run that received much less
// (or more) CPU than the other runs of its side, or spent much more (or less)
// CPU per operation, was disturbed by something outside the experiment, and
// its timings say nothing about the change.

// DisturbanceRule decides which runs were disturbed.
//
// A run is disturbed when its cpu_share or its cpu_per_op departs from the
// median of the same metric over all runs of the same side of the same
// workload by more than
//
//	max(K × 1.4826 × MAD, Floor × |median|)
//
// where MAD is the median absolute deviation from that median (1.4826 × MAD
// estimates the standard deviation of normal noise, so K = 3.5 is the
// "modified z-score above 3.5" outlier rule of Iglewicz and Hoaglin). The
// floor keeps a side of nearly identical runs from flagging ordinary jitter.
// Departures in either direction count. A side with fewer than MinRuns runs
// carrying the metric is not checked, and a warning says so.
//
// A pair judges its two runs against each other: the pairs runner
// interleaves the two sides' processes, so a burst of outside load usually
// slows both runs of a pair alike, and then the pair's ratio still compares
// like with like. So a pair with a disturbed run is disturbed only when its
// two runs' departures, on a metric where one of them is disturbed, differ
// by more than Floor (3 %: departures of 20 % and 28 % are not alike, even
// where a noisy side's own limit is wider). A disturbed pair is listed and
// left out of every timed metric (callgrind counts are simulated and are
// not affected; perf counts of a disturbed pair are left out too). A pair
// whose runs departed alike is listed as "disturbed alike" and used.
type DisturbanceRule struct {
	// K is the number of robust standard deviations a run may depart.
	K float64
	// Floor is the smallest relative departure that counts.
	Floor float64
	// MinRuns is the fewest runs a side needs to be checked.
	MinRuns int
}

// DefaultDisturbance is the disturbance rule of DefaultOptions: 3.5 robust
// standard deviations, at least 3 %, with at least 3 runs per side.
var DefaultDisturbance = DisturbanceRule{K: 3.5, Floor: 0.03, MinRuns: 3}

// disturbanceMetrics are the metrics the rule watches.
var disturbanceMetrics = []string{metricCPUShare, MetricCPUPerOp}

// sideStats is the rule's median and relative limit for one metric of one
// side.
type sideStats struct{ med, limit float64 }

// departure returns run r's relative departure on metric and whether r
// carries it.
func (st sideStats) departure(r *expdir.Run, metric string) (float64, bool) {
	v := timedValue(r, metric)
	if v == 0 || st.med == 0 {
		return 0, false
	}
	return (v - st.med) / st.med, true
}

// Disturbance records one disturbed run.
type Disturbance struct {
	// Pair and Side identify the run.
	Pair int
	Side string
	// Metric is cpu_share or cpu_per_op.
	Metric string
	// Value is the run's value, Median the median of its side.
	Value, Median float64
	// Departure is (Value-Median)/Median; Limit the largest relative
	// departure the rule allowed.
	Departure, Limit float64
}

// outliers applies the rule to xs: the median, the relative limit, and which
// values depart beyond it. ok is false when there are too few values.
func (rule DisturbanceRule) outliers(xs []float64) (med, limit float64, out []bool, ok bool) {
	if len(xs) < rule.MinRuns || len(xs) == 0 {
		return 0, 0, nil, false
	}
	med = stats.Median(xs)
	dev := make([]float64, len(xs))
	for i, x := range xs {
		dev[i] = math.Abs(x - med)
	}
	mad := stats.Median(dev)
	abs := math.Max(rule.K*1.4826*mad, rule.Floor*math.Abs(med))
	if med != 0 {
		limit = abs / math.Abs(med)
	}
	out = make([]bool, len(xs))
	for i := range xs {
		out[i] = dev[i] > abs
	}
	return med, limit, out, true
}

// findDisturbed applies the rule to the runs of one side; runs that lack a
// metric (value 0) are not judged on it. It returns the disturbances in the
// order of runs and metrics, and how many metrics it could not check.
func (rule DisturbanceRule) findDisturbed(side string, runs []*expdir.Run) (found []Disturbance, unchecked []string, stats map[string]sideStats) {
	stats = map[string]sideStats{}
	for _, metric := range disturbanceMetrics {
		var xs []float64
		var idx []int
		for i, r := range runs {
			if v := timedValue(r, metric); v != 0 {
				xs, idx = append(xs, v), append(idx, i)
			}
		}
		if len(xs) == 0 {
			continue
		}
		med, limit, out, ok := rule.outliers(xs)
		if !ok {
			unchecked = append(unchecked, metric)
			continue
		}
		stats[metric] = sideStats{med, limit}
		for j, o := range out {
			if o {
				r := runs[idx[j]]
				found = append(found, Disturbance{
					Pair: r.Pair, Side: side, Metric: metric,
					Value: xs[j], Median: med,
					Departure: (xs[j] - med) / med, Limit: limit,
				})
			}
		}
	}
	return found, unchecked, stats
}
