package callgrind

import (
	"fmt"
	"math"
	"testing"
)

// ladder builds a call graph of n levels with two callers per level, each
// calling both functions of the level below: 2^n distinct caller chains
// reach the bottom function.
func ladder(n int) *gfunc {
	mk := func(name string) *gfunc {
		return &gfunc{key: fnKey{name: name}}
	}
	level := []*gfunc{mk("bottom")}
	bottom := level[0]
	for i := range n {
		up := []*gfunc{mk(fmt.Sprintf("a%d", i)), mk(fmt.Sprintf("b%d", i))}
		for _, callee := range level {
			for _, caller := range up {
				callee.in = append(callee.in, &gedge{caller: caller, site: gpos{"f.go", uint64(i)}, cost: []uint64{1}})
			}
		}
		level = up
	}
	return bottom
}

// walkTree calls f for every node of the tree with its depth.
func walkTree(n *callerNode, depth int, f func(*callerNode, int)) {
	f(n, depth)
	for _, c := range n.children {
		walkTree(c, depth+1, f)
	}
}

// Stack inference does bounded work on a graph with exponentially many
// caller chains: the tree has at most about MaxDepth/MinWeight nodes, no
// deeper than MaxDepth, and its weights still sum to 1.
func TestInferCallers_Bounded(t *testing.T) {
	for _, tc := range []struct {
		depth     int
		minWeight float64
	}{{DefaultMaxDepth, DefaultMinWeight}, {DefaultMaxDepth, 1e-4}, {8, 1e-9}} {
		tree := inferCallers(ladder(40), tc.depth, tc.minWeight)
		nodes, maxDepth := 0, 0
		var stay float64
		walkTree(tree, 0, func(n *callerNode, d int) {
			nodes++
			maxDepth = max(maxDepth, d)
			stay += n.weights[0]
		})
		limit := int(math.Min(float64(tc.depth)/tc.minWeight+1, math.Exp2(float64(tc.depth+1))))
		t.Logf("depth %d minWeight %g: %d nodes", tc.depth, tc.minWeight, nodes)
		if nodes > limit {
			t.Errorf("depth %d minWeight %g: %d nodes, want at most %d", tc.depth, tc.minWeight, nodes, limit)
		}
		if maxDepth > tc.depth {
			t.Errorf("tree %d deep, max depth %d", maxDepth, tc.depth)
		}
		if math.Abs(stay-1) > 1e-9 {
			t.Errorf("depth %d minWeight %g: weights sum to %g, want 1", tc.depth, tc.minWeight, stay)
		}
	}
}
