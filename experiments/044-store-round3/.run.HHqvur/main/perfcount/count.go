package perfcount

import "time"

// Source names the instrument that produced a count. Counts from different
// sources are different measurements and are never compared with each other.
type Source string

const (
	// SourcePerf marks counts read from the kernel's perf_event interface.
	SourcePerf Source = "perf"
	// SourceCallgrind marks counts simulated by valgrind's callgrind tool
	// (event Ir: instructions executed).
	SourceCallgrind Source = "callgrind"
)

// SourceQemu is the source of counts read from qemu-user's execution log
// of a guest built for arch (a GOARCH), "qemu-arm64" for example
// (perfcount/qemutrace). Counts of different guest architectures are
// different sources too.
func SourceQemu(arch string) Source { return Source("qemu-" + arch) }

// Count is the value of one event over one measurement.
type Count struct {
	// Event is the event as the user spelled it, for example "instructions:u".
	Event string `json:"event"`
	// Value is the number of events counted. It is never scaled.
	Value uint64 `json:"value"`
	// Source is the instrument that counted it.
	Source Source `json:"source"`
	// Enabled and Running are how long the counter was enabled and how long it
	// was actually counting on a hardware counter. Both are zero for callgrind.
	Enabled time.Duration `json:"enabled_ns,omitempty"`
	Running time.Duration `json:"running_ns,omitempty"`
	// Multiplexed is true when the counter ran for less time than it was
	// enabled, because the kernel time-shared the hardware counters. Value then
	// covers only part of the measurement; it is reported as counted and never
	// silently scaled up.
	Multiplexed bool `json:"multiplexed"`
}

// Rusage is the resource use of a finished child process and its reaped
// descendants.
type Rusage struct {
	User   time.Duration `json:"user_ns"`
	System time.Duration `json:"system_ns"`
	// MaxRSS is the peak resident set size in bytes.
	MaxRSS int64 `json:"max_rss_bytes"`
}

// Result is one measurement: the counts of its events, taken together, with
// the machine they were taken on.
type Result struct {
	Counts  []Count `json:"counts"`
	Machine Machine `json:"machine"`
	// Wall is the elapsed time of the measured command. Zero for regions.
	Wall time.Duration `json:"wall_ns,omitempty"`
	// Rusage is set for command measurements only.
	Rusage *Rusage `json:"rusage,omitempty"`
	// ExitCode is the command's exit status (command measurements only);
	// -1 when it was ended by a signal.
	ExitCode int `json:"exit_code"`
}

// Lookup returns the count of the named event and whether it is present.
func (r *Result) Lookup(event string) (Count, bool) {
	for _, c := range r.Counts {
		if c.Event == event {
			return c, true
		}
	}
	return Count{}, false
}
