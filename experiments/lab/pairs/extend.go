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
// workloads left unknown that more pairs may decide, each with the judge's
// reason. The runner does not interpret numbers itself: cmd/pure-pairs
// passes one built on the note's loader.
type Decider func(ctx context.Context, dir string) (map[string]string, error)

// extend gives undecided workloads more pairs, two at a time (one of each
// order, so ABBA stays balanced), until the decider leaves none, they
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
		ext := expdir.Extension{AfterPairs: last, Reasons: undecided}
		for p := last + 1; p <= min(last+2, res.Meta.MaxPairs); p++ {
			ext.Pairs = append(ext.Pairs, p)
		}
		ext.Workloads = slices.Sorted(maps.Keys(undecided))
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
			last, plural(len(ext.Workloads), "workload is", "workloads are"), joinInts(ext.Pairs), strings.Join(ext.Workloads, ", "), res.Meta.MaxPairs)
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
		est += time.Duration(len(ext.Pairs)) * r.pairEstimate(w)
	}
	elapsed := time.Since(m.Start)
	if elapsed+est <= m.MaxTime {
		return nil
	}
	return &expdir.BudgetStop{AfterPairs: ext.AfterPairs, Workloads: ext.Workloads, Elapsed: elapsed, Estimate: est}
}

// pairEstimate is how long one pair of workload w is expected to take.
func (r *runner) pairEstimate(w string) time.Duration {
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
// numbers.
func extensionCells(ext expdir.Extension, all []suite.Workload) []measure.Cell {
	var ws []suite.Workload
	for _, w := range all {
		if slices.Contains(ext.Workloads, w.Name) {
			ws = append(ws, w)
		}
	}
	var cells []measure.Cell
	for _, c := range Schedule(slices.Max(ext.Pairs), ws) {
		if slices.Contains(ext.Pairs, c.Pair) {
			cells = append(cells, c)
		}
	}
	return cells
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
