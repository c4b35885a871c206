package pairs

import (
	"slices"

	"workbench/experiments/lab/expdir"
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/stats"
)

// floorHistory keeps, per workload and side, the floors (wall nanoseconds
// per op of the fastest region) of the runs recorded so far, for the settle
// rule's reference (see judge.Rounds.Another).
type floorHistory map[string]map[measure.Side][]float64

func (h *floorHistory) add(l *expdir.Line) {
	if l.Failed() || l.Metrics.Throughput <= 0 {
		return
	}
	if *h == nil {
		*h = floorHistory{}
	}
	if (*h)[l.Workload] == nil {
		(*h)[l.Workload] = map[measure.Side][]float64{}
	}
	side := measure.Side(l.Side)
	(*h)[l.Workload][side] = append((*h)[l.Workload][side], 1e9/l.Metrics.Throughput)
}

// ref returns the median floor of workload's side so far, or 0.
func (h floorHistory) ref(workload string, side measure.Side) float64 {
	fs := slices.Clone(h[workload][side])
	if len(fs) == 0 {
		return 0
	}
	return stats.Median(fs)
}
