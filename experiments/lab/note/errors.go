package note

import "errors"

// Errors of Load, to be tested with errors.Is. The errors returned wrap them
// with the path concerned and what to run.
var (
	// ErrNotExperiment reports a directory without the meta.json that
	// `just pairs` writes first.
	ErrNotExperiment = errors.New("not an experiment directory")
	// ErrNoRuns reports an experiment without a single readable run.
	ErrNoRuns = errors.New("no runs")
)
