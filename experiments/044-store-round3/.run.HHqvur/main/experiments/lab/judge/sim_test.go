package judge

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"workbench/experiments/lab/expdir"
	"workbench/perfcount"
)

// sim simulates the runs of one workload in an experiment of ABBA pairs:
// every measured value is its true value times lognormal noise.
type sim struct {
	workload string
	pairs    int
	// timeNoise and countNoise are the standard deviations of the log of
	// the noise factor of each run's timed metrics and counts.
	timeNoise, countNoise float64
	// timeRatio and countRatio are the true after/before ratios of
	// throughput and of instructions.
	timeRatio, countRatio float64
	source                perfcount.Source
}

// newRand returns a generator seeded with seed, after logging the seed so
// that a failure can be replayed.
func newRand(t testing.TB, seed uint64) *rand.Rand {
	t.Helper()
	t.Logf("seed %d", seed)
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// runs returns the simulated runs.
func (s sim) runs(rng *rand.Rand) []expdir.Run {
	noise := func(sigma float64) float64 { return math.Exp(sigma * rng.NormFloat64()) }
	var out []expdir.Run
	start := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	for p := 1; p <= s.pairs; p++ {
		sides := []string{SideBefore, SideAfter}
		if p%2 == 0 {
			sides = []string{SideAfter, SideBefore}
		}
		for pos, side := range sides {
			tr, cr := 1.0, 1.0
			if side == SideAfter {
				tr, cr = s.timeRatio, s.countRatio
			}
			const ops = 100000
			perOp := 1e6 * cr * noise(s.countNoise)
			out = append(out, expdir.Run{
				Schema: expdir.SchemaVersion, Experiment: "sim", Workload: s.workload,
				Side: side, Pair: p, Position: pos + 1,
				Start: start.Add(time.Duration(len(out)) * time.Minute),
				Ops:   ops,
				Metrics: expdir.Metrics{
					Throughput: 10000 * tr * noise(s.timeNoise),
					CPUPerOp:   1e-4 / tr * noise(s.timeNoise),
					CPUShare:   0.9 * noise(s.timeNoise/2),
					P50:        1e-3 / tr * noise(s.timeNoise),
					P99:        4e-3 / tr * noise(2*s.timeNoise),
				},
				Counts: []expdir.Count{{
					Event: "instructions:u", Value: perOp * ops, PerOp: perOp, Source: s.source,
				}},
			})
		}
	}
	return out
}

// find returns a pointer to the run of pair and side in runs.
func find(runs []expdir.Run, pair int, side string) *expdir.Run {
	for i := range runs {
		if runs[i].Pair == pair && runs[i].Side == side {
			return &runs[i]
		}
	}
	return nil
}

// metric returns the result of the named metric of w.
func metric(t *testing.T, w WorkloadResult, name string) MetricResult {
	t.Helper()
	for _, m := range w.Metrics {
		if m.Metric.Name == name {
			return m
		}
	}
	t.Fatalf("no metric %s in %s", name, w.Workload)
	return MetricResult{}
}
