package store

import (
	"bytes"
	"cmp"
	"slices"
)

// Check verifies the current version of the store and returns an error
// wrapping ErrCorrupt that says what and where, or nil. It verifies:
//
//   - the chain of heads back to the first in the file: each head's own
//     checksum, its data checksum over the records it added, and sequence
//     numbers decreasing by one; and that each valid checkpoint slot names
//     a head of that chain;
//   - every node reachable from the root: record bounds below the head,
//     entry layout, keys in strictly increasing order across the whole
//     tree, each branch key equal to the first key of its child, all leaves
//     at the same depth, revisions between 1 and the head's revision, value
//     records of out-of-line values, and the key count;
//   - the log records over the tree, if any: record bounds, entry layout,
//     revisions, and the key count of tree and records together;
//   - that no two reachable records (nodes, values, log records) overlap.
//
// It reads a pinned snapshot, so it runs alongside readers and commits. It
// costs time proportional to the file size.
func (s *Store) Check() error {
	v := s.acquireCurrent()
	if v == nil {
		return ErrClosed
	}
	defer v.m.release()
	return checkFull(v.m.data, v.h)
}

// checkFull verifies every head in the chain and the tree of h.
func checkFull(d []byte, h head) error {
	if err := checkChain(d, h); err != nil {
		return err
	}
	return checkTree(d, h)
}

// checkVersion verifies the newest head's records and the tree of h; used
// after every commit in strict mode, where older heads were verified before.
func checkVersion(d []byte, h head) error {
	if h.off != 0 {
		got, ok := decodeHead(d, h.off)
		if !ok || got != h {
			return errorf(ErrCorrupt, "head at %d does not read back as written", h.off)
		}
		if !verifyHead(d, &h) {
			return errorf(ErrCorrupt, "head at %d: data checksum mismatch", h.off)
		}
	}
	return checkTree(d, h)
}

// checkChain verifies the heads from h back to the first, and that every
// valid checkpoint slot naming a head up to h names one of them (a slot
// being written may be torn: an invalid slot is not an error).
func checkChain(d []byte, h head) error {
	ck := [2]checkpoint{noCheckpoint(), noCheckpoint()}
	if dataStart(d) == dataStartV2 {
		for i := range 2 {
			if ch, ok := decodeSlot(d, i); ok && ch.seq <= h.seq {
				ck[i] = checkpoint{slot: i, h: ch}
			}
		}
	}
	for off, seq := h.off, h.seq; off != 0; seq-- {
		got, ok := decodeHead(d, off)
		switch {
		case !ok:
			return errorf(ErrCorrupt, "head at %d: bad record or checksum", off)
		case got.seq != seq:
			return errorf(ErrCorrupt, "head at %d: seq %d, want %d", off, got.seq, seq)
		case got.prev >= off:
			return errorf(ErrCorrupt, "head at %d: previous head at %d is not before it", off, got.prev)
		case !verifyHead(d, &got):
			return errorf(ErrCorrupt, "head at %d (seq %d): data checksum mismatch", off, seq)
		}
		for i, c := range ck {
			if c.slot >= 0 && c.h.seq == seq {
				if c.h != got {
					return errorf(ErrCorrupt, "checkpoint slot %d names a head at %d, the chain has seq %d at %d", i, c.h.off, seq, off)
				}
				ck[i].slot = -1
			}
		}
		off = got.prev
	}
	for i, c := range ck {
		if c.slot >= 0 {
			return errorf(ErrCorrupt, "checkpoint slot %d names a head at %d (seq %d) that is not in the chain", i, c.h.off, c.h.seq)
		}
	}
	return nil
}

type extent struct{ off, len uint64 }

type checker struct {
	d         []byte
	base      uint64 // records begin here
	limit     uint64 // records must end at or before it: the head's offset
	maxRev    uint64
	exts      []extent
	keys      uint64
	leafDepth int
	last      []byte // last key seen, in order
}

func checkTree(d []byte, h head) error {
	_, err := checkRecords(d, h)
	return err
}

// checkRecords is checkTree; it also returns the checker, whose extents are
// every record the version reaches.
func checkRecords(d []byte, h head) (*checker, error) {
	c := &checker{d: d, base: dataStart(d), limit: h.off, maxRev: h.rev, leafDepth: -1}
	// Log records over the tree (logrec.go): bounds, entries, revisions.
	recs, tree, err := logChain(d, h.root)
	if err != nil {
		return nil, err
	}
	if len(recs) > 0 && fileVersion(d) < formatV3 {
		return nil, errorf(ErrCorrupt, "head at %d names a log record at %d in a version %d file", h.off, h.root, fileVersion(d))
	}
	for _, r := range recs {
		if _, err := c.record(r, "D"); err != nil {
			return nil, err
		}
		err := logEntries(d, r, func(e uint64) error {
			rev, vl, kl, fl := le.Uint64(d[e:]), le.Uint32(d[e+8:]), le.Uint16(d[e+12:]), d[e+14]
			if kl == 0 || kl > MaxKeySize || fl&^logFlagDelete != 0 || (fl&logFlagDelete != 0 && vl != 0) {
				return errorf(ErrCorrupt, "log record at %d: entry at %d malformed", r, e)
			}
			if rev == 0 || rev > c.maxRev {
				return errorf(ErrCorrupt, "log record at %d: key %q has revision %d outside [1, %d]", r, logKey(d, e), rev, c.maxRev)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	want := h.count
	if tree != 0 {
		if _, err := c.node(tree, 0); err != nil {
			return nil, err
		}
		if kind := d[tree]; kind == kindBranch && nodeCount(d, tree) < 2 {
			return nil, errorf(ErrCorrupt, "root branch at %d has one child", tree)
		}
	}
	if len(recs) > 0 {
		ov, err := buildOverlay(d, h.root, h.count)
		if err != nil {
			return nil, err
		}
		want = ov.treeCount // version 4: h.count; version 3: h.count less what the log records add to the tree
	}
	if c.keys != want {
		return nil, errorf(ErrCorrupt, "head at %d counts %d keys, tree and log records have %d", h.off, h.count, h.count-want+c.keys)
	}
	slices.SortFunc(c.exts, func(a, b extent) int { return cmp.Compare(a.off, b.off) })
	for i := 1; i < len(c.exts); i++ {
		if p := c.exts[i-1]; p.off+p.len > c.exts[i].off {
			return nil, errorf(ErrCorrupt, "records at %d (+%d) and %d overlap", p.off, p.len, c.exts[i].off)
		}
	}
	return c, nil
}

// record checks that a record of the given kind starts at off and ends
// below the limit, and returns its length.
func (c *checker) record(off uint64, kinds string) (uint64, error) {
	if off < c.base || off >= c.limit || c.limit-off < recHdrSize {
		return 0, errorf(ErrCorrupt, "record offset %d outside [%d, %d)", off, c.base, c.limit)
	}
	n := uint64(le.Uint32(c.d[off+4:]))
	if n < recHdrSize || n > c.limit-off {
		return 0, errorf(ErrCorrupt, "record at %d: length %d runs past %d", off, n, c.limit)
	}
	if bytes.IndexByte([]byte(kinds), c.d[off]) < 0 {
		return 0, errorf(ErrCorrupt, "record at %d: kind %q, want one of %q", off, c.d[off], kinds)
	}
	c.exts = append(c.exts, extent{off, n})
	return n, nil
}

// node checks the subtree at off and returns its first key.
func (c *checker) node(off uint64, depth int) ([]byte, error) {
	if depth > maxTreeDepth {
		return nil, errorf(ErrCorrupt, "node at %d: tree deeper than %d levels", off, maxTreeDepth)
	}
	n, err := c.record(off, "LB")
	if err != nil {
		return nil, err
	}
	if err := nodeShape(c.d, off, n); err != nil {
		return nil, err
	}
	d := c.d
	leaf := d[off] == kindLeaf
	var first []byte
	for i := range nodeCount(d, off) {
		e := entAt(d, off, i)
		var key []byte
		if leaf {
			key, err = c.leafEntry(off, e)
		} else {
			key, err = c.branchEntry(off, e, depth)
		}
		if err != nil {
			return nil, err
		}
		if i == 0 {
			first = key
		}
	}
	if leaf {
		if c.leafDepth < 0 {
			c.leafDepth = depth
		} else if c.leafDepth != depth {
			return nil, errorf(ErrCorrupt, "leaf at %d at depth %d, others at %d", off, depth, c.leafDepth)
		}
	}
	return first, nil
}

// leafEntry checks what nodeShape left of the leaf entry at e: its
// revision, the order of its key, and its value record if out of line.
func (c *checker) leafEntry(off, e uint64) ([]byte, error) {
	d := c.d
	rev, vl := le.Uint64(d[e:]), uint64(le.Uint32(d[e+8:]))
	key := leafKey(d, e)
	if rev == 0 || rev > c.maxRev {
		return nil, errorf(ErrCorrupt, "leaf at %d: key %q has revision %d outside [1, %d]", off, key, rev, c.maxRev)
	}
	if c.last != nil && bytes.Compare(c.last, key) >= 0 {
		return nil, errorf(ErrCorrupt, "leaf at %d: key %q does not follow %q", off, key, c.last)
	}
	c.last = key
	c.keys++
	if d[e+14]&leafFlagOutline != 0 {
		vo := le.Uint64(d[e+16:])
		n, err := c.record(vo, "V")
		if err != nil {
			return nil, err
		}
		if n != recHdrSize+vl {
			return nil, errorf(ErrCorrupt, "value record at %d: %d bytes, entry says %d", vo, n-recHdrSize, vl)
		}
	}
	return key, nil
}

// branchEntry checks the child of the branch entry at e, whose first key
// must be the entry's key.
func (c *checker) branchEntry(off, e uint64, depth int) ([]byte, error) {
	d := c.d
	key := branchKey(d, e)
	child := branchChild(d, e)
	first, err := c.node(child, depth+1)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(first, key) {
		return nil, errorf(ErrCorrupt, "branch at %d: key %q but child at %d starts at %q", off, key, child, first)
	}
	return key, nil
}

// checkOverlay verifies ov, the overlay a commit leader merged for the
// version with head h (nil when h names a tree), against the one Open
// builds from h's log records: the same entries in the same order, the
// same tree below them, its runs well formed (ovrun.go), and every key in
// its filter. A difference is a bug in the store, reported as ErrCorrupt
// (strict mode).
func checkOverlay(d []byte, h head, ov *overlay) error {
	want, err := buildOverlay(d, h.root, h.count)
	switch {
	case err != nil:
		return err
	case (want == nil) != (ov == nil):
		return errorf(ErrCorrupt, "head at %d: the writer's overlay is %v, its records' %v (a bug in the store)", h.off, ov != nil, want != nil)
	case ov == nil:
		return nil
	}
	if err := ov.checkRuns(d); err != nil {
		return errorf(ErrCorrupt, "head at %d: %v (a bug in the store)", h.off, err)
	}
	if ov.n != want.n || ov.tree != want.tree || ov.treeCount != want.treeCount {
		return errorf(ErrCorrupt, "head at %d: the writer's overlay holds %d entries over tree %d (%d keys), its records %d over %d (%d)",
			h.off, ov.n, ov.tree, ov.treeCount, want.n, want.tree, want.treeCount)
	}
	var got []uint64
	ov.all(func(e uint64) { got = append(got, e) })
	i := 0
	var bad error
	want.all(func(e uint64) {
		switch {
		case bad != nil:
		case got[i] != e:
			bad = errorf(ErrCorrupt, "head at %d: the writer's overlay entry %d is at %d, its records' at %d (a bug in the store)", h.off, i, got[i], e)
		case !ov.mayHave(logKey(d, e)):
			bad = errorf(ErrCorrupt, "head at %d: overlay key %q not in its filter (a bug in the store)", h.off, logKey(d, e))
		}
		i++
	})
	return bad
}
