package measure

import (
	"math"
	"testing"

	"workbench/experiments/lab/expdir"
)

func win(ok int64, cpu float64) expdir.Window { return expdir.Window{OK: ok, ServerCPU: cpu} }

// The paired log is the median of the neighbouring windows' log ratios:
// a window that one side lost to a burst of load moves it less than it
// moves the ratio of the totals.
func TestWindowPairedLog(t *testing.T) {
	first := []expdir.Window{win(1000, 1), win(1000, 1.2), win(1000, 0.9), win(1000, 1), win(1000, 1.1)}
	second := []expdir.Window{win(1000, 1.02), win(1000, 1.22), win(1000, 0.92), win(1000, 1.6), win(1000, 1.12)}
	got, ok := windowPairedLog(first, second)
	if !ok {
		t.Fatal("no paired log from five window pairs")
	}
	// Log ratios, sorted: log(1.22/1.2), log(1.12/1.1), log 1.02, log(0.92/0.9), log 1.6: the median is log 1.02.
	if want := math.Log(1.02); math.Abs(got-want) > 1e-12 {
		t.Fatalf("paired log %v, want %v", got, want)
	}
	totals := math.Log((1.02 + 1.22 + 0.92 + 1.6 + 1.12) / (1 + 1.2 + 0.9 + 1 + 1.1))
	if math.Abs(got) >= math.Abs(totals) {
		t.Fatalf("the burst moved the median (%v) as much as the totals' ratio (%v)", got, totals)
	}
	// Windows without answers or CPU are left out; too few pairs give none.
	first[0], second[1] = win(0, 1), win(1000, 0)
	if _, ok := windowPairedLog(first[:4], second[:4]); ok {
		t.Fatal("a paired log from two usable window pairs, want none (fewer than MinPairedWindows)")
	}
	if _, ok := windowPairedLog(first, second[:3]); ok {
		t.Fatal("a paired log from three window pairs")
	}
}
