package pairs

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/stats"
	"workbench/experiments/lab/suite"
)

// DefaultMaxPairs is how many pairs in all an undecided workload may be
// given when neither the command line nor the suite says: the judge's
// sequential rule (judge.Looks) keeps its chance of a false verdict within
// that of 20 fixed pairs.
const DefaultMaxPairs = 20

// A Decider judges the experiment in dir as it stands and returns the
// workloads left unknown that more pairs may decide, by name. The runner
// does not interpret numbers itself: cmd/pure-pairs passes one built on the
// note's loader.
type Decider func(ctx context.Context, dir string) (map[string]Undecided, error)

// Undecided is what the judge said of a workload it left unknown and more
// pairs may decide.
type Undecided struct {
	// Reason is the judge's reason, one sentence.
	Reason string
	// Backends are the suite backends (suite.BackendPerf,
	// suite.BackendCallgrind) whose measurements feed the deciding metrics
	// left unknown: the time metric comes from the perf measurement, the
	// instruction count from the measurement of its source. Added pairs run
	// only those of the workload's measurements; empty runs them all.
	Backends []string
}

// extend gives undecided workloads more pairs, two at a time (one of each
// order, so ABBA stays balanced), measuring only what is still unknown (a
// workload whose instruction count is decided but whose time is not runs
// only its perf measurement: see Undecided.Backends), until the decider
// leaves none, they
// reach MaxPairs, or the next step would end past the time budget
// (Meta.MaxTime, counted from the experiment's start; the step's time is
// estimated from the pairs of its workloads so far). Each step, and a stop
// for the budget, is recorded in meta.json before anything more runs, so a
// resumed experiment runs the same cells and no more. Stopping early only
// lowers the chance of a false verdict: a workload it stops stays unknown.
func (r *runner) extend(ctx context.Context) error {
	o, res := &r.o, r.res
	if o.Decide == nil || res.Meta.MaxPairs <= res.Meta.Pairs || res.Meta.BudgetStop != nil {
		return nil
	}
	for {
		last := res.Meta.Pairs
		if n := len(res.Meta.Extensions); n > 0 {
			last = slices.Max(res.Meta.Extensions[n-1].Pairs)
		}
		if last >= res.Meta.MaxPairs {
			return nil
		}
		undecided, err := o.Decide(ctx, res.Dir)
		if err != nil {
			return fmt.Errorf("judging after %d pairs: %w", last, err)
		}
		if len(undecided) == 0 {
			return nil
		}
		ext := expdir.Extension{AfterPairs: last, Reasons: map[string]string{}}
		for p := last + 1; p <= min(last+2, res.Meta.MaxPairs); p++ {
			ext.Pairs = append(ext.Pairs, p)
		}
		ext.Workloads = slices.Sorted(maps.Keys(undecided))
		for _, name := range ext.Workloads {
			u := undecided[name]
			ext.Reasons[name] = u.Reason
			if bs := r.partOf(name, u.Backends); bs != nil {
				if ext.Backends == nil {
					ext.Backends = map[string][]string{}
				}
				ext.Backends[name] = bs
			}
		}
		if stop := r.overBudget(ext); stop != nil {
			res.Meta.BudgetStop = stop
			r.logf("after %d pairs %s undecided, but %d more pairs (about %s) would end past the time budget, %s after the start (%s so far): no more pairs",
				last, plural(len(ext.Workloads), "workload is", "workloads are"), len(ext.Pairs), stop.Estimate.Round(time.Second), res.Meta.MaxTime, stop.Elapsed.Round(time.Second))
			return expdir.Dir(res.Dir).WriteMeta(&res.Meta)
		}
		res.Meta.Extensions = append(res.Meta.Extensions, ext)
		if err := expdir.Dir(res.Dir).WriteMeta(&res.Meta); err != nil {
			return err
		}
		cells := extensionCells(ext, r.su.Workloads)
		r.cells = append(r.cells, cells...)
		r.logf("after %d pairs %s undecided: pairs %s for %s alone (at most %d pairs in all)",
			last, plural(len(ext.Workloads), "workload is", "workloads are"), joinInts(ext.Pairs), describeParts(ext), res.Meta.MaxPairs)
		if err := r.runTodo(ctx, cells); err != nil {
			return err
		}
	}
}

// overBudget returns the stop to record when ext, started now, would end
// past the experiment's time budget; nil when there is none or it fits.
// The estimate is, for each of ext's workloads, the median time of its
// pairs in this call (both sides together), or, for an experiment resumed
// with none run yet, the sum of its recorded runs' wall times per pair.
func (r *runner) overBudget(ext expdir.Extension) *expdir.BudgetStop {
	m := &r.res.Meta
	if m.MaxTime <= 0 {
		return nil
	}
	var est time.Duration
	for _, w := range ext.Workloads {
		est += time.Duration(len(ext.Pairs)) * r.pairEstimate(w, ext.Backends[w])
	}
	elapsed := time.Since(m.Start)
	if elapsed+est <= m.MaxTime {
		return nil
	}
	return &expdir.BudgetStop{AfterPairs: ext.AfterPairs, Workloads: ext.Workloads, Elapsed: elapsed, Estimate: est}
}

// pairEstimate is how long one pair of workload w is expected to take,
// measuring only backends (nil: all of w's measurements). For a part, it is
// the sum over its backends of the median time both sides' measurements of
// that backend spanned in a pair (this call's and recorded ones).
func (r *runner) pairEstimate(w string, backends []string) time.Duration {
	if backends != nil {
		var est time.Duration
		for _, b := range backends {
			est += medianDuration(r.backendTime[w][b])
		}
		return est
	}
	ds := r.pairTime[w]
	if len(ds) == 0 {
		perPair := map[int]time.Duration{}
		for i := range r.prior {
			if l := &r.prior[i]; l.Workload == w {
				perPair[l.Pair] += l.Wall
			}
		}
		ds = slices.Collect(maps.Values(perPair))
	}
	return medianDuration(ds)
}

// medianDuration is the median of ds; 0 for none.
func medianDuration(ds []time.Duration) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	secs := make([]float64, len(ds))
	for i, d := range ds {
		secs[i] = d.Seconds()
	}
	return time.Duration(stats.Median(secs) * float64(time.Second))
}

// extensionCells returns the cells of ext's pairs for its workloads, in
// suite order and in the alternating order Schedule gives those pair
// numbers; a workload with backends in ext.Backends keeps only those
// measurements.
func extensionCells(ext expdir.Extension, all []suite.Workload) []measure.Cell {
	var ws []suite.Workload
	for _, w := range all {
		if !slices.Contains(ext.Workloads, w.Name) {
			continue
		}
		if bs := ext.Backends[w.Name]; bs != nil {
			w.Measures = slices.DeleteFunc(slices.Clone(w.Measures), func(m suite.Measure) bool { return !slices.Contains(bs, m.Backend) })
		}
		ws = append(ws, w)
	}
	var cells []measure.Cell
	for _, c := range Schedule(slices.Max(ext.Pairs), ws) {
		if slices.Contains(ext.Pairs, c.Pair) {
			cells = append(cells, c)
		}
	}
	return cells
}

// partOf returns the backends of workload name's measurements that are in
// wanted, sorted, when they are some but not all of them; nil means every
// measurement runs (wanted empty, naming none of them, or all of them).
func (r *runner) partOf(name string, wanted []string) []string {
	i := slices.IndexFunc(r.su.Workloads, func(w suite.Workload) bool { return w.Name == name })
	if i < 0 || len(wanted) == 0 {
		return nil
	}
	var all, kept []string
	for _, m := range r.su.Workloads[i].Measures {
		if !slices.Contains(all, m.Backend) {
			all = append(all, m.Backend)
			if slices.Contains(wanted, m.Backend) {
				kept = append(kept, m.Backend)
			}
		}
	}
	if len(kept) == 0 || len(kept) == len(all) {
		return nil
	}
	slices.Sort(kept)
	return kept
}

// describeParts names ext's workloads for the log, each measured only in
// part followed by its backends: "get-64c, score-64c (perf only)".
func describeParts(ext expdir.Extension) string {
	s := make([]string, len(ext.Workloads))
	for i, w := range ext.Workloads {
		s[i] = w
		if bs := ext.Backends[w]; bs != nil {
			s[i] += " (" + strings.Join(bs, ", ") + " only)"
		}
	}
	return strings.Join(s, ", ")
}

// recordPairTime keeps how long a pair of workload name took (d) and the
// spans of its backends in ls, its lines, for the time budget's estimates.
func (r *runner) recordPairTime(name string, d time.Duration, ls []expdir.Line) {
	if r.pairTime == nil {
		r.pairTime = map[string][]time.Duration{}
	}
	r.pairTime[name] = append(r.pairTime[name], d)
	r.backendSpans(ls)
}

// backendSpans adds to r.backendTime, for each backend of ls (the lines of
// one workload in one pair), the time from the first of its measurements'
// starts to the last one's end: that part of the pair's time, for the
// estimate of added pairs that run only some of a workload's measurements
// (recorded ones of a resumed experiment are added by priorSpans).
func (r *runner) backendSpans(ls []expdir.Line) {
	if len(ls) == 0 {
		return
	}
	type span struct{ from, to time.Time }
	spans := map[string]*span{}
	for i := range ls {
		for _, m := range ls[i].Measurements {
			if m.Start.IsZero() {
				continue
			}
			end := m.Start.Add(m.Wall)
			s := spans[m.Backend]
			if s == nil {
				spans[m.Backend] = &span{m.Start, end}
				continue
			}
			if m.Start.Before(s.from) {
				s.from = m.Start
			}
			if end.After(s.to) {
				s.to = end
			}
		}
	}
	if r.backendTime == nil {
		r.backendTime = map[string]map[string][]time.Duration{}
	}
	w := ls[0].Workload
	if r.backendTime[w] == nil {
		r.backendTime[w] = map[string][]time.Duration{}
	}
	for b, s := range spans {
		r.backendTime[w][b] = append(r.backendTime[w][b], s.to.Sub(s.from))
	}
}

// priorSpans adds the backend spans of the recorded runs of a resumed
// experiment, pair by pair.
func (r *runner) priorSpans() {
	type key struct {
		workload string
		pair     int
	}
	groups := map[key][]expdir.Line{}
	var order []key
	for _, l := range r.prior {
		k := key{l.Workload, l.Pair}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], l)
	}
	for _, k := range order {
		r.backendSpans(groups[k])
	}
}

// plural returns "1 workload is" or "3 workloads are".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// joinInts returns "7 and 8" or "7".
func joinInts(xs []int) string {
	s := make([]string, len(xs))
	for i, x := range xs {
		s[i] = fmt.Sprint(x)
	}
	return strings.Join(s, " and ")
}
