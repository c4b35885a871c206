package bisect

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/gobench"
	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/stats"
	"workbench/experiments/lab/suite"
)

// Defaults of Options.
const (
	// DefaultThreshold is the rise Bisect looks for when none is
	// given: the default criteria's 1 % for instructions.
	DefaultThreshold = 0.01
	// DefaultRepeat is the number of measurements of each commit.
	DefaultRepeat = 3
)

// Roles of the commits a bisection measures.
const (
	RoleGood      = "good"
	RoleBad       = "bad"
	RoleCandidate = "candidate"
)

// Options configure Bisect. Good, Bad and Workload are required.
type Options struct {
	// Options are the settings shared with pairs: checkout, experiments
	// directory (its suites/ holds the suite), cache, suite and controls.
	// The suite's line for Workload gives the operations per measurement,
	// the tool and the timeout. Builds are shared with pairs.Run.
	build.Options
	// Good is a revision where the workload's count is as it should be,
	// Bad one where it has risen; Good must be on Bad's first-parent path.
	Good, Bad string
	// Workload is the registered workload whose count is followed.
	Workload string
	// Threshold is the rise, as a fraction of the count at Good, that
	// makes a commit bad; 0 is DefaultThreshold. The threshold
	// applied is never below the noise measured at Good.
	Threshold float64
	// Repeat is the number of measurements of each commit (one fresh
	// process each), whose median is the commit's count; 0 is
	// DefaultRepeat.
	Repeat int
	// Ops overrides the suite's operations per measurement.
	Ops int
	// Backend is BackendPerf or BackendCallgrind; empty chooses: perf
	// (instructions:u) when this machine can count instructions with
	// perf_event, else callgrind.
	Backend string
	// Log receives what Bisect does (builds, choices, skipped commits).
	Log io.Writer
	// OnStep, if set, is called after each commit is measured or skipped.
	OnStep func(Step)
	// GoBench, when set, bisects another module's Go benchmark instead
	// (gobench.go): Good and Bad are commits of its repository, Workload
	// the benchmark (as pairs names it: Sum, Parse/small), counted under
	// callgrind; Suite, Ops and Backend are unused.
	GoBench *gobench.Subject
	// GoBenchPlan shapes the measurement (zero: the defaults).
	GoBenchPlan gobench.Plan
}

// A Step is one commit a bisection measured, or skipped.
type Step struct {
	// Role is RoleGood, RoleBad or RoleCandidate.
	Role string
	// Commit is the full hash, Subject the first line of its message.
	Commit, Subject string
	// Counts are the per-operation counts of each measurement; Count is
	// their median.
	Counts []float64
	Count  float64
	// Ratio is Count over the count at good.
	Ratio float64
	// Bad is true when Ratio rises beyond the threshold.
	Bad bool
	// Skipped says why the commit could not be measured (it does not
	// build, or its measurement failed), like `git bisect skip`; empty
	// when it was measured.
	Skipped string
}

// Result is what Bisect found.
type Result struct {
	// Workload, Backend, Event and Ops describe the measurement: Event is
	// the counted event as the subject names it, Ops the operations per
	// measurement (0: the workload's default).
	Workload, Backend, Event string
	Ops                      int
	// Good and Bad are the two ends, measured first.
	Good, Bad Step
	// Commits is the number of commits after good up to bad, on bad's
	// first-parent path.
	Commits int
	// Noise is the spread, (max-min)/median, of the counts at good;
	// Threshold is the threshold applied: the larger of the one asked for
	// and Noise.
	Noise, Threshold float64
	// Steps are every commit measured or skipped, in the order they were.
	Steps []Step
	// First is the first bad commit. It is nil when skipped commits hide
	// it; then Candidates lists, oldest first, the commits one of which is
	// the first bad one.
	First      *Step
	Candidates []string
	// Skipped are the steps that were skipped.
	Skipped []Step
}

// Run finds the first commit on the first-parent path from Good
// (exclusive) to Bad (inclusive) whose per-operation count of Workload rises
// beyond the threshold over Good's.
//
// Each commit's subject binary is built by the Builder (cached by commit,
// shared with Run) and measured Repeat times under the same Controls as a
// pairs experiment, with `TOOL run --backend B -n OPS -r REPEAT --json W`;
// its count is the median. Good and Bad are measured first: the threshold
// becomes the larger of Threshold and the spread of Good's measurements, and
// unless Bad is above it Bisect stops with ErrNoRise. Then it halves the
// range, as git bisect does, assuming the rise stays once it came. A commit
// that does not build, or whose measurement fails, is skipped (like `git
// bisect skip`) and its neighbours tried instead; if skipped commits hide
// the answer, the result lists the candidates.
func Run(ctx context.Context, o Options) (*Result, error) {
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", args...)
		}
	}

	// 1. Fill in defaults, choose the backend, and read the suite.
	if err := o.fill(ctx); err != nil {
		return nil, err
	}
	if o.GoBench != nil {
		return runGoBench(ctx, o, logf)
	}
	if o.Backend == "" {
		var why error
		if o.Backend, why = measure.DetectBackend(); why != nil {
			logf("counting under callgrind: perf_event cannot count instructions:u here (%v)", why)
		} else {
			logf("counting instructions:u with perf_event")
		}
	}
	m, err := o.measure(logf)
	if err != nil {
		return nil, err
	}
	res := &Result{Workload: o.Workload, Backend: o.Backend, Ops: m.Ops}

	// 2. Resolve the ends and list the commits between them.
	b := &build.Builder{Repo: o.Repo, CacheDir: o.CacheDir, Log: o.Log}
	good, err := b.Resolve(ctx, o.Good)
	if err != nil {
		return nil, err
	}
	bad, err := b.Resolve(ctx, o.Bad)
	if err != nil {
		return nil, err
	}
	commits, err := firstParentPath(ctx, o.Repo, good, bad)
	if err != nil {
		return nil, err
	}
	res.Commits = len(commits)
	logf("bisecting %d commit(s) after %s up to %s for %s (%s, %d measurements each)",
		len(commits), build.Short(good), build.Short(bad), o.Workload, o.Backend, o.Repeat)

	// 3. The controls, in a run directory of the bisection's own.
	controls, unlock, err := o.prepareRun(ctx, "bisect-"+build.Short(good)+"-"+build.Short(bad), logf)
	if err != nil {
		return nil, err
	}
	defer unlock()
	bs := &bisector{o: &o, b: b, c: &controls, m: m, res: res, logf: logf, repo: o.Repo}

	// 4. Good, then bad: the threshold, and whether there is a rise at all.
	if err := bs.ends(ctx, good, bad); err != nil {
		return res, err
	}

	// 5. Halve the range. Invariant: commits[lo] is good (lo = -1: good
	// itself) and commits[hi] is bad; skipped commits are never chosen
	// again.
	return res, bs.halve(ctx, commits)
}

// halve halves the range between good and bad, as git bisect does.
// Invariant: commits[lo] is good (lo = -1: good itself) and commits[hi] is
// bad; skipped commits are never chosen again.
func (bs *bisector) halve(ctx context.Context, commits []string) error {
	res, logf := bs.res, bs.logf
	lo, hi := -1, len(commits)-1
	steps := map[int]Step{hi: res.Bad}
	skipped := map[int]bool{}
	for hi-lo > 1 {
		i := pickMiddle(lo, hi, skipped)
		if i < 0 {
			break // every commit between them was skipped
		}
		s, err := bs.step(ctx, RoleCandidate, commits[i], commits[i])
		if err != nil {
			return err
		}
		steps[i] = s
		switch {
		case s.Skipped != "":
			skipped[i] = true
			logf("skipped %s: %s", build.Short(s.Commit), s.Skipped)
		case s.Bad:
			hi = i
		default:
			lo = i
		}
	}
	if hi-lo == 1 {
		first := steps[hi]
		res.First = &first
	} else {
		res.Candidates = slices.Clone(commits[lo+1 : hi+1])
	}
	return nil
}

// fill checks the options and fills in the defaults.
func (o *Options) fill(ctx context.Context) error {
	switch {
	case o.Good == "" || o.Bad == "":
		return errors.New("both a good and a bad revision are needed")
	case o.Workload == "":
		return errors.New("name the workload whose count rose")
	case o.Threshold < 0 || o.Repeat < 0 || o.Ops < 0:
		return fmt.Errorf("threshold %g, repeat %d, ops %d: none may be negative", o.Threshold, o.Repeat, o.Ops)
	}
	switch o.Backend {
	case "", suite.BackendPerf, suite.BackendCallgrind:
	default:
		return fmt.Errorf("backend %q: want perf or callgrind (or nothing, to choose)", o.Backend)
	}
	if o.Threshold == 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Repeat == 0 {
		o.Repeat = DefaultRepeat
	}
	return o.Options.Fill(ctx)
}

// measure returns the measurement a bisection takes of each commit: the
// suite's line for the workload and backend gives the tool, the operations
// and the timeout; the timeout is stretched by the repeats.
func (o *Options) measure(logf func(string, ...any)) (suite.Measure, error) {
	su, err := suite.LoadSuite(o.SuitesDir(), o.Suite)
	if err != nil {
		return suite.Measure{}, err
	}
	m := suite.Measure{Backend: o.Backend, Tool: suite.DefaultTool, Timeout: su.Timeout}
	i := slices.IndexFunc(su.Workloads, func(w suite.Workload) bool { return w.Name == o.Workload })
	if i < 0 {
		logf("suite %s has no %s: measuring it with %s's default operations", su.Name, o.Workload, suite.DefaultTool)
	} else {
		w := su.Workloads[i]
		j := slices.IndexFunc(w.Measures, func(m suite.Measure) bool { return m.Backend == o.Backend })
		if j < 0 {
			m.Tool = w.Measures[0].Tool
			logf("suite %s measures %s without %s: using the workload's default operations", su.Name, o.Workload, o.Backend)
		} else {
			m.Tool, m.Ops = w.Measures[j].Tool, w.Measures[j].Ops
			m.Timeout = cmp.Or(w.Measures[j].Timeout, su.Timeout)
		}
	}
	if o.Ops > 0 {
		m.Ops = o.Ops
	}
	if o.Backend == suite.BackendPerf {
		m.Events = []string{"instructions:u"}
	}
	m.Repeat = o.Repeat
	m.Timeout *= time.Duration(o.Repeat)
	return m, nil
}

// firstParentPath returns the commits after good up to bad on bad's
// first-parent path, oldest first, and fails unless good is on that path.
func firstParentPath(ctx context.Context, repo, good, bad string) ([]string, error) {
	if good == bad {
		return nil, fmt.Errorf("good and bad are the same commit %s: nothing to bisect", build.Short(good))
	}
	out, err := build.Git(ctx, repo, "rev-list", "--first-parent", "--reverse", good+".."+bad)
	if err != nil {
		return nil, err
	}
	commits := strings.Fields(out)
	if len(commits) == 0 {
		return nil, fmt.Errorf("bad %s is an ancestor of good %s: swap them, or choose other ends", build.Short(bad), build.Short(good))
	}
	if parent, err := build.Git(ctx, repo, "rev-parse", commits[0]+"^1"); err != nil || parent != good {
		return nil, fmt.Errorf("good %s is not on the first-parent path of bad %s (git log --first-parent %s lists the commits it may be)",
			build.Short(good), build.Short(bad), build.Short(bad))
	}
	return commits, nil
}

// pickMiddle returns the commit strictly between lo and hi nearest their
// middle that was not skipped, preferring the older of two equally near;
// -1 when every one was skipped.
func pickMiddle(lo, hi int, skipped map[int]bool) int {
	mid := lo + (hi-lo)/2
	for d := 0; d < hi-lo; d++ {
		for _, i := range []int{mid - d, mid + d} {
			if i > lo && i < hi && !skipped[i] {
				return i
			}
		}
	}
	return -1
}

// ends measures good and bad: the threshold, and whether there is a rise
// at all.
func (bs *bisector) ends(ctx context.Context, good, bad string) error {
	var err error
	if bs.res.Good, err = bs.step(ctx, RoleGood, bs.o.Good, good); err != nil {
		return err
	}
	if bs.res.Good.Skipped != "" {
		return fmt.Errorf("good %s (%s) cannot be measured: %s", bs.o.Good, build.Short(good), bs.res.Good.Skipped)
	}
	bs.res.Noise = judge.Spread(bs.res.Good.Counts)
	bs.res.Threshold = math.Max(bs.o.Threshold, bs.res.Noise)
	if bs.res.Noise > bs.o.Threshold {
		bs.logf("warning: the counts at good spread by %.3g %%, more than the %.3g %% threshold asked for: bisecting for a rise above %.3g %%",
			100*bs.res.Noise, 100*bs.o.Threshold, 100*bs.res.Threshold)
	}
	if bs.res.Bad, err = bs.step(ctx, RoleBad, bs.o.Bad, bad); err != nil {
		return err
	}
	if bs.res.Bad.Skipped != "" {
		return fmt.Errorf("bad %s (%s) cannot be measured: %s", bs.o.Bad, build.Short(bad), bs.res.Bad.Skipped)
	}
	if !bs.res.Bad.Bad {
		return fmt.Errorf("%w: %s at good %s is %s per op and at bad %s %s per op (×%.4f, %+.2f %%), not above the %.3g %% threshold: "+
			"the rise is not there at bad, or it is not monotone (it came and went between them); choose other ends",
			ErrNoRise, bs.o.Workload, build.Short(good), fmtCount(bs.res.Good.Count), build.Short(bad), fmtCount(bs.res.Bad.Count),
			bs.res.Bad.Ratio, 100*(bs.res.Bad.Ratio-1), 100*bs.res.Threshold)
	}

	return nil
}

// bisector measures commits for Run.
type bisector struct {
	o   *Options
	b   *build.Builder
	c   *measure.Controls
	m   suite.Measure
	res *Result
	// logf logs what the bisection does.
	logf func(string, ...any)
	// repo is the repository whose commits are bisected.
	repo string
	// gb, when set, builds and counts a Go benchmark (gobench.go).
	gb *goBisect
}

// step builds and measures one commit. The error is non-nil only when the
// bisection cannot go on (ctx cancelled, the harness failed); a commit that
// does not build or measure is returned skipped.
func (bs *bisector) step(ctx context.Context, role, rev, commit string) (Step, error) {
	s := Step{Role: role, Commit: commit}
	s.Subject, _ = build.Git(ctx, bs.repo, "log", "-1", "--format=%s", commit)
	defer func() {
		bs.res.Steps = append(bs.res.Steps, s)
		if s.Skipped != "" {
			bs.res.Skipped = append(bs.res.Skipped, s)
		}
		if bs.o.OnStep != nil {
			bs.o.OnStep(s)
		}
	}()
	if bs.gb != nil {
		return s, bs.gb.step(ctx, bs, &s, role, rev)
	}
	bld, err := bs.b.Build(ctx, role, rev, commit, []string{bs.m.Tool})
	if ctx.Err() != nil {
		return s, ctx.Err()
	}
	if be := (*build.BuildError)(nil); errors.As(err, &be) {
		s.Skipped = "does not build: " + be.Err.Error()
		if msg := firstError(be.StderrTail); msg != "" {
			s.Skipped += ": " + msg
		}
		return s, nil
	}
	if err != nil {
		return s, err
	}
	if err := bs.c.Use(bld); err != nil {
		return s, err
	}
	ms, stdout, stderrTail, err := measure.Invoke(ctx, bs.c, bs.m.Timeout, bs.m, bs.m.Args(bs.o.Workload))
	if err != nil {
		return s, err
	}
	if ms.Error == "" && ms.ExitCode != 0 {
		ms.Error = fmt.Sprintf("exited with status %d: %s", ms.ExitCode, lastLine(stderrTail))
	}
	if ms.Error == "" {
		var event string
		s.Counts, event, err = measure.PerOpCounts(stdout, bs.o.Workload, bs.m.Backend)
		if err != nil {
			ms.Error = err.Error()
		} else if bs.res.Event == "" {
			bs.res.Event = event
		}
	}
	if ms.Error != "" {
		s.Skipped = "measurement failed: " + ms.Error
		return s, nil
	}
	bs.rate(&s, role)
	return s, nil
}

// rate sets a measured step's count, the median of its counts, and its
// ratio to good's.
func (bs *bisector) rate(s *Step, role string) {
	s.Count = stats.Median(s.Counts)
	s.Ratio = 1
	if role != RoleGood {
		s.Ratio = s.Count / bs.res.Good.Count
		s.Bad = s.Ratio-1 > bs.res.Threshold+1e-12 // not for a rounding error at exactly the threshold
	}
}

// firstError returns the first line of go build's output that is not a
// "# package" header.
func firstError(out string) string {
	for line := range strings.Lines(out) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			return line
		}
	}
	return ""
}

// lastLine returns the last non-empty line of s.
func lastLine(s string) string {
	s = strings.TrimRight(s, "\n")
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}

// fmtCount formats a per-operation count with thousands separators.
func fmtCount(v float64) string {
	s := fmt.Sprintf("%.0f", v)
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 && s[i-1] != '-' {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// prepareRun makes the bisection's run directory CacheDir/run/name, locks
// it and detects the measurement controls (pinning, ASLR), logging what
// they warn of. The caller calls unlock when the bisection ends.
func (o *Options) prepareRun(ctx context.Context, name string, logf func(string, ...any)) (c measure.Controls, unlock func(), err error) {
	runDir := filepath.Join(o.CacheDir, "run", name)
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		return c, nil, err
	}
	if unlock, err = build.LockFile(filepath.Join(runDir, "lock")); err != nil {
		return c, nil, fmt.Errorf("bisect: %w", err)
	}
	if c, err = measure.DetectControls(ctx, runDir, measure.ControlOptions{CPU: o.CPU, KeepASLR: o.KeepASLR, ExtraEnv: o.ExtraEnv}); err != nil {
		unlock()
		return c, nil, err
	}
	for _, n := range c.Notes {
		logf("warning: %s", n)
	}
	return c, unlock, nil
}
