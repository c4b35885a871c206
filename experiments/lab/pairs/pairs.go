package pairs

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"workbench/experiments/lab/build"
	"workbench/experiments/lab/expdir"
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
	// Experiment is the experiment directory's name; empty picks the next
	// free NNN-pairs-<before>-<after> (with Resume: the latest one for these
	// commits, if any).
	Experiment string
	// Resume continues an experiment that already has runs, skipping the
	// cells it has recorded. Without it, such an experiment is refused.
	Resume bool
	// CalibrationDir holds the A/A calibration of each commit and suite
	// (see CalibrationFile); empty is Repo/data/calibration.
	CalibrationDir string
	// Progress receives progress; Terminal makes it one updating line.
	Progress io.Writer
	Terminal bool
	// Log receives what the runner does (builds, experiment, warnings).
	Log io.Writer
	// OnRun, if set, is called after each run is recorded.
	OnRun func(*expdir.Line)
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
// directory (CalibrationFile). See CalibrationOrigin.
func Run(ctx context.Context, o Options) (*Result, error) {
	logf := func(format string, args ...any) {
		if o.Log != nil {
			fmt.Fprintf(o.Log, format+"\n", args...)
		}
	}

	// 1. Fill in defaults and read the suite.
	if err := o.fill(ctx); err != nil {
		return nil, err
	}
	su, err := suite.LoadSuite(o.SuitesDir(), o.Suite)
	if err != nil {
		return nil, err
	}
	substitute := substituteCallgrind(su, lookPathValgrind, measure.DetectBackend)
	if substitute != "" {
		logf("%s", substitute)
	}
	if o.Pairs == 0 {
		o.Pairs = cmp.Or(su.Pairs, DefaultPairs)
	}
	if o.Pairs < 1 {
		return nil, fmt.Errorf("pairs %d: want at least 1", o.Pairs)
	}

	// 2. Resolve the revisions.
	b := &build.Builder{Repo: o.Repo, CacheDir: o.CacheDir, Log: o.Log}
	revs := [2]string{o.Before, o.After}
	var commits [2]string
	for i, rev := range revs {
		if commits[i], err = b.Resolve(ctx, rev); err != nil {
			return nil, err
		}
	}

	// 3. Choose the experiment, lock it, and see what it already holds.
	exp := o.Experiment
	if exp == "" && o.Resume {
		exp = latestExperiment(o.ExperimentsDir, commits[0], commits[1])
	}
	if exp == "" {
		if exp, err = NextExperiment(o.ExperimentsDir, commits[0], commits[1]); err != nil {
			return nil, err
		}
	}
	if err := checkExperimentName(exp); err != nil {
		return nil, err
	}
	res := &Result{Experiment: exp, Dir: filepath.Join(o.ExperimentsDir, exp)}
	res.RunsPath = filepath.Join(res.Dir, expdir.RunsFile)
	runDir := measure.RunDirFor(o.CacheDir, res.Dir)
	if err := os.MkdirAll(runDir, 0o755); err != nil {
		return nil, err
	}
	unlock, err := build.LockFile(filepath.Join(runDir, "lock"))
	if err != nil {
		return nil, fmt.Errorf("experiment %s: %w", exp, err)
	}
	defer unlock()
	done, prior, complete, err := recorded(res.RunsPath, o.Resume)
	if err != nil {
		return nil, err
	}
	var old *expdir.Meta
	if o.Resume { // an experiment with no runs starts afresh
		m, err := expdir.Dir(res.Dir).Meta()
		if err != nil && !errors.Is(err, expdir.ErrNotExperiment) {
			return nil, err
		}
		if err == nil {
			old = &m
		}
	}
	if old != nil && (old.Before.Commit != commits[0] || old.After.Commit != commits[1]) {
		return nil, fmt.Errorf("%w: %s compares %s with %s, not %s with %s; choose another exp",
			ErrMetaMismatch, filepath.Join(res.Dir, expdir.MetaFile),
			build.Short(old.Before.Commit), build.Short(old.After.Commit), build.Short(commits[0]), build.Short(commits[1]))
	}

	// 4. Build both sides (the same commit on both sides is an A/A
	// experiment: built once, then found in the cache).
	aa := commits[0] == commits[1]
	var builds0 [2]expdir.Build
	for i, side := range []measure.Side{measure.Before, measure.After} {
		if builds0[i], err = b.Build(ctx, string(side), revs[i], commits[i], su.Tools()); err != nil {
			return nil, err
		}
	}

	// 5. Set up the controls, the directory, meta.json and the criteria.
	controls, err := measure.DetectControls(ctx, runDir, measure.ControlOptions{CPU: o.CPU, KeepASLR: o.KeepASLR, ExtraEnv: o.ExtraEnv})
	if err != nil {
		return nil, err
	}
	if substitute != "" {
		controls.Notes = append(controls.Notes, substitute)
	}
	feat := measure.ProbeFeatures(ctx, builds0[:], su.Tools())
	controls.Alternation, controls.PrepareOnce = expdir.AlternateRegions, feat.Rerun
	if !feat.Gate {
		controls.Alternation = expdir.AlternateProcesses
		controls.Notes = append(controls.Notes, "a side's pure-count predates run --gate: the two sides' native measurements alternate whole processes, not single regions")
	}
	if !feat.Rerun && su.PreparesOnce() {
		controls.Notes = append(controls.Notes, "a side's pure-count predates run --rerun: the prepare=once workloads are prepared afresh for every region, on both sides")
	}
	for _, n := range controls.Notes {
		logf("warning: %s", n)
	}
	if err := os.MkdirAll(res.Dir, 0o755); err != nil {
		return nil, err
	}
	cells := Schedule(o.Pairs, su.Workloads)
	if old != nil {
		res.Meta = *old
		if old.Controls.ASLROff != controls.ASLROff || old.Controls.CPU != controls.CPU {
			logf("warning: controls differ from the experiment's start (ASLR off %v → %v, CPU %q → %q); each run records its own",
				old.Controls.ASLROff, controls.ASLROff, old.Controls.CPU, controls.CPU)
		}
	} else {
		origin, err := setupCriteria(ctx, o.Repo, res.Dir, commits[0], func(s string) { logf("warning: %s", s) })
		if err != nil {
			return nil, fmt.Errorf("criteria: %w", err)
		}
		calib, err := setupCalibration(o.CalibrationDir, commits[0], su.Name, res.Dir, aa)
		if err != nil {
			return nil, err
		}
		switch {
		case aa:
			logf("A/A experiment (both sides %s): when complete, its runs become the calibration of %s",
				build.Short(commits[0]), expdir.CalibrationPath(o.CalibrationDir, commits[0], su.Name))
		case calib != nil:
			logf("calibration: %d A/A runs of %s (suite %s) copied from %s", calib.Runs, build.Short(calib.Commit), calib.Suite, calib.Path)
		default:
			logf("no calibration of %s for suite %s: noise from this experiment's own spread (an A/A run, before=after=%s, makes one)",
				build.Short(commits[0]), su.Name, build.Short(commits[0]))
		}
		res.Meta = expdir.Meta{
			Experiment:  exp,
			Before:      builds0[0],
			After:       builds0[1],
			Suite:       su.Name,
			SuitePath:   su.Path,
			SuiteText:   su.Text,
			Pairs:       o.Pairs,
			Runs:        len(cells),
			Timeout:     su.Timeout,
			Controls:    controls.Controls,
			Criteria:    origin,
			AA:          aa,
			Calibration: calib,
			Harness:     harnessInfo(ctx, o.Repo),
			Machine:     perfcount.ThisMachine(),
			Start:       time.Now().UTC(),
		}
		if err := expdir.Dir(res.Dir).WriteMeta(&res.Meta); err != nil {
			return nil, err
		}
	}

	// 6. Run the cells not yet recorded, appending each line as it comes.
	w, err := expdir.OpenRuns(res.RunsPath, complete)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	var todo []measure.Cell
	for _, c := range cells {
		if done[c.Key()] {
			res.Skipped++
		} else {
			todo = append(todo, c)
		}
	}
	logf("experiment %s: %d runs to do, %d already recorded, in %s", exp, len(todo), res.Skipped, res.RunsPath)
	var hist floorHistory
	for i := range prior {
		hist.add(&prior[i])
	}
	p := &Progress{W: o.Progress, Terminal: o.Terminal, Pairs: o.Pairs, Total: len(todo), Recorded: res.Skipped}
	defer p.Done()
	for k := 0; k < len(todo); {
		if ctx.Err() != nil {
			return res, interrupted(res, ctx.Err())
		}
		// The two sides of a workload in a pair run together (see
		// runCells); a side left alone by an interrupted run runs alone.
		group := todo[k : k+1]
		if k+1 < len(todo) && todo[k+1].Pair == todo[k].Pair && todo[k+1].Workload.Name == todo[k].Workload.Name {
			group = todo[k : k+2]
		}
		k += len(group)
		var builds []expdir.Build
		var dumps []string
		var refs []float64
		for _, c := range group {
			refs = append(refs, hist.ref(c.Workload.Name, c.Side))
			b := builds0[0]
			if c.Side == measure.After {
				b = builds0[1]
			}
			builds = append(builds, b)
			dumps = append(dumps, profileDumpDir(res.Dir, c))
		}
		p.Starting(group[0])
		ls, err := measure.RunCells(ctx, &controls, su.Timeout, group, builds, dumps, refs)
		if errors.Is(err, measure.ErrInterrupted) {
			return res, interrupted(res, ctx.Err())
		}
		if err != nil {
			return res, err
		}
		for i := range ls {
			l := &ls[i]
			l.Experiment, l.Suite = exp, su.Name
			hist.add(l)
			if err := w.Append(l); err != nil {
				return res, err
			}
			res.Ran++
			if l.Failed() {
				res.Failed++
			}
			p.Finished(group[i], l)
			if o.OnRun != nil {
				o.OnRun(l)
			}
		}
	}
	for _, err := range convertProfiles(res.Dir, su) {
		logf("warning: %v", err)
	}

	// 7. A completed A/A experiment becomes its commit's calibration.
	if aa && res.Ran+res.Skipped == len(cells) {
		if res.CalibrationSaved, err = expdir.SaveCalibration(res.RunsPath, o.CalibrationDir, commits[0], su.Name); err != nil {
			return res, err
		}
		logf("calibration of %s (suite %s) saved to %s", build.Short(commits[0]), su.Name, res.CalibrationSaved)
		if res.Failed > 0 {
			logf("warning: %d of the calibration's runs failed; the judge uses only its complete, successful pairs", res.Failed)
		}
	}
	return res, nil
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
		return nil, nil, 0, nil
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
