package suite

import "fmt"

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
