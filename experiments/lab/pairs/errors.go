package pairs

import (
	"errors"
	"fmt"
)

// Errors returned by Run, grouped by phase. Callers test them with errors.Is.
var (
	// ErrRunsExist is returned when the experiment already has recorded runs
	// and resume was not asked for.
	ErrRunsExist = errors.New("experiment already has runs")
	// ErrMetaMismatch is returned when resuming an experiment whose meta.json
	// names other commits than the ones asked for.
	ErrMetaMismatch = errors.New("experiment was started for other commits")
)

// Errors returned by Bisect.
var (
	// ErrNoRise is returned when the count at bad is not above the
	// threshold over the count at good: there is nothing to bisect.
	ErrNoRise = errors.New("no rise to bisect")
)

// ParseError is a problem at one line of a suite file.
type ParseError struct {
	File string
	Line int
	Err  error
}

// Error returns "file:line: problem".
func (e *ParseError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }

// Unwrap returns the underlying problem.
func (e *ParseError) Unwrap() error { return e.Err }

// BuildError is a failed build of one side's subject binaries.
type BuildError struct {
	Side     Side
	Revision string
	Commit   string
	// StderrTail is the end of the go build output.
	StderrTail string
	Err        error
}

// Error names the side, revision and commit, and quotes the build's output.
func (e *BuildError) Error() string {
	return fmt.Sprintf("building %s (revision %s, commit %s) failed: %v\n%s",
		e.Side, e.Revision, e.Commit, e.Err, e.StderrTail)
}

// Unwrap returns the underlying error.
func (e *BuildError) Unwrap() error { return e.Err }
