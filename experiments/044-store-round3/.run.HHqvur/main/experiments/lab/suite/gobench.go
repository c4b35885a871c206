package suite

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// GoBench is what makes a Measure a run of one Go benchmark of another
// module (see package gobench, which builds such suites; they are never
// read from a .suite file). The subject is the side's test binary, Tool,
// run in the package's directory of the side's source tree.
//
// A perf (timed) measurement runs Repeat processes per side, taking turns
// A B B A ..., each with -test.benchtime=Nx -test.count=Count; the time is
// the fastest result's ns/op, and each turn's two processes give a paired
// log ratio. A callgrind measurement runs each side twice under callgrind,
// with -test.benchtime=Iters[0]x and Iters[1]x, and counts instructions
// per op as (Ir(N2) − Ir(N1)) / (N2 − N1): the process's start-up and the
// benchmark's set-up are in both counts and cancel.
type GoBench struct {
	// Dir is the package's directory relative to the source tree's root
	// ("." for the root): the test binary's working directory, as go test
	// runs it, so that testdata/ is found.
	Dir string
	// Package is the package's import path.
	Package string
	// Bench is the benchmark's full name as the testing package prints
	// it without a GOMAXPROCS suffix, e.g. "BenchmarkParse/small".
	Bench string
	// N is the native runs' -test.benchtime=Nx, Count their -test.count.
	N     int64
	Count int
	// Iters are N1 and N2 of a callgrind measurement, 0 < N1 < N2.
	Iters [2]int64
}

// BenchRegexp returns the -test.bench pattern that selects exactly the
// benchmark named full: each '/'-separated part anchored and quoted.
func BenchRegexp(full string) string {
	parts := strings.Split(full, "/")
	for i, p := range parts {
		parts[i] = "^" + regexp.QuoteMeta(p) + "$"
	}
	return strings.Join(parts, "/")
}

// Args returns the test binary's arguments for one run of the benchmark
// with -test.benchtime=nx and -test.count=count. -test.cpu=1 runs it with
// GOMAXPROCS 1 on both sides, as under callgrind, and keeps its name free
// of a -N suffix.
func (g *GoBench) Args(n int64, count int) []string {
	return []string{
		"-test.run=^$",
		"-test.bench=" + BenchRegexp(g.Bench),
		"-test.benchtime=" + strconv.FormatInt(n, 10) + "x",
		"-test.count=" + strconv.Itoa(count),
		"-test.cpu=1",
		"-test.benchmem",
	}
}

// HasGoBench reports whether any measurement of the suite runs a Go
// benchmark.
func (s *Suite) HasGoBench() bool {
	return slices.ContainsFunc(s.Workloads, func(w Workload) bool {
		return slices.ContainsFunc(w.Measures, func(m Measure) bool { return m.GoBench != nil })
	})
}
