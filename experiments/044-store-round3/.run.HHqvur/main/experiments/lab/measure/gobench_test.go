package measure

import (
	"context"
	"strings"
	"testing"
	"time"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/suite"
)

// Without valgrind, a Go benchmark's count is a measurement that failed
// with a message saying what to install, not a crash of the run.
func TestCountGoBench_NoValgrind(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	m := suite.Measure{Backend: suite.BackendCallgrind, Tool: "root.test", GoBench: &suite.GoBench{Dir: ".", Bench: "BenchmarkX", Iters: [2]int64{10, 20}}}
	c := &Controls{Controls: expdir.Controls{RunDir: t.TempDir()}}
	cnt, mss, _, err := CountGoBench(context.Background(), c, time.Minute, expdir.Build{Dir: t.TempDir()}, m, "", "X")
	if err != nil {
		t.Fatal(err)
	}
	if len(mss) != 1 || !strings.Contains(mss[0].Error, "apt-get install valgrind") || cnt.Value != 0 {
		t.Errorf("count %+v, measurements %+v: want one failed measurement naming valgrind", cnt, mss)
	}
}
