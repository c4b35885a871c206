//go:build linux

package perfcount

import (
	"fmt"
	"runtime"

	"golang.org/x/sys/unix"
)

// Region counts events around a function on the calling OS thread.
//
// NewRegion locks the calling goroutine to its OS thread and opens the
// counters on that thread; Measure, Counts and Close must be called from the
// same goroutine, and Close unlocks it. Only what runs on that thread between
// Measure's enable and disable is counted: fn itself, plus the few
// instructions of the two system calls around it (BenchmarkRegionEmpty
// reports that overhead). A Region is not safe for concurrent use.
//
// With BackendCallgrind no perf counter is opened: Measure runs fn inside the
// marker function that callgrind toggles collection on, then asks callgrind to
// dump its counts and reads them back (see Callgrind).
type Region struct {
	backend Backend
	g       *group
	tid     int
	cg      *callgrindState
	counts  []Count
	closed  bool
}

// NewRegion opens a region for events on the calling thread. With
// BackendCallgrind the only event is "instructions" (callgrind's Ir); others
// are refused.
func NewRegion(backend Backend, events []Event) (*Region, error) {
	r := &Region{backend: backend}
	switch backend {
	case BackendPerf:
		runtime.LockOSThread()
		g, err := openGroup(events, 0, modeThread)
		if err != nil {
			runtime.UnlockOSThread()
			return nil, err
		}
		r.g, r.tid = g, unix.Gettid()
		r.counts = g.counts
	case BackendCallgrind:
		st, err := newCallgrindState(events)
		if err != nil {
			return nil, err
		}
		runtime.LockOSThread()
		r.cg, r.tid = st, unix.Gettid()
		r.counts = st.counts
	default:
		return nil, fmt.Errorf("unknown backend %q: use perf or callgrind", backend)
	}
	return r, nil
}

// Measure resets the counters, counts fn, and reads the values, which
// Counts then returns. With BackendPerf it makes no allocations.
func (r *Region) Measure(fn func()) error {
	if r.closed {
		return ErrClosed
	}
	if unix.Gettid() != r.tid {
		return ErrWrongThread
	}
	if r.cg != nil {
		return r.cg.measure(fn)
	}
	if err := r.g.ioctl(iocReset); err != nil {
		return err
	}
	if err := r.g.ioctl(iocEnable); err != nil {
		return err
	}
	fn()
	if err := r.g.ioctl(iocDisable); err != nil {
		return err
	}
	return r.g.read()
}

// Counts returns the values of the last Measure, one per event in the order
// they were given. The slice is reused by the next Measure: copy it to keep it.
func (r *Region) Counts() []Count { return r.counts }

// KeepCallgrindDump makes the callgrind backend keep the dump of each
// Measure at path (the last one wins) instead of deleting it, so that it can
// be turned into a profile. With the perf backend it does nothing.
func (r *Region) KeepCallgrindDump(path string) {
	if r.cg != nil {
		r.cg.keep = path
	}
}

// Close releases the counters and unlocks the goroutine from its thread.
// Closing twice is a no-op.
func (r *Region) Close() error {
	if r.closed {
		return nil
	}
	r.closed = true
	runtime.UnlockOSThread()
	if r.g != nil {
		return r.g.close()
	}
	return nil
}
