package perfcount

import "errors"

// Errors returned by the counter, grouped by phase. They are wrapped with
// details (the event, the errno, what to do); test for them with errors.Is.
var (
	// Parsing an event list.

	// ErrUnknownEvent means an event name is neither a generic event, a raw
	// event (rNNNN) nor an event listed by a PMU under
	// /sys/bus/event_source/devices/*/events.
	ErrUnknownEvent = errors.New("unknown event")

	// Opening counters.

	// ErrUnsupported means this operating system or kernel has no perf_event
	// interface. Every call on a non-Linux system returns it.
	ErrUnsupported = errors.New("perf_event counting is not supported here")
	// ErrNoPMU means the kernel has no hardware performance monitoring unit
	// to count the event with: typical of virtual machines and of some ARM
	// board kernels. Use the callgrind backend instead.
	ErrNoPMU = errors.New("no hardware PMU")
	// ErrPermission means /proc/sys/kernel/perf_event_paranoid (or a missing
	// CAP_PERFMON) forbids the requested counting.
	ErrPermission = errors.New("counting not permitted")

	// Measuring.

	// ErrWrongThread means a Region was used from another OS thread than
	// the one it was opened on (it must stay on the goroutine that made it).
	ErrWrongThread = errors.New("region used from another thread than the one it was opened on")
	// ErrClosed means the Region or counter has been closed.
	ErrClosed = errors.New("counter closed")
	// ErrNotUnderCallgrind means the callgrind backend was asked for in a
	// process that is not running under valgrind --tool=callgrind.
	ErrNotUnderCallgrind = errors.New("not running under callgrind")
)
