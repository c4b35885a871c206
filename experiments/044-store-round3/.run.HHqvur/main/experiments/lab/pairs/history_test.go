package pairs

import (
	"testing"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
)

func TestFloorHistory(t *testing.T) {
	var h floorHistory
	if h.ref("w", measure.Before) != 0 {
		t.Error("empty history has a reference")
	}
	for _, thr := range []float64{1e6, 2e6, 4e6} { // 1000, 500, 250 ns per op
		l := &expdir.Line{}
		l.Workload, l.Side, l.Metrics.Throughput = "w", "before", thr
		h.add(l)
	}
	failed := &expdir.Line{}
	failed.Workload, failed.Side, failed.ExitCode, failed.Metrics.Throughput = "w", "before", 2, 1e3
	h.add(failed)
	if got := h.ref("w", measure.Before); got != 500 {
		t.Errorf("ref = %v, want the median floor 500 ns/op (the failed run left out)", got)
	}
	if h.ref("w", measure.After) != 0 || h.ref("other", measure.Before) != 0 {
		t.Error("a reference leaked to another side or workload")
	}
}
