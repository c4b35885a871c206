// Package perfcount counts instructions and other events, around a region
// of a Go process or around a whole command, and labels every count with
// the instrument that took it.
//
// # Backends
//
// BackendPerf uses the kernel's perf_event interface (perf_event_open
// through golang.org/x/sys/unix; no perf binary needed). The events of one
// measurement are opened as one group and read together with their enabled
// and running times; a count that ran for less time than it was enabled is
// marked Multiplexed and is never scaled. Hardware events (instructions,
// cycles, branches, cache events, raw rNNNN events and named PMU events from
// /sys/bus/event_source/devices/*/events, such as armv8's INST_RETIRED)
// need a PMU. Most virtual machines have none: there the open fails with
// ErrNoPMU and a message naming the callgrind backend. Software events
// (task-clock, page-faults, context-switches, ...) work everywhere.
//
// The hardware path is written for real PMUs on x86-64 and armv8; on the
// project's own machines (VMs without a PMU) only its error path runs, and
// its tests assert exactly that. The armv8 path up to perf_event_open (the
// PMU's events and raw codes read from sysfs, PMUEvents, the attr built
// for each) is tested against fixture trees shaped like a Raspberry Pi 5's
// (Cortex-A76, PMU armv8_cortex_a76) and a Pi 4's (Cortex-A72), written by
// testdata/make-pi-trees.
//
// BackendCallgrind counts executed instructions (callgrind's Ir) by running
// the program under valgrind --tool=callgrind. A region asks callgrind,
// through valgrind client requests, to zero its counters, collects while fn
// runs, dumps the counters and reads the dump back; so the in-process API is
// the same as with perf. CallgrindArgs and CallgrindEnv give what the
// launcher must pass. Counts from the two backends are different
// measurements and are never compared with each other.
//
// # Scopes
//
// A Region counts a function on the calling OS thread (the goroutine is
// locked to it); Measure makes no allocations with the perf backend.
// CountCommand counts a whole command, with the counters opened on the
// child before it executes the command (enable_on_exec, inherit), so every
// thread and process it starts is counted; it returns the wall time and the
// rusage with the counts.
//
// Every Result carries the Machine it was taken on; FSType names the file
// system under a path, which durable benchmarks record. Bench reports counts
// per operation from a testing.B in the Go benchmark format.
//
// The sub-package callgrind parses callgrind's output and converts it into
// pprof profiles; workload is the registry of in-process workloads.
package perfcount
