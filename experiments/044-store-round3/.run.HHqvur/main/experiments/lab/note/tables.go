package note

import (
	"fmt"
	"slices"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/mdtable"
	"workbench/experiments/lab/stats"
	"workbench/perfcount"
)

// writePairs writes each workload's per-pair table of its deciding metrics.
func (e *Experiment) writePairs(b *strings.Builder) {
	b.WriteString("## Pairs\n\n")
	b.WriteString("Each pair ran both sides back to back, in the order given; the change is after/before − 1. A change in parentheses is of a pair that metric did not use.\n\n")
	for _, w := range e.Report.Workloads {
		fmt.Fprintf(b, "### %s\n\n", w.Workload)
		head := []string{">pair", "first"}
		var cols []int
		for j, m := range w.Metrics {
			if m.Decides {
				cols = append(cols, j)
				head = append(head, ">"+m.Metric.Name+" before", ">after", ">change")
			}
		}
		procs := e.processCounts(w.Workload)
		if procs {
			head = append(head, ">processes")
		}
		head = append(head, "status", "note")
		t := mdtable.New(head...)
		for _, p := range w.Pairs {
			r := []string{fmt.Sprint(p.Pair), orUnknown(p.First)}
			for _, j := range cols {
				c, m := p.Cells[j], w.Metrics[j].Metric
				switch {
				case !c.Present:
					r = append(r, "—", "—", "—")
				case c.Ratio <= 0:
					r = append(r, formatValue(m, c.Before), formatValue(m, c.After), "—")
				case c.Used:
					r = append(r, formatValue(m, c.Before), formatValue(m, c.After), formatChange(c.Ratio))
				default:
					r = append(r, formatValue(m, c.Before), formatValue(m, c.After), "("+formatChange(c.Ratio)+")")
				}
			}
			if procs {
				r = append(r, fmt.Sprintf("%d / %d", e.NativeProcesses[CellRef{w.Workload, p.Pair, judge.SideBefore}],
					e.NativeProcesses[CellRef{w.Workload, p.Pair, judge.SideAfter}]))
			}
			r = append(r, string(p.Status), p.Note)
			t.Row(r...)
		}
		t.Write(b)
		b.WriteString("\n")
		if procs {
			b.WriteString("Processes: the fresh native processes before / after ran in that pair; more than the suite's `repeat` when a side's fastest region had not settled.\n\n")
		}
	}
}

// processCounts reports whether any run of workload recorded its native
// processes.
func (e *Experiment) processCounts(workload string) bool {
	for k := range e.NativeProcesses {
		if k.Workload == workload {
			return true
		}
	}
	return false
}

// writeMedians writes each workload's medians, intervals, tests, noise and
// verdicts, metric by metric.
func (e *Experiment) writeMedians(b *strings.Builder) {
	conf := formatConfidence(e.Report.Options.Confidence)
	fmt.Fprintf(b, "## Medians and %s intervals\n\n", conf)
	fmt.Fprintf(b, "Before and after are each side's median over the pairs used. The change is the median of the per-pair changes, with its %s confidence interval in brackets (another level when there were too few pairs to reach it); p is the two-sided Wilcoxon signed-rank test of the per-pair log ratios. Counts are per operation.\n\n", conf)
	for _, w := range e.Report.Workloads {
		fmt.Fprintf(b, "### %s\n\n", w.Workload)
		decides := mdtable.New("metric", "source", "pairs", ">before", ">after", ">change [CI]", ">p", ">noise", ">threshold", "verdict")
		reported := mdtable.New("metric", "source", "pairs", ">before", ">after", ">change [CI]", ">p", ">noise")
		nrep := 0
		for _, m := range w.Metrics {
			cells := e.medianCells(m)
			if m.Decides {
				decides.Row(cells...)
				continue
			}
			nrep++
			reported.Row(cells[:8]...)
		}
		decides.Write(b)
		b.WriteString("\n")
		if nrep > 0 {
			b.WriteString("Reported, deciding nothing (no threshold, no verdict):\n\n")
			reported.Write(b)
			b.WriteString("\n")
		}
	}
}

// medianCells returns a metric's row of the medians tables: metric,
// source, pairs, before, after, change [CI], p, noise, threshold, verdict.
func (e *Experiment) medianCells(m judge.MetricResult) []string {
	src := string(m.Source)
	if m.Metric.Class == judge.ClassTime {
		src = "time"
	} else if src == "" {
		src = "mixed"
	}
	if len(m.Pairs) == 0 {
		thr := "—" // a metric judge could not compare has none
		if m.Threshold > 0 {
			thr = formatLimit(m.Threshold)
		}
		return []string{m.Metric.Name, src, "none", "—", "—", "—", "—", "—", thr, string(m.Verdict)}
	}
	p := "—"
	if m.Test.N > 0 {
		p = formatP(m.Test.P)
	}
	thr := formatLimit(m.Threshold)
	if m.Threshold > m.Criterion {
		thr += " (noise)"
	}
	return []string{m.Metric.Name, src, judge.FormatPairs(m.Pairs),
		formatValue(m.Metric, m.Before.Center), formatValue(m.Metric, m.After.Center),
		changeCI(m.Ratio, e.Report.Options.Confidence), p, formatSpread(m.Noise.Spread), thr, string(m.Verdict)}
}

// changeCI writes a ratio's change with its interval: "+2.00 % [+1.98 %,
// +2.02 %]", "+2.00 % (exact)", or with the interval's level when it is
// below conf.
func changeCI(r judge.Summary, conf float64) string {
	if r.Confidence == 1 && r.Lo == r.Hi {
		return formatChange(r.Center) + " (exact)"
	}
	s := fmt.Sprintf("%s [%s, %s]", formatChange(r.Center), formatChange(r.Lo), formatChange(r.Hi))
	if r.Confidence < conf {
		s += " at " + formatConfidence(r.Confidence)
	}
	return s
}

// writeInstructions writes the instruction count of each workload with
// the instrument that counted it. Counts from two instruments are never
// compared: each gets its own row, without a change.
func (e *Experiment) writeInstructions(b *strings.Builder) {
	b.WriteString("## Instruction counts\n\n")
	t := mdtable.New("workload", "event", "source", "pairs", ">before per op", ">after per op", ">change", "verdict")
	n := 0
	for _, w := range e.Report.Workloads {
		for _, m := range w.Metrics {
			if m.Metric.Class != judge.ClassInstructions {
				continue
			}
			n++
			if m.Source != "" {
				if len(m.Pairs) == 0 {
					t.Row(w.Workload, m.Metric.Name, string(m.Source), "none", "—", "—", "—", string(m.Verdict))
					continue
				}
				t.Row(w.Workload, m.Metric.Name, string(m.Source), judge.FormatPairs(m.Pairs),
					formatCount(m.Before.Center), formatCount(m.After.Center), formatChange(m.Ratio.Center), string(m.Verdict))
				continue
			}
			for _, s := range bySource(e.Runs, w.Workload, m.Metric.Name) {
				t.Row(w.Workload, m.Metric.Name, string(s.source), fmt.Sprintf("%d runs", s.runs),
					formatMedian(s.before), formatMedian(s.after), "not compared", "unknown: sources mixed")
			}
		}
	}
	if n == 0 {
		b.WriteString("No run counted instructions.\n\n")
		return
	}
	b.WriteString("Medians per operation over the pairs used. Perf counts and callgrind counts are different measurements: a workload whose runs mix them has one row per source and no comparison.\n\n")
	t.Write(b)
	b.WriteString("\n")
}

// sourceCounts are one workload's successful counts of one event from one
// source, by side.
type sourceCounts struct {
	source        perfcount.Source
	runs          int
	before, after []float64
}

// bySource splits the counts of event in workload's successful runs by
// source, sources by name.
func bySource(runs []expdir.Run, workload, event string) []sourceCounts {
	var out []sourceCounts
	for _, r := range runs {
		if r.Workload != workload || r.ExitCode != 0 {
			continue
		}
		for _, c := range r.Counts {
			if c.Event != event {
				continue
			}
			i := slices.IndexFunc(out, func(s sourceCounts) bool { return s.source == c.Source })
			if i < 0 {
				out = append(out, sourceCounts{source: c.Source})
				i = len(out) - 1
			}
			v := c.PerOp
			if v == 0 && r.Ops > 0 {
				v = c.Value / float64(r.Ops)
			}
			out[i].runs++
			switch r.Side {
			case judge.SideBefore:
				out[i].before = append(out[i].before, v)
			case judge.SideAfter:
				out[i].after = append(out[i].after, v)
			}
		}
	}
	slices.SortFunc(out, func(a, b sourceCounts) int { return strings.Compare(string(a.source), string(b.source)) })
	return out
}

// formatMedian writes the median of xs as a count; "—" for none.
func formatMedian(xs []float64) string {
	if len(xs) == 0 {
		return "—"
	}
	return formatCount(stats.Median(xs))
}
