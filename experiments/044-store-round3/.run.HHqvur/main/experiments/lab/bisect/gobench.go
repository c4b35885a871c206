package bisect

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/gobench"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/suite"
)

// goBisect builds and counts one Go benchmark of another module's
// repository for a bisection (Options.GoBench).
type goBisect struct {
	b *gobench.Builder
	m suite.Measure
}

// runGoBench is Run for a Go benchmark: the same halving, with each
// commit's test binaries built in a worktree of the subject's repository
// (gobench.Builder, cached with pairs) and its instructions per op
// counted under callgrind as pairs counts them (measure.CountGoBench),
// Repeat times; the iterations are chosen once, from a probe at good.
func runGoBench(ctx context.Context, o Options, logf func(string, ...any)) (*Result, error) {
	if o.Backend == suite.BackendPerf {
		return nil, errors.New("backend perf: a Go benchmark is bisected by its callgrind count only")
	}
	o.Backend = suite.BackendCallgrind
	sub := *o.GoBench
	if sub.Module != "" {
		return nil, errors.New("module=: versions of a module have no commits between them to bisect; bisect a git repository (repo=PATH)")
	}
	// The benchmark the workload names: "Sum" or "Parse/small", or with
	// its package's directory, "sub/dir:Parse".
	name := o.Workload
	if _, after, ok := strings.Cut(name, ":"); ok {
		name = after
	}
	sub.Bench = suite.BenchRegexp("Benchmark" + strings.TrimPrefix(name, "Benchmark"))
	gb, err := gobench.NewBuilder(sub, o.CacheDir, o.Log)
	if err != nil {
		return nil, err
	}
	res := &Result{Workload: o.Workload, Backend: o.Backend, Event: measure.CountEvent}

	// 1. The ends and the commits between them.
	good, err := gb.Resolve(ctx, o.Good)
	if err != nil {
		return nil, err
	}
	bad, err := gb.Resolve(ctx, o.Bad)
	if err != nil {
		return nil, err
	}
	commits, err := firstParentPath(ctx, gb.Subject.Repo, good, bad)
	if err != nil {
		return nil, err
	}
	res.Commits = len(commits)

	// 2. The controls, in a run directory of the bisection's own.
	controls, unlock, err := o.prepareRun(ctx, "bisect-gotest-"+build.Short(good)+"-"+build.Short(bad), logf)
	if err != nil {
		return nil, err
	}
	defer unlock()

	// 3. The measurement, from a probe at good.
	side, err := gb.Build(ctx, RoleGood, o.Good, good)
	if err != nil {
		return nil, err
	}
	su, _, err := o.GoBenchPlan.Suite(ctx, gb.Subject, [2]*gobench.Side{side, side}, logf)
	if err != nil {
		return nil, fmt.Errorf("benchmark %s at good %s: %w", o.Workload, build.Short(good), err)
	}
	i := slices.IndexFunc(su.Workloads, func(w suite.Workload) bool { return w.Name == o.Workload })
	if i < 0 {
		var names []string
		for _, w := range su.Workloads {
			names = append(names, w.Name)
		}
		return nil, fmt.Errorf("no benchmark %s at good %s (matching: %s)", o.Workload, build.Short(good), strings.Join(names, ", "))
	}
	j := slices.IndexFunc(su.Workloads[i].Measures, func(m suite.Measure) bool { return m.Backend == suite.BackendCallgrind })
	m := su.Workloads[i].Measures[j]
	m.Timeout = su.Timeout
	res.Ops = int(m.GoBench.Iters[1] - m.GoBench.Iters[0])
	logf("bisecting %d commit(s) after %s up to %s for %s (callgrind, %dx and %dx, %d measurements each)",
		len(commits), build.Short(good), build.Short(bad), o.Workload, m.GoBench.Iters[0], m.GoBench.Iters[1], o.Repeat)

	bs := &bisector{o: &o, c: &controls, m: m, res: res, logf: logf, repo: gb.Subject.Repo, gb: &goBisect{b: gb, m: m}}
	if err := bs.ends(ctx, good, bad); err != nil {
		return res, err
	}
	return res, bs.halve(ctx, commits)
}

// step builds commit's test binaries and counts the benchmark Repeat
// times into s; a commit that does not build or whose benchmark fails is
// skipped. The error is the harness's own.
func (g *goBisect) step(ctx context.Context, bs *bisector, s *Step, role, rev string) error {
	side, err := g.b.Build(ctx, role, rev, s.Commit)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if be := (*build.BuildError)(nil); errors.As(err, &be) {
		s.Skipped = "does not build: " + be.Err.Error()
		if msg := firstError(be.StderrTail); msg != "" {
			s.Skipped += ": " + msg
		}
		return nil
	}
	if err != nil {
		return err
	}
	if !slices.ContainsFunc(side.Packages, func(p gobench.Package) bool { return p.ImportPath == g.m.GoBench.Package }) {
		s.Skipped = "has no package " + g.m.GoBench.Package + " with tests"
		return nil
	}
	for range bs.o.Repeat {
		c, mss, tail, err := measure.CountGoBench(ctx, bs.c, g.m.Timeout, side.Build, g.m, "", bs.o.Workload)
		if err != nil {
			return err
		}
		if last := mss[len(mss)-1]; last.Error != "" {
			s.Skipped = "measurement failed: " + last.Error
			if l := lastLine(tail); l != "" {
				s.Skipped += ": " + l
			}
			return nil
		}
		s.Counts = append(s.Counts, c.PerOp)
	}
	bs.rate(s, role)
	return nil
}
