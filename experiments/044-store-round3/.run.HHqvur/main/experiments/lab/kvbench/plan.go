package kvbench

import (
	"fmt"
	"strconv"
	"strings"
)

// Workload names, as they appear in records.
const (
	// WorkloadPointGet reads one random key of the loaded store.
	WorkloadPointGet = "point-get"
	// WorkloadRange100 scans 100 consecutive keys from a random start.
	WorkloadRange100 = "range-100"
	// ScanLen is the number of keys a range-100 scan visits.
	ScanLen = 100
)

// WorkloadCommit returns the name of the durable-commit workload with w
// writers: "durable-commit-8".
func WorkloadCommit(w int) string { return "durable-commit-" + strconv.Itoa(w) }

// ParseWorkloadCommit returns the writer count of a durable-commit
// workload name, and false for any other name.
func ParseWorkloadCommit(name string) (int, bool) {
	s, ok := strings.CutPrefix(name, "durable-commit-")
	if !ok {
		return 0, false
	}
	w, err := strconv.Atoi(s)
	return w, err == nil && w > 0
}

// CellKind says what a cell measures.
type CellKind int

const (
	// CellWrites is one durable-commit-W measurement in a fresh store.
	CellWrites CellKind = iota
	// CellReads loads a fresh store, then measures point-get and then
	// range-100 on it: two measurements, one load.
	CellReads
)

// String names the kind: "writes" or "reads".
func (k CellKind) String() string {
	switch k {
	case CellWrites:
		return "writes"
	case CellReads:
		return "reads"
	}
	return fmt.Sprintf("CellKind(%d)", int(k))
}

// Cell is one contender's turn at one workload in a round.
type Cell struct {
	Kind      CellKind
	Contender Contender
	// Writers is the number of concurrent writers (CellWrites only).
	Writers int
	// Position is the contender's place (from 0) among the contenders
	// that run this workload in this round.
	Position int
}

// Rotate returns xs rotated left by r mod len(xs): round r starts with
// element r mod k. xs is not modified.
func Rotate[T any](xs []T, r int) []T {
	k := len(xs)
	if k == 0 {
		return nil
	}
	r = ((r % k) + k) % k
	out := make([]T, 0, k)
	out = append(out, xs[r:]...)
	return append(out, xs[:r]...)
}

// Only selects a part of a round.
type Only string

// The parts of a round a Plan can be limited to.
const (
	OnlyAll    Only = ""
	OnlyWrites Only = "writes"
	OnlyReads  Only = "reads"
)

// Plan returns the cells of round (from 0) in the order they run: for each
// writer count in the order given, every contender that takes that many
// writers; then every contender that reads. The contenders run in the
// order of cs rotated by the round (Rotate), the same order in every
// workload, so over k rounds each of k contenders runs once in each
// position.
func Plan(cs []Contender, writers []int, round int, only Only) []Cell {
	order := Rotate(cs, round)
	var cells []Cell
	if only != OnlyReads {
		for _, w := range writers {
			pos := 0
			for _, c := range order {
				if c.MaxWriters > 0 && w > c.MaxWriters {
					continue
				}
				cells = append(cells, Cell{Kind: CellWrites, Contender: c, Writers: w, Position: pos})
				pos++
			}
		}
	}
	if only != OnlyWrites {
		pos := 0
		for _, c := range order {
			if !c.Reads {
				continue
			}
			cells = append(cells, Cell{Kind: CellReads, Contender: c, Position: pos})
			pos++
		}
	}
	return cells
}
