package pairs

import "fmt"

// Side is one of the two revisions being compared.
type Side string

// The two sides of a pair.
const (
	Before Side = "before"
	After  Side = "after"
)

// A Cell is one run of the experiment: one workload on one side of one pair.
type Cell struct {
	// Pair numbers pairs from 1.
	Pair int
	// Position is 1 or 2: the side's place in its pair.
	Position int
	Side     Side
	Workload Workload
}

// Key identifies the cell in runs.jsonl.
func (c Cell) Key() CellKey {
	return CellKey{Pair: c.Pair, Side: c.Side, Workload: c.Workload.Name}
}

// CellKey identifies a cell: pair, side and workload. Resume skips cells
// whose key is already recorded.
type CellKey struct {
	Pair     int
	Side     Side
	Workload string
}

// String returns "pair 2 after sort-ints-10k".
func (k CellKey) String() string {
	return fmt.Sprintf("pair %d %s %s", k.Pair, k.Side, k.Workload)
}

// Schedule returns the cells of an experiment in the order they run.
// Pairs alternate their order ABBA: odd pairs run before then after, even
// pairs after then before, so a drift over time (a warming machine, a
// neighbour's load) falls on both sides alike. Within a pair the two sides
// of one workload run back to back, workload by workload in suite order, so
// the two runs a pair compares are seconds apart rather than a whole side's
// suite apart: on a VM whose CPU speed wanders by 10-20 % over tens of
// seconds (seen in experiment 005), that is what keeps a pair's ratio near
// the truth.
func Schedule(pairs int, workloads []Workload) []Cell {
	cells := make([]Cell, 0, 2*pairs*len(workloads))
	for p := 1; p <= pairs; p++ {
		order := [2]Side{Before, After}
		if p%2 == 0 {
			order = [2]Side{After, Before}
		}
		for _, w := range workloads {
			for i, side := range order {
				cells = append(cells, Cell{Pair: p, Position: i + 1, Side: side, Workload: w})
			}
		}
	}
	return cells
}
