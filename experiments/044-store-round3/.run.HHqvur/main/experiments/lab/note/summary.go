package note

import (
	"fmt"
	"math"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/mdtable"
)

// writeSummary writes what a reader with ten seconds needs, right under the
// title: the verdict, what changed, and one row per deciding metric of
// each workload, with units, as benchstat would show it.
func (e *Experiment) writeSummary(b *strings.Builder) {
	rep := &e.Report
	n := map[judge.Verdict]int{}
	for _, w := range rep.Workloads {
		n[w.Verdict]++
	}
	var counts []string
	for _, v := range []judge.Verdict{judge.Worse, judge.Unknown, judge.Better, judge.Same} {
		if n[v] > 0 {
			counts = append(counts, fmt.Sprintf("%d %s", n[v], v))
		}
	}
	if len(counts) == 1 {
		fmt.Fprintf(b, "**%s** for %d of %d workloads.\n\n", capitalize(string(rep.Verdict)), len(rep.Workloads), len(rep.Workloads))
	} else {
		fmt.Fprintf(b, "**%s**: %s, of %d workloads.\n\n", capitalize(string(rep.Verdict)), strings.Join(counts, ", "), len(rep.Workloads))
	}
	b.WriteString(e.whatChanged() + "\n\n")
	e.writeSummaryTable(b)
}

// writeSummaryTable writes one row per workload, so that a suite of a dozen
// workloads fits in the first screen: each deciding metric's before and
// after medians with units, its change with the confidence interval, and
// its threshold, then the workload's verdict. The time metric's name heads
// its columns when every workload decides by the same one, and is named in
// the cell otherwise.
func (e *Experiment) writeSummaryTable(b *strings.Builder) {
	rep := &e.Report
	type cells struct{ before, after, change, threshold, metric string }
	none := cells{"—", "—", "—", "—", ""}
	timeNames := map[string]bool{}
	var rows [][2]cells
	paired := false
	for _, w := range rep.Workloads {
		row := [2]cells{none, none}
		for _, m := range w.Metrics {
			if !m.Decides {
				continue
			}
			i := 0
			if m.Metric.Class == judge.ClassInstructions {
				i = 1
			} else {
				timeNames[m.Metric.Name] = true
				paired = paired || m.Metric.Name == judge.MetricPairedTime
			}
			if len(m.Pairs) == 0 { // nothing compared: the Verdict section says why
				row[i] = cells{"—", "—", "not compared", "—", m.Metric.Name}
				continue
			}
			before, after, _ := summaryValues(w, m)
			r := m.Ratio
			if m.Metric.Name == judge.MetricThroughput && r.Center > 0 && r.Lo > 0 {
				// Shown as time per operation: the change is the
				// inverse of throughput's.
				r.Center, r.Lo, r.Hi = 1/r.Center, 1/r.Hi, 1/r.Lo
			}
			change := changeCell(r.Center) + " " + ciCell(r, rep.Options.Confidence)
			row[i] = cells{before, after, change, "± " + sig(m.Threshold*100, 2) + " %", m.Metric.Name}
		}
		rows = append(rows, row)
	}
	timeHead := "time"
	if len(timeNames) == 1 {
		for n := range timeNames {
			timeHead = "time (" + n + ")"
		}
	}
	t := mdtable.New("workload", ">"+timeHead+" before", ">after", ">change [95 % CI]", ">threshold",
		">instructions/op before", ">after", ">change [95 % CI]", ">threshold", "verdict")
	for i, w := range rep.Workloads {
		tm, in := rows[i][0], rows[i][1]
		tchange := tm.change
		if len(timeNames) > 1 && tm.metric != "" {
			tchange += " (" + tm.metric + ")"
		}
		t.Row(w.Workload, tm.before, tm.after, tchange, tm.threshold, in.before, in.after, in.change, in.threshold, string(w.Verdict))
	}
	t.Write(b)
	b.WriteString("\n")
	if paired {
		b.WriteString("Times are each side's median fastest region per operation; the change and its interval are the paired time's (the two sides' regions taking turns), which decides, and can differ from the ratio of the two times.\n\n")
	}
}

// whatChanged says, in one paragraph, what the after side changes: each
// commit's subject and the code it changes (everything but the
// experiments' data).
func (e *Experiment) whatChanged() string {
	m := e.Meta
	if m.AA || (m.Before.Commit != "" && m.Before.Commit == m.After.Commit) {
		return "What changed: nothing; this is an A/A run, the same commit on both sides, which measures the noise."
	}
	c := m.Changes
	if g := m.GoBench; c == nil && g != nil && g.Module != "" {
		return "What changed: module " + code(g.Module) + " from " + code(m.Before.Revision) + " to " + code(m.After.Revision) + " (two released versions: no commits between them are recorded)."
	}
	if c == nil {
		return "What changed: not recorded (meta.json predates it); see `git log " + shortHash(m.Before.Commit) + ".." + shortHash(m.After.Commit) + "`."
	}
	var subj []string
	for _, x := range c.Commits {
		subj = append(subj, code(x.Hash)+" "+x.Subject)
	}
	s := fmt.Sprintf("What changed: %s", plural(len(c.Commits), "commit"))
	if len(subj) > 0 {
		s += " (" + strings.Join(subj, "; ") + ")"
	}
	if c.Diffstat == "" {
		return s + "; no code changed: the commits touch only the experiments' data."
	}
	return s + "; code: " + c.Diffstat + "."
}

// summaryValues returns a deciding metric's before and after medians with
// their unit, and the unit's name. The paired time, a ratio to the pair's
// mean, is shown as the time per operation of the fastest regions, which is
// what it compares.
func summaryValues(w judge.WorkloadResult, m judge.MetricResult) (before, after, unit string) {
	if m.Metric.Class == judge.ClassInstructions {
		return formatCount(m.Before.Center), formatCount(m.After.Center), string(m.Metric.Name) + "/op"
	}
	if m.Metric.Name == judge.MetricPairedTime || m.Metric.Name == judge.MetricThroughput {
		for _, x := range w.Metrics {
			if x.Metric.Name == judge.MetricThroughput && x.Before.Center > 0 && x.After.Center > 0 {
				return formatSeconds(1/x.Before.Center) + "/op", formatSeconds(1/x.After.Center) + "/op", "time (" + m.Metric.Name + ")"
			}
		}
	}
	return formatValue(m.Metric, m.Before.Center), formatValue(m.Metric, m.After.Center), "time (" + m.Metric.Name + ")"
}

// ciCell writes a change's confidence interval as "[lo, hi]", "exact", or
// with its confidence when lower than asked for.
func ciCell(r judge.Summary, conf float64) string {
	if r.Confidence == 1 && r.Lo == r.Hi {
		return "exact"
	}
	s := fmt.Sprintf("[%s, %s]", changeCell(r.Lo), changeCell(r.Hi))
	if r.Confidence < conf {
		s += " at " + formatConfidence(r.Confidence)
	}
	return s
}

// aaTitle is the title's label for an A/A experiment.
func aaTitle(m expdir.Meta) string {
	if m.AA || (m.Before.Commit != "" && m.Before.Commit == m.After.Commit) {
		return " (A/A)"
	}
	return ""
}

// changeCell writes a ratio as a signed percentage change with two
// decimals, or, for a change too small to show in two decimals, with two
// significant digits: 1.0000021 as "+0.00021 %", not "+0.00 %".
func changeCell(ratio float64) string {
	c := (ratio - 1) * 100
	if c == 0 || math.Abs(c) >= 0.005 || math.IsNaN(c) || math.IsInf(c, 0) {
		return formatChange(ratio)
	}
	if c > 0 {
		return "+" + sig(c, 2) + " %"
	}
	return sig(c, 2) + " %"
}
