package note

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"strings"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/judge"
)

// Experiment is everything the note says, read from an experiment
// directory by Load. It holds no path outside the directory, so two copies
// of the same directory give the same note. Write and Plot do not modify
// it, so they may run concurrently; a caller that changes its fields
// (to render a variant, say) owns the result.
type Experiment struct {
	// Name is the experiment's name: meta.json's, or the directory's.
	Name string
	// Meta is meta.json as read.
	Meta expdir.Meta
	// CriteriaText is the criteria file as read; empty when it is
	// missing, in which case Criteria are judge.DefaultCriteria.
	CriteriaText string
	Criteria     judge.Criteria
	// Runs are the runs of runs.jsonl, in file order.
	Runs []expdir.Run
	// Calibrated is true when calibration.jsonl exists; Calibration holds
	// its runs (A/A: the same build on both sides).
	Calibrated  bool
	Calibration []expdir.Run
	// Failures are the runs that failed, in file order.
	Failures []Failure
	// NativeProcesses is, per run, how many fresh native (perf) processes
	// recorded a fastest region (runs.jsonl's measurements with
	// floor_ns_per_op); runs from before it was recorded have none.
	NativeProcesses map[CellRef]int
	// LoadAvgs are the machine's 1-minute load averages recorded by timed
	// measurements of servers under load, in file order; none for other
	// suites.
	LoadAvgs []float64
	// Report is the judgement of Runs against Criteria and Calibration.
	Report judge.Report
	// Moves are the workloads whose instruction count moved, by workload
	// name, with the functions that moved it when profiles are present.
	Moves []Move
	// Warnings are problems with the files that did not stop the note: a
	// line that does not parse (file:line), an interrupted last line.
	Warnings []error
}

// Failure is a run that exited with a non-zero status or gave no result.
type Failure struct {
	Run expdir.Run
	// Error is the harness's reason, when it recorded one (runs.jsonl's
	// "error" field).
	Error string
}

// CellRef names one run: a workload's side in a pair.
type CellRef struct {
	Workload string
	Pair     int
	Side     string
}

// Load reads the experiment in dir: meta.json (required), runs.jsonl
// (required, at least one run), the criteria file, calibration.jsonl and
// the profiles of the workloads whose instruction count moved. It judges
// the runs with judge.Judge and default options (with the sequential rule
// when the experiment gave undecided workloads more pairs: judge.Looks from
// meta.json's pairs and max_pairs). All the note's I/O happens here: Write
// and Plot only format what Load read.
func Load(dir string) (*Experiment, error) {
	e, err := Judge(dir)
	if err != nil {
		return nil, err
	}
	e.Moves = findMoves(expdir.Dir(dir), e.Report)
	return e, nil
}

// Judge is Load without the profiles: it reads and judges the experiment
// in dir, as the pairs runner does between its extensions.
func Judge(dir string) (*Experiment, error) {
	d := expdir.Dir(dir)
	meta, err := d.Meta()
	if err != nil {
		return nil, err
	}
	e := &Experiment{Name: cmp.Or(meta.Experiment, d.Name()), Meta: meta}

	// 1. The runs. Bad lines are warnings; no run at all is an error.
	lines, warns, err := d.Runs()
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s not found: run `just pairs before=%s after=%s` to measure, then `just note exp=%s`: %w",
			d.Path(expdir.RunsFile), orUnknown(meta.Before.Revision), orUnknown(meta.After.Revision), e.Name, ErrNoRuns)
	}
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s holds no run: was `just pairs` interrupted before the first run finished? %w", d.Path(expdir.RunsFile), ErrNoRuns)
	}
	e.Warnings = append(e.Warnings, warns...)
	for _, l := range lines {
		e.Runs = append(e.Runs, l.Run)
		for _, m := range l.Measurements {
			if m.LoadAvg1 != nil {
				e.LoadAvgs = append(e.LoadAvgs, *m.LoadAvg1)
			}
			if m.Backend == "perf" && m.FloorNsPerOp > 0 {
				if e.NativeProcesses == nil {
					e.NativeProcesses = map[CellRef]int{}
				}
				e.NativeProcesses[CellRef{l.Workload, l.Pair, l.Side}]++
			}
		}
		if l.ExitCode != 0 || l.Error != "" {
			e.Failures = append(e.Failures, Failure{Run: l.Run, Error: l.Error})
		}
	}

	// 2. The criteria: the file as written, or the defaults when there is
	// none. A bad line is an error: a verdict against criteria the author
	// did not write would mislead.
	e.Criteria = judge.DefaultCriteria
	text, ok, err := d.Criteria()
	switch {
	case err != nil:
		return nil, err
	case !ok:
		e.Warnings = append(e.Warnings, fmt.Errorf("%s not found: judged against the default criteria", expdir.CriteriaFile))
	default:
		e.CriteriaText = text
		c, err := judge.ParseCriteria(strings.NewReader(text), expdir.CriteriaFile)
		if err != nil {
			return nil, fmt.Errorf("%s: %w\nfix the criteria file, then run `just note exp=%s`", dir, err, e.Name)
		}
		e.Criteria = c
	}

	// 3. The A/A calibration runs, when there are some.
	cal, warns, ok, err := d.Calibration()
	switch {
	case err != nil:
		return nil, err
	case ok:
		e.Calibrated = true
		e.Warnings = append(e.Warnings, warns...)
		for _, l := range cal {
			e.Calibration = append(e.Calibration, l.Run)
		}
	}

	// 4. The judgement, with the sequential rule the experiment was judged
	// by when it ran.
	looks := judge.Looks{First: meta.Pairs, Last: meta.MaxPairs}
	switch meta.LooksBudget {
	case expdir.LooksNominal:
	case "":
		looks.AtBound = true
	default:
		return nil, fmt.Errorf("%s: meta.json's looks_budget %q is not a rule this harness knows (%q, or none for experiments before 2026-12-07): judge it with the harness that ran it", dir, meta.LooksBudget, expdir.LooksNominal)
	}
	opts := judge.Options{Looks: looks}
	e.Report = judge.Judge(e.Runs, e.Criteria, e.Calibration, opts)
	return e, nil
}

// orUnknown returns s, or "?" when it is empty.
func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}
