package judge

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/perfcount"
)

// Judge compares the before and after runs of an experiment, workload by
// workload, and gives each workload and the experiment a verdict.
//
// runs are the experiment's runs, in any order. crit are its criteria
// (DefaultCriteria when it wrote none). calib are A/A calibration runs (the
// same build on both sides), nil when there are none; they measure the
// noise of counts. Zero fields of opts take DefaultOptions.
//
// Judge is a pure function of its arguments: it does no I/O and the same
// arguments always give the same Report.
func Judge(runs []expdir.Run, crit Criteria, calib []expdir.Run, opts Options) Report {
	opts = opts.withDefaults()
	rep := Report{Criteria: crit, Options: opts}
	groups, warns := groupRuns(runs)
	rep.Warnings = append(rep.Warnings, warns...)
	calGroups, calWarns := groupRuns(calib)
	for _, w := range calWarns {
		rep.Warnings = append(rep.Warnings, fmt.Errorf("calibration: %w", w))
	}
	byName := make(map[string]*workloadRuns, len(calGroups))
	for i := range calGroups {
		byName[calGroups[i].name] = &calGroups[i]
	}
	for _, g := range groups {
		w := judgeWorkload(g, byName[g.name], crit.For(g.name), opts)
		if len(calib) > 0 && byName[g.name] == nil {
			w.Warnings = append(w.Warnings, fmt.Errorf("no calibration runs of %s: noise from this experiment's within-side spread", g.name))
		}
		rep.Workloads = append(rep.Workloads, w)
	}
	rep.Verdict, rep.Reason = overall(rep.Workloads)
	return rep
}

// judgeWorkload judges one workload: pair table, disturbances, every
// metric, and the combined verdict.
func judgeWorkload(w workloadRuns, cal *workloadRuns, lim Limits, opts Options) WorkloadResult {
	res := WorkloadResult{Workload: w.name, Limits: lim, Time: NotMeasured, Instructions: NotMeasured}

	// 1-2. The pair table: which pairs are complete, succeeded, and were
	// not disturbed.
	rows := pairTable(w, &res, opts)

	// 3. The metrics the runs carry.
	metrics := presentMetrics(w, opts)
	timeMetric := ""
	for _, name := range append([]string{lim.TimeMetric}, timeFallback...) {
		if slices.ContainsFunc(metrics, func(m Metric) bool { return m.Name == name }) {
			timeMetric = name
			break
		}
	}
	// The default, paired_time, falls back silently: runs that did not
	// take turns region by region (older revisions, servers) have none.
	if lim.TimeMetric != "" && timeMetric != "" && timeMetric != lim.TimeMetric && lim.TimeMetric != DefaultCriteria.TimeMetric {
		res.Warnings = append(res.Warnings, fmt.Errorf("the runs have no %s: %s decides the time verdict", lim.TimeMetric, timeMetric))
	}

	// 4. Each metric, and the per-pair cells.
	for i := range rows {
		rows[i].Cells = make([]Cell, len(metrics))
	}
	for j, m := range metrics {
		mr, cells := judgeMetric(m, w, rows, cal, lim, opts)
		mr.Decides = m.Class == ClassInstructions || m.Name == timeMetric
		for i := range rows {
			rows[i].Cells[j] = cells[i]
		}
		if mr.Decides && m.Class == ClassTime {
			res.Time, res.TimePairs = mr.Verdict, mr.Pairs
		}
		if mr.Decides && m.Class == ClassInstructions {
			res.Instructions, res.InstructionPairs = mr.Verdict, mr.Pairs
		}
		res.Metrics = append(res.Metrics, mr)
	}
	res.Pairs = rows

	// 5. The workload's verdict.
	res.Verdict = combine(res.Instructions, res.Time)
	res.Reason = workloadReason(&res)
	return res
}

// firstSide returns the side that ran first in p, from the runs' Position.
func firstSide(p pairRuns) string {
	switch {
	case p.before != nil && p.before.Position == 1, p.after != nil && p.after.Position == 2:
		return SideBefore
	case p.after != nil && p.after.Position == 1, p.before != nil && p.before.Position == 2:
		return SideAfter
	}
	return ""
}

// sideOrder sorts before ahead of after.
func sideOrder(side string) int {
	if side == SideBefore {
		return 0
	}
	return 1
}

// skipped are the pairs a metric did not use, for one reason.
type skipped struct {
	label string
	pairs []int
}

// skipLabels orders the reasons a pair is not used, for reports.
var skipLabels = []string{"disturbed", "multiplexed", "failed", "incomplete", "without the metric", "with a zero before count"}

// judgeMetric compares one metric of w over the pairs it can use.
// pairTable returns the workload's pair table: which pairs are complete
// and succeeded, then the disturbed runs, side by side, and the pairs they
// disturb: those whose two runs did not depart alike. It adds the
// disturbances and warnings to res.
func pairTable(w workloadRuns, res *WorkloadResult, opts Options) []PairRow {
	// 1. The pair table: which pairs are complete and succeeded.
	rows := make([]PairRow, len(w.pairs))
	for i, p := range w.pairs {
		row := PairRow{Pair: p.num, Status: PairClean, First: firstSide(p)}
		switch {
		case p.before == nil:
			row.Status, row.Note = PairIncomplete, "no before run"
		case p.after == nil:
			row.Status, row.Note = PairIncomplete, "no after run"
		case p.before.ExitCode != 0:
			row.Status, row.Note = PairFailed, fmt.Sprintf("before run exited with status %d", p.before.ExitCode)
		case p.after.ExitCode != 0:
			row.Status, row.Note = PairFailed, fmt.Sprintf("after run exited with status %d", p.after.ExitCode)
		}
		rows[i] = row
	}

	// 2. Disturbed runs, side by side, and the pairs they disturb: those
	// whose two runs did not depart alike.
	stats := map[string]map[string]sideStats{}
	for _, side := range []string{SideBefore, SideAfter} {
		var rs []*expdir.Run
		for i := range w.pairs {
			if r := w.pairs[i].run(side); r != nil && r.ExitCode == 0 {
				rs = append(rs, r)
			}
		}
		found, unchecked, st := opts.Disturbance.findDisturbed(side, rs)
		for _, m := range unchecked {
			res.Warnings = append(res.Warnings, fmt.Errorf("too few %s runs with %s (need %d) to look for disturbed runs", side, m, opts.Disturbance.MinRuns))
		}
		res.Disturbed = append(res.Disturbed, found...)
		stats[side] = st
	}
	slices.SortStableFunc(res.Disturbed, func(a, b Disturbance) int {
		return cmp.Or(cmp.Compare(a.Pair, b.Pair), sideOrder(a.Side)-sideOrder(b.Side))
	})
	for i := range rows {
		if rows[i].Status != PairClean {
			continue
		}
		var ds []Disturbance
		for _, d := range res.Disturbed {
			if d.Pair == rows[i].Pair {
				ds = append(ds, d)
			}
		}
		if len(ds) == 0 {
			continue
		}
		var notes []string
		for _, d := range ds {
			notes = append(notes, describeDisturbance(d))
		}
		rows[i].Status = PairAlike
		if alike, how := departedAlike(&w.pairs[i], ds, stats, opts.Disturbance.Floor); alike {
			notes = append(notes, how+": the pair is used")
		} else {
			rows[i].Status = PairDisturbed
			notes = append(notes, how)
		}
		rows[i].Note = strings.Join(notes, "; ")
	}

	return rows
}

// countSource returns the one source of a count in the workload's
// successful runs, or mixed when they come from more than one.
func countSource(w workloadRuns, name string) (source perfcount.Source, mixed bool) {
	var sources []perfcount.Source
	for i := range w.pairs {
		for _, r := range []*expdir.Run{w.pairs[i].before, w.pairs[i].after} {
			if r == nil || r.ExitCode != 0 {
				continue
			}
			if _, c, ok := countValue(r, name); ok && !slices.Contains(sources, c.Source) {
				sources = append(sources, c.Source)
			}
		}
	}
	slices.Sort(sources)
	if len(sources) == 1 {
		source = sources[0]
	}
	return source, len(sources) > 1
}

// setThreshold measures the metric's noise and sets its criterion and
// threshold: the criterion for timed metrics, the larger of the criterion
// and the noise for counts, with the warnings they need.
func setThreshold(mr *MetricResult, before, after []float64, cal *workloadRuns, lim Limits, opts Options) {
	m := mr.Metric
	calRatios, mismatched := calibrationRatios(cal, m, mr.Source)
	mr.Noise = measureNoise(before, after, calRatios, opts.MinCalibrationPairs)
	if m.Class == ClassTime {
		mr.Criterion = lim.TimeMaxWorse
		mr.Threshold = mr.Criterion
	} else {
		mr.Criterion = lim.InstructionsMaxHigher
		mr.Threshold = math.Max(mr.Criterion, mr.Noise.Spread)
		if mismatched > 0 && len(calRatios) == 0 {
			mr.Warnings = append(mr.Warnings, fmt.Errorf("calibration counts of %s come from another source than %s: calibration not used", m.Name, mr.Source))
		}
		if n := len(calRatios); n > 0 && n < opts.MinCalibrationPairs {
			mr.Warnings = append(mr.Warnings, fmt.Errorf("only %d calibration pairs for %s (need %d): noise from this experiment's within-side spread", n, m.Name, opts.MinCalibrationPairs))
		}
		if mr.Noise.Spread > mr.Criterion {
			mr.Warnings = append(mr.Warnings, fmt.Errorf("measured noise of %s, %s %%, exceeds its criterion, instructions.max_higher = %s: changes are judged against the noise", m.Name, pct(mr.Noise.Spread), limitPct(mr.Criterion)))
		}
	}
}

func judgeMetric(m Metric, w workloadRuns, rows []PairRow, cal *workloadRuns, lim Limits, opts Options) (MetricResult, []Cell) {
	mr := MetricResult{Metric: m}
	cells := make([]Cell, len(w.pairs))
	mixed := false
	if m.Class != ClassTime {
		mr.Source, mixed = countSource(w, m.Name)
	}
	value := func(r *expdir.Run) (v float64, multiplexed, ok bool) {
		if m.Class == ClassTime {
			v = timedValue(r, m.Name)
			return v, false, v > 0
		}
		v, c, ok := countValue(r, m.Name)
		return v, c.Multiplexed, ok
	}

	skips := make(map[string][]int)
	var used []int
	var before, after, ratios []float64
	for i := range w.pairs {
		p, row := &w.pairs[i], rows[i]
		if row.Status == PairIncomplete || row.Status == PairFailed {
			skips[string(row.Status)] = append(skips[string(row.Status)], p.num)
			continue
		}
		vb, mb, okb := value(p.before)
		va, ma, oka := value(p.after)
		if !okb || !oka {
			skips["without the metric"] = append(skips["without the metric"], p.num)
			continue
		}
		ratio := va / vb
		if va == 0 && vb == 0 {
			ratio = 1 // an event that never happened on either side
		}
		cells[i] = Cell{Before: vb, After: va, Ratio: ratio, Present: true}
		switch {
		case vb < 0 || va < 0 || (vb == 0 && va != 0):
			cells[i].Ratio = 0
			skips["with a zero before count"] = append(skips["with a zero before count"], p.num)
			continue
		case mixed:
			continue
		case mb || ma:
			skips["multiplexed"] = append(skips["multiplexed"], p.num)
			continue
		case row.Status == PairDisturbed && (m.Class == ClassTime || mr.Source != perfcount.SourceCallgrind):
			skips["disturbed"] = append(skips["disturbed"], p.num)
			continue
		}
		cells[i].Used = true
		used = append(used, p.num)
		before, after, ratios = append(before, vb), append(after, va), append(ratios, ratio)
	}
	var skipList []skipped
	for _, l := range skipLabels {
		if len(skips[l]) > 0 {
			skipList = append(skipList, skipped{l, skips[l]})
		}
	}
	if mixed {
		mr.Verdict = Unknown
		mr.Reason = metricReason(&mr, decMixedSources, len(w.pairs), skipList, lim, opts)
		return mr, cells
	}

	mr.Pairs = used
	if len(used) > 0 {
		mr.Before = summarize(before, opts.Confidence)
		mr.After = summarize(after, opts.Confidence)
		mr.Ratio = ratioSummary(ratios, opts.Confidence, opts.Looks)
		logs := make([]float64, len(ratios))
		for i, r := range ratios {
			logs[i] = math.Log(r)
		}
		mr.Test = SignedRankTest(logs)
		mr.Warnings = append(mr.Warnings, mr.Ratio.Warnings...)
		if mr.Test.N > 0 && mr.Test.MinP > opts.Alpha {
			mr.Warnings = append(mr.Warnings, fmt.Errorf("with %d pairs that differ, the signed-rank test cannot reach p ≤ %v", mr.Test.N, opts.Alpha))
		}
	}

	setThreshold(&mr, before, after, cal, lim, opts)
	exactRule := m.Class != ClassTime && mr.Noise.Exact()
	var dec decision
	mr.Verdict, dec = decide(mr.Ratio, ratios, m.HigherIsBetter, mr.Threshold, lim.MinCleanPairs, exactRule)
	mr.Reason = metricReason(&mr, dec, len(w.pairs), skipList, lim, opts)
	mr.MorePairsMayDecide = dec == decStraddles || dec == decTooFew
	return mr, cells
}

// departedAlike reports whether the two runs of pair p departed alike, to
// within tol of each other, on every metric on which one of them is
// disturbed (ds), and says how, in a phrase for the pair's note.
func departedAlike(p *pairRuns, ds []Disturbance, stats map[string]map[string]sideStats, tol float64) (bool, string) {
	var metrics []string
	for _, d := range ds {
		if !slices.Contains(metrics, d.Metric) {
			metrics = append(metrics, d.Metric)
		}
	}
	var how []string
	alike := true
	for _, m := range metrics {
		b, okB := stats[SideBefore][m].departure(p.before, m)
		a, okA := stats[SideAfter][m].departure(p.after, m)
		if !okB || !okA {
			alike = false
			how = append(how, fmt.Sprintf("%s: one run cannot be compared", m))
			continue
		}
		limit := tol
		diff := math.Abs(a - b)
		if diff > limit {
			alike = false
			how = append(how, fmt.Sprintf("%s departures differ by %s %% (limit %s %%)", m, pct(diff), pct(limit)))
		} else {
			how = append(how, fmt.Sprintf("%s departures alike, %s %% apart (limit %s %%)", m, pct(diff), pct(limit)))
		}
	}
	return alike, strings.Join(how, ", ")
}
