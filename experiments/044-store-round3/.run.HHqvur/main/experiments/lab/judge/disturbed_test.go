package judge

import (
	"math"
	"strings"
	"testing"

	"workbench/experiments/lab/expdir"
	"workbench/perfcount"
)

func TestDisturbanceRule_Outliers(t *testing.T) {
	xs := []float64{0.90, 0.905, 0.898, 0.902, 0.783, 0.901} // one run lost 13 %
	med, limit, out, ok := DefaultDisturbance.outliers(xs)
	if !ok || math.Abs(med-0.9005) > 1e-12 || limit != DefaultDisturbance.Floor {
		t.Errorf("median %v limit %v ok %v", med, limit, ok)
	}
	for i, o := range out {
		if o != (i == 4) {
			t.Errorf("run %d: disturbed %v", i, o)
		}
	}
	// A wide side widens the limit beyond the floor: 10 % apart is normal.
	wide := []float64{1.0, 1.1, 0.9, 1.05, 0.95, 1.1}
	if _, limit, out, _ := DefaultDisturbance.outliers(wide); limit <= 0.03 || slicesAny(out) {
		t.Errorf("wide side: limit %v, flagged %v", limit, out)
	}
	if _, _, _, ok := DefaultDisturbance.outliers([]float64{1, 2}); ok {
		t.Error("two runs were checked")
	}
}

func slicesAny(bs []bool) bool {
	for _, b := range bs {
		if b {
			return true
		}
	}
	return false
}

func TestJudge_AA_FewFalseDisturbances(t *testing.T) {
	// Clean runs with 0.7 % noise: a run is flagged in under 2 % of
	// experiments.
	rng := newRand(t, 21)
	flagged := 0
	const sims = 1000
	for range sims {
		s := sim{workload: "aa", pairs: 6, timeNoise: 0.007, countNoise: 0.001, timeRatio: 1, countRatio: 1, source: perfcount.SourceCallgrind}
		if len(Judge(s.runs(rng), DefaultCriteria, nil, Options{}).Workloads[0].Disturbed) > 0 {
			flagged++
		}
	}
	if rate := float64(flagged) / sims; rate > 0.02 {
		t.Errorf("%.1f %% of clean experiments had a disturbed run, want ≤ 2 %%", 100*rate)
	}
}

// Both runs of pair 3 lost about 13 % of their CPU together (a burst of load
// that the interleaved processes of both sides shared): the pair is listed
// as disturbed alike and used. When only the after run lost it, the pair is
// left out.
func TestJudge_PairDisturbedAlike(t *testing.T) {
	mk := func(afterShare3, beforeShare3 float64) []expdir.Run {
		var runs []expdir.Run
		for i := range 6 {
			for s, side := range []string{SideBefore, SideAfter} {
				share := 0.90 + 0.002*float64(i%3)
				if i == 2 {
					share = []float64{beforeShare3, afterShare3}[s]
				}
				runs = append(runs, expdir.Run{
					Workload: "w", Side: side, Pair: i + 1, Position: 1 + (s+i)%2, Ops: 1,
					Metrics: expdir.Metrics{Throughput: 1000 * (1 + 0.001*float64(i)), CPUShare: share, CPUPerOp: 1e-3},
				})
			}
		}
		return runs
	}
	w := Judge(mk(0.785, 0.78), DefaultCriteria, nil, Options{}).Workloads[0]
	if p := w.Pairs[2]; p.Status != PairAlike || !strings.Contains(p.Note, "departures alike") || !strings.Contains(p.Note, "the pair is used") {
		t.Errorf("pair 3 disturbed alike: status %q, note %q", p.Status, p.Note)
	}
	if len(w.Disturbed) != 2 || w.Time != Same || strings.Contains(w.Reason, "disturbed") {
		t.Errorf("alike: %d disturbed runs, time %v, reason %q", len(w.Disturbed), w.Time, w.Reason)
	}
	w = Judge(mk(0.785, 0.90), DefaultCriteria, nil, Options{}).Workloads[0]
	if p := w.Pairs[2]; p.Status != PairDisturbed || !strings.Contains(p.Note, "departures differ") {
		t.Errorf("pair 3 with one disturbed run: status %q, note %q", p.Status, p.Note)
	}
	if !strings.Contains(w.Reason, "3 disturbed") {
		t.Errorf("one disturbed run: reason %q does not name pair 3", w.Reason)
	}
}
