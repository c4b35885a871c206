package note

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"workbench/experiments/lab/expdir"
	"workbench/perfcount"
)

// The Go benchmarks section of an experiment on another module's
// benchmarks, against testdata/gobench-section.golden.md: each
// benchmark's iterations, B/op and allocs/op, whether its counts were
// exact, and what was not judged, with the failing one's output.
func TestWriteGoBench_Golden(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	e := &Experiment{Meta: expdir.Meta{GoBench: &expdir.GoBenchMeta{
		Repo: "/src/mymod", Pkg: "./...", Bench: ".", Instructions: "callgrind, difference of two processes",
		Benchmarks: []expdir.GoBenchmark{
			{Workload: "Sum", Package: "example.com/m", Name: "BenchmarkSum", N: 4000, Count: 5, Iters: [2]int64{2000, 4000}},
			{Workload: "Parse/small", Package: "example.com/m", Name: "BenchmarkParse/small", N: 900, Count: 5, Iters: [2]int64{450, 900}},
		},
		OnlyAfter: []string{"example.com/m BenchmarkNew"},
		Failed: []expdir.GoBenchFailure{{Name: "BenchmarkFetch", Package: "example.com/m", Side: "before",
			Error: "root.test exited with status 1", Tail: "--- FAIL: BenchmarkFetch\n    dial tcp: network is unreachable"}},
	}}}
	for pair := 1; pair <= 2; pair++ {
		for _, side := range []string{"before", "after"} {
			sum := 4000.0
			if side == "after" {
				sum = 4100
			}
			parse := 812.0 + float64(pair) // not exact: 813, 814
			e.Runs = append(e.Runs,
				expdir.Run{Workload: "Sum", Side: side, Pair: pair, Metrics: expdir.Metrics{BytesPerOp: f(0), AllocsPerOp: f(0)},
					Counts: []expdir.Count{{Event: "instructions", PerOp: sum, Source: perfcount.SourceCallgrind}}},
				expdir.Run{Workload: "Parse/small", Side: side, Pair: pair, Metrics: expdir.Metrics{BytesPerOp: f(48), AllocsPerOp: f(2)},
					Counts: []expdir.Count{{Event: "instructions", PerOp: parse, Source: perfcount.SourceCallgrind}}})
		}
	}
	var b strings.Builder
	e.writeGoBench(&b)
	golden := filepath.Join("testdata", "gobench-section.golden.md")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		os.WriteFile(golden+".got", []byte(b.String()), 0o644)
		t.Errorf("the Go benchmarks section differs from %s; see %s.got (go test -update rewrites it)", golden, golden)
	}
}
