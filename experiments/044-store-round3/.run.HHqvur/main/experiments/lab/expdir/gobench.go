package expdir

import (
	"net/url"
)

// GoBenchMeta describes an experiment on the Go benchmarks of another
// module (pure-pairs run --repo or --module; package gobench): where the
// two sides came from, which benchmarks each had, and how they were run.
type GoBenchMeta struct {
	// Repo is the git repository whose commits the sides are, or Module
	// the module path whose versions they are (one of the two is set).
	Repo   string `json:"repo,omitempty"`
	Module string `json:"module,omitempty"`
	// Pkg is the package pattern given to go list, Bench the benchmark
	// pattern (Go's -test.bench syntax) that selected the benchmarks.
	Pkg   string `json:"pkg"`
	Bench string `json:"bench"`
	// Benchmarks are the benchmarks judged: present on both sides, probed
	// on both without failing.
	Benchmarks []GoBenchmark `json:"benchmarks"`
	// OnlyBefore and OnlyAfter are the full names of the benchmarks found
	// on one side only: listed, not judged.
	OnlyBefore []string `json:"only_before,omitempty"`
	OnlyAfter  []string `json:"only_after,omitempty"`
	// Failed are the benchmarks whose probe failed on a side: not judged.
	Failed []GoBenchFailure `json:"failed,omitempty"`
	// Instructions says how instructions per op are counted, and
	// CriteriaNote how the criteria were chosen.
	Instructions string `json:"instructions"`
	CriteriaNote string `json:"criteria_note,omitempty"`
}

// A GoBenchmark is one benchmark an experiment judges, as a workload.
type GoBenchmark struct {
	// Workload is its workload name; Package its package's import path;
	// Name its full name, e.g. BenchmarkParse/small.
	Workload string `json:"workload"`
	Package  string `json:"package"`
	Name     string `json:"name"`
	// N is the native runs' -test.benchtime=Nx and Count their
	// -test.count; Iters are the two callgrind runs' iterations.
	N     int64    `json:"n"`
	Count int      `json:"count"`
	Iters [2]int64 `json:"iters"`
	// ProbeNsPerOp are each side's ns/op in the probe that chose N.
	ProbeNsPerOp [2]float64 `json:"probe_ns_per_op"`
}

// A GoBenchFailure is a benchmark that could not be probed on a side.
type GoBenchFailure struct {
	Name    string `json:"name"`
	Package string `json:"package"`
	Side    string `json:"side"`
	Error   string `json:"error"`
	// Tail is the end of the test binary's output.
	Tail string `json:"tail,omitempty"`
}

// FileName returns workload as one file name, escaped as url.PathEscape
// escapes a path segment: the project's workload names are unchanged, and
// a Go benchmark's "Parse/small" becomes "Parse%2Fsmall". Profiles and raw
// dumps are named by it.
func FileName(workload string) string {
	return url.PathEscape(workload)
}
