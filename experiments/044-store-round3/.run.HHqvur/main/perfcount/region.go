package perfcount

import "fmt"

// Backend names how counts are taken.
type Backend string

const (
	// BackendPerf counts with the kernel's perf_event interface: hardware
	// events need a PMU, software events work everywhere on Linux.
	BackendPerf Backend = "perf"
	// BackendCallgrind counts instructions (event Ir) by simulation; the
	// process must run under valgrind --tool=callgrind (see Callgrind).
	BackendCallgrind Backend = "callgrind"
)

// ParseBackend accepts "perf" or "callgrind".
func ParseBackend(s string) (Backend, error) {
	switch Backend(s) {
	case BackendPerf, BackendCallgrind:
		return Backend(s), nil
	}
	return "", fmt.Errorf("unknown backend %q: use perf or callgrind", s)
}
