package pairs

import (
	"workbench/experiments/lab/measure"
	"workbench/experiments/lab/suite"
)

// Schedule returns the cells of an experiment in the order they run.
// Pairs alternate their order ABBA: odd pairs run before then after, even
// pairs after then before, so a drift over time (a warming machine, a
// neighbour's load) falls on both sides alike. Within a pair the two sides
// of one workload run back to back, workload by workload in suite order, so
// the two runs a pair compares are seconds apart rather than a whole side's
// suite apart: on a VM whose CPU speed wanders by 10-20 % over tens of
// seconds (seen in experiment 005), that is what keeps a pair's ratio near
// the truth.
func Schedule(pairs int, workloads []suite.Workload) []measure.Cell {
	cells := make([]measure.Cell, 0, 2*pairs*len(workloads))
	for p := 1; p <= pairs; p++ {
		order := [2]measure.Side{measure.Before, measure.After}
		if p%2 == 0 {
			order = [2]measure.Side{measure.After, measure.Before}
		}
		for _, w := range workloads {
			for i, side := range order {
				cells = append(cells, measure.Cell{Pair: p, Position: i + 1, Side: side, Workload: w})
			}
		}
	}
	return cells
}
