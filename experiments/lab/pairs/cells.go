package pairs

import (
	"context"
	"errors"
	"time"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
)

// runCells runs the scheduled cells (and, resumed, those of recorded
// extensions) not yet recorded.
func (r *runner) runCells(ctx context.Context) error {
	return r.runTodo(ctx, r.cells)
}

// runTodo runs those of cells not yet recorded, appending each line as it
// comes, then converts the profiles.
func (r *runner) runTodo(ctx context.Context, cells []measure.Cell) error {
	res := r.res
	w, err := expdir.OpenRuns(res.RunsPath, r.complete)
	if err != nil {
		return err
	}
	defer func() {
		w.Close()
		r.complete = w.Size()
	}()
	var todo []measure.Cell
	for _, c := range cells {
		if r.done[c.Key()] {
			res.Skipped++
		} else {
			todo = append(todo, c)
		}
	}
	r.logf("experiment %s: %d runs to do, %d already recorded, in %s", res.Experiment, len(todo), res.Skipped, res.RunsPath)
	hist := &r.hist
	if !r.histLoaded {
		for i := range r.prior {
			hist.add(&r.prior[i])
		}
		r.histLoaded = true
	}
	last := r.o.Pairs
	for _, c := range todo {
		last = max(last, c.Pair)
	}
	p := &Progress{W: r.o.Progress, Terminal: r.o.Terminal, Pairs: last, Total: len(todo), Recorded: res.Skipped, Cells: todo}
	r.p = p
	defer func() { r.p = nil }()
	defer p.Done()
	for k := 0; k < len(todo); {
		if ctx.Err() != nil {
			return interrupted(res, ctx.Err())
		}
		// The two sides of a workload in a pair run together (see
		// measure.RunCells); a side left alone by an interrupted run runs
		// alone.
		group := todo[k : k+1]
		if k+1 < len(todo) && todo[k+1].Pair == todo[k].Pair && todo[k+1].Workload.Name == todo[k].Workload.Name {
			group = todo[k : k+2]
		}
		k += len(group)
		if err := r.runGroup(ctx, group, hist, w, p); err != nil {
			return err
		}
	}
	for _, err := range convertProfiles(res.Dir, r.su) {
		r.logf("warning: %v", err)
	}
	return nil
}

// runGroup runs the one or two cells of one workload in one pair and
// records their lines.
func (r *runner) runGroup(ctx context.Context, group []measure.Cell, hist *floorHistory, w *expdir.RunsWriter, p *Progress) error {
	res := r.res
	var builds []expdir.Build
	var dumps []string
	var refs []float64
	for _, c := range group {
		refs = append(refs, hist.ref(c.Workload.Name, c.Side))
		b := r.builds[0]
		if c.Side == measure.After {
			b = r.builds[1]
		}
		builds = append(builds, b)
		dumps = append(dumps, profileDumpDir(res.Dir, c))
	}
	p.Starting(group...)
	began := time.Now()
	ls, err := measure.RunCells(ctx, &r.controls, r.su.Timeout, measure.Group{Cells: group, Builds: builds, DumpDirs: dumps, Refs: refs})
	if errors.Is(err, measure.ErrInterrupted) {
		return interrupted(res, ctx.Err())
	}
	if err != nil {
		return err
	}
	r.recordPairTime(group[0].Workload.Name, time.Since(began), ls)
	for i := range ls {
		l := &ls[i]
		l.Experiment, l.Suite = res.Experiment, r.su.Name
		hist.add(l)
		if err := w.Append(l); err != nil {
			return err
		}
		r.done[group[i].Key()] = true
		res.Ran++
		if l.Failed() {
			res.Failed++
		}
		p.Finished(group[i], l)
		if r.o.OnRun != nil {
			r.o.OnRun(l)
		}
	}
	return nil
}
