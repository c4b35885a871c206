package store

import (
	"bytes"
	"cmp"
	"slices"
)

// wtree is the writer's working copy of the tree while a group of
// transactions is applied: edited nodes are wnodes, everything below them
// is still read from the mapping. Routing through stale separator keys is
// correct (an edit never moves a key out of its child's range), so
// separators are only recomputed when the tree is spilled.
//
// Edited nodes stay lazy: they keep reading their entries from the mapping
// and only list their changes, a branch the children being edited and a
// leaf the keys put or deleted (leaf.go), so a commit that changes one key
// copies its path as patched byte ranges (patch.go) without decoding whole
// nodes. A lazy node is decoded (materialised) only when its shape
// changes: it splits, empties or must be merged.
//
// A wtree belongs to the commit leader (under Store.wmu) for one round.
type wtree struct {
	d       []byte // the mapping the clean nodes are read from
	root    *wnode // edited root, or nil while the root is clean
	rootOff uint64 // the clean root, 0 for an empty tree
	count   uint64 // number of keys
	nodes   *nodeArena

	// The finger: the leaf leafFor returned last and the range of keys
	// routed to it, [fLo, fHi) (nil: unbounded), so that keys applied in
	// order (a fold applies the overlay's entries, sorted) find their leaf
	// with two comparisons instead of a descent. Separators do not change
	// before the spill, so the range holds for the round.
	fLeaf    *wnode
	fLo, fHi []byte
}

// lazyKid is an edited child of a lazy branch, by entry index.
type lazyKid struct {
	i    int
	node *wnode
}

// open returns an editable copy of the clean node at off; it starts lazy.
func (t *wtree) open(off uint64) *wnode {
	n := t.nodes.new()
	n.lazy, n.leaf, n.off = true, nodeKind(t.d, off) == kindLeaf, off
	n.kids, n.edits = n.kid0[:0], n.edit0[:0]
	return n
}

// materialise decodes a lazy node, attaching a branch's edited children or
// applying a leaf's edits.
func (t *wtree) materialise(n *wnode) {
	if !n.lazy {
		return
	}
	m := decodeNode(t.d, n.off)
	if n.leaf {
		m.ents = applyPatches(m.ents, n.edits)
	}
	for _, k := range n.kids {
		m.ents[k.i].node = k.node
	}
	n.ents, n.lazy, n.kids, n.edits = m.ents, false, nil, nil
}

// childIndex returns the index of the child of branch n that holds key.
func (t *wtree) childIndex(n *wnode, key []byte) int {
	if n.lazy {
		return branchSearch(t.d, n.off, key)
	}
	return n.childIndex(key)
}

// editedChild returns the edited child i of branch n, or nil and the clean
// child's offset.
func (t *wtree) editedChild(n *wnode, i int) (*wnode, uint64) {
	if !n.lazy {
		return n.ents[i].node, n.ents[i].child
	}
	for _, k := range n.kids {
		if k.i == i {
			return k.node, 0
		}
	}
	return nil, branchChild(t.d, entAt(t.d, n.off, i))
}

// child returns the edited child i of branch n, opening it if needed.
func (t *wtree) child(n *wnode, i int) *wnode {
	c, off := t.editedChild(n, i)
	if c != nil {
		return c
	}
	c = t.open(off)
	if n.lazy {
		n.kids = append(n.kids, lazyKid{i, c})
	} else {
		n.ents[i].node = c
	}
	return c
}

// search returns the index of the first leaf entry >= key and whether it is
// equal.
func (n *wnode) search(key []byte) (int, bool) {
	return slices.BinarySearchFunc(n.ents, key, func(e entry, k []byte) int { return bytes.Compare(e.key, k) })
}

// childIndex returns the entry of a decoded branch whose subtree holds key.
func (n *wnode) childIndex(key []byte) int {
	i, ok := n.search(key)
	if ok || i == 0 {
		return i
	}
	return i - 1
}

// leafFor returns the edited leaf that holds (or would hold) key, opening
// the path to it.
func (t *wtree) leafFor(key []byte) *wnode {
	if t.root == nil {
		if t.rootOff == 0 {
			t.root = &wnode{leaf: true}
		} else {
			t.root = t.open(t.rootOff)
		}
	}
	if f := t.fLeaf; f != nil && (t.fLo == nil || bytes.Compare(key, t.fLo) >= 0) && (t.fHi == nil || bytes.Compare(key, t.fHi) < 0) {
		return f
	}
	// Child i of a branch holds the keys from its separator (the parent's
	// lower bound for i = 0) to the next one (the parent's upper bound
	// for the last child).
	var lo, hi []byte
	n := t.root
	for !n.leaf {
		i := t.childIndex(n, key)
		if i > 0 {
			lo = t.sepKey(n, i)
		}
		if i+1 < t.branchLen(n) {
			hi = t.sepKey(n, i+1)
		}
		n = t.child(n, i)
	}
	t.fLeaf, t.fLo, t.fHi = n, lo, hi
	return n
}

// sepKey returns the separator key of entry i of branch n.
func (t *wtree) sepKey(n *wnode, i int) []byte {
	if n.lazy {
		return branchKey(t.d, entAt(t.d, n.off, i))
	}
	return n.ents[i].key
}

// branchLen returns the number of children of branch n.
func (t *wtree) branchLen(n *wnode) int {
	if n.lazy {
		return nodeCount(t.d, n.off)
	}
	return len(n.ents)
}

// put sets key to val at revision rev. key and val must stay unchanged
// until the tree is spilled.
func (t *wtree) put(key, val []byte, rev uint64) {
	n := t.leafFor(key)
	e := entry{key: key, val: val, valLen: uint32(len(val)), rev: rev}
	if n.lazy {
		t.lazyPut(n, e)
		return
	}
	i, ok := n.search(key)
	if ok {
		n.ents[i] = e
		return
	}
	n.ents = slices.Insert(n.ents, i, e)
	t.count++
}

// del removes key.
func (t *wtree) del(key []byte) {
	n := t.leafFor(key)
	if n.lazy {
		t.lazyDel(n, key)
		return
	}
	if i, ok := n.search(key); ok {
		n.ents = slices.Delete(n.ents, i, i+1)
		t.count--
	}
}

// spiller writes the edited nodes of a wtree as records appended to buf,
// which will be written at file offset base.
type spiller struct {
	t        *wtree
	buf      []byte
	base     uint64
	nodeSize int
	sc       *scratch
	depth    int // of the lazy branch being spilled
}

func (sp *spiller) pos() uint64 { return sp.base + uint64(len(sp.buf)) }

// spillRoot writes every edited node and returns the new root offset.
func (sp *spiller) spillRoot() uint64 {
	t := sp.t
	if t.root == nil {
		return t.rootOff
	}
	res := sp.spill(t.root, sp.sc.out[:0])
	sp.sc.out = used(sp.sc.out, res)
	for len(res) > 1 {
		// The root split: grow a level.
		res = sp.spill(&wnode{ents: res}, nil)
	}
	if len(res) == 0 {
		return 0
	}
	root := res[0].child
	// A branch root with one child is replaced by the child, so the tree
	// never keeps a needless level. (The skipped branch stays in the file,
	// unreachable.)
	for {
		d, off := sp.node(root)
		if nodeKind(d, off) != kindBranch || nodeCount(d, off) != 1 {
			return root
		}
		root = branchChild(d, entAt(d, off, 0))
	}
}

// node locates the node at file offset off: below base it is in the
// mapping, above in the spill buffer.
func (sp *spiller) node(off uint64) ([]byte, uint64) {
	if off >= sp.base {
		return sp.buf, off - sp.base
	}
	return sp.t.d, off
}

// spill writes n and its edited descendants and appends to out the branch
// entries that replace n in its parent: none if n became empty, several if
// it was split.
func (sp *spiller) spill(n *wnode, out []entry) []entry {
	if n.leaf && n.lazy {
		if res, ok := sp.spillPatchedLeaf(n, out); ok {
			return res
		}
		if res, ok := sp.spillAppended(n, out); ok {
			return res
		}
		sp.t.materialise(n) // it splits or empties: write it decoded
	}
	switch {
	case n.leaf:
		for i := range n.ents {
			e := &n.ents[i]
			if e.valOff == 0 && len(e.val) > maxInline {
				e.valOff = sp.pos()
				e.valLen = uint32(len(e.val))
				sp.buf = appendValue(sp.buf, e.val)
			}
		}
	case n.lazy && !sp.anySmallKid(n):
		if res, ok := sp.spillLazy(n, out); ok {
			return res
		}
		// spillLazy materialised n with its children written; go on below.
	default:
		sp.t.materialise(n)
		sp.rebalance(n)
		ents := make([]entry, 0, len(n.ents)+2)
		for i := range n.ents {
			e := &n.ents[i]
			if e.node == nil {
				ents = append(ents, entry{key: e.key, child: e.child})
				continue
			}
			ents = sp.spill(e.node, ents)
		}
		n.ents = ents
	}
	if len(n.ents) == 0 {
		return out
	}
	for _, c := range sp.chunks(n) {
		off := sp.pos()
		sp.buf = appendNode(sp.buf, n.leaf, c)
		out = append(out, entry{key: c[0].key, child: off})
	}
	return out
}

// spillLazy writes the edited children of lazy branch n and then n itself,
// copying its other entries straight from the mapping, and returns out
// with n's new entry. When a child split or emptied, or n would outgrow
// the node size, it instead materialises n with the written children's
// entries in place and returns false; the caller then writes n as a decoded
// node.
func (sp *spiller) spillLazy(n *wnode, out []entry) ([]entry, bool) {
	slices.SortFunc(n.kids, func(a, b lazyKid) int { return cmp.Compare(a.i, b.i) })
	// res[ends[j-1]:ends[j]] replace kid j; both are scratch of this depth.
	res, ends := sp.sc.depthScratch(sp.depth)
	sp.depth++
	simple, prev := true, 0
	for _, k := range n.kids {
		res = sp.spill(k.node, res)
		ends = append(ends, len(res))
		if len(res) == prev {
			simple = false // the child emptied
		}
		prev = len(res)
	}
	sp.depth--
	sp.sc.res[sp.depth] = used(sp.sc.res[sp.depth], res)
	sp.sc.ends[sp.depth] = ends[:0]
	d := sp.t.d
	count := nodeCount(d, n.off)
	if simple {
		// Each written child replaces its entry; the entries of a child
		// that split are inserted after it, before the next clean entry.
		ps := sp.sc.patches[:0]
		from := 0
		for j, k := range n.kids {
			ps = append(ps, patch{at: k.i, drop: true, add: true, e: res[from]})
			for _, e := range res[from+1 : ends[j]] {
				ps = append(ps, patch{at: k.i + 1, add: true, e: e})
			}
			from = ends[j]
		}
		sp.sc.patches = used(sp.sc.patches, ps)
		size, cnt := patchedShape(d, n.off, false, ps)
		if size <= sp.nodeSize || count < 4 {
			off := sp.pos()
			first := patchedFirst(d, n.off, false, ps)
			sp.buf = appendPatched(sp.buf, d, n.off, false, ps, size, cnt)
			return append(out, entry{key: first, child: off}), true
		}
	}
	// Shape changed: decode n, with each written child replaced by the
	// entries it became.
	ents := make([]entry, 0, count+len(res))
	j, from := 0, 0
	for i := range count {
		if j < len(n.kids) && n.kids[j].i == i {
			ents = append(ents, res[from:ends[j]]...)
			from = ends[j]
			j++
			continue
		}
		e := entAt(d, n.off, i)
		ents = append(ents, entry{key: branchKey(d, e), child: branchChild(d, e)})
	}
	n.ents, n.lazy, n.kids = ents, false, nil
	return out, false
}

// chunks splits n's entries into nodes of about nodeSize bytes each, with
// at least two entries per node.
func (sp *spiller) chunks(n *wnode) [][]entry {
	total := nodeSize(n.leaf, n.ents)
	if total <= sp.nodeSize || len(n.ents) < 4 {
		return [][]entry{n.ents}
	}
	k := (total + sp.nodeSize - 1) / sp.nodeSize
	target := total / k
	var out [][]entry
	start, acc := 0, recHdrSize
	for i := range n.ents {
		sz := entSize(n.leaf, &n.ents[i])
		if acc+sz > target && i-start >= 2 && len(n.ents)-i >= 2 {
			out = append(out, n.ents[start:i])
			start, acc = i, recHdrSize
		}
		acc += sz
	}
	return append(out, n.ents[start:])
}

// size returns the encoded size of an edited node (for a lazy branch, the
// size of the clean node it mirrors: its children are not spilled yet).
func (sp *spiller) size(n *wnode) int {
	switch {
	case n.lazy && n.leaf:
		size, _ := patchedShape(sp.t.d, n.off, true, n.edits)
		return size
	case n.lazy:
		return int(nodeLen(sp.t.d, n.off))
	}
	return nodeSize(n.leaf, n.ents)
}

// anySmallKid reports whether an edited child of lazy branch n is below
// the merge threshold.
func (sp *spiller) anySmallKid(n *wnode) bool {
	for _, k := range n.kids {
		if sp.size(k.node) < sp.nodeSize/4 {
			return true
		}
	}
	return false
}

// rebalance merges each edited child of n that fell below a quarter of the
// node size into a neighbour, so deletions do not leave a tree of slivers.
// The merged node may be oversized; spill splits it again. n is decoded
// and none of its children is written yet.
func (sp *spiller) rebalance(n *wnode) {
	minFill := sp.nodeSize / 4
	for i := 0; i < len(n.ents) && len(n.ents) > 1; {
		c := n.ents[i].node
		if c == nil || sp.size(c) >= minFill {
			i++
			continue
		}
		a := i
		if a == len(n.ents)-1 {
			a--
		}
		left := sp.edit(&n.ents[a])
		right := sp.edit(&n.ents[a+1])
		left.ents = append(left.ents, right.ents...)
		n.ents = slices.Delete(n.ents, a+1, a+2)
		i = a // look at the merged node again
	}
}

// edit returns the decoded wnode of a branch entry, decoding it if needed.
func (sp *spiller) edit(e *entry) *wnode {
	if e.node == nil {
		e.node = decodeNode(sp.t.d, e.child)
	}
	sp.t.materialise(e.node)
	return e.node
}
