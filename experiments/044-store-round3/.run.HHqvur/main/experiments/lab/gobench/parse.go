package gobench

import (
	"bytes"
	"fmt"

	"golang.org/x/perf/benchfmt"
)

// A Result is one benchmark result line of a test binary's output.
type Result struct {
	// Name is the benchmark's full name as printed, e.g.
	// BenchmarkParse/small (with -test.cpu=1 it has no -N suffix).
	Name string
	// N is the iterations the result is over; NsPerOp its ns/op.
	N       int
	NsPerOp float64
	// BytesPerOp and AllocsPerOp are its B/op and allocs/op; nil when
	// the line has none (no -test.benchmem, or b.ReportAllocs absent).
	BytesPerOp, AllocsPerOp *float64
}

// Parse reads the result lines of a test binary's output with
// golang.org/x/perf/benchfmt; other lines (PASS, goos:, a panic's trace)
// are passed over. A result line benchfmt cannot read is an error naming
// its line.
func Parse(out []byte) ([]Result, error) {
	r := benchfmt.NewReader(bytes.NewReader(out), "output")
	var res []Result
	for r.Scan() {
		switch rec := r.Result().(type) {
		case *benchfmt.SyntaxError:
			return res, rec
		case *benchfmt.Result:
			ns, ok := rec.Value("sec/op")
			if !ok {
				_, line := rec.Pos()
				return res, fmt.Errorf("output line %d: %s has no ns/op", line, rec.Name.Full())
			}
			// benchfmt drops the "Benchmark" prefix; the name is kept as
			// the testing package prints it and -test.bench matches it.
			x := Result{Name: "Benchmark" + string(rec.Name.Full()), N: rec.Iters, NsPerOp: ns * 1e9}
			if v, ok := rec.Value("B/op"); ok {
				x.BytesPerOp = &v
			}
			if v, ok := rec.Value("allocs/op"); ok {
				x.AllocsPerOp = &v
			}
			res = append(res, x)
		}
	}
	return res, r.Err()
}
