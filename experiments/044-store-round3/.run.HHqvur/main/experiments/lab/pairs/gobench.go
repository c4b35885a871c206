package pairs

import (
	"context"
	"fmt"
	"path"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/gobench"
	"workbench/experiments/lab/measure"
)

// prepareGoBench is prepare for an experiment on another module's Go
// benchmarks (Options.GoBench): the revisions are resolved in its
// repository (or its versions fetched), and the suite is made once both
// sides are built (buildGoBench).
func (r *runner) prepareGoBench(ctx context.Context) error {
	o := &r.o
	gb, err := gobench.NewBuilder(*o.GoBench, o.CacheDir, nil)
	if err != nil {
		return err
	}
	if o.Log != nil {
		gb.Log = logLines{r}
	}
	o.GoBench = &gb.Subject
	r.gb = gb
	if o.Pairs == 0 {
		o.Pairs = DefaultPairs
	}
	if o.Pairs < 1 {
		return fmt.Errorf("pairs %d: want at least 1", o.Pairs)
	}
	if o.MaxPairs == 0 {
		o.MaxPairs = DefaultMaxPairs
	}
	r.revs = [2]string{o.Before, o.After}
	for i, rev := range r.revs {
		if r.commits[i], err = gb.Resolve(ctx, rev); err != nil {
			return err
		}
	}
	r.aa = r.commits[0] == r.commits[1]
	return nil
}

// buildGoBench builds both sides' test binaries, sets up the controls,
// and makes the suite from the benchmarks both sides have (gobench.Plan).
// A resumed experiment keeps the iterations its meta.json recorded, so
// its new runs measure what its old ones did.
func (r *runner) buildGoBench(ctx context.Context) error {
	var sides [2]*gobench.Side
	for i, side := range []measure.Side{measure.Before, measure.After} {
		s, err := r.gb.Build(ctx, string(side), r.revs[i], r.commits[i])
		if err != nil {
			return err
		}
		sides[i], r.builds[i] = s, s.Build
	}
	o := &r.o
	c, err := measure.DetectControls(ctx, r.runDir, measure.ControlOptions{CPU: o.CPU, KeepASLR: o.KeepASLR, ExtraEnv: o.ExtraEnv})
	if err != nil {
		return err
	}
	// Whole processes take turns (measure.timedGoBench).
	c.Alternation = expdir.AlternateProcesses
	for _, n := range c.Notes {
		r.logf("warning: %s", n)
	}
	r.controls = c
	r.logf("probing the benchmarks of both sides (%s, bench %s)", r.gb.Subject.Pkg, r.gb.Subject.Bench)
	su, meta, err := o.GoBenchPlan.Suite(ctx, r.gb.Subject, sides, r.logf)
	if err != nil {
		return err
	}
	if r.old != nil && r.old.GoBench != nil {
		if err := gobench.Keep(su, r.old.GoBench); err != nil {
			return fmt.Errorf("resuming %s: %w", r.res.Experiment, err)
		}
		meta = r.old.GoBench
	}
	r.su, r.gbMeta = su, meta
	r.logf("%d benchmarks to judge (%d only before, %d only after, %d failing their probe)",
		len(su.Workloads), len(meta.OnlyBefore), len(meta.OnlyAfter), len(meta.Failed))
	return nil
}

// goBenchChanges returns the commits between the two sides of a git
// subject; nil for a module's versions.
func (r *runner) goBenchChanges(ctx context.Context) *expdir.Changes {
	if r.gb.Subject.Repo == "" {
		return nil
	}
	return changesBetween(ctx, r.gb.Subject.Repo, r.commits[0], r.commits[1])
}

// noteGoBenchCriteria says in the experiment's record where its criteria
// came from: a repository or module of someone else's carries none of
// ours, so they are the experiment directory's own file, written before
// the run (pure-pairs criteria), or the defaults.
func (r *runner) noteGoBenchCriteria(origin expdir.CriteriaOrigin) {
	if r.gbMeta == nil {
		return
	}
	switch origin.Source {
	case "default":
		r.gbMeta.CriteriaNote = "the default criteria: no criteria file was in the experiment directory before the run (pure-pairs criteria exp=NAME writes one to edit first)"
	default:
		r.gbMeta.CriteriaNote = "the experiment directory's criteria file, written before the run"
	}
	r.logf("criteria: %s", r.gbMeta.CriteriaNote)
}

// moduleExperiment names the experiment of two versions of a module,
// NNN-gomod-<last element of its path>-<before>-<after>, keeping the
// number NextExperiment chose (next, NNN-pairs-...).
func moduleExperiment(next string, commits [2]string) string {
	num, _, _ := strings.Cut(next, "-")
	mod, v0, _ := strings.Cut(commits[0], "@")
	_, v1, _ := strings.Cut(commits[1], "@")
	name := num + "-gomod-" + path.Base(mod) + "-" + v0 + "-" + v1
	// A version may hold what a directory name should not ("+incompatible").
	return strings.Map(func(r rune) rune {
		if r == '.' || r == '_' || r == '-' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
			return r
		}
		return '-'
	}, name)
}
