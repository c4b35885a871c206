package judge

import "workbench/perfcount"

// Report is the judgement of one experiment. Everything in it is sorted, so
// the same runs, criteria and options always give the same Report.
type Report struct {
	// Workloads are the per-workload results, by workload name.
	Workloads []WorkloadResult
	// Verdict is the experiment's verdict: worse if any workload is worse,
	// else unknown if any is unknown, else better if any is better, else
	// same. Reason says which workloads decided it, in one sentence.
	Verdict Verdict
	Reason  string
	// Criteria and Options are the settings the judgement used, defaults
	// filled in.
	Criteria Criteria
	Options  Options
	// Warnings are soft problems with the runs as a whole (unknown sides,
	// duplicate runs, calibration runs that could not be used).
	Warnings []error
}

// WorkloadResult is the judgement of one workload.
type WorkloadResult struct {
	// Workload is the workload's name.
	Workload string
	// Limits are the criteria that applied to it, overrides included.
	Limits Limits
	// Metrics are the results of every metric the runs carry: timed
	// metrics in a fixed order (throughput, cpu_per_op, p50, p99,
	// peak_rss), then count events by name.
	Metrics []MetricResult
	// Pairs is the per-pair table, by pair number.
	Pairs []PairRow
	// Disturbed lists every disturbed run, by pair, side and metric.
	Disturbed []Disturbance
	// TimePairs and InstructionPairs are the pairs the deciding time and
	// instruction metrics used.
	TimePairs, InstructionPairs []int
	// Time and Instructions are the verdicts of the deciding time metric
	// and of the instruction count; NotMeasured when absent.
	Time, Instructions Verdict
	// Verdict combines Time and Instructions: worse if either is worse,
	// else unknown if either is unknown, else better if either is better,
	// else same. Reason gives the deciding metric's reason first.
	Verdict Verdict
	Reason  string
	// Warnings are soft problems with this workload's runs.
	Warnings []error
}

// MetricResult is the comparison of one metric of one workload.
type MetricResult struct {
	// Metric is the metric compared.
	Metric Metric
	// Source is the instrument of a count ("perf" or "callgrind"); empty
	// for timed metrics.
	Source perfcount.Source
	// Decides is true for the deciding time metric and the instruction
	// count; the other metrics are reported only.
	Decides bool
	// Pairs are the pairs used, ascending.
	Pairs []int
	// Before and After are each side's median over the pairs used, with
	// their confidence intervals.
	Before, After Summary
	// Ratio is the median of the per-pair ratios after/before, with a
	// distribution-free confidence interval (or exact, when every pair
	// agrees).
	Ratio Summary
	// Test is the Wilcoxon signed-rank test of the log ratios against no
	// change.
	Test SignedRank
	// Noise is the metric's measured noise.
	Noise Noise
	// Criterion is the tolerated relative change from the Limits;
	// Threshold the one applied: the criterion for timed metrics,
	// max(criterion, noise) for counts.
	Criterion, Threshold float64
	// Verdict and its Reason, one plain sentence.
	Verdict Verdict
	Reason  string
	// MorePairsMayDecide is true for an unknown verdict that more pairs
	// could settle: the interval straddled the threshold, or too few pairs
	// were clean. It is false for every other verdict and for unknowns
	// more pairs cannot help (mixed sources, exact counts that disagree).
	MorePairsMayDecide bool
	// Warnings are soft problems with this metric.
	Warnings []error
}

// PairRow is one pair of the per-pair table.
type PairRow struct {
	// Pair is the pair's number.
	Pair int
	// First is the side that ran first ("before" or "after"), from the
	// runs' Position; empty when unknown.
	First string
	// Status says whether the pair is clean; Note why it is not.
	Status PairStatus
	Note   string
	// Cells hold the pair's values, aligned with WorkloadResult.Metrics.
	Cells []Cell
}

// Cell is one metric's values in one pair.
type Cell struct {
	// Before and After are the two runs' values; Ratio is After/Before.
	Before, After, Ratio float64
	// Present is true when both runs have the metric; Used when the metric's
	// comparison used this pair.
	Present, Used bool
}

// MorePairsMayDecide reports whether w is unknown only because of deciding
// metrics that more pairs could settle (MetricResult.MorePairsMayDecide):
// the workload the pairs runner gives more pairs (Options.Looks).
func (w *WorkloadResult) MorePairsMayDecide() bool {
	if w.Verdict != Unknown {
		return false
	}
	some := false
	for i := range w.Metrics {
		m := &w.Metrics[i]
		if !m.Decides || m.Verdict != Unknown {
			continue
		}
		if !m.MorePairsMayDecide {
			return false
		}
		some = true
	}
	return some
}
