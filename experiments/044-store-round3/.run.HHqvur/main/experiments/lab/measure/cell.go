package measure

import (
	"fmt"

	"workbench/experiments/lab/suite"
)

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
	Workload suite.Workload
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
