package export

import (
	"strings"
	"testing"

	"golang.org/x/perf/benchfmt"
	"workbench/experiments/lab/expdir"
)

func run(side string, pair int, ins float64) expdir.Run {
	return expdir.Run{
		Workload: "sort-ints-10k", Side: side, Pair: pair, Revision: "HEAD", Commit: "abc",
		Ops: 20, Metrics: expdir.Metrics{Throughput: 2000, CPUPerOp: 0.0005},
		Counts: []expdir.Count{
			{Event: "instructions", PerOp: ins, Value: 20 * ins, Source: "callgrind"},
			{Event: "task-clock", PerOp: 500000, Source: "perf"},
		},
	}
}

// benchfmt, which benchstat uses, reads every run, with the sides as
// configuration and callgrind's instructions declared exact.
func TestWrite_ReadByBenchfmt(t *testing.T) {
	runs := []expdir.Run{run("after", 1, 2300), run("before", 1, 2200), run("before", 2, 2200), run("after", 2, 2300)}
	failed := run("after", 3, 1)
	failed.ExitCode = 2
	runs = append(runs, failed)
	var b strings.Builder
	if err := Write(&b, "002-x", runs); err != nil {
		t.Fatal(err)
	}
	r := benchfmt.NewReader(strings.NewReader(b.String()), "bench.txt")
	n := 0
	sides := map[string]int{}
	exact := false
	for r.Scan() {
		switch x := r.Result().(type) {
		case *benchfmt.Result:
			n++
			sides[string(x.GetConfig("side"))]++
			if string(x.Name) != "SortInts10k" || x.Iters != 20 {
				t.Errorf("result %q with %d iterations", x.Name, x.Iters)
			}
			if v, ok := x.Value("instructions/op"); !ok || (v != 2200 && v != 2300) {
				t.Errorf("instructions/op = %v, %v", v, ok)
			}
			if _, ok := x.Value("perf-task-clock/op"); !ok {
				t.Error("the perf count lacks its perf- unit")
			}
		case *benchfmt.UnitMetadata:
			if x.Unit == "instructions/op" && x.Key == "assume" && x.Value == "exact" {
				exact = true
			}
		case *benchfmt.SyntaxError:
			t.Errorf("syntax error: %v", x)
		}
	}
	if n != 4 || sides["before"] != 2 || sides["after"] != 2 || !exact {
		t.Errorf("read %d results %v, exact unit %v, from:\n%s", n, sides, exact, b.String())
	}
}

func TestName(t *testing.T) {
	for in, want := range map[string]string{"store-get": "StoreGet", "sort-ints-10k": "SortInts10k", "x": "X", "bank-in_credit-10k": "BankInCredit10k"} {
		if got := Name(in); got != want {
			t.Errorf("Name(%q) = %q, want %q", in, got, want)
		}
	}
}
