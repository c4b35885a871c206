package store

// A patched node is a copy of a clean node from the mapping with a few
// entries replaced, inserted or removed. It is written by copying the
// clean entries between the patches as whole byte ranges (the entries of a
// record are laid out in index order) and shifting their offsets, so a
// commit that changes one key of a 4 KiB node copies about 4 KiB and
// rewrites one u32 per entry, instead of decoding every entry and encoding
// it again.

// patch is one change to the entries of a clean node, at clean index at:
// drop removes the clean entry at that index, add puts e before the next
// clean entry (in place of the dropped one, if any). Patches of a node are
// kept sorted by key, so their at are non-decreasing, and an insert before
// clean entry i comes before a patch that drops entry i.
type patch struct {
	at        int
	drop, add bool
	e         entry
}

// cleanSpan returns the byte range [a, z) of the entries with clean index
// in [i, j) of the node at off, relative to the node.
func cleanSpan(d []byte, off uint64, count, i, j int) (uint64, uint64) {
	rel := func(k int) uint64 {
		if k >= count {
			return nodeLen(d, off)
		}
		return uint64(le.Uint32(d[off+recHdrSize+4*uint64(k):]))
	}
	return rel(i), rel(j)
}

// patchedShape returns the encoded size and entry count of the node at off
// with ps applied.
func patchedShape(d []byte, off uint64, leaf bool, ps []patch) (size, count int) {
	n := nodeCount(d, off)
	size, count = int(nodeLen(d, off)), n
	for i := range ps {
		p := &ps[i]
		if p.drop {
			a, z := cleanSpan(d, off, n, p.at, p.at+1)
			size -= 4 + int(z-a)
			count--
		}
		if p.add {
			size += entSize(leaf, &p.e)
			count++
		}
	}
	return size, count
}

// patchedFirst returns the first key of the node at off with ps applied;
// the node must not become empty.
func patchedFirst(d []byte, off uint64, leaf bool, ps []patch) []byte {
	cur := 0
	for i := range ps {
		p := &ps[i]
		if cur < p.at {
			break
		}
		if p.add {
			return p.e.key
		}
		if p.drop {
			cur = p.at + 1
		}
	}
	e := entAt(d, off, cur)
	if leaf {
		return leafKey(d, e)
	}
	return branchKey(d, e)
}

// appendPatched appends the node at off in d with ps applied, of the size
// and count patchedShape computed. New leaf entries with out-of-line values
// must have their value records already; new branch entries their child
// on disk.
func appendPatched(buf, d []byte, off uint64, leaf bool, ps []patch, size, count int) []byte {
	n := nodeCount(d, off)
	start := len(buf)
	buf = grow(buf, size)
	b := buf[start:]
	kind := byte(kindBranch)
	if leaf {
		kind = kindLeaf
	}
	putRecHdr(b, kind, count, size)
	p := recHdrSize + 4*count // where the next entry goes
	slot := 0                 // the next offset slot
	copyClean := func(i, j int) {
		if i >= j {
			return
		}
		a, z := cleanSpan(d, off, n, i, j)
		src := d[off+recHdrSize+4*uint64(i) : off+recHdrSize+4*uint64(j)]
		dst := b[recHdrSize+4*slot : recHdrSize+4*(slot+j-i)]
		shiftOffsets(dst, src, int64(p)-int64(a))
		slot += j - i
		p += copy(b[p:], d[off+a:off+z])
	}
	cur := 0
	for i := range ps {
		x := &ps[i]
		copyClean(cur, x.at)
		cur = max(cur, x.at)
		if x.add {
			le.PutUint32(b[recHdrSize+4*slot:], uint32(p))
			slot++
			p = putEntry(b, p, leaf, &x.e)
		}
		if x.drop {
			cur = x.at + 1
		}
	}
	copyClean(cur, n)
	if p != size || slot != count {
		panic("store: patched node size mismatch") // size and count come from patchedShape over the same patches
	}
	return buf
}

// shiftOffsets writes to dst the u32 offsets of src plus shift. Every
// result lies in [0, 2^32) (they are offsets inside one record), so two
// offsets are shifted per 64-bit add or subtract without a carry or borrow
// crossing from one to the other.
func shiftOffsets(dst, src []byte, shift int64) {
	dst = dst[:len(src)]
	k := 0
	if shift >= 0 {
		s2 := uint64(shift) | uint64(shift)<<32
		for ; k+8 <= len(src); k += 8 {
			le.PutUint64(dst[k:k+8], le.Uint64(src[k:k+8])+s2)
		}
	} else {
		s2 := uint64(-shift) | uint64(-shift)<<32
		for ; k+8 <= len(src); k += 8 {
			le.PutUint64(dst[k:k+8], le.Uint64(src[k:k+8])-s2)
		}
	}
	if k < len(src) {
		le.PutUint32(dst[k:k+4], uint32(int64(le.Uint32(src[k:k+4]))+shift))
	}
}
