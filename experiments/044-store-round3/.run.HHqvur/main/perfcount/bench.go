package perfcount

import (
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
)

// SourceConfigKey is the benchmark-format configuration key that Bench
// prints once per process, before the first benchmark result, naming the
// source of the counts that follow ("perfcount-source: callgrind"). benchstat
// keeps it with the results, so counts from perf and callgrind are not
// mistaken for one another.
const SourceConfigKey = "perfcount-source"

var printSource sync.Once

// Bench counts events over body, which runs the benchmark loop, and reports
// each event per operation with b.ReportMetric, in the Go benchmark format:
// "instructions" becomes an instructions/op column that benchstat reads.
//
//	func BenchmarkSort(b *testing.B) {
//		perfcount.Bench(b, "instructions", func(b *testing.B) {
//			for b.Loop() { sortOnce() }
//		})
//	}
//
// Under valgrind --tool=callgrind (see CallgrindArgs) the callgrind backend
// is used and only "instructions" may be asked for; otherwise perf_event is
// used. When the counters cannot be opened (no PMU, not permitted) the
// benchmark fails with the reason: a benchmark that asked for instructions
// never reports a silent zero.
func Bench(b *testing.B, events string, body func(b *testing.B)) {
	b.Helper()
	evs, err := ParseEvents(events)
	if err != nil {
		b.Fatal(err)
	}
	backend := BackendPerf
	if RunningOnValgrind() {
		backend = BackendCallgrind
	}
	r, err := NewRegion(backend, evs)
	if err != nil {
		b.Fatalf("perfcount.Bench: %v", err)
	}
	defer r.Close()
	printSource.Do(func() {
		// Before the first result line: the first call of a benchmark
		// (b.N == 1) runs before the testing package prints its name.
		fmt.Fprintf(os.Stdout, "%s: %s\n", SourceConfigKey, backend)
	})
	if err := r.Measure(func() { body(b) }); err != nil {
		b.Fatalf("perfcount.Bench: %v", err)
	}
	for _, c := range r.Counts() {
		b.ReportMetric(float64(c.Value)/float64(b.N), metricUnit(c.Event))
	}
}

// metricUnit turns an event name into a benchmark unit: "instructions:u"
// becomes "instructions:u/op".
func metricUnit(event string) string {
	return strings.ReplaceAll(event, " ", "_") + "/op"
}
