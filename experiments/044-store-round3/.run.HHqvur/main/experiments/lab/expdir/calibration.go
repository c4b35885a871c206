package expdir

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// CalibrationPath returns the calibration file of commit and suite in dir:
// dir/<full commit hash>-<suite>.jsonl, where suite is the suite's name
// (the suite's name: its file name without ".suite", whether it was named or given
// by path).
func CalibrationPath(dir, commit, suite string) string {
	return filepath.Join(dir, commit+"-"+suite+".jsonl")
}

// Records returns the run records of lines, in order.
func Records(lines []Line) []Run {
	runs := make([]Run, len(lines))
	for i := range lines {
		runs[i] = lines[i].Run
	}
	return runs
}

// ReadRecords reads a runs.jsonl (or calibration.jsonl) file as run
// records. A partial last line, the trace of an interrupted write, is left
// out.
func ReadRecords(path string) ([]Run, error) {
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
func ReadCalibration(d Dir) ([]Run, error) {
	runs, err := ReadRecords(d.Path(CalibrationFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	return runs, err
}

// CopyCalibration copies the calibration of commit and suite from the
// store dir, if there is one, into expDir as CalibrationFile and says where
// it came from; nil when there is none.
func CopyCalibration(dir, commit, suite string, expDir Dir) (*CalibrationOrigin, error) {
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
	if err := WriteFileAtomic(expDir.Path(CalibrationFile), b); err != nil {
		return nil, fmt.Errorf("calibration: %w", err)
	}
	return &CalibrationOrigin{Path: src, Commit: commit, Suite: suite, Experiment: runs[0].Experiment, Runs: len(runs)}, nil
}

// SaveCalibration stores the runs of a completed A/A experiment as the
// calibration of commit and suite in dir, replacing an older one, and
// returns the file's path. The file is written under a temporary name and
// renamed, so readers see the old calibration or the new one, whole.
func SaveCalibration(runsPath, dir, commit, suite string) (string, error) {
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
