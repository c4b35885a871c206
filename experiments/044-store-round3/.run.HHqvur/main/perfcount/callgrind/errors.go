package callgrind

import (
	"errors"
	"fmt"
)

// Errors returned by the parser, the total helpers and the converter.
// Parse errors are *SyntaxError values that wrap one of the parse
// sentinels, so callers can test with errors.Is.
var (
	// ErrNoEvents reports a file, or a part of one, that has cost lines or
	// ends without an "events:" header line: it is not a callgrind file, or
	// it is truncated before its header ends.
	ErrNoEvents = errors.New("no events: header line (not a callgrind output file, or truncated?)")

	// ErrSyntax reports a line that does not follow the callgrind format.
	ErrSyntax = errors.New("callgrind syntax error")

	// ErrTruncated reports a file that ends in the middle of a record, such
	// as a calls= line without the cost line that must follow it.
	ErrTruncated = errors.New("callgrind file truncated")

	// ErrOverflow reports a cost or a sum of costs that does not fit the
	// 64-bit counter (or, for pprof, the signed 64-bit sample value).
	ErrOverflow = errors.New("cost overflows 64 bits")

	// ErrUnknownEvent reports an event name that the profile does not have.
	ErrUnknownEvent = errors.New("unknown event")

	// ErrTotalMismatch reports a totals:/summary: line that differs from
	// the sum of the self costs in the same part.
	ErrTotalMismatch = errors.New("callgrind total differs from the sum of self costs")
)

// SyntaxError is a parse error at one line of a callgrind file. It says
// what the parser expected and unwraps to ErrSyntax, ErrTruncated,
// ErrNoEvents or ErrOverflow.
type SyntaxError struct {
	File string // file name, empty when parsing a reader
	Line int    // 1-based line number; for truncation, the last line read
	Text string // the offending line, shortened to at most 80 bytes
	Msg  string // what was wrong and what was expected
	Err  error  // the sentinel it wraps
}

// Error formats the error as "file:line: msg: text".
func (e *SyntaxError) Error() string {
	where := fmt.Sprintf("line %d", e.Line)
	if e.File != "" {
		where = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Text == "" {
		return fmt.Sprintf("callgrind: %s: %s", where, e.Msg)
	}
	return fmt.Sprintf("callgrind: %s: %s: %q", where, e.Msg, e.Text)
}

// Unwrap returns the sentinel error that classifies e.
func (e *SyntaxError) Unwrap() error { return e.Err }

// shorten cuts s to at most 80 bytes for an error message.
func shorten(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	return s[:max] + "..."
}
