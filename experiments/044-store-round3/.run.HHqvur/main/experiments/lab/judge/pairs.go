package judge

import (
	"fmt"
	"slices"
	"strings"

	"workbench/experiments/lab/expdir"
)

// Sides of a pair, as expdir.Run.Side spells them.
const (
	SideBefore = "before"
	SideAfter  = "after"
)

// PairStatus says whether a pair took part in the time verdict, and if not,
// why.
type PairStatus string

const (
	// PairClean pairs have both runs, both succeeded, neither disturbed.
	PairClean PairStatus = "clean"
	// PairDisturbed pairs have a disturbed run whose departure the other
	// run of the pair does not share (see DisturbanceRule).
	PairDisturbed PairStatus = "disturbed"
	// PairAlike pairs have disturbed runs, but both runs departed alike, so
	// the pair's ratio compares like with like and is used (see
	// DisturbanceRule).
	PairAlike PairStatus = "disturbed alike"
	// PairFailed pairs have a run that exited with a non-zero status.
	PairFailed PairStatus = "failed"
	// PairIncomplete pairs lack the run of one side.
	PairIncomplete PairStatus = "incomplete"
)

// pairRuns is one pair of one workload as found in the runs.
type pairRuns struct {
	num           int
	before, after *expdir.Run
}

// run returns the pair's run of side.
func (p *pairRuns) run(side string) *expdir.Run {
	if side == SideBefore {
		return p.before
	}
	return p.after
}

// workloadRuns are the runs of one workload, by pair.
type workloadRuns struct {
	name  string
	pairs []pairRuns // ascending by num
}

// groupRuns sorts runs into workloads (by name) and pairs (by number). A run
// with an unknown side, or a second run for the same pair and side, is left
// out with a warning; the first in input order is kept.
func groupRuns(runs []expdir.Run) ([]workloadRuns, []error) {
	var warns []error
	byName := make(map[string]map[int]*pairRuns)
	for i := range runs {
		r := &runs[i]
		if r.Schema > expdir.SchemaVersion {
			warns = append(warns, fmt.Errorf("run %d (%s, pair %d, %s) has schema %d, newer than %d: fields may be misread", i+1, r.Workload, r.Pair, r.Side, r.Schema, expdir.SchemaVersion))
		}
		if r.Side != SideBefore && r.Side != SideAfter {
			warns = append(warns, fmt.Errorf("run %d (%s, pair %d) has side %q, expected before or after: left out", i+1, r.Workload, r.Pair, r.Side))
			continue
		}
		pairs := byName[r.Workload]
		if pairs == nil {
			pairs = make(map[int]*pairRuns)
			byName[r.Workload] = pairs
		}
		p := pairs[r.Pair]
		if p == nil {
			p = &pairRuns{num: r.Pair}
			pairs[r.Pair] = p
		}
		slot := &p.before
		if r.Side == SideAfter {
			slot = &p.after
		}
		if *slot != nil {
			warns = append(warns, fmt.Errorf("run %d is a second %s run of %s pair %d: left out, the first one kept", i+1, r.Side, r.Workload, r.Pair))
			continue
		}
		*slot = r
	}
	out := make([]workloadRuns, 0, len(byName))
	for name, pairs := range byName {
		w := workloadRuns{name: name}
		for _, p := range pairs {
			w.pairs = append(w.pairs, *p)
		}
		slices.SortFunc(w.pairs, func(a, b pairRuns) int { return a.num - b.num })
		out = append(out, w)
	}
	slices.SortFunc(out, func(a, b workloadRuns) int { return strings.Compare(a.name, b.name) })
	return out, warns
}

// FormatPairs writes ascending pair numbers with runs collapsed:
// "1, 3–5 and 7"; "none" for none. Notes use it to say which pairs a
// verdict used.
func FormatPairs(nums []int) string {
	var parts []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] == nums[j]+1 {
			j++
		}
		switch {
		case j == i:
			parts = append(parts, fmt.Sprint(nums[i]))
		case j == i+1:
			parts = append(parts, fmt.Sprint(nums[i]), fmt.Sprint(nums[j]))
		default:
			parts = append(parts, fmt.Sprintf("%d–%d", nums[i], nums[j]))
		}
		i = j + 1
	}
	switch len(parts) {
	case 0:
		return "none"
	case 1:
		return parts[0]
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
