package store

import "bytes"

// A node record is
//
//	header   kind ('L' leaf or 'B' branch) u8, flags u8, count u16, len u32
//	offsets  count × u32, each entry's offset from the start of the record
//	entries
//
// A leaf entry is
//
//	rev u64, valLen u32, keyLen u16, flags u8, pad u8,
//	[valOff u64 when flags&leafFlagOutline], key, [value when inline]
//
// and a branch entry is
//
//	child u64, keyLen u16, key
//
// where key is the first key of the child's subtree.
//
// The functions below read nodes straight from the mapping. They trust it:
// every byte they reach was verified by a checksum when the store was opened,
// or when it was written under a checkpoint that a plain Open does not
// re-read, or was written by this process. Check, and the overlay built at
// Open, walk unverified nodes through nodeShape first (shape.go).

func nodeKind(d []byte, off uint64) byte { return d[off] }

func nodeCount(d []byte, off uint64) int { return int(le.Uint16(d[off+2:])) }

func nodeLen(d []byte, off uint64) uint64 { return uint64(le.Uint32(d[off+4:])) }

// entAt returns the absolute offset of entry i of the node at off.
func entAt(d []byte, off uint64, i int) uint64 {
	return off + uint64(le.Uint32(d[off+recHdrSize+4*uint64(i):]))
}

func branchChild(d []byte, e uint64) uint64 { return le.Uint64(d[e:]) }

func branchKey(d []byte, e uint64) []byte {
	kl := uint64(le.Uint16(d[e+8:]))
	return d[e+branchEntFixed : e+branchEntFixed+kl : e+branchEntFixed+kl]
}

func leafRev(d []byte, e uint64) uint64 { return le.Uint64(d[e:]) }

func leafKey(d []byte, e uint64) []byte {
	kl := uint64(le.Uint16(d[e+12:]))
	k := e + leafEntFixed
	if d[e+14]&leafFlagOutline != 0 {
		k += 8
	}
	return d[k : k+kl : k+kl] // capped: an append by the caller must copy, never write into the mapping
}

// leafVal returns the value of the leaf entry at e, inline or out of line.
func leafVal(d []byte, e uint64) []byte {
	vl := uint64(le.Uint32(d[e+8:]))
	kl := uint64(le.Uint16(d[e+12:]))
	if d[e+14]&leafFlagOutline != 0 {
		v := le.Uint64(d[e+16:]) + recHdrSize
		return d[v : v+vl : v+vl]
	}
	v := e + leafEntFixed + kl
	return d[v : v+vl : v+vl]
}

// branchSearch returns the index of the child whose subtree holds key: the
// last entry whose key is <= key, or 0.
func branchSearch(d []byte, off uint64, key []byte) int {
	lo, hi := 1, nodeCount(d, off)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if bytes.Compare(branchKey(d, entAt(d, off, m)), key) <= 0 {
			lo = m + 1
		} else {
			hi = m
		}
	}
	return lo - 1
}

// leafSearch returns the index of the first entry whose key is >= key and
// whether it is equal.
func leafSearch(d []byte, off uint64, key []byte) (int, bool) {
	n := nodeCount(d, off)
	lo, hi := 0, n
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

// lookup finds key in the tree rooted at root and returns its leaf entry.
func lookup(d []byte, root uint64, key []byte) (uint64, bool) {
	if root == 0 {
		return 0, false
	}
	off := root
	for nodeKind(d, off) == kindBranch {
		off = branchChild(d, entAt(d, off, branchSearch(d, off, key)))
	}
	i, ok := leafSearch(d, off, key)
	if !ok {
		return 0, false
	}
	return entAt(d, off, i), true
}

// wnode is a node being edited by the writer: decoded from the mapping or
// new. Its keys and values point into the mapping or into transaction
// buffers, which stay alive until the group that edits it is written.
type wnode struct {
	leaf bool
	ents []entry // decoded entries, unless lazy
	// Lazy nodes (see wtree): the clean node at off, with its changes
	// listed instead of decoded entries: for a branch, the children being
	// edited (kids); for a leaf, the keys put or deleted (edits, sorted by
	// key).
	lazy  bool
	off   uint64
	kids  []lazyKid
	edits []patch
	// Room for the first kid or edit, so the usual single change of a
	// commit does not allocate.
	kid0  [1]lazyKid
	edit0 [1]patch
}

// entry is one leaf or branch entry of a wnode.
type entry struct {
	key []byte
	// Leaf entries.
	rev    uint64
	val    []byte // the value, unless it is out of line on disk already
	valOff uint64 // offset of its value record once it has one
	valLen uint32
	// Branch entries: the child on disk, or its edited copy.
	child uint64
	node  *wnode
}

// outline reports whether a leaf entry's value lives in a value record.
func (e *entry) outline() bool { return e.valOff != 0 || len(e.val) > maxInline }

func entSize(leaf bool, e *entry) int {
	if !leaf {
		return 4 + branchEntFixed + len(e.key)
	}
	n := 4 + leafEntFixed + len(e.key)
	if e.outline() {
		return n + 8
	}
	return n + len(e.val)
}

func nodeSize(leaf bool, ents []entry) int {
	n := recHdrSize
	for i := range ents {
		n += entSize(leaf, &ents[i])
	}
	return n
}

// decodeNode copies the node at off into a new wnode. Keys and inline
// values still point into d.
func decodeNode(d []byte, off uint64) *wnode {
	n := nodeCount(d, off)
	w := &wnode{leaf: nodeKind(d, off) == kindLeaf, ents: make([]entry, n, n+1)}
	for i := range n {
		e := entAt(d, off, i)
		x := &w.ents[i]
		if !w.leaf {
			x.key = branchKey(d, e)
			x.child = branchChild(d, e)
			continue
		}
		x.key = leafKey(d, e)
		x.rev = leafRev(d, e)
		x.valLen = le.Uint32(d[e+8:])
		if d[e+14]&leafFlagOutline != 0 {
			x.valOff = le.Uint64(d[e+16:])
		} else {
			x.val = leafVal(d, e)
		}
	}
	return w
}

// appendNode appends the record of a node holding ents to buf. Every
// out-of-line value must have its value record already (valOff != 0) and
// every branch entry its child on disk.
func appendNode(buf []byte, leaf bool, ents []entry) []byte {
	size := nodeSize(leaf, ents)
	start := len(buf)
	buf = grow(buf, size)
	b := buf[start:]
	kind := byte(kindBranch)
	if leaf {
		kind = kindLeaf
	}
	putRecHdr(b, kind, len(ents), size)
	p := recHdrSize + 4*len(ents)
	for i := range ents {
		le.PutUint32(b[recHdrSize+4*i:], uint32(p))
		p = putEntry(b, p, leaf, &ents[i])
	}
	return buf
}

// putEntry encodes x at b[p:] and returns where the next entry goes.
func putEntry(b []byte, p int, leaf bool, x *entry) int {
	if !leaf {
		if x.node != nil || x.child == 0 {
			panic("store: branch entry without a written child") // spill writes children first
		}
		le.PutUint64(b[p:], x.child)
		le.PutUint16(b[p+8:], uint16(len(x.key)))
		p += branchEntFixed
		return p + copy(b[p:], x.key)
	}
	le.PutUint64(b[p:], x.rev)
	le.PutUint16(b[p+12:], uint16(len(x.key)))
	b[p+15] = 0
	if x.outline() {
		if x.valOff == 0 {
			panic("store: out-of-line value without a value record") // spill writes values first
		}
		le.PutUint32(b[p+8:], x.valLen)
		b[p+14] = leafFlagOutline
		le.PutUint64(b[p+16:], x.valOff)
		p += leafEntFixed + 8
		return p + copy(b[p:], x.key)
	}
	le.PutUint32(b[p+8:], uint32(len(x.val)))
	b[p+14] = 0
	p += leafEntFixed
	p += copy(b[p:], x.key)
	return p + copy(b[p:], x.val)
}

// appendValue appends a value record holding v to buf.
func appendValue(buf []byte, v []byte) []byte {
	start := len(buf)
	buf = grow(buf, recHdrSize+len(v))
	putRecHdr(buf[start:], kindValue, 0, recHdrSize+len(v))
	copy(buf[start+recHdrSize:], v)
	return buf
}

// grow extends buf by n bytes, reallocating at most by doubling.
func grow(buf []byte, n int) []byte {
	if cap(buf)-len(buf) < n {
		nb := make([]byte, len(buf), 2*cap(buf)+n)
		copy(nb, buf)
		buf = nb
	}
	return buf[:len(buf)+n]
}
