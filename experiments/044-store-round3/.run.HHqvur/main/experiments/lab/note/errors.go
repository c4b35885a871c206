package note

import "workbench/experiments/lab/expdir"

// Errors of Load, to be tested with errors.Is. The errors returned wrap them
// with the path concerned and what to run.
var (
	// ErrNotExperiment reports a directory without the meta.json that
	// `just pairs` writes first.
	ErrNotExperiment = expdir.ErrNotExperiment
	// ErrNoRuns reports an experiment without a single readable run.
	ErrNoRuns = expdir.ErrNoRuns
)
