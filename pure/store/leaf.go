package store

import (
	"bytes"
	"slices"
)

// A lazy leaf is an edited leaf that still reads its entries from the clean
// node at off and lists the keys put or deleted as patches, sorted by key
// (see patch.go). Each patch records the clean index its key sorts at and
// whether it replaces the clean entry there, so spilling writes the leaf
// as patched byte ranges without decoding it.

// findEdit returns the index of key among the edits of lazy leaf n and
// whether it is there.
func (n *wnode) findEdit(key []byte) (int, bool) {
	return slices.BinarySearchFunc(n.edits, key, func(p patch, k []byte) int { return bytes.Compare(p.e.key, k) })
}

// lazyPut sets e in lazy leaf n.
func (t *wtree) lazyPut(n *wnode, e entry) {
	var i, lo int
	var ok bool
	if k := len(n.edits); k > 0 && bytes.Compare(n.edits[k-1].e.key, e.key) < 0 {
		// After every edit, as when a fold applies sorted keys: no
		// search of the edits, and the clean entries before the last
		// edit's need no search either.
		i, lo = k, n.edits[k-1].at
	} else {
		i, ok = n.findEdit(e.key)
	}
	if ok {
		p := &n.edits[i]
		if !p.add {
			t.count++ // a deleted clean key comes back
		}
		p.add, p.e = true, e
		return
	}
	at, found := leafSearchFrom(t.d, n.off, e.key, lo)
	if !found {
		t.count++
	}
	t.insertEdit(n, i, patch{at: at, drop: found, add: true, e: e})
}

// insertEdit inserts p at index i of lazy leaf n's edits, growing the
// list into the group's arena rather than by append.
func (t *wtree) insertEdit(n *wnode, i int, p patch) {
	if len(n.edits) == cap(n.edits) {
		n.edits = t.nodes.growEdits(n.edits)
	}
	n.edits = slices.Insert(n.edits, i, p)
}

// leafSearchFrom is leafSearch given that no entry below lo is >= key.
// (The writer's own: leafSearch, on the readers' path, stays as it is.)
func leafSearchFrom(d []byte, off uint64, key []byte, lo int) (int, bool) {
	n := nodeCount(d, off)
	hi := n
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(leafKey(d, entAt(d, off, m)), key) < 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo, lo < n && bytes.Equal(leafKey(d, entAt(d, off, lo)), key)
}

// lazyDel removes key from lazy leaf n.
func (t *wtree) lazyDel(n *wnode, key []byte) {
	i, ok := n.findEdit(key)
	if ok {
		p := &n.edits[i]
		if !p.add {
			return // deleted already
		}
		t.count--
		if p.drop {
			p.add, p.e = false, entry{key: p.e.key} // delete the clean entry
		} else {
			n.edits = slices.Delete(n.edits, i, i+1) // undo an insert
		}
		return
	}
	at, found := leafSearch(t.d, n.off, key)
	if !found {
		return
	}
	t.count--
	k := leafKey(t.d, entAt(t.d, n.off, at))
	t.insertEdit(n, i, patch{at: at, drop: true, e: entry{key: k}})
}

// applyPatches returns the decoded entries of a clean node with ps
// applied.
func applyPatches(ents []entry, ps []patch) []entry {
	out := make([]entry, 0, len(ents)+len(ps)+1)
	cur := 0
	for i := range ps {
		p := &ps[i]
		if cur < p.at {
			out = append(out, ents[cur:p.at]...)
			cur = p.at
		}
		if p.add {
			out = append(out, p.e)
		}
		if p.drop {
			cur = p.at + 1
		}
	}
	return append(out, ents[cur:]...)
}

// spillPatchedLeaf writes lazy leaf n as a patched copy of its clean node,
// values first, and returns out with n's new entry. It returns false,
// writing nothing, when the leaf must split or became empty.
func (sp *spiller) spillPatchedLeaf(n *wnode, out []entry) ([]entry, bool) {
	d := sp.t.d
	size, count := patchedShape(d, n.off, true, n.edits)
	if count == 0 || (size > sp.nodeSize && count >= 4) {
		return out, false
	}
	for i := range n.edits {
		e := &n.edits[i].e
		if n.edits[i].add && e.valOff == 0 && len(e.val) > maxInline {
			e.valOff = sp.pos()
			e.valLen = uint32(len(e.val))
			sp.buf = appendValue(sp.buf, e.val)
		}
	}
	first := patchedFirst(d, n.off, true, n.edits)
	off := sp.pos()
	sp.buf = appendPatched(sp.buf, d, n.off, true, n.edits, size, count)
	return append(out, entry{key: first, child: off}), true
}

// spillAppended writes lazy leaf n when every edit is a key inserted at
// one place of its clean node, after its first key, and they make it
// outgrow the node size, as when each writer appends to its own range of
// keys. After the last key, the clean node stays where it is and only the
// new keys are written, as new leaves after it; before the clean keys from
// some index on (at a range's edge, the next range's first keys), the
// clean node is cut there: its head is rewritten without them, the new
// keys follow as new leaves, and the tail is written as a leaf of its own,
// so that later keys of the range are put after every key of their leaf.
// It returns false, writing nothing, when n has any other edit, the clean
// node's head is less than half full, or the new keys would make a leaf
// below the rebalancing threshold (a quarter of the node size); then the
// caller splits n evenly.
func (sp *spiller) spillAppended(n *wnode, out []entry) ([]entry, bool) {
	d := sp.t.d
	count := nodeCount(d, n.off)
	if count == 0 || len(n.edits) == 0 {
		return out, false
	}
	at := n.edits[0].at
	if at == 0 {
		return out, false
	}
	size := recHdrSize
	for i := range n.edits {
		p := &n.edits[i]
		if p.drop || !p.add || p.at != at {
			return out, false
		}
		size += entSize(true, &p.e)
	}
	if size < sp.nodeSize/4 {
		return out, false
	}
	var head, tail []patch
	if at < count {
		// Inserted before the clean entries from at: the clean node is
		// cut there, its head rewritten without them, its tail apart.
		for i := at; i < count; i++ {
			head = append(head, patch{at: i, drop: true})
		}
		for i := range at {
			tail = append(tail, patch{at: i, drop: true})
		}
	}
	hsize, hcount := patchedShape(d, n.off, true, head)
	if hsize < sp.nodeSize/2 {
		return out, false
	}
	if at == count {
		out = append(out, entry{key: leafKey(d, entAt(d, n.off, 0)), child: n.off})
	} else {
		off := sp.pos()
		sp.buf = appendPatched(sp.buf, d, n.off, true, head, hsize, hcount)
		out = append(out, entry{key: leafKey(d, entAt(d, n.off, 0)), child: off})
	}
	ents := make([]entry, len(n.edits))
	for i := range n.edits {
		ents[i] = n.edits[i].e
		if e := &ents[i]; e.valOff == 0 && len(e.val) > maxInline {
			e.valOff = sp.pos()
			e.valLen = uint32(len(e.val))
			sp.buf = appendValue(sp.buf, e.val)
		}
	}
	for _, c := range sp.chunks(&wnode{leaf: true, ents: ents}) {
		off := sp.pos()
		sp.buf = appendNode(sp.buf, true, c)
		out = append(out, entry{key: c[0].key, child: off})
	}
	if at < count {
		tsize, tcount := patchedShape(d, n.off, true, tail)
		off := sp.pos()
		sp.buf = appendPatched(sp.buf, d, n.off, true, tail, tsize, tcount)
		out = append(out, entry{key: leafKey(d, entAt(d, n.off, at)), child: off})
	}
	return out, true
}
