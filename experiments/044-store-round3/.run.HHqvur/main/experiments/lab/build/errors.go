package build

import "fmt"

// BuildError is a failed build of one side's subject binaries.
type BuildError struct {
	Side     string
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
