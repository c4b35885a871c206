package judge

import (
	"slices"

	"workbench/experiments/lab/expdir"
)

// Class groups metrics by the criterion that judges them.
type Class string

const (
	// ClassTime holds the measurements of the timed run (expdir.Metrics):
	// throughput, CPU per op, latency percentiles and peak RSS. They are
	// judged against Limits.TimeMaxWorse, and only over clean pairs.
	ClassTime Class = "time"
	// ClassInstructions holds the instruction count: the first event of
	// Options.InstructionEvents that a workload's runs carry. It is judged
	// against Limits.InstructionsMaxHigher and the measured noise.
	ClassInstructions Class = "instructions"
	// ClassCount holds every other counted event (cycles, cache misses...).
	// They are judged like instructions for the report but never decide a
	// verdict.
	ClassCount Class = "count"
)

// Metric is one measured quantity of a run.
type Metric struct {
	// Name is the metric's name: one of the timed metric names
	// (throughput, cpu_per_op, p50, p99, peak_rss) or, for counts, the
	// event as recorded (e.g. "instructions:u").
	Name string
	// Class says which criterion judges it.
	Class Class
	// HigherIsBetter is true for throughput and false for everything else:
	// CPU per op, latencies, memory and counts are better lower.
	HigherIsBetter bool
}

// Timed metric names, as used in criteria files (time.metric) and reports.
const (
	MetricThroughput = "throughput"
	MetricCPUPerOp   = "cpu_per_op"
	MetricP50        = "p50"
	MetricP99        = "p99"
	MetricPeakRSS    = "peak_rss"
	// MetricPairedTime is expdir.Metrics.PairedTime: each side's time per op
	// over the geometric mean of both, from the regions of the two sides
	// that took turns next to each other; its after/before ratio is the
	// pair's measured time ratio. Runs made with pure-count run --gate,
	// Go benchmarks and HTTP workloads (from their windows) have it;
	// criteria choose it with time.metric = paired_time.
	MetricPairedTime = "paired_time"
)

// timedMetrics lists the timed metrics in report order.
var timedMetrics = []Metric{
	{MetricThroughput, ClassTime, true},
	{MetricCPUPerOp, ClassTime, false},
	{MetricP50, ClassTime, false},
	{MetricP99, ClassTime, false},
	{MetricPeakRSS, ClassTime, false},
	{MetricPairedTime, ClassTime, false},
}

// timeFallback is the order in which the deciding time metric is chosen when
// the one the criteria name is absent from a workload's runs.
var timeFallback = []string{MetricThroughput, MetricCPUPerOp, MetricP50}

// isTimedMetric reports whether name is a timed metric's name.
func isTimedMetric(name string) bool {
	for _, m := range timedMetrics {
		if m.Name == name {
			return true
		}
	}
	return false
}

// timedValue returns the run's value of a timed metric; 0 when absent.
func timedValue(r *expdir.Run, name string) float64 {
	switch name {
	case MetricThroughput:
		return r.Metrics.Throughput
	case MetricCPUPerOp:
		return r.Metrics.CPUPerOp
	case MetricP50:
		return r.Metrics.P50
	case MetricP99:
		return r.Metrics.P99
	case MetricPeakRSS:
		return float64(r.Metrics.PeakRSS)
	case MetricPairedTime:
		return r.Metrics.PairedTime
	case metricCPUShare:
		return r.Metrics.CPUShare
	}
	return 0
}

// metricCPUShare names cpu_share, which the disturbance rule watches but no
// verdict judges: a CPU share is neither better nor worse.
const metricCPUShare = "cpu_share"

// countValue returns the run's per-operation count of event and the count
// itself; ok is false when the run did not count it.
func countValue(r *expdir.Run, event string) (perOp float64, c expdir.Count, ok bool) {
	for _, c := range r.Counts {
		if c.Event != event {
			continue
		}
		perOp = c.PerOp
		if perOp == 0 && r.Ops > 0 {
			perOp = c.Value / float64(r.Ops)
		}
		return perOp, c, true
	}
	return 0, expdir.Count{}, false
}

// presentMetrics lists the metrics that some successful run of w carries:
// the timed ones in their fixed order, then count events by name, the first
// of opts.InstructionEvents present being the instruction metric.
func presentMetrics(w workloadRuns, opts Options) []Metric {
	var runs []*expdir.Run
	for i := range w.pairs {
		for _, r := range []*expdir.Run{w.pairs[i].before, w.pairs[i].after} {
			if r != nil && r.ExitCode == 0 {
				runs = append(runs, r)
			}
		}
	}
	var out []Metric
	for _, m := range timedMetrics {
		if slices.ContainsFunc(runs, func(r *expdir.Run) bool { return timedValue(r, m.Name) != 0 }) {
			out = append(out, m)
		}
	}
	var events []string
	for _, r := range runs {
		for _, c := range r.Counts {
			if !slices.Contains(events, c.Event) {
				events = append(events, c.Event)
			}
		}
	}
	slices.Sort(events)
	instr := ""
	for _, e := range opts.InstructionEvents {
		if slices.Contains(events, e) {
			instr = e
			break
		}
	}
	for _, e := range events {
		class := ClassCount
		if e == instr {
			class = ClassInstructions
		}
		out = append(out, Metric{Name: e, Class: class})
	}
	return out
}
