//go:build !linux

package perfcount

import "os/exec"

// Region counts events around a function; on this operating system every
// call returns ErrUnsupported.
type Region struct{}

// NewRegion returns ErrUnsupported: perf_event and callgrind need Linux.
func NewRegion(backend Backend, events []Event) (*Region, error) { return nil, ErrUnsupported }

// Measure returns ErrUnsupported.
func (r *Region) Measure(fn func()) error { return ErrUnsupported }

// Counts returns nil.
func (r *Region) Counts() []Count { return nil }

// Close does nothing.
func (r *Region) Close() error { return nil }

// CountCommand returns ErrUnsupported on this operating system.
func CountCommand(backend Backend, events []Event, cmd *exec.Cmd) (*Result, error) {
	return nil, ErrUnsupported
}
