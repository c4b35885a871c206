package measure

import (
	"math"
	"slices"
	"strings"
	"testing"

	"workbench/experiments/lab/expdir"
	"workbench/perfcount"
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

// A counted server runs with callgrind's settings but takes the Ps it
// takes in the timed run: a GOMAXPROCS there would put pure-serve's
// durable workloads on one P, a configuration the timed run never has
// (probe 1015).
func TestCountEnv(t *testing.T) {
	base := []string{"PATH=/usr/bin", "HOME=/root"}
	env := countEnv(base, "/tmp/cg.out")
	has := map[string]bool{}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "GOMAXPROCS" {
			t.Fatalf("counted server's environment sets %s: want the server's own GOMAXPROCS", kv)
		}
		has[kv] = true
	}
	for _, want := range append(base, "GOGC=off") {
		if !has[want] {
			t.Errorf("counted server's environment %q lacks %q", env, want)
		}
	}
	if !slices.ContainsFunc(env, func(kv string) bool {
		return strings.HasPrefix(kv, "GODEBUG=") && strings.Contains(kv, "asyncpreemptoff=1")
	}) {
		t.Errorf("counted server's environment %q lacks asynchronous preemption off (its signals crash callgrind)", env)
	}
	if slices.ContainsFunc(env, func(kv string) bool { return strings.HasPrefix(kv, perfcount.OutFileEnv+"=") }) {
		t.Errorf("counted server's environment %q names an output file for the region toggle: the whole process is counted", env)
	}
}
