package callgrind

// callerNode is a node of the inferred caller tree of one function. The
// root stands for the function itself; every other node is a call site in
// a caller, and its children are the call sites that lead to that caller.
// Weights are shares of the function's cost: a node's weight is its stay
// weight (chains that end at the node) plus its children's weights.
type callerNode struct {
	site     site
	children []*callerNode
	weights  []float64 // the stay weight, then the weight of each child
}

// site is a position in a function: a call site or a line with self cost.
type site struct {
	fn  *gfunc
	pos gpos
}

// inferCallers returns the caller tree of f, whose weights sum to 1.
//
// It makes gprof's assumption: every call of a function costs the same,
// so the share of f's cost that comes through one incoming call edge is
// that edge's inclusive cost (of the first event) over the inclusive cost
// of all edges into f. Applied again at each caller it gives the chains.
// A chain ends at a function with no recorded callers, at maxDepth, at a
// caller whose name is already on the chain (recursion: its share is
// spread over the callers that are not on the chain), and where a branch would carry less
// than minWeight: such branches stay at the node they branch from.
//
// At each depth the weights of the nodes sum to at most 1, and every
// node other than the root weighs at least minWeight, so the tree has at
// most maxDepth/minWeight + 1 nodes however many chains the graph has.
func inferCallers(f *gfunc, maxDepth int, minWeight float64) *callerNode {
	// Chains are kept free of repeats by name and object, not by node:
	// callgrind splits one symbol into several nodes when its code comes
	// from several source files, and pprof would show them as one.
	type name struct{ object, name string }
	nameOf := func(g *gfunc) name { return name{g.key.object, g.key.name} }
	onPath := map[name]bool{nameOf(f): true}
	var walk func(n *callerNode, g *gfunc, depth int, w float64)
	walk = func(n *callerNode, g *gfunc, depth int, w float64) {
		var total float64
		if depth < maxDepth {
			for _, e := range g.in {
				if !onPath[nameOf(e.caller)] {
					total += float64(e.cost[0])
				}
			}
		}
		n.weights = []float64{0}
		if total == 0 {
			n.weights[0] = w
			return
		}
		for _, e := range g.in {
			if onPath[nameOf(e.caller)] || e.cost[0] == 0 {
				continue
			}
			we := w * float64(e.cost[0]) / total
			if we < minWeight {
				n.weights[0] += we
				continue
			}
			child := &callerNode{site: site{e.caller, e.site}}
			n.children = append(n.children, child)
			n.weights = append(n.weights, we)
			onPath[nameOf(e.caller)] = true
			walk(child, e.caller, depth+1, we)
			delete(onPath, nameOf(e.caller))
		}
	}
	root := &callerNode{site: site{fn: f}}
	walk(root, f, 0, 1)
	return root
}
