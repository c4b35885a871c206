package expdir

import (
	"time"

	"workbench/perfcount"
)

// SchemaVersion is the version of the run record written by this package.
// It changes whenever a field changes meaning or is removed; adding a field
// does not change it. docs/records.md documents every version.
const SchemaVersion = 1

// Run is one run of one workload on one side of one pair: one JSON line in an
// experiment's runs.jsonl.
type Run struct {
	Schema     int    `json:"schema"`
	Experiment string `json:"experiment"`
	Suite      string `json:"suite"`
	Workload   string `json:"workload"`
	// Side is "before" or "after".
	Side     string `json:"side"`
	Revision string `json:"revision"` // as the user named it, e.g. HEAD~1
	Commit   string `json:"commit"`   // full hash it resolved to
	// Pair numbers pairs from 1; Position is 1 or 2, the side's place in it.
	Pair     int       `json:"pair"`
	Position int       `json:"position"`
	Start    time.Time `json:"start"`
	// Wall is the run's elapsed time.
	Wall time.Duration `json:"wall_ns"`
	// Ops is how many operations the run measured.
	Ops     int64             `json:"ops"`
	Metrics Metrics           `json:"metrics"`
	Counts  []Count           `json:"counts"`
	Machine perfcount.Machine `json:"machine"`
	// ExitCode is the subject's exit status; StderrTail the end of its stderr
	// when it failed.
	ExitCode   int    `json:"exit_code"`
	StderrTail string `json:"stderr_tail,omitempty"`
}

// Metrics are the timed measurements of a run. Fields a workload does not
// produce are zero and omitted.
type Metrics struct {
	// Throughput is operations (or successful responses) per second.
	Throughput float64 `json:"throughput,omitempty"`
	// CPUPerOp is CPU seconds per operation: the measured region's thread
	// CPU time for in-process workloads, user+system of all threads for
	// servers.
	CPUPerOp float64 `json:"cpu_per_op_s,omitempty"`
	// CPUShare is CPU seconds over wall seconds of the subject.
	CPUShare float64 `json:"cpu_share,omitempty"`
	P50      float64 `json:"p50_s,omitempty"`
	P99      float64 `json:"p99_s,omitempty"`
	// PeakRSS is the subject's peak resident set in bytes.
	PeakRSS int64 `json:"peak_rss_bytes,omitempty"`
	// PairedTime, for runs whose regions took turns with the other side's
	// (pure-count run --gate), is this side's time per operation over the
	// geometric mean of both sides', from the regions of the two sides
	// that ran next to each other: the after run's over the before run's is
	// the interquartile geometric mean of the region-by-region ratios. For
	// an HTTP workload it is the same of server CPU per 2xx, from the
	// median of the ratios of the two sides' k-th windows.
	PairedTime float64 `json:"paired_time,omitempty"`
	// BytesPerOp and AllocsPerOp are, for a Go benchmark, the testing
	// package's B/op and allocs/op (-test.benchmem), the median of the
	// run's results; nil when it did not report them.
	BytesPerOp  *float64 `json:"bytes_per_op,omitempty"`
	AllocsPerOp *float64 `json:"allocs_per_op,omitempty"`
}

// Count is one event's count per operation in a run.
type Count struct {
	Event string `json:"event"`
	// Value is the count for the whole run; PerOp is Value/Ops.
	Value       float64          `json:"value"`
	PerOp       float64          `json:"per_op"`
	Source      perfcount.Source `json:"source"`
	Multiplexed bool             `json:"multiplexed"`
}
