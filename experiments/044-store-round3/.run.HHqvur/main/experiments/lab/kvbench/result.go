package kvbench

import (
	"math"
	"runtime"
	"time"

	"golang.org/x/sys/unix"
)

// Result is what one measured cell did.
type Result struct {
	// Ops is the number of operations completed: commits, point gets or
	// range scans.
	Ops int64
	// Elapsed is the wall time from the start of the first operation to
	// the end of the last.
	Elapsed time.Duration
	// CPU is the user plus system time of the whole process over the same
	// stretch (getrusage RUSAGE_SELF), background goroutines included.
	CPU time.Duration
	// HasLatency reports whether P50 and P99 were measured (writes time
	// every commit; reads do not time single operations).
	HasLatency bool
	// P50 and P99 are the median and 99th percentile of the operations'
	// latencies, by nearest rank.
	P50, P99 time.Duration
	// Syncs is the number of syncs the contender made over the cell;
	// SyncsKnown is false when the contender cannot count them.
	Syncs      uint64
	SyncsKnown bool
	// Mallocs is the number of heap allocations of the whole process over
	// the cell (runtime.MemStats.Mallocs).
	Mallocs uint64
}

// OpsPerSecond returns Ops / Elapsed, or 0 when nothing elapsed.
func (r Result) OpsPerSecond() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Ops) / r.Elapsed.Seconds()
}

// CPUPerOp returns CPU seconds per operation, or 0 without operations.
func (r Result) CPUPerOp() float64 { return perOp(r.CPU.Seconds(), r.Ops) }

// SyncsPerOp returns syncs per operation, and false when syncs are unknown
// or no operation completed.
func (r Result) SyncsPerOp() (float64, bool) {
	if !r.SyncsKnown || r.Ops == 0 {
		return 0, false
	}
	return float64(r.Syncs) / float64(r.Ops), true
}

// AllocsPerOp returns heap allocations per operation, or 0 without
// operations.
func (r Result) AllocsPerOp() float64 { return perOp(float64(r.Mallocs), r.Ops) }

func perOp(v float64, ops int64) float64 {
	if ops == 0 {
		return 0
	}
	return v / float64(ops)
}

// Percentile returns the q-quantile (0 < q <= 1) of sorted by nearest
// rank: the smallest value with at least q of the values at or below it.
// It returns 0 for an empty slice.
func Percentile(sorted []time.Duration, q float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(math.Ceil(q*float64(len(sorted))-1e-9)) - 1 // -1e-9: 0.99*200 is 198, not 198.00000000000003
	return sorted[min(max(i, 0), len(sorted)-1)]
}

// meter takes the process-wide readings a Result needs at the start and
// end of a measured stretch. Its readings are taken outside the stretch.
type meter struct {
	w       Writer
	cpu     time.Duration
	mallocs uint64
	syncs   uint64
	known   bool
}

func startMeter(w Writer) *meter {
	m := &meter{w: w}
	m.mallocs = mallocs()
	m.syncs, m.known = w.Syncs()
	m.cpu = processCPU()
	return m
}

// stop fills r's CPU, Mallocs and Syncs with the change since start.
func (m *meter) stop(r *Result) {
	r.CPU = processCPU() - m.cpu
	syncs, known := m.w.Syncs()
	r.Mallocs = mallocs() - m.mallocs
	if m.known && known {
		r.Syncs, r.SyncsKnown = syncs-m.syncs, true
	}
}

func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// processCPU returns the user plus system time of the whole process.
func processCPU() time.Duration {
	var ru unix.Rusage
	if err := unix.Getrusage(unix.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
