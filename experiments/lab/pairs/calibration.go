package pairs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"workbench/experiments/lab/record"
)

// CalibrationFile is the file of an experiment directory that holds the
// A/A calibration runs it is judged with: a copy, made when the experiment
// started, of the calibration of its before commit and suite.
const CalibrationFile = "calibration.jsonl"

// CalibrationOrigin says where an experiment's calibration.jsonl came from.
type CalibrationOrigin struct {
	// Path is the calibration file it was copied from.
	Path string `json:"path"`
	// Commit and Suite are the commit and suite the calibration measured.
	Commit string `json:"commit"`
	Suite  string `json:"suite"`
	// Experiment is the A/A experiment that recorded the runs, as its runs
	// name it.
	Experiment string `json:"experiment,omitempty"`
	// Runs is the number of runs copied.
	Runs int `json:"runs"`
}

// CalibrationPath returns the calibration file of commit and suite in dir:
// dir/<full commit hash>-<suite>.jsonl, where suite is the suite's name
// (Suite.Name: its file name without ".suite", whether it was named or given
// by path).
func CalibrationPath(dir, commit, suite string) string {
	return filepath.Join(dir, commit+"-"+suite+".jsonl")
}

// Records returns the run records of lines, in order.
func Records(lines []Line) []record.Run {
	runs := make([]record.Run, len(lines))
	for i := range lines {
		runs[i] = lines[i].Run
	}
	return runs
}

// ReadRecords reads a runs.jsonl (or calibration.jsonl) file as run
// records. A partial last line, the trace of an interrupted write, is left
// out.
func ReadRecords(path string) ([]record.Run, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	lines, _, err := ReadRuns(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return Records(lines), nil
}

// ReadCalibration returns the calibration runs of an experiment directory:
// its calibration.jsonl, or nil when it has none. They are judge.Judge's
// calib argument.
func ReadCalibration(expDir string) ([]record.Run, error) {
	runs, err := ReadRecords(filepath.Join(expDir, CalibrationFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return runs, err
}

// copyCalibration copies the calibration of commit and suite from dir, if
// there is one, into expDir as CalibrationFile and says where it came from;
// nil when there is none.
func copyCalibration(dir, commit, suite, expDir string) (*CalibrationOrigin, error) {
	src := CalibrationPath(dir, commit, suite)
	b, err := os.ReadFile(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("calibration: %w", err)
	}
	runs, err := ReadRecords(src)
	if err != nil {
		return nil, fmt.Errorf("calibration: %w", err)
	}
	if len(runs) == 0 {
		return nil, nil
	}
	if err := writeFileAtomic(filepath.Join(expDir, CalibrationFile), b); err != nil {
		return nil, fmt.Errorf("calibration: %w", err)
	}
	return &CalibrationOrigin{Path: src, Commit: commit, Suite: suite, Experiment: runs[0].Experiment, Runs: len(runs)}, nil
}

// saveCalibration stores the runs of a completed A/A experiment as the
// calibration of commit and suite in dir, replacing an older one, and
// returns the file's path. The file is written under a temporary name and
// renamed, so readers see the old calibration or the new one, whole.
func saveCalibration(runsPath, dir, commit, suite string) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("saving calibration: %w", err)
	}
	dst := CalibrationPath(dir, commit, suite)
	in, err := os.Open(runsPath)
	if err != nil {
		return "", fmt.Errorf("saving calibration: %w", err)
	}
	defer in.Close()
	tmp, err := os.CreateTemp(dir, ".calibration-*.tmp")
	if err != nil {
		return "", fmt.Errorf("saving calibration: %w", err)
	}
	defer os.Remove(tmp.Name()) // fails harmlessly after the rename
	_, err = io.Copy(tmp, in)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), dst)
	}
	if err != nil {
		return "", fmt.Errorf("saving calibration to %s: %w", dst, err)
	}
	return dst, nil
}
