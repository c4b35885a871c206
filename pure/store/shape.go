package store

// The readers of node.go trust the mapping. Two places reach nodes that
// nothing has verified: Check, which must find any damage, and the overlay
// built at a plain Open, which looks keys up in a tree under the newest
// checkpoint whose bytes Open does not re-read (recover.go). Both go
// through nodeShape first, so a damaged node is an ErrCorrupt, never a
// read outside the file.

// maxTreeDepth bounds the depth of a tree that is walked without trust, so
// that a damaged branch pointing back up cannot loop.
const maxTreeDepth = 64

// nodeShape checks the layout of the node record at off, n bytes long
// (its header already checked to lie inside the file): at least one entry;
// every entry offset inside the record, after the offset table and in
// order; and each entry's fixed part, key and inline value (or value
// offset) inside the room up to the next entry, with a key of 1 to
// MaxKeySize bytes and no unknown flag. After it, entAt, leafKey, leafVal
// of an inline value, branchKey and branchChild of any entry of the node
// stay inside the record.
func nodeShape(d []byte, off, n uint64) error {
	count := uint64(nodeCount(d, off))
	leaf := d[off] == kindLeaf
	if count == 0 || recHdrSize+4*count > n {
		return errorf(ErrCorrupt, "node at %d: %d entries do not fit %d bytes", off, count, n)
	}
	for i := range count {
		eo := uint64(le.Uint32(d[off+recHdrSize+4*i:]))
		next := n
		if i+1 < count {
			next = uint64(le.Uint32(d[off+recHdrSize+4*(i+1):]))
		}
		if eo < recHdrSize+4*count || next > n || eo > next {
			return errorf(ErrCorrupt, "node at %d: entry %d at %d..%d out of bounds", off, i, eo, next)
		}
		e, room := off+eo, next-eo
		var need, kl uint64
		if leaf {
			if room < leafEntFixed {
				return errorf(ErrCorrupt, "leaf at %d: entry at %d truncated", off, e)
			}
			kl = uint64(le.Uint16(d[e+12:]))
			need = leafEntFixed + kl
			if d[e+14]&leafFlagOutline != 0 {
				need += 8
			} else {
				need += uint64(le.Uint32(d[e+8:]))
			}
			if d[e+14]&^leafFlagOutline != 0 {
				need = room + 1 // an unknown flag: malformed
			}
		} else {
			if room < branchEntFixed {
				return errorf(ErrCorrupt, "branch at %d: entry at %d truncated", off, e)
			}
			kl = uint64(le.Uint16(d[e+8:]))
			need = branchEntFixed + kl
		}
		if need > room || kl == 0 || kl > MaxKeySize {
			return errorf(ErrCorrupt, "node at %d: entry at %d malformed", off, e)
		}
	}
	return nil
}

// lookupChecked is lookup for a tree that was not verified: it checks the
// bounds and shape of every node on the way down (as Check does, without
// the order of keys or the revisions) and returns ErrCorrupt where lookup
// would read outside the file. Its cost is a pass over each node it
// visits, so it serves opening and compaction, not reads.
func lookupChecked(d []byte, root uint64, key []byte) (bool, error) {
	if root == 0 {
		return false, nil
	}
	c := checker{d: d, base: dataStart(d), limit: uint64(len(d))}
	off := root
	for depth := 0; ; depth++ {
		if depth > maxTreeDepth {
			return false, errorf(ErrCorrupt, "node at %d: tree deeper than %d levels", off, maxTreeDepth)
		}
		n, err := c.record(off, "LB")
		if err != nil {
			return false, err
		}
		c.exts = c.exts[:0]
		if err := nodeShape(d, off, n); err != nil {
			return false, err
		}
		if d[off] == kindLeaf {
			_, ok := leafSearch(d, off, key)
			return ok, nil
		}
		off = branchChild(d, entAt(d, off, branchSearch(d, off, key)))
	}
}
