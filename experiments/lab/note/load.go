package note

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"workbench/experiments/lab/judge"
	"workbench/experiments/lab/record"
)

// Files of an experiment directory. `just pairs` writes the first three;
// CalibrationFile and the profiles are optional; Render writes NoteFile and
// PlotFile.
const (
	RunsFile        = "runs.jsonl"
	MetaFile        = "meta.json"
	CriteriaFile    = "criteria"
	CalibrationFile = "calibration.jsonl"
	// ProfilesDir holds callgrind-derived pprof profiles, two per
	// workload: W.before.pb.gz and W.after.pb.gz.
	ProfilesDir = "profiles"
	NoteFile    = "note.md"
	PlotFile    = "ratios.png"
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
	Meta Meta
	// CriteriaText is the criteria file as read; empty when it is
	// missing, in which case Criteria are judge.DefaultCriteria.
	CriteriaText string
	Criteria     judge.Criteria
	// Runs are the runs of runs.jsonl, in file order.
	Runs []record.Run
	// Calibrated is true when calibration.jsonl exists; Calibration holds
	// its runs (A/A: the same build on both sides).
	Calibrated  bool
	Calibration []record.Run
	// Failures are the runs that failed, in file order.
	Failures []Failure
	// NativeProcesses is, per run, how many fresh native (perf) processes
	// recorded a fastest region (runs.jsonl's measurements with
	// floor_ns_per_op); runs from before it was recorded have none.
	NativeProcesses map[CellRef]int
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
	Run record.Run
	// Error is the harness's reason, when it recorded one (runs.jsonl's
	// "error" field).
	Error string
}

// runLine is what the note reads of a runs.jsonl line: the record, the
// harness's error and its measurements' backends and floors. Other fields
// are ignored.
type runLine struct {
	record.Run
	Error        string `json:"error,omitempty"`
	Measurements []struct {
		Backend      string  `json:"backend"`
		FloorNsPerOp float64 `json:"floor_ns_per_op"`
	} `json:"measurements,omitempty"`
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
// the runs with judge.Judge and default options. All the note's I/O
// happens here: Write and Plot only format what Load read.
func Load(dir string) (*Experiment, error) {
	meta, err := readMeta(dir)
	if err != nil {
		return nil, err
	}
	e := &Experiment{Name: meta.Experiment, Meta: meta}
	if e.Name == "" {
		e.Name = filepath.Base(filepath.Clean(dir))
	}

	// 1. The runs. Bad lines are warnings; no run at all is an error.
	lines, warns, err := readRuns(filepath.Join(dir, RunsFile), RunsFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s not found: run `just pairs before=%s after=%s` to measure, then `just note exp=%s`: %w",
			filepath.Join(dir, RunsFile), orUnknown(meta.Before.Revision), orUnknown(meta.After.Revision), e.Name, ErrNoRuns)
	}
	if err != nil {
		return nil, err
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("%s holds no run: was `just pairs` interrupted before the first run finished? %w", filepath.Join(dir, RunsFile), ErrNoRuns)
	}
	e.Warnings = append(e.Warnings, warns...)
	for _, l := range lines {
		e.Runs = append(e.Runs, l.Run)
		for _, m := range l.Measurements {
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
	b, err := os.ReadFile(filepath.Join(dir, CriteriaFile))
	switch {
	case errors.Is(err, os.ErrNotExist):
		e.Warnings = append(e.Warnings, fmt.Errorf("%s not found: judged against the default criteria", CriteriaFile))
	case err != nil:
		return nil, err
	default:
		e.CriteriaText = string(b)
		c, err := judge.ParseCriteria(bytes.NewReader(b), CriteriaFile)
		if err != nil {
			return nil, fmt.Errorf("%s: %w\nfix the criteria file, then run `just note exp=%s`", dir, err, e.Name)
		}
		e.Criteria = c
	}

	// 3. The A/A calibration runs, when there are some.
	cal, warns, err := readRuns(filepath.Join(dir, CalibrationFile), CalibrationFile)
	switch {
	case errors.Is(err, os.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		e.Calibrated = true
		e.Warnings = append(e.Warnings, warns...)
		for _, l := range cal {
			e.Calibration = append(e.Calibration, l.Run)
		}
	}

	// 4. The judgement, and where the instructions moved.
	e.Report = judge.Judge(e.Runs, e.Criteria, e.Calibration, judge.Options{})
	e.Moves = findMoves(dir, e.Report)
	return e, nil
}

// readRuns reads a JSONL file of runs; name is how warnings call it. A line
// that does not parse is a warning with its line number, and reading goes
// on. A last line without its newline is the trace of an interrupted write:
// it is left out with a warning.
func readRuns(path, name string) ([]runLine, []error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var out []runLine
	var warns []error
	br := bufio.NewReader(f)
	for n := 1; ; n++ {
		b, err := br.ReadBytes('\n')
		if errors.Is(err, io.EOF) {
			if len(bytes.TrimSpace(b)) > 0 {
				warns = append(warns, fmt.Errorf("%s:%d: last line has no newline (interrupted write?): left out", name, n))
			}
			return out, warns, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %w", path, err)
		}
		if len(bytes.TrimSpace(b)) == 0 {
			continue
		}
		var l runLine
		if err := json.Unmarshal(b, &l); err != nil {
			warns = append(warns, fmt.Errorf("%s:%d: %v: line left out", name, n, err))
			continue
		}
		out = append(out, l)
	}
}

// orUnknown returns s, or "?" when it is empty.
func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}
