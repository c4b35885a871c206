package expdir

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Files of an experiment directory. `just pairs` writes the first three
// (and CalibrationFile and the profiles when it has them); the note writes
// NoteFile and PlotFile, the export ExportFile.
const (
	RunsFile     = "runs.jsonl"
	MetaFile     = "meta.json"
	CriteriaFile = "criteria"
	// CalibrationFile holds the A/A calibration runs the experiment is
	// judged with: a copy, made when the experiment started, of the
	// calibration of its before commit and suite.
	CalibrationFile = "calibration.jsonl"
	// ProfilesDir holds callgrind-derived pprof profiles, two per
	// workload (ProfilePath), and while the experiment runs the raw
	// callgrind dumps of pair 1 (RawProfileDir).
	ProfilesDir = "profiles"
	NoteFile    = "note.md"
	PlotFile    = "ratios.png"
	ExportFile  = "bench.txt"
)

var (
	// ErrNotExperiment reports a directory without the meta.json that
	// `just pairs` writes.
	ErrNotExperiment = errors.New("not an experiment directory")
	// ErrNoRuns reports an experiment without a single readable run.
	ErrNoRuns = errors.New("no runs")
)

// Dir is an experiment directory.
type Dir string

// Path returns the path of the file name in d.
func (d Dir) Path(name string) string { return filepath.Join(string(d), name) }

// Name returns the directory's base name, the experiment's default name.
func (d Dir) Name() string { return filepath.Base(filepath.Clean(string(d))) }

// ProfilePath returns the pprof profile of workload on side ("before" or
// "after"), relative to the directory: profiles/W.before.pb.gz.
func ProfilePath(workload, side string) string {
	return filepath.Join(ProfilesDir, FileName(workload)+"."+side+".pb.gz")
}

// RawProfileDir is where the callgrind measurements of one side keep their
// dumps while the experiment runs (only pair 1 keeps them). The two sides'
// directories have names of the same length, so both sides' argv stay the
// same size.
func (d Dir) RawProfileDir(side string) string {
	s := "b"
	if side == "after" {
		s = "a"
	}
	return filepath.Join(string(d), ProfilesDir, "raw", s)
}

// Meta reads meta.json. A missing file is an error wrapping
// ErrNotExperiment that says how an experiment directory is made.
func (d Dir) Meta() (Meta, error) {
	path := d.Path(MetaFile)
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return Meta{}, fmt.Errorf("%s not found: %s is not an experiment directory; run `just pairs before=<rev> after=<rev>` to make one: %w", path, d, ErrNotExperiment)
	}
	if err != nil {
		return Meta{}, err
	}
	var m Meta
	if err := json.Unmarshal(b, &m); err != nil {
		return Meta{}, fmt.Errorf("%s: %w (is it the meta.json that `just pairs` wrote?)", path, err)
	}
	return m, nil
}

// WriteMeta writes m to meta.json, atomically.
func (d Dir) WriteMeta(m *Meta) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(d.Path(MetaFile), append(b, '\n'))
}

// Criteria returns the criteria file's text; ok is false when there is
// none.
func (d Dir) Criteria() (text string, ok bool, err error) {
	b, err := os.ReadFile(d.Path(CriteriaFile))
	if errors.Is(err, os.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, err
	}
	return string(b), true, nil
}

// Runs reads runs.jsonl leniently, as the note does: a line that does not
// parse is a warning with its line number, and reading goes on; a last line
// without its newline, the trace of an interrupted write, is left out with
// a warning. A missing file is an error wrapping os.ErrNotExist.
func (d Dir) Runs() ([]Line, []error, error) {
	return readLines(d.Path(RunsFile), RunsFile)
}

// Calibration reads calibration.jsonl leniently, like Runs; ok is false
// when the experiment has none.
func (d Dir) Calibration() (lines []Line, warnings []error, ok bool, err error) {
	lines, warnings, err = readLines(d.Path(CalibrationFile), CalibrationFile)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, false, nil
	}
	return lines, warnings, err == nil, err
}

// readLines reads a JSONL file of runs leniently; name is how warnings
// call it.
func readLines(path, name string) ([]Line, []error, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	var out []Line
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
		var l Line
		if err := json.Unmarshal(b, &l); err != nil {
			warns = append(warns, fmt.Errorf("%s:%d: %v: line left out", name, n, err))
			continue
		}
		out = append(out, l)
	}
}

// WriteFileAtomic writes data to path through a temporary file, synced to
// disk, and a rename: readers see the old file or the new one, whole.
func WriteFileAtomic(path string, data []byte) error {
	tmp := path + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
