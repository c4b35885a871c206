package pairs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/gobench"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/suite"
	"workbench/perfcount"
)

// DefaultPairs is the number of pairs when neither the command line nor the
// suite says.
const DefaultPairs = 6

// Options configure Run. Only Before and After are required.
type Options struct {
	// Options are the settings shared with bisect: checkout, experiments
	// directory, cache, suite and controls.
	build.Options
	// Before and After are the revisions compared, as the user names them.
	Before, After string
	// Pairs is the number of pairs; 0 takes the suite's, or DefaultPairs.
	Pairs int
	// MaxPairs is how many pairs in all a workload the judge leaves
	// undecided may be given (see extend.go); 0 takes the suite's
	// max-pairs line, else DefaultMaxPairs, and a value at or below Pairs
	// adds none. It needs Decide.
	MaxPairs int
	// MaxTime is the time budget for adding pairs (see extend.go): no step
	// of two more pairs starts when it would end more than MaxTime after the
	// experiment's start. 0 takes the suite's max-time, if any; none else.
	MaxTime time.Duration
	// Decide judges the experiment between extensions; nil adds no pairs.
	Decide Decider
	// Experiment is the experiment directory's name; empty picks the next
	// free NNN-pairs-<before>-<after> (with Resume: the latest one for these
	// commits, if any).
	Experiment string
	// Resume continues an experiment that already has runs, skipping the
	// cells it has recorded. Without it, such an experiment is refused.
	Resume bool
	// CalibrationDir holds the A/A calibration of each commit and suite
	// (see expdir.CalibrationFile); empty is Repo/data/calibration.
	CalibrationDir string
	// Progress receives progress; Terminal makes it one updating line.
	Progress io.Writer
	Terminal bool
	// Log receives what the runner does (builds, experiment, warnings).
	Log io.Writer
	// OnRun, if set, is called after each run is recorded.
	OnRun func(*expdir.Line)
	// GoBench, when set, judges another module's Go benchmarks instead of
	// a suite (gobench.go): Before and After are then revisions of its
	// repository, or versions of its module, and Suite is unused.
	GoBench *gobench.Subject
	// GoBenchPlan shapes the measurements of each benchmark (zero: the
	// defaults).
	GoBenchPlan gobench.Plan
}

// Result is what Run did.
type Result struct {
	// Experiment is the experiment's name, Dir its directory and RunsPath
	// its runs.jsonl.
	Experiment, Dir, RunsPath string
	Meta                      expdir.Meta
	// Ran counts the runs recorded in this call, Failed those of them that
	// failed, and Skipped the cells already recorded before it.
	Ran, Failed, Skipped int
	// CalibrationSaved is the calibration file an A/A experiment stored
	// when it completed; empty otherwise.
	CalibrationSaved string
}

// Run builds both revisions and runs the suite on them in alternating pairs,
// appending one line per run to the experiment's runs.jsonl. A failing run
// is recorded and the others go on; Run itself fails only when it cannot
// start or continue (bad options, failed build, unwritable files) or when
// ctx is cancelled, in which case every finished run is already on disk and
// the returned Result counts them.
//
// When both revisions are the same commit the experiment is an A/A run:
// once all its cells are recorded, its runs become the calibration of that
// commit and suite in CalibrationDir. Any other new experiment copies the
// calibration of its before commit and suite, if there is one, into its
// directory (expdir.CalibrationFile). See expdir.CalibrationOrigin.
func Run(ctx context.Context, o Options) (*Result, error) {
	r := &runner{o: o}
	if err := r.prepare(ctx); err != nil {
		return nil, err
	}
	unlock, err := r.open(ctx)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if err := r.buildAndControl(ctx); err != nil {
		return nil, err
	}
	if err := r.start(ctx); err != nil {
		return nil, err
	}
	if err := r.runCells(ctx); err != nil {
		return r.res, err
	}
	if err := r.extend(ctx); err != nil {
		return r.res, err
	}
	return r.res, r.finish()
}

// logLines is an io.Writer whose every line goes to the runner's log.
type logLines struct{ r *runner }

func (w logLines) Write(b []byte) (int, error) {
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		w.r.logf("%s", l)
	}
	return len(b), nil
}

// runner is one call of Run, stage by stage.
type runner struct {
	o        Options
	su       *suite.Suite
	b        *build.Builder
	revs     [2]string
	commits  [2]string
	aa       bool
	res      *Result
	runDir   string
	done     map[measure.CellKey]bool
	prior    []expdir.Line
	complete int64
	old      *expdir.Meta
	builds   [2]expdir.Build
	controls measure.Controls
	cells    []measure.Cell
	// hist holds the floors of the runs so far, histLoaded whether the
	// prior runs are in it.
	hist       floorHistory
	histLoaded bool
	// substitute says why callgrind measurements were substituted, if
	// they were (see substituteCallgrind).
	substitute string
	// p is the progress while cells run; logf writes through it.
	p *Progress
	// gb builds the sides of Options.GoBench, gbMeta records them; nil
	// for a suite's experiment.
	gb     *gobench.Builder
	gbMeta *expdir.GoBenchMeta
	// pairTime holds, per workload, how long each of its pairs took in
	// this call (both sides' runs together): the time budget's estimate
	// of a step of added pairs (extend.go).
	pairTime map[string][]time.Duration
	// backendTime holds, per workload and backend, the time its
	// measurements spanned in each pair recorded (see backendSpans).
	backendTime map[string]map[string][]time.Duration
}

// logf writes one line to the log: through the progress while it runs,
// so that on a terminal the line does not land on the status line, and
// elsewhere it starts with the time of day.
func (r *runner) logf(format string, args ...any) {
	if r.o.Log == nil {
		return
	}
	p := r.p
	if p == nil {
		p = &Progress{Terminal: r.o.Terminal}
	}
	p.Message(r.o.Log, fmt.Sprintf(format, args...))
}

// prepare fills in the defaults, reads the suite and resolves the
// revisions.
func (r *runner) prepare(ctx context.Context) error {
	o := &r.o
	if err := o.fill(ctx); err != nil {
		return err
	}
	if o.GoBench != nil {
		return r.prepareGoBench(ctx)
	}
	su, err := suite.LoadSuite(o.SuitesDir(), o.Suite)
	if err != nil {
		return err
	}
	r.su = su
	r.substitute = substituteCallgrind(su, lookPathValgrind, measure.DetectBackend)
	if r.substitute != "" {
		r.logf("%s", r.substitute)
	}
	if o.Pairs == 0 {
		o.Pairs = cmp.Or(su.Pairs, DefaultPairs)
	}
	if o.Pairs < 1 {
		return fmt.Errorf("pairs %d: want at least 1", o.Pairs)
	}
	if o.MaxPairs == 0 {
		o.MaxPairs = cmp.Or(su.MaxPairs, DefaultMaxPairs)
	}
	if o.MaxTime < 0 {
		return fmt.Errorf("max time %v: want a positive duration, or 0 for the suite's", o.MaxTime)
	}
	if o.MaxTime == 0 {
		o.MaxTime = su.MaxTime
	}
	r.b = &build.Builder{Repo: o.Repo, CacheDir: o.CacheDir}
	if o.Log != nil {
		r.b.Log = logLines{r}
	}
	r.revs = [2]string{o.Before, o.After}
	for i, rev := range r.revs {
		if r.commits[i], err = r.b.Resolve(ctx, rev); err != nil {
			return err
		}
	}
	r.aa = r.commits[0] == r.commits[1]
	return nil
}

// open chooses the experiment, locks it, and reads what it already holds.
// The returned function releases the lock.
func (r *runner) open(ctx context.Context) (unlock func(), err error) {
	o, commits := &r.o, r.commits
	exp := o.Experiment
	if exp == "" && o.Resume {
		exp = latestExperiment(o.ExperimentsDir, experimentSuffix(commits, r.gb != nil && r.gb.Subject.Module != ""))
	}
	if exp == "" {
		if exp, err = NextExperiment(o.ExperimentsDir, commits[0], commits[1]); err != nil {
			return nil, err
		}
		if r.gb != nil && r.gb.Subject.Module != "" {
			exp = moduleExperiment(exp, commits)
		}
	}
	if err := checkExperimentName(exp); err != nil {
		return nil, err
	}
	r.res = &Result{Experiment: exp, Dir: filepath.Join(o.ExperimentsDir, exp)}
	r.res.RunsPath = filepath.Join(r.res.Dir, expdir.RunsFile)
	r.runDir = measure.RunDirFor(o.CacheDir, r.res.Dir)
	if err := os.MkdirAll(r.runDir, 0o755); err != nil {
		return nil, err
	}
	unlock, err = build.LockFile(filepath.Join(r.runDir, "lock"))
	if err != nil {
		return nil, fmt.Errorf("experiment %s: %w", exp, err)
	}
	if r.done, r.prior, r.complete, err = recorded(r.res.RunsPath, o.Resume); err == nil {
		err = r.readOldMeta()
	}
	if err == nil {
		r.priorSpans()
	}
	if err != nil {
		unlock()
		return nil, err
	}
	return unlock, nil
}

// readOldMeta reads the meta.json of an experiment being resumed (an
// experiment with no runs starts afresh) and checks it compares the same
// commits.
func (r *runner) readOldMeta() error {
	if !r.o.Resume {
		return nil
	}
	m, err := expdir.Dir(r.res.Dir).Meta()
	if errors.Is(err, expdir.ErrNotExperiment) {
		return nil
	}
	if err != nil {
		return err
	}
	if m.Before.Commit != r.commits[0] || m.After.Commit != r.commits[1] {
		return fmt.Errorf("%w: %s compares %s with %s, not %s with %s; choose another exp",
			ErrMetaMismatch, filepath.Join(r.res.Dir, expdir.MetaFile),
			build.Short(m.Before.Commit), build.Short(m.After.Commit), build.Short(r.commits[0]), build.Short(r.commits[1]))
	}
	r.old = &m
	return nil
}

// buildAndControl builds both sides (the same commit on both sides, an A/A
// experiment, is built once, then found in the cache) and sets up the
// controls.
func (r *runner) buildAndControl(ctx context.Context) error {
	if r.gb != nil {
		return r.buildGoBench(ctx)
	}
	var err error
	for i, side := range []measure.Side{measure.Before, measure.After} {
		if r.builds[i], err = r.b.Build(ctx, string(side), r.revs[i], r.commits[i], r.su.Tools()); err != nil {
			return err
		}
	}
	o := &r.o
	c, err := measure.DetectControls(ctx, r.runDir, measure.ControlOptions{CPU: o.CPU, KeepASLR: o.KeepASLR, ExtraEnv: o.ExtraEnv})
	if err != nil {
		return err
	}
	if r.substitute != "" {
		c.Notes = append(c.Notes, r.substitute)
	}
	if err := r.httpControls(ctx, &c); err != nil {
		return err
	}
	feat := measure.ProbeFeatures(ctx, r.builds[:], r.su.CountTools())
	c.Alternation, c.PrepareOnce = expdir.AlternateRegions, feat.Rerun
	switch {
	case len(r.su.CountTools()) == 0:
		c.Alternation = "" // no pure-count measurement: nothing alternates regions
	case !feat.Gate:
		c.Alternation = expdir.AlternateProcesses
		c.Notes = append(c.Notes, "a side's pure-count predates run --gate: the two sides' native measurements alternate whole processes, not single regions")
	}
	if !feat.Rerun && r.su.PreparesOnce() {
		c.Notes = append(c.Notes, "a side's pure-count predates run --rerun: the prepare=once workloads are prepared afresh for every region, on both sides")
	}
	for _, n := range c.Notes {
		r.logf("warning: %s", n)
	}
	r.controls = c
	return nil
}

// start makes the directory and, for a new experiment, its criteria,
// calibration and meta.json; a resumed one keeps its meta.json.
func (r *runner) start(ctx context.Context) error {
	o, res, commits, su := &r.o, r.res, r.commits, r.su
	if err := os.MkdirAll(res.Dir, 0o755); err != nil {
		return err
	}
	r.cells = Schedule(o.Pairs, su.Workloads)
	changes := changesBetween(ctx, o.Repo, commits[0], commits[1])
	if r.gb != nil {
		changes = r.goBenchChanges(ctx)
	}
	if old := r.old; old != nil {
		res.Meta = *old
		for _, ext := range old.Extensions {
			r.cells = append(r.cells, extensionCells(ext, su.Workloads)...)
		}
		if old.Controls.ASLROff != r.controls.ASLROff || old.Controls.CPU != r.controls.CPU {
			r.logf("warning: controls differ from the experiment's start (ASLR off %v → %v, CPU %q → %q); each run records its own",
				old.Controls.ASLROff, r.controls.ASLROff, old.Controls.CPU, r.controls.CPU)
		}
		return nil
	}
	origin, err := setupCriteria(ctx, o.Repo, res.Dir, commits[0], defaultCriteria(su), func(s string) { r.logf("warning: %s", s) })
	if err != nil {
		return fmt.Errorf("criteria: %w", err)
	}
	r.noteGoBenchCriteria(origin)
	calib, err := setupCalibration(o.CalibrationDir, commits[0], su.Name, res.Dir, r.aa)
	if err != nil {
		return err
	}
	switch {
	case r.aa:
		r.logf("A/A experiment (both sides %s): when complete, its runs become the calibration of %s",
			build.Short(commits[0]), expdir.CalibrationPath(o.CalibrationDir, commits[0], su.Name))
	case calib != nil:
		r.logf("calibration: %d A/A runs of %s (suite %s) copied from %s", calib.Runs, build.Short(calib.Commit), calib.Suite, calib.Path)
	default:
		r.logf("no calibration of %s for suite %s: noise from this experiment's own spread (an A/A run, before=after=%s, makes one)",
			build.Short(commits[0]), su.Name, build.Short(commits[0]))
	}
	res.Meta = expdir.Meta{
		Experiment: res.Experiment, Before: r.builds[0], After: r.builds[1],
		Suite: su.Name, SuitePath: su.Path, SuiteText: su.Text,
		Pairs: o.Pairs, MaxPairs: max(o.MaxPairs, o.Pairs), LooksBudget: expdir.LooksNominal,
		MaxTime: o.MaxTime, Runs: len(r.cells), Timeout: su.Timeout,
		Controls: r.controls.Controls, Criteria: origin, AA: r.aa, Calibration: calib,
		Changes: changes, GoBench: r.gbMeta,
		Harness: harnessInfo(ctx, o.Repo), Machine: perfcount.ThisMachine(), Start: time.Now().UTC(),
	}
	return expdir.Dir(res.Dir).WriteMeta(&res.Meta)
}

// finish stores a completed A/A experiment as its commit's calibration.
func (r *runner) finish() error {
	res := r.res
	if !r.aa || res.Ran+res.Skipped != len(r.cells) {
		return nil
	}
	var err error
	if res.CalibrationSaved, err = expdir.SaveCalibration(res.RunsPath, r.o.CalibrationDir, r.commits[0], r.su.Name); err != nil {
		return err
	}
	r.logf("calibration of %s (suite %s) saved to %s", build.Short(r.commits[0]), r.su.Name, res.CalibrationSaved)
	if res.Failed > 0 {
		r.logf("warning: %d of the calibration's runs failed; the judge uses only its complete, successful pairs", res.Failed)
	}
	return nil
}

// setupCalibration puts the calibration of before and suite, if there is
// one, into a new experiment's directory and says where it came from. An
// A/A experiment takes none: it is the calibration. A calibration file left
// by an earlier start of the directory is removed when there is none now.
func setupCalibration(dir, before, su, expDir string, aa bool) (*expdir.CalibrationOrigin, error) {
	var calib *expdir.CalibrationOrigin
	if !aa {
		var err error
		if calib, err = expdir.CopyCalibration(dir, before, su, expdir.Dir(expDir)); err != nil {
			return nil, err
		}
	}
	if calib == nil {
		if err := os.Remove(expdir.Dir(expDir).Path(expdir.CalibrationFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, err
		}
	}
	return calib, nil
}

// fill checks the options and fills in the defaults. Paths are made
// absolute: the run directory links into the cache, and the criteria are
// looked up by their path relative to the repository.
func (o *Options) fill(ctx context.Context) error {
	if o.Before == "" || o.After == "" {
		return errors.New("both a before and an after revision are needed")
	}
	if o.Pairs < 0 {
		return fmt.Errorf("pairs %d: want a positive number of pairs, or 0 for the suite's", o.Pairs)
	}
	if o.MaxPairs < 0 {
		return fmt.Errorf("max pairs %d: want a positive number, or 0 for %d", o.MaxPairs, DefaultMaxPairs)
	}
	if err := o.Options.Fill(ctx); err != nil {
		return err
	}
	if o.CalibrationDir == "" {
		o.CalibrationDir = filepath.Join(o.Repo, "data", "calibration")
	}
	var err error
	o.CalibrationDir, err = filepath.Abs(o.CalibrationDir)
	return err
}

// recorded reads the cells already in runs.jsonl, its lines, and the
// length of its whole lines. Recorded runs without resume are an error: they are never
// overwritten.
func recorded(path string, resume bool) (done map[measure.CellKey]bool, lines []expdir.Line, complete int64, err error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return map[measure.CellKey]bool{}, nil, 0, nil
	}
	if err != nil {
		return nil, nil, 0, err
	}
	defer f.Close()
	lines, complete, err = expdir.ReadRuns(f)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("%s: %w", path, err)
	}
	if len(lines) > 0 && !resume {
		return nil, nil, 0, fmt.Errorf("%w: %s holds %d runs; pass resume=1 (--resume) to continue it, or choose another exp",
			ErrRunsExist, path, len(lines))
	}
	done = make(map[measure.CellKey]bool, len(lines))
	for i := range lines {
		done[lineKey(&lines[i])] = true
	}
	return done, lines, complete, nil
}

// lineKey returns the cell a line records.
func lineKey(l *expdir.Line) measure.CellKey {
	return measure.CellKey{Pair: l.Pair, Side: measure.Side(l.Side), Workload: l.Workload}
}

func interrupted(res *Result, err error) error {
	return fmt.Errorf("interrupted after %d runs (all recorded in %s): continue with resume=1 exp=%s: %w",
		res.Ran, res.RunsPath, res.Experiment, err)
}
