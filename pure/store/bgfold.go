package store

// Background folds. A fold's cost on a file store is applying the
// overlay to the working tree (a put per key) and spilling the edited
// nodes, and the leader spent both between a sync returning and the next
// group's records being ready, holding wmu, so the device idled (probe
// 967: about 0.48 ms per fold, 14 % of the wall at 64 writers). So once
// the tip's overlay reaches the fold bound, the leader hands its overlay
// to a goroutine that applies it to a working tree of its own and spills
// that tree into a buffer of its own, as if the buffer began at fakeBase;
// commits go on laying log records over the old tree meanwhile (the
// overlay grows past the bound; at one and a half times it the leader
// waits for the background fold, and a group that would take it past
// twice the bound folds inline as before). The first leader that finds
// the background work done integrates it at the start of its group
// (experiments 112 and 119):
//
//  1. take the spilled buffer as its group's, relocated to the end of the
//     file, where it is written (relocateSpill: every offset at or above
//     fakeBase is shifted; offsets below it are the old tree's);
//  2. start the group's log record over the new tree's root;
//  3. lay into it again the tip's overlay entries newer than the fold
//     (written after the overlay was handed over), so that the version
//     this group makes holds them over the new tree;
//  4. then note its own transactions' writes as usual.
//
// Its head names that record, over the new tree: the file holds the same
// kinds of records as ever (the tree's nodes, then a log record based on
// their root, as a fold followed by a commit would write them), so
// recovery, checkpoints, compaction and Check are unchanged. The entries
// laid again keep their revisions (a log record may hold entries of any
// revision up to its head's, as compaction's does).
//
// Only files with version 4 heads fold in the background: their heads
// count the tree's keys, which the working tree knows; RAM mode, whose
// workloads are counted in one goroutine, and version 3 files fold
// inline. A compaction's swap, an inline fold and Close drop a background
// fold (waiting for its goroutine, which holds its own reference to the
// mapping it reads).

// bgFold is a fold of an overlay applied by its own goroutine.
type bgFold struct {
	done chan struct{} // closed when sc.t holds the overlay applied
	m    *mapping      // a reference of its own: sc.t reads m.data
	tree uint64        // the tree root the overlay was applied to
	end  uint64        // the file's end when handed over: entries below are in sc.t
	sc   *scratch      // its working tree and nodes, and the spill's lists
	// Written by the goroutine before done is closed: the working tree
	// spilled at fakeBase (relocated to the file's end by the leader that
	// integrates it), the new root (at or above fakeBase when spilled,
	// else an old node's offset, or 0) and its keys.
	buf   []byte
	root  uint64
	count uint64
}

// fakeBase is where a background fold's spill buffer pretends to start:
// every offset at or above it names a record of that buffer, every one
// below it a record already in the file (the fold reads only nodes and
// values below the end at its handover). Far above any file's size.
const fakeBase = 1 << 62

// bgFoldOK reports whether the store folds in the background.
func (s *Store) bgFoldOK() bool {
	return s.logOK && !s.countAll && !s.ram && !s.opts.noBgFold
}

// startBgFoldLocked hands the tip's overlay to a goroutine that applies
// it to a working tree over the tip's tree. The caller holds wmu, and no
// background fold is in flight.
func (s *Store) startBgFoldLocked() {
	ov, m := s.ov, s.m
	m.acquire()
	if s.bgScratch == nil {
		s.bgScratch = new(scratch)
	}
	b := &bgFold{done: make(chan struct{}), m: m, tree: ov.tree, end: s.end, sc: s.bgScratch, buf: s.bgBuf[:0]}
	s.bgBuf = nil
	nodeSize := s.nodeSize
	d, count := m.data, ov.treeCount
	s.bg = b
	s.bgFolds.Add(1)
	hook := s.testHookBgFold
	go func() {
		defer close(b.done)
		if hook != nil {
			hook()
		}
		t := &b.sc.t
		*t = wtree{d: d, rootOff: b.tree, count: count, nodes: &b.sc.nodes}
		ov.all(func(e uint64) {
			if k := logKey(d, e); logDeleted(d, e) {
				t.del(k)
			} else {
				t.put(k, leafVal(d, e), leafRev(d, e))
			}
		})
		// Spill it too, at fakeBase: the leader that integrates it only
		// relocates the buffer to the file's end (relocateSpill).
		sp := spiller{t: t, buf: b.buf, base: fakeBase, nodeSize: nodeSize, sc: b.sc}
		b.root = sp.spillRoot()
		b.buf, b.count = sp.buf, t.count
	}()
}

// bgFoldDue reports whether the leader should take the background fold
// now: it is done, or the overlay has grown half the bound past it (or
// to half foldBytes), where the leader waits for it, so that a group
// rarely passes twice the bound and folds inline.
func (s *Store) bgFoldDue() bool {
	b := s.bg
	if b == nil {
		return false
	}
	select {
	case <-b.done:
		return true
	default:
	}
	return s.ov != nil && (2*s.ov.n >= 3*s.foldAt || s.ov.bytes >= foldBytes/2)
}

// integrated is what integrateBgFoldLocked laid into a group's buffer.
type integrated struct {
	ok       bool
	root     uint64 // the new tree's root
	count    uint64 // its keys
	recStart int    // where the group's log records start in the buffer
}

// integrateBgFoldLocked waits for the background fold, takes its spilled
// tree as the group's buffer (relocated to s.end, where it is written;
// buf is kept for the next background fold), starts a log record over its root
// and lays into it the entries of the tip's overlay newer than the fold,
// noting each in lv. It returns the buffer, the start of its last log
// record, and what it laid. The caller holds wmu, at the start of a
// group, with lv reset over the tip.
func (s *Store) integrateBgFoldLocked(buf []byte, lv *logView) ([]byte, int, integrated) {
	b := s.bg
	s.bg = nil
	<-b.done
	defer s.releaseBgFold(b)
	if b.tree != treeRoot(s.tip.root, s.ov) || s.ov == nil {
		// The tree changed under it (a bug: an inline fold or a swap
		// drops it first); fold inline instead.
		return buf, 0, integrated{}
	}
	// The tree was spilled by the goroutine at fakeBase: move it to the
	// end of the file, where this group's buffer goes; the leader's own
	// buffer is kept for the next background fold.
	// s.buf changes now, not when the group ends: a group that writes
	// nothing (all its transactions refused) returns before setting it,
	// and must not leave it sharing memory with the next fold's buffer.
	s.bgBuf, buf = buf[:0], b.buf
	s.buf, b.buf = buf, nil
	relocateSpill(buf, s.end)
	root := b.root
	if root >= fakeBase {
		root = root - fakeBase + s.end
	}
	in := integrated{ok: true, root: root, count: b.count, recStart: len(buf)}
	buf = startLogRecord(buf, root)
	d := s.m.data
	recStart := in.recStart
	s.ov.all(func(e uint64) {
		if e < b.end {
			return // in the new tree
		}
		k, del := logKey(d, e), logDeleted(d, e)
		var val []byte
		if !del {
			val = leafVal(d, e)
		}
		if n := leafEntFixed + len(k) + len(val); len(buf)-recStart+n > maxLogRecord && len(buf)-recStart > logHdrSize {
			endLogRecord(buf, recStart)
			prev := s.end + uint64(recStart)
			recStart = len(buf)
			buf = startLogRecord(buf, prev)
		}
		rev := leafRev(d, e)
		lv.note(pending{key: k, off: s.end + uint64(len(buf)), rev: rev, del: del})
		buf = appendLogEntry(buf, k, val, rev, del)
		s.bgRelaid.Add(1)
	})
	s.bgIntegrated.Add(1)
	return buf, recStart, in
}

// releaseBgFold gives back a finished background fold's memory and
// mapping reference.
func (s *Store) releaseBgFold(b *bgFold) {
	b.sc.t = wtree{}
	b.sc.reset()
	b.m.release()
}

// dropBgFoldLocked abandons the background fold, if any, waiting for its
// goroutine. The caller holds wmu.
func (s *Store) dropBgFoldLocked() {
	if b := s.bg; b != nil {
		s.bg = nil
		<-b.done
		if s.bgBuf == nil {
			s.bgBuf = b.buf[:0]
		}
		s.releaseBgFold(b)
	}
}

// relocateSpill moves a spill buffer written at fakeBase to file offset
// base: every branch child and out-of-line value offset at or above
// fakeBase names a record of buf and is shifted; offsets below it name
// records already in the file and stay. The buffer holds records back to
// back (values and nodes, each with its length in its header).
func relocateSpill(buf []byte, base uint64) {
	for p := uint64(0); p < uint64(len(buf)); {
		kind, n, l := nodeKind(buf, p), nodeCount(buf, p), nodeLen(buf, p)
		switch kind {
		case kindLeaf:
			for i := range n {
				e := entAt(buf, p, i)
				if buf[e+14]&leafFlagOutline != 0 {
					if v := le.Uint64(buf[e+16:]); v >= fakeBase {
						le.PutUint64(buf[e+16:], v-fakeBase+base)
					}
				}
			}
		case kindBranch:
			for i := range n {
				e := entAt(buf, p, i)
				if c := branchChild(buf, e); c >= fakeBase {
					le.PutUint64(buf[e:], c-fakeBase+base)
				}
			}
		}
		if l == 0 {
			panic("store: a spilled record of length 0")
		}
		p += l
	}
}
